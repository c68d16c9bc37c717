# ruff: noqa: E501
"""The eighth held-out canary set, written without reading the library's recognizers or
any other generator's templates: its author read only ``_plant.py`` (the planting
machinery and table format), the head of ``canaries.py`` (the kinds and what they mean),
``_generators.py``, ``tests/test_generators.py`` and a few corpus records. Its value
shapes come from energy, aviation maintenance, publishing, agriculture, automotive,
telecom, security, databases, CI/CD, addresses and names in several scripts; its tool
rows imitate many kinds of command output. Once it has been read to tune the library it
is no longer held out: it was read once ``heldout_i.py`` had been written (its quoted paths
with spaces, its rules and names said in no rule's words, its two-sentence corrections).
"""

from __future__ import annotations

import random
import string

from _plant import generator

__all__ = ["plant"]

_UP = string.ascii_uppercase
_HEX = "0123456789ABCDEF"


def _pick(r: random.Random, chars: str, n: int) -> str:
    return "".join(r.choice(chars) for _ in range(n))


def _meter(r: random.Random) -> str:
    return f"{r.choice(['LGZ', 'ITR', 'SEN', 'ELS', 'KAM'])}-{r.randint(1000000, 9999999)}"


def _gridnode(r: random.Random) -> str:
    sub = r.choice(["KRSB", "WLTN", "OAKF", "BRMT", "HSDL", "PNVL", "QRRY"])
    return f"{sub}.{r.choice([69, 115, 138, 230, 345])}KV.FDR{r.randint(10, 99)}{r.choice('ABC')}"


def _kwh(r: random.Random) -> str:
    return f"{r.randint(1000, 99999):,}.{r.randint(0, 99):02d} kWh"


def _tail(r: random.Random) -> str:
    form = r.randrange(4)
    if form == 0:
        return f"N{r.randint(100, 999)}{_pick(r, _UP, 2)}"
    if form == 1:
        return f"C-G{_pick(r, _UP, 3)}"
    if form == 2:
        return f"VH-{_pick(r, _UP, 3)}"
    return f"D-A{_pick(r, _UP, 3)}"


def _partno(r: random.Random) -> str:
    return f"{r.randint(10, 99)}{r.choice('ABCDEFGHJK')}{r.randint(10000, 99999)}-{r.randint(1, 40):02d}"


def _ata(r: random.Random) -> str:
    return f"ATA {r.randint(21, 80)}-{r.randint(10, 60)}-{r.randint(0, 99):02d}"


def _isbn(r: random.Random) -> str:
    group = r.choice(["0", "1", "3", "84", "88"])
    pub = str(r.randint(10, 9999))
    title = "".join(str(r.randint(0, 9)) for _ in range(9 - len(group) - len(pub)))
    digits = "978" + group + pub + title
    check = (10 - sum(int(d) * (1 if i % 2 == 0 else 3) for i, d in enumerate(digits)) % 10) % 10
    return f"978-{group}-{pub}-{title}-{check}"


def _issn(r: random.Random) -> str:
    digits = [r.randint(0, 9) for _ in range(7)]
    rest = (11 - sum(d * w for d, w in zip(digits, range(8, 1, -1), strict=True)) % 11) % 11
    check = "X" if rest == 10 else str(rest)
    s = "".join(map(str, digits)) + check
    return f"{s[:4]}-{s[4:]}"


def _eidr(r: random.Random) -> str:
    groups = "-".join(_pick(r, _HEX, 4) for _ in range(5))
    return f"10.5240/{groups}-{r.choice(_UP + '0123456789')}"


def _timecode(r: random.Random) -> str:
    return f"{r.randint(0, 3):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}:{r.randint(0, 23):02d}"


def _vin(r: random.Random) -> str:
    chars = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"
    return r.choice(["1HG", "WBA", "JTD", "5YJ", "3VW", "WVW", "KMH"]) + _pick(r, chars, 14)


def _obd(r: random.Random) -> str:
    return f"{r.choice('PCBU')}{r.choice('0123')}{_pick(r, _HEX, 3)}"


def _imsi(r: random.Random) -> str:
    return r.choice(["310260", "262019", "234150", "440101", "460001"]) + _pick(r, string.digits, 9)


def _iccid(r: random.Random) -> str:
    return "89" + r.choice(["01260", "49192", "44100", "81100"]) + _pick(r, string.digits, 12)


def _apn(r: random.Random) -> str:
    fleet = r.choice(["fleet", "meters", "tracker", "pos", "scada", "kiosk"])
    carrier = r.choice(["vodafone.de", "tmobile.us", "ee.co.uk", "docomo.jp", "orange.fr"])
    return f"{fleet}{r.randint(2, 99)}.{r.choice(['m2m', 'iot', 'ent'])}.{carrier}"


def _cell(r: random.Random) -> str:
    return f"{r.choice(['310-260', '262-01', '234-15', '440-10'])}-{_pick(r, _HEX, 7)}"


def _cve(r: random.Random) -> str:
    return f"CVE-{r.randint(2019, 2025)}-{r.randint(20000, 59999)}"


def _yara(r: random.Random) -> str:
    fam = r.choice(["Kapeka", "Latrodectus", "Pikabot", "Bumblebee", "Gootkit", "Smokeldr"])
    role = r.choice(["Loader", "Dropper", "Stager", "Beacon", "Unpacked"])
    return f"{r.choice(['MAL', 'APT', 'HKTL', 'SUSP'])}_{fam}_{role}_{r.randint(2021, 2025)}{r.randint(1, 12):02d}{r.randint(1, 28):02d}"


def _sha(r: random.Random) -> str:
    return "sha256:" + _pick(r, "0123456789abcdef", 12)


def _kid(r: random.Random) -> str:
    b64 = string.ascii_letters + string.digits + "-_"
    return f"{r.choice(['auth', 'sso', 'api', 'idp'])}-{r.randint(2023, 2025)}-{r.randint(1, 12):02d}-{_pick(r, b64, 6)}"


def _lsn(r: random.Random) -> str:
    return f"{r.randint(1, 0x3F):X}/{r.randint(0x10000000, 0xFFFFFFFF):08X}"


def _slot(r: random.Random) -> str:
    tool = r.choice(["debezium", "pglogical", "airbyte", "fivetran", "wal2json"])
    src = r.choice(["orders", "billing", "ledger", "events", "payouts"])
    return f"{tool}_{src}_{r.randint(10, 999)}"


def _table(r: random.Random) -> str:
    schema = r.choice(["billing", "ledger", "crm", "audit", "warehouse"])
    name = r.choice(["invoice_lines", "journal_entries", "contacts", "login_events", "stock_moves"])
    return f"{schema}.{name}_p{r.randint(1000, 9999)}"


def _pipeline(r: random.Random) -> str:
    return f"#{r.randint(1000000, 9999999)}"


def _runner(r: random.Random) -> str:
    base = r.choice(["gpu-a100", "arm64-graviton3", "macos14-m2", "win2022-xl", "x86-hardened"])
    return f"{base}-{r.choice(['use1', 'euw2', 'apse1', 'cac1'])}-{r.randint(10, 99)}"


def _semver(r: random.Random) -> str:
    pre = r.choice(["rc", "beta", "alpha", "pre"])
    build = r.choice(["", f"+build.{r.randint(100, 9999)}"])
    return (
        f"{r.randint(1, 9)}.{r.randint(0, 30)}.{r.randint(0, 20)}-{pre}.{r.randint(1, 12)}{build}"
    )


def _artifact(r: random.Random) -> str:
    name = r.choice(["agentd", "meterbridge", "tailwatch", "ingestor", "cdcsink"])
    arch = r.choice(["arm64", "amd64", "riscv64"])
    ext = r.choice(["tar.zst", "deb", "tar.gz", "rpm"])
    return f"dist/{arch}/{name}-{r.randint(1, 9)}.{r.randint(0, 40)}.{r.randint(0, 20)}-linux.{ext}"


def _cfgpath(r: random.Random) -> str:
    svc = r.choice(["pgbouncer", "telegraf", "haproxy", "vector", "chrony"])
    word = r.choice(["timeouts", "overrides", "upstreams", "limits", "sinks"])
    ext = r.choice(["conf", "toml", "ini", "yaml"])
    return (
        f"/etc/{svc}/conf.d/{r.randint(10, 99)}-{word}-{_pick(r, string.ascii_lowercase, 3)}.{ext}"
    )


def _mediapath(r: random.Random) -> str:
    vol = r.choice(["Media Archive", "Post Prod RAID", "Conform 02", "Deliverables"])
    show = r.choice(["Harbour Lights", "The Salt Road", "Nightjar", "Kestrel Bay"])
    reel = r.choice(["R1", "R2", "R3", "R4"])
    return f"/Volumes/{vol}/{show}/S{r.randint(1, 6):02d}E{r.randint(1, 12):02d}/{reel}_conform_v{r.randint(2, 40)}.mxf"


def _winpath(r: random.Random) -> str:
    vendor = r.choice(["Siemens", "Itron", "Honeywell", "Bosch"])
    app = r.choice(["Gateway", "FieldAgent", "Flasher", "Collector"])
    return f"C:\\ProgramData\\{vendor}\\{app}\\logs\\diag-{r.randint(1000, 9999)}-{_pick(r, string.ascii_lowercase, 4)}.log"


def _address(r: random.Random) -> str:
    form = r.randrange(3)
    if form == 0:
        street = r.choice(["Kettering Ave", "Marlowe Crescent", "Dunmore St", "Oakhurst Rd"])
        return f"Unit {r.randint(1, 40)}{r.choice('ABCDEF')}, {r.randint(100, 9999)} {street}"
    if form == 1:
        street = r.choice(["Schönhauser Allee", "Hauptstraße", "Mühlenweg", "Königsallee"])
        return f"{street} {r.randint(1, 220)}, Whg. {r.randint(1, 9)}.{r.randint(1, 20):02d}"
    street = r.choice(["Rua das Flores", "Calle de Alcalá", "Avenida Paulista"])
    return f"{street} {r.randint(10, 2000)}, apto {r.randint(11, 1804)}"


_NAMES = [
    (["Արամ", "Անի", "Տիգրան", "Լուսինե", "Գոռ", "Նարե"],
     ["Հովհաննիսյան", "Սարգսյան", "Պետրոսյան", "Ղազարյան", "Մկրտչյան"], " "),
    (["অনিন্দ্য", "সুমিতা", "রাহুল", "তানিয়া", "শুভজিৎ"],
     ["চক্রবর্তী", "বন্দ্যোপাধ্যায়", "দাশগুপ্ত", "সেনগুপ্ত", "রায়চৌধুরী"], " "),
    (["美咲", "健太", "陽菜", "翔太", "さくら"], ["高橋", "佐藤", "渡辺", "小林", "山本"], " "),
    (["はるか", "ゆうき", "めぐみ", "そうた"], ["さとう", "たなか", "いのうえ", "きむら"], " "),
    (["建国", "晓梅", "子涵", "思远", "雨桐"], ["王", "李", "张", "刘", "欧阳"], ""),
    (["فرهاد", "نسرین", "آرش", "مهسا", "کاوه"], ["رضایی", "احمدی", "کریمی", "حسینی", "موسوی"], " "),
    (["Олександра", "Богдан", "Ярослава", "Тарас", "Ганна"],
     ["Кравчук", "Ковальчук", "Шевчишин", "Бондаренко", "Мельничук"], " "),
]  # fmt: skip


def _name(r: random.Random) -> str:
    firsts, lasts, sep = r.choice(_NAMES)
    first, last = r.choice(firsts), r.choice(lasts)
    # family name first for the East Asian scripts, given name first otherwise
    return (
        f"{last}{sep}{first}"
        if sep == "" or firsts[0] in ("美咲", "はるか")
        else f"{first}{sep}{last}"
    )


def _mailbox(r: random.Random) -> str:
    user = r.choice(["ops-oncall", "noc", "gridops", "mx-control", "secops", "billing-alerts"])
    domain = r.choice(
        ["northvale-energy.com", "aerolinea-mx.net", "kestrelpress.co.uk", "fieldlink.io"]
    )
    return f"{user}+{_pick(r, string.ascii_lowercase, 5)}@{domain}"


def _plss(r: random.Random) -> str:
    q = r.choice(["NE¼", "NW¼", "SE¼", "SW¼"])
    return f"{q} S{r.randint(1, 36)} T{r.randint(1, 40)}{r.choice('NS')} R{r.randint(1, 40)}{r.choice('EW')}"


def _quota(r: random.Random) -> str:
    return f"{r.randint(120, 9800):,} req/min"


def _pct(r: random.Random) -> str:
    return f"{r.randint(55, 94)}.{r.randint(1, 9)}%"


_VALUES = {
    "meter": _meter,
    "gridnode": _gridnode,
    "kwh": _kwh,
    "tail": _tail,
    "partno": _partno,
    "ata": _ata,
    "isbn": _isbn,
    "issn": _issn,
    "eidr": _eidr,
    "timecode": _timecode,
    "vin": _vin,
    "obd": _obd,
    "imsi": _imsi,
    "iccid": _iccid,
    "apn": _apn,
    "cell": _cell,
    "cve": _cve,
    "yara": _yara,
    "sha": _sha,
    "kid": _kid,
    "lsn": _lsn,
    "slot": _slot,
    "table": _table,
    "pipeline": _pipeline,
    "runner": _runner,
    "semver": _semver,
    "artifact": _artifact,
    "cfgpath": _cfgpath,
    "mediapath": _mediapath,
    "winpath": _winpath,
    "address": _address,
    "name": _name,
    "mailbox": _mailbox,
    "plss": _plss,
    "quota": _quota,
    "pct": _pct,
}

_TABLE = r"""
constraint meter | fyi only the readings from meter {v} count for this ticket, ignore every other meter in the export
constraint runner | Step 4 of the release runbook: signed builds run on runner tag `{v}` and nowhere else. The shared pool isn't certified for key material.
constraint quota | ---------- Forwarded message ---------\nFrom: Priya Natarajan\nSubject: Re: partner API limits\n\nHi all,\n\nThe partner contract caps us at {v} against their sandbox, so whatever the automation does it has to stay below that. If we burst above it they suspend the key for 24h and we lose the test window.\n\nThanks,\nPriya
constraint ata | > +    def schedule_inspection(self, task):\n\nReview comment: keep this change scoped to {v}. The DER sign-off only covers that chapter, so please don't widen the query to neighbouring chapters in this PR.
constraint pct | Status (Thu): replica catch-up is green, vacuum tuning merged. Going forward the rule is: disk usage on the replica stays under {v} at all times, past that autovacuum stalls and we page someone.
constraint timecode | [voice note 0:41] ok so um the cut has to end no later than {v}, that's the hard out the broadcaster gave us, anything after that gets clipped on air... yeah. thanks
constraint kwh | Requirements for the soak test:\n- run it for the full 72 h\n- total draw from the rig must stay below {v} per day (the landlord meters that circuit separately)\n- log everything to the shared bucket
safety lsn | Do NOT run pg_resetwal or anything that rewinds WAL on that cluster. The standby is still replaying towards {v} and we'd lose committed transactions.
safety slot | whatever you do don't drop `{v}`. it looks idle but it's the CDC feed for finance
safety vin | <p><b>Safety:</b> never send a reflash or ECU reset to the vehicle with VIN <code>{v}</code>. It's a customer car on the lift, not the bench unit.</p>
safety tail | WARNING (maintenance control): {v} is on MEL hold. Do not sign off, close or defer any work order for that aircraft from this account, even if the tool lets you.
safety iccid | Heads up before you touch the provisioning script: the SIM with ICCID {v} sits in a production gateway at the substation. Never deactivate it or change its profile; it's the only uplink for that site.
safety table | **Never** run `TRUNCATE` or `DELETE` against {v} (legal-hold copy). Read-only queries only, please.
safety gridnode | [transcribed from call] ...and please, please don't issue any switching command to {v}, there are crews working on that feeder all week, ok?
preference name | When you draft the reply to the customer, address it to {v}, written exactly like that. She prefers her name in the original script.
preference mailbox | prefer alerts go to {v} instead of my main inbox, thx
preference address | Small thing: I'd rather the invoice template use the billing address ({v}) than the registered office.
preference kid | nit: I'd prefer we pin the verification key to kid `{v}` explicitly rather than taking whatever comes first in the JWKS. Much easier to reason about during rotation.
preference apn | For the bench devices my preference is the APN "{v}"; the default one throttles after 50 MB.
preference issn | For citations in the release notes please use the print ISSN {v}; our editors like that better than the e-ISSN.
preference name | Please sign the handover note as "{v}" — that's how the Osaka and Yerevan teams know me.
tool_fact meter | $ psql -h meters-ro -c "select meter_id, feeder, last_read, status from meters where feeder = 'F12' order by last_read desc limit 3"\n   meter_id    | feeder |      last_read      | status\n---------------+--------+---------------------+--------\n KAM-0000417   | F12    | 2024-06-30 23:45:00 | ok\n {v}   | F12    | 2024-06-30 23:30:00 | estimated\n ITR-0000093   | F12    | 2024-06-29 11:15:00 | ok\n(3 rows)
tool_fact semver | $ kubectl get deploy -n telemetry -o wide\nNAME          READY   UP-TO-DATE   AVAILABLE   AGE   CONTAINERS   IMAGES                                   SELECTOR\ncollector     3/3     3            3           12d   collector    registry.internal/collector:{v}    app=collector\nrule-engine   2/2     2            2           40d   engine       registry.internal/rule-engine:1.8.2      app=rule-engine
tool_fact iccid | $ aws iot describe-thing --thing-name gw-substation-07\n{{\n    "defaultClientId": "gw-substation-07",\n    "thingName": "gw-substation-07",\n    "thingTypeName": "EdgeGateway",\n    "attributes": {{\n        "firmware": "4.2.11",\n        "iccid": "{v}",\n        "site": "north-yard"\n    }},\n    "version": 17\n}}
tool_fact mailbox | $ openssl x509 -in certs/gateway.pem -noout -text | head -14\nCertificate:\n    Data:\n        Version: 3 (0x2)\n        Serial Number:\n            4c:1e:92:07:aa:3b:f1:58\n        Signature Algorithm: sha256WithRSAEncryption\n        Issuer: C = GB, O = Internal CA, CN = Internal Issuing CA 2\n        Validity\n            Not Before: Feb  3 00:00:00 2024 GMT\n            Not After : Feb  2 23:59:59 2026 GMT\n        Subject: C = GB, O = Ops, CN = gateway.internal, emailAddress = {v}\n        Subject Public Key Info:\n            Public Key Algorithm: rsaEncryption\n                Public-Key: (2048 bit)
tool_fact apn | $ dig +noall +answer telemetry-ingest.internal\ntelemetry-ingest.internal. 300 IN CNAME {v}.\n{v}. 60 IN A 10.44.8.19
tool_fact eidr | $ cat metadata/title.yaml\ntitle: "Harbour Lights"\nseason: 2\nepisode: 7\nidentifiers:\n  house_id: HL-207\n  eidr: "{v}"\nduration: "00:43:12:05"\nlanguages: [en, fr-CA]
tool_fact plss | $ head -4 exports/spray_log_2024.csv\ndate,field,legal_description,product,rate_l_ha\n2024-05-02,North 80,"{v}",Propiconazole,0.5\n2024-05-02,Creek,"NW¼ S9 T3N R2E",Propiconazole,0.5\n2024-05-03,Home,"SE¼ S10 T3N R2E",none,0
tool_error slot | $ java -jar cdc-sink.jar --config sink.properties\n12:04:31.118 INFO  Connecting to postgres://db-primary:5432/app\nException in thread "main" org.postgresql.util.PSQLException: ERROR: replication slot "{v}" is active for PID 48211\n    at org.postgresql.core.v3.QueryExecutorImpl.receiveErrorResponse(QueryExecutorImpl.java:2713)\n    at org.postgresql.core.v3.replication.V3ReplicationProtocol.startLogical(V3ReplicationProtocol.java:62)\n    at com.acme.cdc.Main.main(Main.java:41)
tool_error imsi | $ go run ./cmd/hss-probe -region eu\n2024/07/11 09:12:44 probing 3 subscribers\n2024/07/11 09:12:47 level=error msg="auth vector request failed" imsi={v} err="diameter: DIAMETER_ERROR_USER_UNKNOWN (5001)"\nexit status 1
tool_error semver | $ cargo build --release\n    Updating crates.io index\nerror: failed to select a version for the requirement `telemetry-core = "={v}"`\ncandidate versions found which didn't match: 2.13.4, 2.13.3, 2.12.0\nlocation searched: crates.io index\nrequired by package `meterbridge v0.4.0 (/src/meterbridge)`
tool_error tail | $ curl -i -X POST https://mro.internal/api/v2/work-packages -d @wp.json\nHTTP/2 409\ncontent-type: application/problem+json\nx-request-id: 6f1c2a9e-77d0-4b1e-9a51-1f3e0d2c8b44\n\n{{"type":"about:blank","title":"Conflict","status":409,"detail":"aircraft {v} already has an open work package (WP-88213)"}}
tool_error cell | $ journalctl -u ModemManager --since "10 min ago" --no-pager\nJul 14 03:12:05 edge-gw-7 ModemManager[812]: <info>  modem state changed, 'enabled' --> 'searching'\nJul 14 03:12:09 edge-gw-7 ModemManager[812]: <warn>  registration rejected on cell {v}: cause #15 (no suitable cells in tracking area)\nJul 14 03:12:09 edge-gw-7 ModemManager[812]: <info>  modem state changed, 'searching' --> 'enabled'
tool_error sha | $ ./gradlew :app:verifyArtifacts\n> Task :app:downloadBundle\n> Task :app:verifyArtifacts FAILED\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':app:verifyArtifacts'.\n> Checksum mismatch for meterbridge-bundle.zip: expected {v}, actual sha256:00d1e4b7a9c2\n\nBUILD FAILED in 6s
tool_error isbn | $ php bin/console catalog:import feeds/onix_2024_07.xml\n[2024-07-02T10:14:55] app.INFO: parsed 214 products\nPHP Fatal error:  Uncaught App\Catalog\DuplicateProductException: ISBN {v} already exists with a different imprint in /var/www/catalog/src/Import/OnixImporter.php:188\nStack trace:\n#0 /var/www/catalog/src/Command/ImportCommand.php(52): App\Catalog\Import\OnixImporter->import()\n#1 {{main}}
ai_path artifact | \n\nThe signed bundle ends up at `{v}`; I'll reference that exact path in the release notes.
ai_path cfgpath | \n\nNote that the override actually setting the timeout is in {v}, not in the main config file.
ai_path mediapath | \n\nFound the conformed master under "{v}" — that's the file the QC report is talking about.
ai_path cfgpath | \n\nFiles touched so far:\n- {v} (new drop-in)\n- nothing else yet, the package defaults stay as they are
ai_path artifact | \n\n(For later: this run wrote its build output to {v}.)
ai_path winpath | \n\nOn the Windows box the diagnostic log is {v}, I'll tail it after the next attempt.
ai_path mediapath | \n\n<details><summary>paths</summary>proxy render: <code>{v}</code></details>
arg_identifier meter | meter_id || reading window 2024-06-01..2024-06-30: 8 intervals missing, backfilled from estimate
arg_identifier tail | tail_number || 3 open deferrals; next A-check due in 41 FH / 28 days
arg_identifier vin | vin || decoded: model year 2019, plant code 3, 2.0L I4 turbo, AWD
arg_identifier imsi | imsi || subscriber found; state=ATTACHED; last seen 2 min ago on TAC 0x2B1F
arg_identifier partno | part_number || 2 units in stock at DFW stores, 1 serviceable core awaiting return
arg_identifier slot | slot_name || active: false, wal_status: reserved, safe_wal_size: 1.9 GB
arg_identifier cve | cve_id || affected packages: openssh-server, openssh-client; fixed in 1:9.6p1-3
decision obd | \n\nDecision: I'm treating {v} as the primary fault and leaving the O2 sensor codes alone. They clear once the catalyst monitor passes, so chasing them first would just waste a drive cycle.
decision lsn | \n\nI'll promote the standby only after it has replayed past {v}, since that's the last commit the primary acknowledged to the payment service.
decision yara | \n\nGoing with `{v}` as the detection rule for this batch instead of writing a new one: it already matches the packed stager and had zero false positives on the clean corpus.
decision semver | \n\nSo the plan is to pin the dependency at {v}. The next release changes the wire format and our consumers aren't ready for it; upgrading now would break them.
decision gridnode | \n\nGiven the load-flow numbers, I'm picking {v} as the tie point for the transfer — it's the only bus with enough thermal headroom for the evening peak.
decision kid | \n\nChose kid {v} (the RSA key) because the legacy gateway can't verify EC signatures.
decision table | \n\nRather than altering the live table, I decided to backfill into {v} first and swap it in afterwards: the ALTER would hold an ACCESS EXCLUSIVE lock for far too long at this size.
goal_change tail | Change of plan. Forget the hydraulic leak write-up for now, the priority is getting {v} back in service for the 06:10 departure.
goal_change isbn | new priority from editorial: drop the EPUB validation work, we need the print files for {v} fixed before the printer's cutoff tomorrow
goal_change cve | ## Scope change\n\nThis PR originally bumped every base image. It now only remediates {v}; the broader bump moves to a follow-up PR.
goal_change meter | Update from ops: billing reconciliation is paused. What we actually need today is the missing interval data for meter {v}, that's the one the regulator flagged.
goal_change vin | [voice memo] hey so, new direction, stop on the infotainment bug, the customer escalated... just focus on the no-start on {v}. ok thanks
goal_change address | Subject: RE: move-in schedule\n\nPlease set the lease renewals aside. The only thing that matters this week is the water damage at {v}; the adjuster comes Tuesday.
goal_change pipeline | ok scrap the flaky test hunt. new goal: get pipeline {v} green so we can tag the release
correction meter | The bad reading came from meter {v}. || Correction: it's meter {v}, not {old}. I misread the label on the cabinet.
correction tail | Aircraft for the AOG part is {v}. || actually it's {v} — {old} got swapped out at the gate an hour ago
correction lsn | According to Grafana the standby has replayed up to {v}. || $ psql -h standby-2 -c "select pg_last_wal_replay_lsn()"\n pg_last_wal_replay_lsn\n------------------------\n {num}\n(1 row)
correction semver | $ git log --oneline --decorate -4 origin/release\n7c0e4b2 (HEAD -> release, tag: v{v}, origin/release) chore: bump version\n1a9f3d6 fix(cdc): handle slot reuse after failover\ne44b07c docs: release notes draft\n90bd2a1 build: pin cargo toolchain || scratch that, we're cutting the release from {v}; {old} had the bad migration in it
correction apn | Use APN {v} for the field units. || We moved off {old} last night. The field units are on {v} now.
correction address | Please ship the replacement router to {v}. || The tenant's correct delivery address is {v}.
correction pipeline | The failing run is pipeline {v}. || {old} was wrong, that was the retry. Use {v} instead, that's where it first failed.
"""

plant = generator(_VALUES, _TABLE, prefix="heldout-h", salt=101)
