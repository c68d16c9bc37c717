# ruff: noqa: E501
"""The seventh held-out canary set: value shapes and templates written without reading the
library's recognizers (nothing under ``langgraph_compact/``) or any other generator's
templates (``heldout.py`` to ``heldout_f.py``). Read to write it: ``_plant.py`` (the
planting machinery and table format), the head of ``canaries.py`` (the kinds and what
they mean), ``_generators.py``, ``tests/test_generators.py`` and a few corpus
trajectories (to see what the conversations look like).

Its vocabulary was chosen away from data engineering, mobile, finance, ops, identity,
retail and travel: healthcare (FHIR references, NDC codes, doses), games (build tags,
asset GUIDs, shaders), science and HPC (SLURM jobs, conda envs, DOIs, sequence
accessions, GPU UUIDs), embedded devices (MAC addresses, firmware versions, I2C devices,
serial ports, radio channels), law (case numbers, statute citations), teaching, shipping
(container and IMO numbers), networking (CIDRs, IPv6, ASNs), cloud resource ids, and
people's names in non-Latin scripts. Tool rows imitate real command output (YAML, SQL
clients, ``kubectl describe``, stack traces, test runners, HTTP responses, ``dmesg``,
``nvidia-smi``, ``docker ps``).

Once it has been read to tune the library, it is no longer held out. Its overall figures
were used to choose between versions of the reader of tool output, and ten of its stale
lines were read while mending a regression, so it no longer measures wording nobody tuned
against; ``heldout_h.py`` does.
"""

from __future__ import annotations

import ipaddress
import random
import string

from _plant import generator

__all__ = ["plant"]

_HEX = "0123456789abcdef"


def _hex(r: random.Random, n: int) -> str:
    return "".join(r.choice(_HEX) for _ in range(n))


def _digits(r: random.Random, n: int) -> str:
    return str(r.randint(1, 9)) + "".join(r.choice(string.digits) for _ in range(n - 1))


def _uuid(r: random.Random) -> str:
    return f"{_hex(r, 8)}-{_hex(r, 4)}-{_hex(r, 4)}-{_hex(r, 4)}-{_hex(r, 12)}"


# healthcare


def _fhir_ref(r: random.Random) -> str:
    kind = r.choice(
        ["Patient", "Encounter", "Observation", "MedicationRequest", "DiagnosticReport",
         "ServiceRequest", "Condition", "Specimen", "ImagingStudy"]
    )  # fmt: skip
    ident = _uuid(r) if r.random() < 0.5 else str(r.randint(100_000, 99_999_999))
    return f"{kind}/{ident}"


def _ndc(r: random.Random) -> str:
    a, b, c = r.choice([(4, 4, 2), (5, 3, 2), (5, 4, 1), (5, 4, 2)])
    parts = ["".join(r.choice(string.digits) for _ in range(n)) for n in (a, b, c)]
    return "-".join(parts)


def _dose(r: random.Random) -> str:
    amount = r.choice(
        [f"{r.randint(1, 80) * 0.5:g}", f"{r.randint(1, 99) / 100:g}", str(r.randint(2, 60) * 25)]
    )
    unit = r.choice(
        ["mg/kg", "mcg/kg/min", "mL/h", "units/kg/h", "mg/m²", "mmol/L", "mg q8h", "mg q12h"]
    )
    return f"{amount} {unit}"


# games


def _build_tag(r: random.Random) -> str:
    branch = r.choice(["rel", "cert", "hotfix", "playtest", "main", "submission"])
    config = r.choice(["shipping", "test", "development"])
    return f"{branch}-{r.randint(0, 2)}.{r.randint(1, 40)}.{r.randint(10_000, 99_999)}-{config}"


def _asset_guid(r: random.Random) -> str:
    return _hex(r, 32)


def _shader(r: random.Random) -> str:
    root = r.choice(
        ["Custom", "Studio/Env", "Studio/Characters", "FX", "Hidden/Studio", "Mobile/Studio"]
    )
    name = r.choice(
        ["WaterCaustics", "FoliageWind", "TerrainSplat", "HairAniso", "SkinSSS", "Dissolve",
         "Hologram", "SnowAccumulation", "Triplanar Rock", "CloudShadow", "Glass Refraction", "Lava"]
    )  # fmt: skip
    return f"{root}/{name}{r.choice(['', '_Lit', '_Unlit', '_Transparent'])}_v{r.randint(2, 24)}"


# science / HPC


def _slurm_job(r: random.Random) -> str:
    job = r.randint(10_000_000, 69_999_999)
    return f"{job}_{r.randint(0, 255)}" if r.random() < 0.4 else str(job)


def _conda_env(r: random.Random) -> str:
    base = r.choice(
        ["scanpy", "rnaseq", "cryosparc-tools", "gromacs", "alphafold", "mdanalysis", "qiime2",
         "deeplabcut", "nnunet", "cellpose", "openmm", "climada", "astropy-dev", "suite2p"]
    )  # fmt: skip
    py = r.choice(["39", "310", "311", "312"])
    accel = r.choice(["cu118", "cu121", "cu124", "cpu", "rocm6"])
    tail = r.choice(["", "", f"-{r.randint(2, 9)}", "-dev", "-pinned", "-exp"])
    return f"{base}-py{py}-{accel}{tail}"


def _doi(r: random.Random) -> str:
    yy = r.randint(19, 24)
    form = r.randrange(4)
    if form == 0:
        return f"10.1101/20{yy}.{r.randint(1, 12):02d}.{r.randint(1, 28):02d}.{r.randint(400_000, 599_999)}"
    if form == 1:
        journal = r.choice(["41586", "41467", "41592", "41587", "41591"])
        return f"10.1038/s{journal}-0{yy}-{r.randint(0, 99_999):05d}-{r.randint(0, 9)}"
    if form == 2:
        return f"10.5281/zenodo.{r.randint(1_000_000, 12_999_999)}"
    journal = r.choice(["jctc", "jpcb", "jcim", "jmedchem", "jproteome"])
    return f"10.1021/acs.{journal}.{yy % 10}c{r.randint(0, 1999):05d}"


def _accession(r: random.Random) -> str:
    form = r.randrange(4)
    if form == 0:
        body = "".join(r.choice(string.digits) for _ in range(6))
        body = body if r.random() < 0.5 else "00" + body + r.choice(string.digits)
        return f"{r.choice(['NM', 'XM', 'NR', 'NP', 'XP'])}_{body}.{r.randint(1, 5)}"
    if form == 1:
        return f"{r.choice(['GCF', 'GCA'])}_{r.randint(0, 49_999_999):09d}.{r.randint(1, 3)}"
    if form == 2:
        return f"{r.choice(['SRR', 'ERR', 'DRR'])}{r.randint(10_000_000, 29_999_999)}"
    return f"{r.choice(['PRJNA', 'PRJEB'])}{r.randint(500_000, 1_099_999)}"


def _gpu_uuid(r: random.Random) -> str:
    return f"GPU-{_uuid(r)}"


# embedded / IoT


def _mac(r: random.Random) -> str:
    oui = r.choice(["24:0a:c4", "3c:71:bf", "b8:27:eb", "dc:a6:32", "e4:5f:01", "a4:cf:12",
                    "00:0d:b9", "f4:12:fa", "70:b3:d5", "d8:3a:dd"])  # fmt: skip
    return oui + "".join(f":{r.randint(0, 255):02x}" for _ in range(3))


def _firmware(r: random.Random) -> str:
    tail = r.choice(["", f"-rc{r.randint(1, 9)}", f"-beta.{r.randint(1, 12)}", f"+{_hex(r, 7)}"])
    return f"fw-{r.randint(1, 6)}.{r.randint(0, 24)}.{r.randint(0, 40)}{tail}"


def _i2c_dev(r: random.Random) -> str:
    return f"/sys/bus/i2c/devices/{r.randint(0, 9)}-{r.randint(0x08, 0x77):04x}"


def _serial_dev(r: random.Random) -> str:
    form = r.randrange(4)
    if form == 0:
        alnum = string.ascii_uppercase + string.digits
        ident = "FTDI_FT232R_USB_UART_" + "".join(r.choice(alnum) for _ in range(8))
    elif form == 1:
        ident = "Silicon_Labs_CP2102N_USB_to_UART_Bridge_Controller_" + _hex(r, 32)
    elif form == 2:
        ident = f"SEGGER_J-Link_{r.randint(0, 999_999_999):012d}"
    else:
        ident = "Espressif_USB_JTAG_serial_debug_unit_" + ":".join(
            _hex(r, 2).upper() for _ in range(6)
        )
    return f"/dev/serial/by-id/usb-{ident}-if0{r.randint(0, 2)}"


def _freq(r: random.Random) -> str:
    lo, hi = r.choice([(433.05, 434.79), (863.0, 870.0), (902.0, 928.0), (2402.0, 2480.0)])
    return f"{r.uniform(lo, hi):.3f} MHz"


# law / education


def _case_no(r: random.Random) -> str:
    if r.random() < 0.6:
        judge = "".join(r.choice(string.ascii_uppercase) for _ in range(3))
        kind = r.choice(["cv", "cr", "bk", "mc"])
        return f"{r.randint(1, 4)}:{r.randint(18, 24)}-{kind}-{r.randint(100, 12_000):05d}-{judge}"
    return f"{r.choice(['CV', 'CR', 'FC', 'PR', 'SC'])}-{r.randint(2018, 2024)}-{r.randint(1, 99_999):06d}"


def _statute(r: random.Random) -> str:
    sub = r.choice(
        ["", f"({r.choice('abcdefgh')})", f"({r.choice('abcdefgh')})({r.randint(1, 9)})"]
    )
    form = r.randrange(3)
    if form == 0:
        return f"{r.randint(1, 50)} U.S.C. § {r.randint(101, 9999)}{sub}"
    if form == 1:
        return f"{r.randint(1, 50)} C.F.R. § {r.randint(1, 999)}.{r.randint(1, 999)}{sub}"
    code = r.choice(["Civ.", "Penal", "Lab.", "Health & Safety", "Bus. & Prof.", "Evid."])
    return f"Cal. {code} Code § {r.randint(100, 99_999)}{sub}"


def _course(r: random.Random) -> str:
    dept = r.choice(
        [
            "CHEM",
            "PHYS",
            "BIOL",
            "MATH",
            "STAT",
            "HIST",
            "PSYC",
            "ECON",
            "LING",
            "NURS",
            "EDUC",
            "GEOG",
        ]
    )
    return f"{dept} {r.randint(1000, 4999)}-{r.randint(1, 14):03d}"


# logistics


def _iso6346(code: str) -> int:
    values, n = {}, 10
    for ch in string.ascii_uppercase:
        if n % 11 == 0:
            n += 1
        values[ch] = n
        n += 1
    values.update({d: int(d) for d in string.digits})
    return sum(values[ch] * 2**i for i, ch in enumerate(code)) % 11 % 10


def _container_no(r: random.Random) -> str:
    owner = r.choice(
        [
            "MSCU",
            "MAEU",
            "MRKU",
            "CMAU",
            "HLBU",
            "HLXU",
            "OOLU",
            "TGHU",
            "CSNU",
            "TCLU",
            "SEGU",
            "ONEU",
            "EMCU",
            "YMLU",
        ]
    )
    code = f"{owner}{r.randint(0, 999_999):06d}"
    return f"{code}{_iso6346(code)}"


def _imo(r: random.Random) -> str:
    six = f"{r.randint(900_000, 999_999) if r.random() < 0.8 else r.randint(800_000, 899_999)}"
    check = sum(int(d) * w for d, w in zip(six, range(7, 1, -1), strict=True)) % 10
    return f"IMO {six}{check}"


# networking / cloud


def _cidr(r: random.Random) -> str:
    base = ipaddress.ip_network(r.choice(["10.0.0.0/8", "172.16.0.0/12", "100.64.0.0/10"]))
    addr = int(base.network_address) + r.randrange(base.num_addresses)
    return str(ipaddress.ip_network((addr, r.randint(18, 27)), strict=False))


def _ipv6(r: random.Random) -> str:
    if r.random() < 0.5:
        high = ["2001", "db8", f"{r.randint(1, 0xFFFF):x}", f"{r.randint(0, 0xFF):x}"]
    else:
        high = [f"fd{_hex(r, 2)}", _hex(r, 4), _hex(r, 4), f"{r.randint(0, 0xFF):x}"]
    if r.random() < 0.5:
        low = ["0", "0", "0", f"{r.randint(2, 0xFFF):x}"]
    else:
        low = [_hex(r, 4) for _ in range(4)]
    return ipaddress.IPv6Address(":".join(high + low)).compressed


def _asn(r: random.Random) -> str:
    if r.random() < 0.5:
        return f"AS{r.randint(64_512, 65_534)}"
    return f"AS{r.randint(4_200_000_000, 4_294_967_294)}"


_REGIONS = [
    "eu-west-1",
    "us-east-1",
    "eu-central-1",
    "ap-southeast-2",
    "us-west-2",
    "ca-central-1",
    "eu-north-1",
]
_SERVICES = [
    "triage",
    "hl7-ingest",
    "dicom-router",
    "asr-notes",
    "matchmaking",
    "telemetry",
    "variant-calls",
    "lims-sync",
]


def _arn(r: random.Random) -> str:
    region, acct = r.choice(_REGIONS), _digits(r, 12)
    name = f"{r.choice(_SERVICES)}-{r.choice(['prod', 'staging', 'v3', 'blue', 'green', 'eu'])}"
    form = r.randrange(5)
    if form == 0:
        return f"arn:aws:sagemaker:{region}:{acct}:endpoint/{name}"
    if form == 1:
        return f"arn:aws:healthlake:{region}:{acct}:datastore/fhir/{_hex(r, 32)}"
    if form == 2:
        return f"arn:aws:s3:::{name}-{_hex(r, 6)}"
    if form == 3:
        return f"arn:aws:lambda:{region}:{acct}:function:{name}"
    return f"arn:aws:sqs:{region}:{acct}:{name}-{r.choice(['dlq', 'events', 'jobs'])}"


def _role_arn(r: random.Random) -> str:
    prefix = r.choice(["eks", "irsa", "svc", "k8s"])
    role = r.choice(["reader", "inference", "writer", "ingest", "exporter"])
    return f"arn:aws:iam::{_digits(r, 12)}:role/{prefix}-{r.choice(_SERVICES)}-{role}"


def _azure_id(r: random.Random) -> str:
    group = f"rg-{r.choice(['radiology', 'genomics', 'pacs', 'lis', 'telehealth', 'biobank'])}-{r.choice(['weu', 'neu', 'eus2', 'sea', 'uks'])}"
    n = r.randint(1, 999)
    provider = r.choice(
        [f"Microsoft.Storage/storageAccounts/st{r.choice(['dicom', 'fastq', 'archive', 'pacs'])}{n:03d}",
         f"Microsoft.HealthcareApis/workspaces/hw{r.choice(['clin', 'res'])}{n}/fhirservices/fhir-{r.choice(['prod', 'test'])}",
         f"Microsoft.Sql/servers/sql-{r.choice(['lis', 'emr', 'registry'])}-{n:02d}/databases/{r.choice(['results', 'orders', 'audit'])}",
         f"Microsoft.Compute/virtualMachines/vm-{r.choice(['pacs', 'gpu', 'ris'])}-{n:02d}"]
    )  # fmt: skip
    return f"/subscriptions/{_uuid(r)}/resourceGroups/{group}/providers/{provider}"


def _gcs_uri(r: random.Random) -> str:
    bucket = f"{r.choice(['cryoem-raw', 'lab-sequencing', 'clim-sim-output', 'neuro-ephys', 'astro-survey', 'histo-slides'])}-{_hex(r, 4)}"
    unit = r.choice(["run", "grid", "batch", "plate", "session", "tile"])
    leaf = r.choice(["", "movies/", "raw/", "fastq/", "frames/"])
    return f"gs://{bucket}/{r.randint(2021, 2024)}/{unit}{r.randint(1, 99):02d}/{leaf}"


def _src_path(r: random.Random) -> str:
    folder, stems, parts, ext = r.choice(
        [("firmware/drivers/sensor", ["bme680", "sht4x", "lis3dh", "ina219", "vl53l1x", "mcp9808"], ["calib", "irq", "pm", "trigger", "bus"], "c"),
         ("Assets/Shaders/Env", ["Water", "Foliage", "Terrain", "Snow", "Cloud", "Rock"], ["Caustics", "Wind", "Splat", "Blend", "Parallax"], "shader"),
         ("pipelines/rnaseq/modules", ["star", "salmon", "fastp", "multiqc", "deseq2", "umi_tools"], ["align", "quant", "trim", "report", "dedup"], "nf"),
         ("services/hl7-router/src/handlers", ["adt", "orm", "oru", "mdm", "siu", "dft"], ["a08", "parser", "ack", "mapper", "retry"], "ts"),
         ("court_forms/templates", ["motion", "subpoena", "affidavit", "notice", "stipulation"], ["extension", "service", "appearance", "hearing"], "docx.j2"),
         ("sim/jobs", ["gromacs", "lammps", "cp2k", "openfoam", "quantum_espresso"], ["array", "restart", "prod", "equil", "scan"], "sbatch")]
    )  # fmt: skip
    tail = r.choice(["", "", "_v2", "_legacy", "_new", "_old"])
    return f"{folder}/{r.choice(stems)}_{r.choice(parts)}{tail}.{ext}"


# people (names in non-Latin scripts) and references with @ and #


def _person(r: random.Random) -> str:
    script = r.randrange(6)
    if script == 0:  # Korean
        family = r.choice(["김", "이", "박", "최", "정", "강", "조", "윤", "장", "임", "한", "오"])
        given = r.choice(
            [
                "서연",
                "민준",
                "지우",
                "하은",
                "도윤",
                "예린",
                "시우",
                "수아",
                "지호",
                "유나",
                "현우",
                "채원",
            ]
        )
        return family + given
    if script == 1:  # Devanagari
        given = r.choice(
            ["अनिका", "राहुल", "प्रिया", "अर्जुन", "कविता", "विवेक", "सुनीता", "आदित्य", "नेहा", "रोहन"]
        )
        family = r.choice(["शर्मा", "वर्मा", "गुप्ता", "जोशी", "पटेल", "मिश्रा", "कुलकर्णी", "सिंह"])
        return f"{given} {family}"
    if script == 2:  # Cyrillic
        if r.random() < 0.5:
            given = r.choice(["Дмитрий", "Олег", "Игорь", "Сергей", "Алексей", "Павел", "Михаил"])
            family = r.choice(
                ["Волков", "Соколов", "Морозов", "Лебедев", "Козлов", "Новиков", "Орлов"]
            )
        else:
            given = r.choice(
                ["Анастасия", "Екатерина", "Наталья", "Юлия", "Ирина", "Ольга", "Дарья"]
            )
            family = r.choice(
                ["Волкова", "Соколова", "Морозова", "Лебедева", "Козлова", "Новикова", "Орлова"]
            )
        return f"{given} {family}"
    if script == 3:  # Greek
        if r.random() < 0.5:
            given = r.choice(["Γιώργος", "Νίκος", "Δημήτρης", "Κώστας", "Γιάννης", "Σπύρος"])
            family = r.choice(
                ["Παπαδόπουλος", "Οικονόμου", "Γεωργίου", "Νικολάου", "Καραγιάννης", "Βλάχος"]
            )
        else:
            given = r.choice(["Ελένη", "Μαρία", "Κατερίνα", "Σοφία", "Δέσποινα", "Αθηνά"])
            family = r.choice(
                ["Παπαδοπούλου", "Οικονόμου", "Γεωργίου", "Νικολάου", "Καραγιάννη", "Βλάχου"]
            )
        return f"{given} {family}"
    if script == 4:  # Tamil
        given = r.choice(["கார்த்திக்", "மீனா", "அருண்", "பிரியா", "செந்தில்", "கவிதா", "விஜய்", "லட்சுமி"])
        family = r.choice(["ராஜா", "சுப்பிரமணியம்", "கிருஷ்ணன்", "முருகன்", "வேலு", "சந்திரன்"])
        return f"{given} {family}"
    given = r.choice(["ليلى", "عمر", "يوسف", "فاطمة", "خالد", "نور", "سلمى", "طارق"])  # Arabic
    family = r.choice(["حداد", "الخطيب", "منصور", "العلي", "الشامي", "نصار", "عيسى"])
    return f"{given} {family}"


def _git_remote(r: random.Random) -> str:
    host = r.choice(
        [
            "gitlab.cern.ch",
            "git.physik.uni-example.de",
            "gitlab.hospital-it.example",
            "bitbucket.org",
            "code.studio-internal.example",
        ]
    )
    group = r.choice(
        ["cryoem", "atlas-tdaq", "radiology-ai", "fw-team", "ephys", "game-tools", "lims"]
    )
    repo = r.choice(
        [
            "motioncor-wrapper",
            "sensor-hub-fw",
            "dicom-anon",
            "ephys-sorter",
            "asset-cooker",
            "shader-lint",
            "gateway-fw",
            "lims-sync",
        ]
    )
    return f"git@{host}:{group}/{repo}{r.choice(['', '', '-legacy', '-ng', f'-{r.randint(2, 9)}'])}.git"


def _issue_ref(r: random.Random) -> str:
    repo = r.choice(
        ["bioconda/bioconda-recipes", "zephyrproject-rtos/zephyr", "godotengine/godot", "openmm/openmm",
         "conda-forge/staged-recipes", "hapifhir/hapi-fhir", "espressif/esp-idf", "SchedMD/slurm",
         "freelawproject/courtlistener", "nf-core/modules"]
    )  # fmt: skip
    return f"{repo}#{r.randint(1000, 99_999)}"


_VALUES = {
    "fhir_ref": _fhir_ref,
    "ndc": _ndc,
    "dose": _dose,
    "build_tag": _build_tag,
    "asset_guid": _asset_guid,
    "shader": _shader,
    "slurm_job": _slurm_job,
    "conda_env": _conda_env,
    "doi": _doi,
    "accession": _accession,
    "gpu_uuid": _gpu_uuid,
    "mac": _mac,
    "firmware": _firmware,
    "i2c_dev": _i2c_dev,
    "serial_dev": _serial_dev,
    "freq": _freq,
    "case_no": _case_no,
    "statute": _statute,
    "course": _course,
    "container_no": _container_no,
    "imo": _imo,
    "cidr": _cidr,
    "ipv6": _ipv6,
    "asn": _asn,
    "arn": _arn,
    "role_arn": _role_arn,
    "azure_id": _azure_id,
    "gcs_uri": _gcs_uri,
    "src_path": _src_path,
    "person": _person,
    "git_remote": _git_remote,
    "issue_ref": _issue_ref,
}

_TABLE = r"""
constraint conda_env | `{v}` is the env for everything in this repo. Don't create new conda envs and don't pip install into base, the cluster admins wipe anything else on Fridays.
constraint cidr | Hard requirement from the network team: the collector may only listen on addresses inside {v}. Anything outside that range is dropped by the ACL anyway, so please don't "fix" it by widening the bind.
constraint firmware | keep every board on {v}. no OTA bumps, the certification lab signed off on that exact build and nothing else
constraint statute | Hi,\n\nOne requirement before you go further: every export this script produces must comply with {v}. Counsel was explicit that no field beyond the minimum necessary may leave the system.\n\nKind regards,\nMarta
constraint person | Ground rules for this change:\n- nothing gets merged without sign-off from {v}\n- the public API stays as it is\n- CI has to be green, "passes locally" doesn't count
constraint ndc | [voice memo, auto-transcribed] okay so, um, the formulary filter, it must never show {v}. Like, that package is just excluded, full stop, pharmacy was super clear on that one.
constraint asn | The route-map on that session has to accept prefixes originated by {v} and nothing else (no transit, no default route). Keep it that strict.
safety gcs_uri | DO NOT delete, move or overwrite anything under {v}. It's the only copy of the raw microscope movies; treat that path as read-only.
safety slurm_job | heads up: {v} is somebody else's 6-day run on the shared gpu partition. don't scancel it and don't touch its scratch dir, even if it looks hung.
safety arn | SEC-2291 (blocking): `{v}` is production and serves live clinical traffic. Under no circumstances modify, redeploy or delete it from this session.
safety mac | Be careful with the controller whose MAC is {v} (the one in greenhouse bay 4). Never flash it and never power-cycle it remotely, it drives the irrigation valves.
safety container_no | Container {v} is under a customs hold. Do not release it, change its status or move its yard slot in the system; that's a legal problem if it happens.
safety azure_id | Pasting this from our runbook so you have it:\n```\n# DANGER: never run `az resource delete` (or anything with --yes) against\n#   {v}\n# it holds the PACS archive and soft-delete is OFF\n```
safety fhir_ref | please don't write anything to {v}, it's a real patient's record that got copied into staging by mistake. read only.
preference shader | If you need a fallback, I'd prefer "{v}" over the built-in Standard shader; it batches much better on the Switch build.
preference person | When you write up the PR, could you add {v} as reviewer? They know that module better than anyone. Not a blocker if you can't.
preference doi | For the methods section I'd rather cite the preprint ({v}) than the journal version, the supplementary tables are more complete there.
preference freq | small thing, but I'd like the default channel to be {v} when nobody overrides it. it's quieter in our lab
preference build_tag | nice-to-have: reproduce on **{v}** if you can. The nightlies are too noisy to bisect on.
preference course | Re the grading script: my preference would be to try it on {v} first since it's the smallest section. But do whatever is easiest.
preference git_remote | i'd rather you push the branch to {v} than to github, the mirror picks it up within the hour anyway
tool_fact gpu_uuid | $ nvidia-smi --query-gpu=index,name,uuid,memory.used,utilization.gpu --format=csv\nindex, name, uuid, memory.used [MiB], utilization.gpu [%]\n0, NVIDIA A100-SXM4-80GB, GPU-5d0a7c3e-18b2-9f4e-a7c1-3b6e0f2d9a84, 78112 MiB, 100 %\n1, NVIDIA A100-SXM4-80GB, {v}, 4 MiB, 0 %\n2, NVIDIA A100-SXM4-80GB, GPU-c19e44a0-7d3b-2e8f-b605-94f1a2d7e3c0, 77980 MiB, 98 %
tool_fact role_arn | $ kubectl describe serviceaccount triage-inference -n radiology\nName:                triage-inference\nNamespace:           radiology\nLabels:              app.kubernetes.io/managed-by=Helm\n                     app.kubernetes.io/part-of=triage\nAnnotations:         eks.amazonaws.com/role-arn: {v}\n                     meta.helm.sh/release-name: triage\nImage pull secrets:  <none>\nMountable secrets:   <none>\nTokens:              <none>\nEvents:              <none>
tool_fact ndc | $ psql -h db.formulary.internal -U readonly formulary -c "select ndc, drug_name, pkg from products where drug_name ilike 'heparin%' order by drug_name limit 3;"\n      ndc      |           drug_name            |       pkg\n---------------+--------------------------------+-----------------\n 0409-2720-31  | Heparin Sodium 1,000 units/mL  | 25 x 10 mL vial\n {v} | Heparin Sodium 5,000 units/mL  | 25 x 1 mL vial\n 63323-0540-11 | Heparin Sodium 10,000 units/mL | 25 x 1 mL vial\n(3 rows)
tool_fact container_no | $ yardctl containers get --booking BKG4471920 -o yaml\nbooking: BKG4471920\nvessel:\n  name: MSC AURORA\n  voyage: 419W\ncontainers:\n  - number: {v}\n    iso_type: 45G1\n    status: DISCHARGED\n    location: {{block: C7, row: 12, tier: 3}}\n    last_event: "2024-05-14T06:12:00Z"
tool_fact slurm_job | $ sacct -u mkhan --starttime today --format=JobID%16,JobName%18,Partition,State,Elapsed\n           JobID            JobName  Partition      State    Elapsed\n---------------- ------------------ ---------- ---------- ----------\n        48102217      prep_topology        cpu  COMPLETED   00:03:41\n{v}    gromacs_md_prod        gpu    RUNNING   05:12:44\n{v}.batch              batch               RUNNING   05:12:44\n{v}.0                gmx_mpi               RUNNING   05:12:40
tool_fact case_no | $ mysql -h courts-db -u clerk_ro -p docket -e "SELECT case_no, filed_on, nature, status FROM cases WHERE party_id = 88213;"\nEnter password: \n+--------------------+------------+------------------+--------+\n| case_no            | filed_on   | nature           | status |\n+--------------------+------------+------------------+--------+\n| {v} | 2023-11-02 | 440 Civil Rights | OPEN   |\n+--------------------+------------+------------------+--------+\n1 row in set (0.01 sec)
tool_fact build_tag | $ docker ps --format 'table {{.ID}}\t{{.Image}}\t{{.Status}}\t{{.Names}}'\nCONTAINER ID   IMAGE                                                         STATUS        NAMES\n3f9c2a71be04   registry.studio.example/dedicated-server:{v}   Up 3 hours    ds-eu-1\n8a12e0c4d9f1   redis:7.2-alpine                                              Up 3 days     session-cache\n0be7f3d2a6c5   registry.studio.example/matchmaker:main-0.9.31877-test        Up 3 hours    matchmaker
tool_error firmware | $ cargo run --release -p flasher -- --port /dev/ttyACM0 target/thumbv7em-none-eabihf/release/sensor-hub.bin\n    Finished `release` profile [optimized] target(s) in 0.18s\n     Running `target/release/flasher --port /dev/ttyACM0 target/thumbv7em-none-eabihf/release/sensor-hub.bin`\nconnected: bootloader 2.1.0, board rev C\n\nthread 'main' panicked at src/dfu.rs:214:13:\ndowngrade refused: device runs {v}, image anti-rollback counter 5 < 7\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
tool_error asset_guid | $ Unity -batchmode -quit -projectPath . -executeMethod Studio.Build.CI.BuildPlayer -logFile -\nRefreshing native plugins compatible for Editor in 12.41 ms, found 3 plugins.\nBuilding Addressables content...\nNullReferenceException: Object reference not set to an instance of an object\n  at Studio.Build.AddressableValidator.CheckEntry (UnityEditor.AddressableAssets.Settings.AddressableAssetEntry entry) [0x0001c] in /builds/game/Assets/Editor/Build/AddressableValidator.cs:88 \n  at Studio.Build.AddressableValidator.Run () [0x00047] in /builds/game/Assets/Editor/Build/AddressableValidator.cs:41 \n  at Studio.Build.CI.BuildPlayer () [0x00012] in /builds/game/Assets/Editor/Build/CI.cs:23 \nError: missing asset for guid {v} (referenced by Assets/Prefabs/Env/Dock_Crane.prefab)\nBuild Finished, Result: Failure.\nExiting batchmode with code 1
tool_error statute | $ bundle exec rails runner 'Citations::Backfill.new(batch: 44).call'\n/app/lib/citations/parser.rb:112:in `parse!': unrecognized statute citation "{v}" (Citations::ParseError)\n        from /app/lib/citations/backfill.rb:57:in `block in call'\n        from /usr/local/bundle/gems/activerecord-7.1.3/lib/active_record/relation/batches.rb:71:in `each'\n        from /app/lib/citations/backfill.rb:49:in `call'\n        from (rails runner):1:in `<main>'
tool_error accession | $ python -m pytest tests/test_fetch.py -x -q\nF\n=================================== FAILURES ===================================\n_________________________ test_fetch_reference_record __________________________\n\n    def test_fetch_reference_record():\n>       rec = fetch_record("{v}", db="nuccore", rettype="gb")\n\ntests/test_fetch.py:14: \n_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _\nsrc/seqtools/entrez.py:88: in fetch_record\n    resp.raise_for_status()\nE   requests.exceptions.HTTPError: 400 Client Error: Bad Request for url: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/efetch.fcgi?db=nuccore&id={v}&rettype=gb\n=========================== short test summary info ============================\nFAILED tests/test_fetch.py::test_fetch_reference_record - requests.exceptions.HTTPError: 400 Client Error: Bad Request for url: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/efetch.fcgi?db=nuc...\n1 failed in 2.31s
tool_error fhir_ref | $ npx jest src/fhir --silent\nFAIL src/fhir/__tests__/resolve.test.ts\n  ● resolveSubject › follows the subject reference of an Observation\n\n    FhirResolveError: 404 Not Found while resolving {v}\n\n      39 |   const res = await client.read(ref);\n      40 |   if (!res.ok) {{\n    > 41 |     throw new FhirResolveError(`${{res.status}} ${{res.statusText}} while resolving ${{ref}}`);\n         |           ^\n      42 |   }}\n\n      at resolveSubject (src/fhir/resolve.ts:41:11)\n      at Object.<anonymous> (src/fhir/__tests__/resolve.test.ts:18:20)\n\nTest Suites: 1 failed, 1 total\nTests:       1 failed, 6 passed, 7 total\nTime:        3.402 s
tool_error ipv6 | $ dmesg --ctime | tail -n 5\n[Tue May 14 09:41:02 2024] r8169 0000:03:00.0 eth0: Link is Up - 1Gbps/Full - flow control rx/tx\n[Tue May 14 09:41:02 2024] IPv6: ADDRCONF(NETDEV_CHANGE): eth0: link becomes ready\n[Tue May 14 09:41:04 2024] IPv6: eth0: IPv6 duplicate address {v} used by 24:0a:c4:1f:8e:52 detected!\n[Tue May 14 09:41:09 2024] br0: port 2(veth3a1c) entered blocking state\n[Tue May 14 09:41:09 2024] br0: port 2(veth3a1c) entered disabled state
tool_error arn | $ curl -si -X POST https://gw.internal.example/v1/models/triage:invoke -H "Authorization: Bearer $TOKEN" --data @sample.json\nHTTP/2 403 \ndate: Tue, 14 May 2024 09:12:44 GMT\ncontent-type: application/json\ncontent-length: 211\nx-amzn-requestid: 6f1c2a9e-3b7d-4e0a-9c51-2d8e7f3a1b40\nx-amzn-errortype: AccessDeniedException\n\n{{"Message":"User: anonymous is not authorized to perform: invoke on resource: {v} with an explicit deny"}}
ai_path src_path | \n\nI'll make the change in `{v}` and leave the rest of the module alone.
ai_path gcs_uri |  I'm going to stage the converted files under {v} so the downstream pipeline can pick them up.
ai_path azure_id | \n\nPlan:\n1. export the current diagnostic settings as a backup\n2. apply the new retention policy to {v}\n3. verify with `az monitor diagnostic-settings list`
ai_path i2c_dev | \n\n(From here on I'm working in {v}: first I'll read `name` and `modalias`, then try rebinding the driver.)
ai_path serial_dev |  I'll talk to the board through {v} rather than /dev/ttyUSB0, since the enumeration order changes between reboots.
ai_path arn | \n\nNext step: update the stack so traffic goes to {v}; the old one stays up until the canary looks clean.
ai_path git_remote | \n\nI'll clone {v} into /tmp/bisect and run the bisect there, so your working tree stays untouched.
arg_identifier imo | vessel_imo || {"status": "ok", "positions": 48, "last_fix": "2024-05-14T05:40:00Z", "nav_status": "under way using engine"}
arg_identifier doi | doi || Fetched 1 record (14 references, license CC-BY-4.0). Saved to refs/cache.bib.
arg_identifier mac | mac_address || Device registered. Provisioning profile "greenhouse-sensors" applied; next check-in expected within 5 minutes.
arg_identifier fhir_ref | reference || HTTP 200 OK, application/fhir+json, 3.1 kB, meta.versionId=4
arg_identifier slurm_job | job_id || JobState=PENDING Reason=Priority Dependency=(null)\n   SubmitTime=2024-05-14T09:02:11 StartTime=2024-05-15T02:00:00 EndTime=Unknown
arg_identifier container_no | container_number || Tracking subscription created; events will be posted to the configured webhook.
arg_identifier cidr | prefix || allocated (0 overlaps found in IPAM), reservation expires in 24h
decision conda_env | \n\nI've decided to build on top of `{v}` instead of a fresh env: it already pins the CUDA toolkit the extension was compiled against, so there's nothing to rebuild.
decision build_tag |  Going with {v} as the known-good baseline for the bisect, since it's the last build QA marked green.
decision accession | \n\nDecision: align against {v} rather than the older record. Its annotation includes the exon the failing test depends on.
decision firmware | \n\nSo I'll target {v} for the rollout. Everything newer mentions the I2C clock-stretching regression in its release notes, and that's exactly what these sensors do.
decision person |  I'll route the review to {v}, who is on call for this service this week; that's faster than waiting for the module owner.
decision cidr | \n\n**Choice:** carve the new subnet out of {v}. It's the only block in IPAM with enough free space and no overlap with the VPN pools.
decision statute | \n\nI'll build the memo around {v}, because that's the provision the opposing brief actually relies on; the other citations are background.
goal_change course | Change of plans: forget the plagiarism report for now. What I actually need today is the grade export for {v}, the registrar deadline is tomorrow.
goal_change imo | new priority from the desk: stop the port-congestion analysis and pull the full AIS track for {v} instead. charterer is asking
goal_change doi | Let's drop the literature table. Could you instead reproduce Figure 3 of {v}? That's what the reviewers asked about.
goal_change shader | scrap the LOD work. new task: figure out why `{v}` compiles to 400+ instructions on Vulkan and get it under budget
goal_change person | Hello,\n\nFollowing this morning's meeting, the scope has changed: please put the migration aside and instead prepare the handover notes for {v}, who takes over the project next week.\n\nThanks,\nRoberto
goal_change freq | [voice message transcript] uh yeah so change of direction, the range test can wait. I need you to retune the gateway to {v} and check we still get packets from the north field, okay?
goal_change issue_ref | Pivot: park the refactor on its branch and work on {v} instead. It's blocking the release.
correction slurm_job | Keep an eye on job {v}, it should finish overnight and I'll need the trajectory in the morning. || fyi the run to watch is now {v}, I had to resubmit after the node failure
correction container_no | Can you check whether container {v} has cleared customs yet? || $ yardctl containers get --booking BKG7719402 -o yaml\nbooking: BKG7719402\ncontainers:\n  - number: {num}\n    status: GATED_IN\n    replaces: {old}\n    remarks: "original box damaged, cargo re-stuffed 2024-05-13"\n    customs: RELEASED
correction dose | The order says {v} for the infusion; please use that in the test fixture. || scratch that, pharmacy corrected the order: {v}, not {old}.
correction firmware | $ cat /etc/fw-release\nFW_VERSION={v}\nBUILD_DATE=2024-03-02\nCHANNEL=stable || Correction to what that file says: /etc/fw-release isn't updated by the OTA agent. The boards actually run {v} (see the boot banner).
correction mac | $ arp -n 192.168.4.17\nAddress                  HWtype  HWaddress           Flags Mask            Iface\n192.168.4.17             ether   {v}   C                     eth0 || $ sudo ip neigh flush dev eth0; ping -c1 -W1 192.168.4.17 >/dev/null; ip neigh show 192.168.4.17\n192.168.4.17 dev eth0 lladdr {num} REACHABLE
correction imo | The ship is the feeder MSC is chartering for the Baltic loop, {v}. || The IMO number I gave you earlier was wrong. Correct one: {v}
correction conda_env | Use `{v}` for all the analysis notebooks. || actually don't use {old}, it has the broken numpy pin. use {v} instead.
"""

plant = generator(_VALUES, _TABLE, prefix="heldout-g", salt=97)
