# ruff: noqa: E501
"""The eleventh held-out canary set, written without reading the library's recognizers or
any other generator's templates.

Its author read only ``bench/_plant.py`` (the planting machinery and the table format),
the module docstring and ``KINDS`` of ``bench/canaries.py``, ``bench/_generators.py``,
``tests/test_generators.py``, the import lines of ``bench/fidelity_bench.py``, the ruff
settings in ``pyproject.toml``, the first records of two corpus trajectories and the
opening of ``heldout_i.py``'s docstring (for its style).

Its value shapes come from manufacturing (Siemens and Rockwell PLC tags, torques, thread
sizes, loop-current ranges), telecom (ICCIDs and IMSIs with real MCC/MNC prefixes, cell
global ids, MSISDNs), logistics (GS1 SSCCs with check digits, depots with non-ASCII names,
SKUs with slashes), semiconductor lots and wafers, broadcast timecodes (drop-frame too),
libraries and archives (LoC and Dewey call numbers, German shelf marks), insurance policy
numbers, postal codes of seven countries, firmware versions, Git refs, scoped npm packages,
Go and Rust module paths, JSON pointers, LaTeX labels and files, energy trading (EIC
codes), agriculture (FLIK parcels, cattle ear tags), chess and bridge notation, amounts in
CHF, INR and JPY, and unit-bearing quantities (``kN·m``, ``−40 °C``, ``µs``).

Phrasings vary register (terse notes, chatty asides, formal requests), length, language
(German, French, Spanish, Japanese) and where the value sits (first word, mid-sentence,
last word, deep in a paragraph, a table row or log line of a tool output). Corrections
come in many voices: passive ("was changed to", "has been moved to", "got bumped to",
"were switched to", "had been reassigned to"), anaphoric ("it's Y now", "that one is Y
actually"), "previously X, now Y", "not X but Y", "Y rather than X", a tool output that
just shows the new value, a restatement, "scratch that", "my mistake", and in other
languages; the subject is sometimes named the same way on both sides and sometimes
paraphrased (the pallet id, then the SSCC).

Once it has been read to tune the library it is no longer held out.
"""

from __future__ import annotations

import random
import string

from _plant import generator

__all__ = ["plant"]

_UP = string.ascii_uppercase
_AN = string.ascii_uppercase + string.digits


def _digits(r: random.Random, n: int) -> str:
    return "".join(r.choice(string.digits) for _ in range(n))


def _luhn(payload: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(payload)):
        d = int(ch) * (2 if i % 2 == 0 else 1)
        total += d - 9 if d > 9 else d
    return str((10 - total % 10) % 10)


def _gs1(payload: str) -> str:
    total = sum(int(d) * (3 if i % 2 == 0 else 1) for i, d in enumerate(reversed(payload)))
    return str((10 - total % 10) % 10)


_EIC = string.digits + string.ascii_uppercase + "-"


def _eic_check(code: str) -> str:
    total = sum(_EIC.index(ch) * (16 - i) for i, ch in enumerate(code))
    return _EIC[36 - (total - 1) % 37]


# --- telecom ---------------------------------------------------------------------------


def iccid(r: random.Random) -> str:
    head = "89" + r.choice(["41", "49", "44", "33", "31", "46", "01"])
    head += r.choice(["02", "03", "10", "20", "260", "410"])
    body = head + _digits(r, 18 - len(head))
    return body + _luhn(body)


def imsi(r: random.Random) -> str:
    plmn = r.choice(["22801", "22802", "26201", "26203", "23415", "20404", "24007",
                     "310260", "310410", "44010", "72405", "50501"])  # fmt: skip
    return plmn + _digits(r, 15 - len(plmn))


def cell(r: random.Random) -> str:
    mcc, mnc = r.choice([("228", "01"), ("262", "02"), ("234", "15"), ("204", "08"),
                         ("310", "260"), ("440", "10"), ("208", "01")])  # fmt: skip
    return f"{mcc}-{mnc}-{r.randint(100, 65000)}-{r.randint(1000, 268435455)}"


def msisdn(r: random.Random) -> str:
    k = r.randrange(5)
    if k == 0:
        return f"+41 79 {_digits(r, 3)} {_digits(r, 2)} {_digits(r, 2)}"
    if k == 1:
        return f"+49 151 {_digits(r, 4)} {_digits(r, 4)}"
    if k == 2:
        return f"+44 7700 900{_digits(r, 3)}"
    if k == 3:
        return f"+81 90-{_digits(r, 4)}-{_digits(r, 4)}"
    return "+33 6 " + " ".join(_digits(r, 2) for _ in range(4))


# --- logistics and retail --------------------------------------------------------------


def sscc(r: random.Random) -> str:
    payload = str(r.randint(0, 9)) + r.choice(["40", "42", "76", "87", "50", "30"])
    payload += _digits(r, 17 - len(payload))
    return r.choice(["", "", "(00)"]) + payload + _gs1(payload)


def depot(r: random.Random) -> str:
    place = r.choice(["Großbeeren", "Zürich-Altstetten", "Łódź-Olechów", "Århus-Syd",
                      "Göteborg-Arendal", "Málaga-Guadalhorce", "Neuss-Hafen", "Škofja-Loka"])  # fmt: skip
    return f"{place}/{r.choice('ABCDR')}{r.randint(1, 40):02d}"


def sku(r: random.Random) -> str:
    colors = ["BLK", "NAVY", "OLV", "RED", "WHT", "SAND", "GRPH"]
    sizes = ["XS", "S", "M", "L", "XL", "XXL", "38", "40", "42", "44"]
    k = r.randrange(3)
    if k == 0:
        return (
            f"{r.randint(1000, 9999)}-{r.randint(1, 99):02d}/{r.choice(colors)}/{r.choice(sizes)}"
        )
    if k == 1:
        return f"{r.choice(['TS', 'JK', 'PT', 'SH', 'BG'])}-{r.randint(100, 999)}/{r.choice(colors)}/{r.choice(sizes)}"
    return f"{r.randint(100000, 999999)}/{r.randint(1, 999):03d}"


# --- manufacturing ---------------------------------------------------------------------


def plcpath(r: random.Random) -> str:
    if r.random() < 0.5:
        prog = r.choice(["Fill_L2", "Press_07", "Palletizer", "CIP_Skid", "Oven_Zone3", "Conv_04"])
        dev = r.choice(["Valve", "Motor", "Interlock", "Guard", "Heater"])
        sig = r.choice(["Open", "Run", "Ok", "SP", "Fault"])
        return f"Program:{prog}.{dev}{r.randint(1, 40):02d}_{sig}"
    dev = r.choice(["Press", "Robot", "Feeder", "Welder", "Clamp"])
    sig = r.choice(["Torque_SP", "Speed_PV", "EStop_OK", "Clamp_Cmd", "Temp_SP"])
    return f"Line{r.randint(1, 9)}.Cell{r.randint(1, 12)}.{dev}{r.randint(1, 20):02d}.{sig}"


def plctag(r: random.Random) -> str:
    k = r.randrange(4)
    if k == 0:
        return f"DB{r.randint(1, 999)}.DBX{r.randint(0, 255)}.{r.randint(0, 7)}"
    if k == 1:
        return f"DB{r.randint(1, 999)}.DBD{4 * r.randint(0, 120)}"
    return plcpath(r)


def torque(r: random.Random) -> str:
    if r.random() < 0.5:
        return f"{r.randint(5, 900) / 10:.1f} kN·m"
    return f"{r.randint(12, 950)} N·m"


def coldtemp(r: random.Random) -> str:
    return f"−{r.randint(18, 86)} °C"


def duration(r: random.Random) -> str:
    return f"{r.randint(2, 950)} µs" if r.random() < 0.6 else f"{r.randint(2, 90) / 10:.1f} ms"


def currange(r: random.Random) -> str:
    k = r.randrange(3)
    if k == 0:
        return f"{r.randint(2, 8)}–{r.randint(12, 24)} mA"
    if k == 1:
        return f"{r.randint(6, 30) * 100}–{r.randint(31, 90) * 100} rpm"
    return f"{r.randint(1, 40) / 10:.1f}–{r.randint(41, 160) / 10:.1f} bar"


def thread(r: random.Random) -> str:
    k = r.randrange(3)
    if k == 0:
        n, d, tpi = r.choice([(1, 4, 20), (5, 16, 18), (3, 8, 16), (7, 16, 14), (1, 2, 13),
                              (5, 8, 11), (3, 4, 10), (1, 4, 28), (3, 8, 24)])  # fmt: skip
        return f'{n}/{d}"-{tpi} {r.choice(["UNC", "UNF"])}'
    if k == 1:
        d, p = r.choice([(3, 0.5), (4, 0.7), (5, 0.8), (6, 1.0), (8, 1.25), (10, 1.5), (12, 1.75),
                         (16, 2.0), (8, 1.0), (10, 1.25), (12, 1.5)])  # fmt: skip
        return f"M{d}×{p:g}×{r.choice([8, 10, 12, 16, 20, 25, 30, 35, 40, 50])}"
    return f'{r.randint(1, 3)}-{r.choice(["1/4", "3/8", "1/2", "5/8", "3/4"])}" NPT'


# --- semiconductor and broadcast -------------------------------------------------------


def lot(r: random.Random) -> str:
    base = f"{r.choice(_UP)}{r.randint(1, 9)}{r.choice(_UP)}{_digits(r, 4)}.{r.randint(1, 3)}"
    return r.choice(["", "", "F12-", "FAB8-"]) + base


def wafer(r: random.Random) -> str:
    if r.random() < 0.5:
        return f"{r.choice(_UP)}{r.randint(1, 9)}{r.choice(_UP)}{_digits(r, 4)}.{r.randint(1, 3)}-W{r.randint(1, 25):02d}"
    return f"{r.choice(_UP)}{r.choice(_UP)}{_digits(r, 5)}#{r.randint(1, 25):02d}"


def timecode(r: random.Random) -> str:
    drop = r.random() < 0.4
    fps = 30 if drop else r.choice([24, 25])
    hh = r.choice([0, 1, 1, 10, 10, r.randint(0, 23)])
    return f"{hh:02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}{';' if drop else ':'}{r.randrange(fps):02d}"


# --- libraries, insurance, post --------------------------------------------------------


def callno(r: random.Random) -> str:
    k = r.randrange(3)
    if k == 0:
        cls = r.choice(["QA", "QC", "TK", "TJ", "HD", "PN", "ML", "BF", "SB", "Z"])
        return f"{cls}{r.randint(1, 9999)}.{r.choice(_UP)}{r.randint(2, 99)} {r.choice(_UP)}{r.randint(11, 99)} {r.randint(1965, 2024)}"
    if k == 1:
        return f"{r.randint(0, 999):03d}.{r.randint(1, 9999)} {''.join(r.choice(_UP) for _ in range(3))}"
    if r.random() < 0.5:
        return f"Rep. {r.randint(1, 250)} Tit. {r.randint(1, 900)} Nr. {r.randint(1, 999)}"
    return f"Best. {r.randint(100, 9999)} Nr. {r.randint(10, 9999)}"


def policy(r: random.Random) -> str:
    k = r.randrange(3)
    if k == 0:
        return (
            f"{r.choice(['KFZ', 'HR', 'BU', 'LV', 'HAFT'])}-{_digits(r, 7)}-{r.randint(1, 99):02d}"
        )
    if k == 1:
        return (
            f"{r.choice(['HOME', 'AUTO', 'PET', 'TRVL'])}/{r.randint(2019, 2025)}/{_digits(r, 7)}"
        )
    return f"{r.choice(_UP)}{r.choice(_UP)}{_digits(r, 8)}"


def postal(r: random.Random) -> str:
    uk = "ABDEFGHJLNPQRSTUWXYZ"
    k = r.randrange(7)
    if k == 0:
        area = r.choice(["SW1A", "EC2V", "M14", "G12", "LS6", "BS8", "CF10", "EH3", "NW5", "SE22"])
        return f"{area} {r.randint(0, 9)}{r.choice(uk)}{r.choice(uk)}"
    if k == 1:
        a, b = "ABCEGHJKLMNPRSTVXY", "ABCEGHJKLMNPRSTVWXYZ"
        return f"{r.choice(a)}{r.randint(0, 9)}{r.choice(b)} {r.randint(0, 9)}{r.choice(b)}{r.randint(0, 9)}"
    if k == 2:
        return f"{r.randint(1000, 9999)} {r.choice(uk)}{r.choice(uk)}"
    if k == 3:
        return f"{r.randint(1000, 99999):05d}-{r.randint(0, 999):03d}"
    if k == 4:
        return f"〒{r.randint(100, 999)}-{r.randint(0, 9999):04d}"
    if k == 5:
        ident = "".join(r.choice(_AN) for _ in range(4))
        return f"{r.choice(['D02', 'D04', 'D08', 'T12', 'H91', 'V94', 'A94'])} {ident}"
    city = r.choice(["Kraków", "Łódź", "Gdańsk", "Wrocław", "Poznań"])
    return f"{r.randint(0, 99):02d}-{r.randint(0, 999):03d} {city}"


def amount(r: random.Random) -> str:
    k = r.randrange(3)
    if k == 0:
        n = r.randint(120, 250000)
        return f"CHF {n:,}.{r.choice(['00', '50', '20', '95', '05', '40'])}".replace(",", "'")
    if k == 1:
        s = str(r.randint(100000, 99999999))
        rest, groups = s[:-3], [s[-3:]]
        while len(rest) > 2:
            groups.insert(0, rest[-2:])
            rest = rest[:-2]
        return "₹" + ",".join([rest, *groups] if rest else groups)
    return f"¥{r.randint(12, 9800) * 1000 + r.choice([0, 0, 500, 800]):,}"


# --- software --------------------------------------------------------------------------

_WORDS = ["plc-retry", "sim-swap", "pallet-merge", "tc-offset", "eic-sync", "wafer-map",
          "label-fix", "drop-frame", "tariff-calc", "ear-tag", "premium-round"]  # fmt: skip


def firmware(r: random.Random) -> str:
    a, b, c = r.randint(1, 9), r.randint(0, 40), r.randint(0, 300)
    k = r.randrange(4)
    if k == 0:
        return f"v{a}.{b}.{c}-rc{r.randint(1, 9)}"
    if k == 1:
        return f"{a}.{b:02d}.{c}+build.{r.randint(1000, 9999)}"
    if k == 2:
        return f"fw-{a}.{b}.{c}"
    return f"V{a}.{b}.{c}.{r.randint(1000, 9999)}"


def gitref(r: random.Random) -> str:
    k = r.randrange(4)
    if k == 0:
        return f"refs/heads/feature/{r.choice(_WORDS)}-{r.randint(10, 9999)}"
    if k == 1:
        return f"refs/heads/release/{r.randint(2023, 2026)}.{r.randint(1, 12)}"
    if k == 2:
        return f"refs/tags/v{r.randint(0, 9)}.{r.randint(0, 30)}.{r.randint(0, 30)}"
    return f"refs/remotes/origin/hotfix/{r.choice(_WORDS)}-{r.randint(10, 999)}"


def npm(r: random.Random) -> str:
    scope = r.choice(["acme-robotics", "plantops", "fieldkit", "northwind-io", "tcx", "lumen-labs"])
    pkg = r.choice(["plc-bridge", "hmi-widgets", "modbus-client", "label-printer", "opcua-lite",
                    "edge-sync", "sscc-tools"])  # fmt: skip
    ver = f"{r.randint(0, 9)}.{r.randint(0, 30)}.{r.randint(0, 40)}"
    if r.random() < 0.25:
        ver += f"-beta.{r.randint(0, 9)}"
    return f"@{scope}/{pkg}@{ver}"


def gomod(r: random.Random) -> str:
    org = r.choice(["fieldkit", "plantops", "northwind", "telcoio", "gridlab", "wafertrack"])
    repo = r.choice(["edge-agent", "meterd", "palletd", "sim-broker", "mes-bridge", "plcgw"])
    pkg = r.choice(
        ["decode", "uplink", "modbus", "ratelimit", "sscc", "handover", "tariff", "opcua"]
    )
    k = r.randrange(3)
    if k == 0:
        return f"github.com/{org}/{repo}/v{r.randint(2, 5)}/internal/{pkg}"
    if k == 1:
        return f"go.{org}.io/{repo}/pkg/{pkg}"
    return f"gitlab.com/{org}/{repo}/{pkg}"


def rustpath(r: random.Random) -> str:
    crate = r.choice(["crate", "uplink", "telemetry_core", "plc_io", "edge_agent", "meter_proto"])
    mod = r.choice(["frame", "codec", "session", "sensors", "tariff", "handover", "wafer_map"])
    sub = r.choice(["decode", "encode", "crc", "state", "parse", "retry"])
    item = r.choice(["FrameHeader", "Crc16", "LotId", "CellGlobalId", "Backoff", "TagValue",
                     "read_register", "split_frames"])  # fmt: skip
    return f"{crate}::{mod}::{sub}::{item}"


def jsonptr(r: random.Random) -> str:
    if r.random() < 0.5:
        schema = r.choice(["Pallet", "Shipment", "SimCard", "MeteringPoint", "Wafer", "Policy"])
        field = r.choice(
            ["sscc", "iccid", "eic", "lotId", "premium", "gtin", "netWeight", "postcode"]
        )
        return f"/components/schemas/{schema}/properties/{field}"
    top = r.choice(["pallets", "lines", "wafers", "subscribers", "parcels", "cues"])
    field = r.choice(["sscc", "status", "tc_in", "yield", "imsi", "area_ha", "label"])
    return f"/{top}/{r.randint(0, 60)}/{field}"


def texfile(r: random.Random) -> str:
    folder = r.choice(["kapitel", "chapitres", "capitoli", "rozdzialy", "anhang"])
    name = r.choice(["Meßaufbau", "Ergebnisse", "résultats", "méthodes", "Übersicht",
                     "Løsning", "Schlußfolgerung", "Zusammenfassung", "Dünnschicht"])  # fmt: skip
    return f"{folder}/{r.randint(1, 30):02d}-{name}.tex"


def texlabel(r: random.Random) -> str:
    kind = r.choice(["fig", "tab", "eq", "sec", "lst"])
    word = r.choice(["wafer-yield", "torque-curve", "ratenplan", "schaltplan", "pallet-flow",
                     "cell-handover", "drop-frame", "dosierung", "loop-scaling"])  # fmt: skip
    return f"{kind}:{word}-{r.randint(1, 99)}"


# --- energy and agriculture ------------------------------------------------------------


def eic(r: random.Random) -> str:
    while True:
        word = r.choice(["STADTWERK", "NETZNORD", "ALPIQ", "EWZ", "ENBW", "HAFENKRAFT",
                         "SOLARPARK", "WINDPARK", "BILANZ"])  # fmt: skip
        code = f"{r.choice(['10', '11', '12', '21'])}{r.choice('XYZWVT')}{word}"
        code += "".join(r.choice(_AN + "-") for _ in range(15 - len(code)))
        check = _eic_check(code)
        if check != "-":
            return code + check


def flik(r: random.Random) -> str:
    return f"DE{r.choice(['NW', 'BY', 'NI', 'BB', 'SH', 'HE', 'TH'])}LI{_digits(r, 10)}"


def eartag(r: random.Random) -> str:
    if r.random() < 0.7:
        return f"DE {r.randint(1, 16):02d} {_digits(r, 3)} {_digits(r, 5)}"
    return f"AT {_digits(r, 9)}"


# --- games -----------------------------------------------------------------------------


def chessmove(r: random.Random) -> str:
    piece = r.choice(["N", "B", "R", "Q", "K", ""])
    cap = "x" if r.random() < 0.5 else ""
    if not piece and cap:
        piece = r.choice("abcdefgh")
    square = f"{r.choice('abcdefgh')}{r.randint(1, 8)}"
    mark = r.choice(["", "", "+", "!", "!?", "+!", "#", "?!"])
    dots = "..." if r.random() < 0.5 else "."
    return f"{r.randint(8, 61)}{dots}{piece}{cap}{square}{mark}"


def contract(r: random.Random) -> str:
    dbl = r.choice(["", "", "X", "XX"])
    seat = r.choice(["North", "East", "South", "West"])
    return f"{r.randint(1, 7)}{r.choice(['♣', '♦', '♥', '♠', 'NT'])}{dbl} by {seat}"


VALUES = {
    "iccid": iccid,
    "imsi": imsi,
    "cell": cell,
    "msisdn": msisdn,
    "sscc": sscc,
    "depot": depot,
    "sku": sku,
    "plcpath": plcpath,
    "plctag": plctag,
    "torque": torque,
    "coldtemp": coldtemp,
    "duration": duration,
    "currange": currange,
    "thread": thread,
    "lot": lot,
    "wafer": wafer,
    "timecode": timecode,
    "callno": callno,
    "policy": policy,
    "postal": postal,
    "amount": amount,
    "firmware": firmware,
    "gitref": gitref,
    "npm": npm,
    "gomod": gomod,
    "rustpath": rustpath,
    "jsonptr": jsonptr,
    "texfile": texfile,
    "texlabel": texlabel,
    "eic": eic,
    "flik": flik,
    "eartag": eartag,
    "chessmove": chessmove,
    "contract": contract,
}

TABLE = r"""
constraint torque | Hard limit for this job: the tightening torque on the flange bolts must never exceed {v}. The fixture cracks above that.
constraint currange | {v} is the only range the Line 3 transmitters accept, so whatever scaling you write has to stay inside it.
constraint timecode | Quick thing before you go further: the client signed off on the cut with a hard out at {v}, and the playout server rejects anything that runs past it, so whatever you generate for the EDL has to end at or before that frame. Thanks!
constraint amount | Please observe the following budget constraint: the total cost of the replacement parts order may not exceed {v}, all taxes included.
constraint postal | All shipments in this batch must go to the consolidation hub at postcode {v}; under the current carrier contract no other destination is covered.
constraint firmware | constraint: min firmware {v} on every gateway. nothing older.
constraint flik | Wichtig: Die Gülle darf in diesem Durchgang nur auf dem Schlag {v} ausgebracht werden, nirgendwo sonst.
constraint thread | The tapped holes on the new brackets are already cut, so every fastener in the BOM you generate has to be {v}; no substitutes.
safety plctag | Do NOT write to {v} under any circumstances. It's wired to the press interlock and a bad value there can move the ram with the guard open.
safety iccid | Never deactivate or swap the SIM with ICCID {v}: it sits in the fall-detection pendant of a patient who lives alone.
safety gitref | Safety rule for this repo: never force-push or delete {v}; the plant's deployment pipeline builds straight from it.
safety wafer | please make sure nobody sends {v} to scrap or rework, it's on engineering hold for the contamination investigation and moving it destroys the evidence
safety coldtemp | The reagent stock in bay 4 must never warm above {v}. If your schedule keeps the freezer door open longer than a minute, stop and ask me first.
safety firmware | Do not flash {v} onto the field units. It bricks the radio module on the older boards and we'd have to send a technician to every site.
safety eic | Under no circumstances place or modify orders for metering point {v} — it's part of an open REMIT inquiry and anything touching it needs sign-off from legal.
safety plcpath | Consigne de sécurité : ne jamais forcer la variable {v} pendant que la ligne tourne, même pour un test.
preference npm | I'd prefer we stick with {v} for the HMI frontend, it's what the other two plants run and I don't want three different versions to support.
preference chessmove | For the annotations, I like the commentary to open with the critical moment, which in this game is {v}.
preference texlabel | Style preference: refer to the results table as \ref{{{v}}} everywhere, never by page number.
preference contract | When you model the hands I'd rather you assume the final contract is {v}; that's where our partnership usually lands.
preference postal | If possible route the returns through {v} — the team there handles our parcels faster than anyone else.
preference gitref | Prefiero que hagas las pruebas sobre {v}, así no molestamos al resto del equipo.
preference msisdn | {v} is the best way to reach me if something blocks you; I prefer a call over a long thread.
preference amount | In the offer letter I'd rather show the yearly premium as {v}, written exactly like that.
tool_fact imsi | $ mmcli -i 0\n  --------------------------------\n  Properties |          active: yes\n             |            imsi: {v}\n             |   operator name: Swisscom\n  --------------------------------
tool_fact sscc | $ wms pallet list --dock 7\nDOCK  SSCC                    CARTONS  WEIGHT    STATUS\n7     {v}    24       412.5 kg  staged
tool_fact lot | $ tail -n 3 /var/log/mes/lot-tracker.log\n[INFO] step=CMP-02 tool=CMP4 recipe=OX-THK-220 moved in\n[INFO] step=CMP-02 lot={v} wafers=25 qty_ok=25\n[INFO] step=CMP-02 queue depth 3
tool_fact callno | $ opac search --title "Handbuch der Meßtechnik" --format brief\nTitle: Handbuch der Meßtechnik (4. Aufl.)\nCall number: {v}\nLocation: Magazin 2, Regal 14\nStatus: available
tool_fact eic | $ mdm-cli meteringpoint show --customer 88412\nname:            Stadtwerke Nord, Übergabestation 2\neic:             {v}\nprofile:         15-min\nbalancing group: BG-Nord
tool_fact timecode | $ ffprobe -v error -show_entries stream_tags=timecode -of default=nw=1 master_v3.mxf\nTAG:timecode={v}
tool_fact firmware | $ ssh gw-bremen-04 cat /etc/fw-release\nNAME="EdgeGW"\nVERSION={v}\nCHANNEL=stable\nSIGNED=yes
tool_fact flik | $ invekos parzellen --betrieb 276091\nSchlag  FLIK                Fläche (ha)  Kultur\n3       {v}    4,72         Winterweizen\n(1 Parzelle)
tool_error plctag | $ plcctl write --cpu 10.0.4.21 --value 1\nERROR 0x8104: write to {v} rejected (object does not exist or is write-protected, CPU in RUN)
tool_error npm | $ npm install\nnpm ERR! code ETARGET\nnpm ERR! notarget No matching version found for {v}.\nnpm ERR! notarget In most cases you or one of your dependencies are requesting\nnpm ERR! notarget a package version that doesn't exist.
tool_error gitref | $ git push origin HEAD\nTo git.plant.local:mes/line-control.git\n ! [remote rejected] HEAD -> {v} (protected branch hook declined)\nerror: failed to push some refs to 'git.plant.local:mes/line-control.git'
tool_error gomod | $ go build ./...\ncmd/meterd/main.go:9:2: no required module provides package {v}; to add it:\n        go get {v}
tool_error rustpath | $ cargo build --release\n   Compiling edge_agent v0.7.2 (/srv/edge_agent)\nerror[E0432]: unresolved import `{v}`\n --> src/uplink.rs:3:5\nerror: could not compile `edge_agent` (bin "edge_agent") due to 1 previous error
tool_error iccid | $ simctl activate --profile m2m-eu-50\nError 409: SIM {v} is already bound to another subscription (tenant 4471). Nothing was changed.
tool_error texlabel | $ latexmk -pdf thesis.tex\nLaTeX Warning: Reference `{v}' on page 14 undefined on input line 318.\nLaTeX Warning: There were undefined references.
tool_error sscc | $ edi validate desadv_0412.xml\nline 212: E-SSCC-17 duplicate SSCC {v}, already reported in DESADV 88412\n1 error, 0 warnings
arg_identifier iccid | iccid || SIM status: ACTIVE\nplan: m2m-eu-50MB\nlast attach: 4 min ago
arg_identifier sscc | sscc || Pallet found: 24 cartons, 412.5 kg, location DOCK-7, carrier label printed.
arg_identifier lot | lot_id || Lot is on ENG-HOLD (contamination review). 25 wafers, last completed step CMP-02.
arg_identifier policy | policy_number || Policy active. Holder verified. Next premium due in 12 days.
arg_identifier imsi | imsi || subscriber found\nHLR state: attached\nroaming: no
arg_identifier eic | metering_point || resolved: Übergabestation 2, balancing group BG-Nord, 15-min profile
arg_identifier eartag | ohrmarke || Tier gefunden: Rind, weiblich, 26 Monate alt, letzte Bewegung vor 3 Tagen.
arg_identifier cell | cell_id || cell resolved: sector 2, azimuth 120°, band n78, 3 neighbours
ai_path gitref | \n\nI'll base the fix on {v} so the plant branch stays untouched.
ai_path gomod |  The handler I need to change lives in {v}, so that's where I'll look next.
ai_path rustpath | \n\nNote to self: the frame decoder is `{v}`; the CRC check happens in there too.
ai_path plcpath | \n\nThe setpoint is read from {v} in the PLC, so the value on the HMI is only a mirror of it.
ai_path texfile | \n\nThe figure with the wiring is defined in {v} — I'll change the caption there rather than in the main file.
ai_path jsonptr |  (The schema node that needs the new constraint is {v}.)
ai_path npm | \n\nNext I'll open the entry point of {v} to see how it reads the timeout.
decision npm | \n\nDecision: I'll pin the bridge to {v}, because the next minor changes the Modbus timeout defaults and we have no time to retest.
decision firmware |  I'm going with {v} for the rollout, since it's the only build that passed the 72-hour soak test.
decision lot | \n\nI've decided to quarantine {v} instead of sending it to rework: the particle counts are too far out of spec to trust a rework.
decision depot | \n\nSo the plan is to ship from {v}, as it's the only depot with enough chilled capacity this week.
decision timecode | \n\nGoing with the cut at {v} because that's the last clean frame before the logo glitch appears.
decision amount | \n\nI'll quote {v} as the annual premium; that's what the underwriter's table gives for this risk class.
decision gitref | \n\nI'll use {v} as the base for the patch, because it already carries the hotfix for the handover bug.
goal_change wafer | Change of plans: forget the dashboard for now. What I need today is the full traceability report for {v}, by end of day if possible.
goal_change timecode | new priority, stop the EDL cleanup and conform the reel so it starts at {v}
goal_change sscc | Actually, let's drop the carrier comparison. The real goal now is getting pallet {v} re-labelled and onto tomorrow's truck.
goal_change firmware | Please set the current task aside. Our objective has changed: all gateways must be migrated to firmware {v} before Friday's audit.
goal_change flik | Planänderung: Die Düngeplanung kann warten, wir brauchen jetzt zuerst den Antrag für den Schlag {v}.
goal_change npm | new goal: get {v} published to the internal registry, everything else can wait.
goal_change eic | Scrap what I said about the tariff analysis. I now need you to reconcile every trade at delivery point {v} for last week.
correction iccid | The tracker on trailer 12 uses SIM {v}, keep that in mind when you query the portal. || Small update: the SIM on trailer 12 was changed to {v} during yesterday's service.
correction firmware | The canary rollout for the gateways targets firmware {v}. || Heads-up, the canary rollout has been moved to {v}; QA pulled the earlier build.
correction npm | $ npm ls --depth=0\nline-hmi@2.3.0 /srv/line-hmi\n├── {v}\n└── react@18.2.0 || fyi the bridge dep got bumped to {v} on main, rebase before you test
correction torque | Torque limits on station 5 are {v} for all flange bolts. || The torque limits on station 5 were switched to {v} after the joint redesign, please use those.
correction lot | For the SEM session tomorrow, take lot {v} from the hold cart. || Turns out the SEM slot had been reassigned to {v} by the night shift, so bring that one instead.
correction timecode | The first frame of action is at {v} on the master. || re the first-frame timecode: it's {v} now, they trimmed the slate.
correction texlabel | Please cite the wiring diagram via \ref{{{v}}} in section 4. || About the diagram label I gave you, that one is {v} actually. I renamed it yesterday.
correction policy | The claim for Mrs. Meyer is filed under policy {v}. || Policy number for the Meyer claim: previously {old}, now {v}.
correction postal | Ship the replacement parts to postcode {v}, please. || Sorry, wrong code earlier, the destination postcode is not {old} but {v}.
correction gitref | Open the PR against {v}, please. || Let's target {v} rather than {old}; the release was branched this morning.
correction imsi | The modem in cabinet B reports IMSI {v}, that's the one we whitelist. || $ mmcli -i 0 | grep imsi\n             |            imsi: {v}
correction sscc | The pallet id for the Bern order is {v}. || Scratch that, the SSCC printed on the Bern shipment label reads {v}.
correction callno | You'll find the maintenance manual under call number {v} in the reading room. || My mistake, the shelf mark is {v}; I was reading the old catalogue card.
correction eic | Metering point for the Stadtwerke contract: {v}. || To restate, since there was some confusion: the metering point for the Stadtwerke contract is {v}, please use only that code from here on.
correction amount | Die Jahresprämie für die Hausratpolice beträgt {v}. || Korrektur: Die Jahresprämie liegt inzwischen bei {v}, nicht mehr bei {old}.
correction depot | Les palettes partent de l'entrepôt {v} jeudi. || Petite correction : finalement c'est {v}, l'autre quai est fermé pour travaux.
correction cell | 基地局のセルIDは {v} です。 || すみません、訂正します。セルIDは {v} が正しいです。
correction firmware | $ fwctl status gw-bremen-04\nversion: {v}\nstate:   running || $ fwctl status gw-bremen-04\nversion: {v}\nstate:   running (updated 3 min ago)
correction chessmove | In the annotation, the decisive move is {v}. || Correction to my earlier note: after reviewing the game with the engine, the decisive move was in fact {v}, not {old}.
correction sku | Reorder the navy rain jacket, SKU {v}, for the Basel store. || $ inventory find --store BSL --desc "rain jacket navy"\nSTORE  SKU                 ON_HAND  REORDER\nBSL    {v}    0        yes
correction msisdn | Send the alarm SMS to the on-call number {v}. || The on-call phone changed hands this week, so that's {v} now.
correction wafer | El lote que hay que revisar es {v}. || Perdona, me equivoqué: el que hay que revisar es {v}.
correction currange | The transmitters on tank 3 run at {v}. || FYI, when the new I/O card went in, the tank 3 loops were reconfigured; the range on them is {v} since then.
"""

plant = generator(VALUES, TABLE, prefix="heldout-k", salt=60611)
