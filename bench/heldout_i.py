# ruff: noqa: E501
"""The ninth held-out canary set, written without reading the library's recognizers or
any other generator's templates.

Its author read only ``bench/_plant.py`` (the planting machinery and the table format),
the module docstring and ``KINDS`` of ``bench/canaries.py``, ``bench/_generators.py``,
``tests/test_generators.py``, the import lines of ``bench/fidelity_bench.py``, the ruff
settings in ``pyproject.toml`` and the first records of two corpus trajectories.

Its value shapes come from clinical trials and pharmacy, maritime shipping, legal
contracts, music production, sports statistics, astronomy, retail inventory, HR and
payroll, genomics, game development, railways, weather reports, banking (IBAN, BIC),
chemistry (CAS numbers) and geography (coordinates in several notations); phrasings
vary register, length and where in the message the value sits.

Once it has been read to tune the library it is no longer held out: it was read once
``heldout_j.py`` had been written (a command run again, a pruned failure, a timetable's
rows, a YAML ``id:``, "no longer meeting at X" came from its misses).
"""

from __future__ import annotations

import datetime
import random
import string
import unicodedata

from _plant import generator

__all__ = ["plant"]

_FIRST = "Zoë Søren Đorđe Inês Małgorzata Jürgen Aoife Łukasz Émilie Björk Nuño Çağla Tomáš Renée Håkon Maëlle Oğuz Siobhán Agnieszka Yūto".split()
_LAST = "Đurić Nakamura-Holm Ågård Kovács Ó'Briain Müller-Lüdenscheidt Şahin Nørgaard Ferreira Dvořák Lindqvist Østergaard Quiñones Ibáñez Wróblewski Kjærsgaard".split()
_MON = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()
_LOCODE = "NLRTM SGSIN DEHAM CNSHA USLAX BEANR ESALG JPYOK BRSSZ ZADUR KRPUS PLGDN".split()
_OPS = "RJX ICE TGV EC IR Frecciarossa Pendolino SJ".split()
_ICAO = "LSZH EGLL EKCH ENGM LOWW EDDM LFPG EBBR LPPT ESSA".split()
_WORDS = "render.shadow audio.mixer physics.solver net.replication ui.hud ai.navmesh streaming.pool input.haptics".split()
_LEAF = "cascade_count max_voices substeps tick_rate scale_pct agent_radius budget_mb rumble_gain".split()
_HOSTS = (
    "harbour-ops trialdata stem-vault leaderboard seqcore payroll-eu railplan obs-queue".split()
)
_TITLES = "Night Ferry|Salt Lantern|Glass Harbour|Copper Meridian|Paper Comet|Slow Tide|Velvet Signal|Iron Orchard".split(
    "|"
)


def _d(r: random.Random, n: int) -> str:
    return "".join(r.choice(string.digits) for _ in range(n))


def _up(r: random.Random, n: int) -> str:
    return "".join(r.choice(string.ascii_uppercase) for _ in range(n))


def _fold(s: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))


def _name(r: random.Random) -> str:
    return f"{r.choice(_FIRST)} {r.choice(_LAST)}"


def _email(r: random.Random) -> str:
    first, last = r.choice(_FIRST).lower(), r.choice(_LAST).lower().replace("'", "")
    local = f"{first}.{last}" if r.random() < 0.4 else _fold(f"{first[0]}{last}{r.randint(2, 99)}")
    return f"{local}@{r.choice(_HOSTS)}.{r.choice(['example', 'example.org', 'test.eu'])}"


def _iban(r: random.Random) -> str:
    cc, bban = r.choice(
        [
            ("DE", _d(r, 18)),
            ("NL", _up(r, 4) + _d(r, 10)),
            ("CH", _d(r, 17)),
            ("ES", _d(r, 20)),
            ("GB", _up(r, 4) + _d(r, 14)),
        ]
    )
    digits = "".join(str(int(c, 36)) for c in bban + cc + "00")
    raw = f"{cc}{98 - int(digits) % 97:02d}{bban}"
    return " ".join(raw[i : i + 4] for i in range(0, len(raw), 4))


def _bic(r: random.Random) -> str:
    return f"{_up(r, 4)}{r.choice(['DE', 'FR', 'CH', 'NL', 'AT', 'SE'])}{_up(r, 1)}{r.randint(2, 9)}{r.choice(['XXX', _up(r, 1) + _d(r, 2)])}"


def _cas(r: random.Random) -> str:
    body = str(r.randint(10, 9_999_999)) + _d(r, 2)
    check = sum(i * int(c) for i, c in enumerate(reversed(body), 1)) % 10
    return f"{body[:-2]}-{body[-2:]}-{check}"


def _date(r: random.Random) -> str:
    y, m, d = r.randint(2024, 2027), r.randint(1, 12), r.randint(1, 28)
    hh, mm = r.randint(0, 23), r.choice(range(0, 60, 5))
    day = datetime.date(y, m, d).strftime("%a")
    return r.choice(
        [
            f"{y}-{m:02d}-{d:02d}T{hh:02d}:{mm:02d}:00{r.choice(['Z', '+02:00', '-05:00', '+09:30'])}",
            f"{d:02d}.{m:02d}.{y} {hh:02d}:{mm:02d}",
            f"{day} {d} {_MON[m - 1]} {y}, {hh:02d}:{mm:02d} {r.choice(['CET', 'CEST', 'UTC', 'JST'])}",
            f"{m:02d}/{d:02d}/{y} {hh % 12 or 12}:{mm:02d} {'PM' if hh >= 12 else 'AM'}",
            f"{d:02d}{_MON[m - 1].upper()}{y % 100:02d}/{hh:02d}{mm:02d}Z",
        ]
    )


def _money(r: random.Random) -> str:
    n, c = r.randint(1_200, 990_000), r.randint(0, 99)
    return r.choice(
        [
            f"€{n:,}.{c:02d}".replace(",", "_").replace(".", ",").replace("_", "."),
            f"CHF {n:,}.{c:02d}".replace(",", "'"),
            f"¥{n * 10:,}",
            f"USD {n:,}.{c:02d}",
            f"£{n:,}.{c:02d}",
            f"R$ {n:,}.{c:02d}".replace(",", "_").replace(".", ",").replace("_", "."),
        ]
    )


def _coord(r: random.Random) -> str:
    la, lo = r.uniform(-70, 70), r.uniform(-179, 179)

    def dms(x: float, pos: str, neg: str) -> str:
        a = abs(x)
        return f"{int(a)}°{int(a * 60) % 60:02d}′{int(a * 3600) % 60:02d}″{pos if x >= 0 else neg}"

    return r.choice(
        [
            f"{dms(la, 'N', 'S')} {dms(lo, 'E', 'W')}",
            f"{la:.5f}, {lo:.5f}",
            f"geo:{la:.4f},{lo:.4f};u=25",
            f"{abs(la):.3f}°{'N' if la >= 0 else 'S'} / {abs(lo):.3f}°{'E' if lo >= 0 else 'W'}",
        ]
    )


def _path(r: random.Random) -> str:
    area = r.choice(
        ["genomics/run", "trials/export", "shipping/manifests", "audio/bounces", "payroll/batch"]
    )
    leaf = r.choice(
        [
            "S17_L002.bam",
            "dose-table.v3.xlsx",
            "bol_scan.pdf",
            "mix-final[24bit].wav",
            "journal.csv.gz",
        ]
    )
    return (
        f"/srv/{area}_{_d(r, 4)}/{r.choice(['raw', 'out', 'tmp', 'qc'])}.{r.randint(1, 9)}/{leaf}"
    )


def _winpath(r: random.Random) -> str:
    return f"D:\\Sessions\\{r.choice(_FIRST)} tapes\\{r.choice(_TITLES)} {r.randint(2, 40)}\\bounce_{_d(r, 3)}.wav"


def _uri(r: random.Random) -> str:
    return r.choice(
        [
            f"s3://{r.choice(_HOSTS)}-{_d(r, 3)}/{r.choice(['reads', 'stems', 'bol', 'sdtm'])}/2025/part-{_d(r, 5)}.parquet",
            f"gs://{r.choice(_HOSTS)}/{_up(r, 2).lower()}{_d(r, 2)}/export#gen={_d(r, 6)}",
            f"https://{r.choice(_HOSTS)}.example/v2/files/{_d(r, 4)}-{_up(r, 3).lower()}?rev={r.randint(2, 90)}",
            f"sftp://edi@{r.choice(_HOSTS)}.example:2222/inbound/{_up(r, 3)}_{_d(r, 6)}.edi",
        ]
    )


_VALUES = {
    "trial": lambda r: (
        f"{r.choice(['ONC', 'CARD', 'NEU', 'DERM', 'HEM'])}-{r.randint(100, 999)}/ph{r.choice('123')}{r.choice('ab')}.{r.randint(1, 40):02d}"
    ),
    "dose": lambda r: (
        f"{r.randint(2, 480)}.{r.choice('05')}mg/{r.choice(['kg', 'm²', 'dL', 'day'])}"
    ),
    "lot": lambda r: f"L{r.randint(10, 99)}{_up(r, 2)}#{_d(r, 4)}-{r.choice('ABCK')}",
    "container": lambda r: f"{_up(r, 3)}U{_d(r, 6)}-{r.randint(0, 9)}",
    "imo": lambda r: f"IMO 9{_d(r, 6)}",
    "portcall": lambda r: (
        f"{r.choice(_LOCODE)}:B{r.randint(2, 60)}{r.choice('ABC')}/{_d(r, 4)}{r.choice('EWNS')}"
    ),
    "clause": lambda r: (
        f"§{r.randint(2, 29)}.{r.randint(1, 12)}({r.choice('abcdefg')})({r.choice(['i', 'ii', 'iii', 'iv', 'vi', 'ix'])})"
    ),
    "contract": lambda r: f"MSA-{r.randint(2019, 2026)}-{_d(r, 4)}#A{r.randint(1, 19)}",
    "money": _money,
    "slash": lambda r: (lambda a: f".{a}/.{a + r.randint(30, 110)}/.{a + r.randint(60, 300)}")(
        r.randint(180, 340)
    ),
    "sky": lambda r: (
        f"J{r.randint(0, 23):02d}{r.randint(0, 59):02d}{r.choice('+-')}{r.randint(0, 89):02d}{r.randint(0, 59):02d}"
    ),
    "sku": lambda r: (
        f"SKU:{_d(r, 2)}-{_up(r, 2)}-{_d(r, 3)}/{r.choice(['BLK', 'NVY', 'OLV', 'RST'])}+{r.choice(['XS', 'M', 'XL', '3XL'])}"
    ),
    "emp": lambda r: f"E#{_d(r, 5)}-{r.choice(['ZH', 'BE', 'LU', 'VIE', 'OSL'])}",
    "variant": lambda r: (
        lambda a, b: f"NM_{_d(r, 6)}.{r.randint(1, 9)}:c.{r.randint(40, 4400)}{a}>{b}"
    )(*r.sample("ACGT", 2)),
    "locus": lambda r: (
        f"chr{r.choice([*map(str, range(1, 23)), 'X'])}:{r.randint(1_000_000, 150_000_000):,}-{r.randint(150_000_001, 180_000_000):,}"
    ),
    "semver": lambda r: (
        f"v{r.randint(0, 9)}.{r.randint(0, 40)}.{r.randint(0, 30)}-rc.{r.randint(1, 9)}+build.{_d(r, 4)}"
    ),
    "range": lambda r: (lambda a, b, c: f">={a}.{b}.{c},<{a + 1}.0.0")(
        r.randint(1, 12), r.randint(0, 30), r.randint(1, 20)
    ),
    "cfgkey": lambda r: (
        f"{r.choice(_WORDS)}.{r.choice(_LEAF)}={r.choice([str(r.randint(2, 512)), 'false', 'auto'])}"
    ),
    "train": lambda r: f"{r.choice(_OPS)} {r.randint(100, 9899)}",
    "metar": lambda r: (
        f"{r.choice(_ICAO)} {r.randint(1, 28):02d}{r.randint(0, 23):02d}{r.choice(['20', '50'])}Z {r.randint(1, 36) * 10:03d}{r.randint(3, 25):02d}G{r.randint(26, 45)}KT"
    ),
    "temp": lambda r: f"{r.choice(['−', '+'])}{r.randint(0, 38)}.{r.randint(0, 9)}°C",
    "iban": _iban,
    "bic": _bic,
    "cas": _cas,
    "coord": _coord,
    "date": _date,
    "name": _name,
    "email": _email,
    "title": lambda r: (
        f"“{r.choice(_TITLES)} ({r.choice(['stem mix', 'radio edit', 'take', 'alt vox'])} {r.randint(2, 30)})”"
    ),
    "bpm": lambda r: f"{r.randint(62, 178)}.{r.randint(0, 9)}bpm",
    "seed": lambda r: f"0x{''.join(r.choice('0123456789ABCDEF') for _ in range(8))}",
    "path": _path,
    "winpath": _winpath,
    "uri": _uri,
    "asset": lambda r: (
        f"Assets/Prefabs/{r.choice(['Boss', 'NPC', 'Prop', 'Vehicle'])}_{r.choice(['Golem', 'Heron', 'Tram', 'Lantern'])}{r.randint(2, 99)}#LOD{r.randint(0, 3)}.prefab"
    ),
}

_TABLE = r"""
constraint money | Hard limit for this whole job: vendor spend cannot go over {v}. Anything above that needs a new purchase order, so stop and ask me first.
constraint dose | Quick context before you continue. The sponsor reviewed the plan yesterday and was fine with most of it. One thing is non-negotiable though: the dose ceiling stays at {v}, no matter what the model output suggests.
constraint imo | Requirements from the charter party, please keep them in mind:\n- laytime counts from tender of NOR\n- bunkers are for owners' account\n- the nominated vessel is {v} and no substitute hull is allowed\n- demurrage as per the rider clauses
constraint range | Whatever you change, keep the engine SDK dependency pinned (it has to satisfy {v}, the console toolchain refuses anything else).
constraint date | {v} is the absolute cut-off for the filing; nothing may be lodged with the registry after that, and late filings are void.
constraint emp | I've been going back and forth with finance about this all morning and I think we finally have clarity, so let me write it down once. Retro-pay corrections may only be booked for employee {v} in this run. Nobody else's record is to be touched until the works council signs off.
constraint coord | please make sure every waypoint you output stays inside the survey box. the north-west corner is {v} and the permit doesn't cover anything beyond it
constraint sky | The telescope time we got is tied to one field, {v}. Don't propose pointings anywhere else — the TAC will reject the whole block if we drift.
constraint train | fyi: nothing we schedule can conflict with {v}, that path is reserved by the infrastructure manager for the whole timetable period.
constraint bpm | For the sync licence to hold, every edit we deliver must stay locked at {v}; the picture editor has already cut to that grid.
safety iban | Do NOT, under any circumstances, initiate a transfer to {v}. That account is under a fraud hold and compliance is watching it.
safety path | Before you touch anything else: never delete, move or overwrite {v}. It's the only copy of those reads and the sequencer has already been wiped.
safety cas | Safety note from the lab manager. Substance {v} must never go into the aqueous waste stream. If a procedure calls for that, stop and flag it instead of improvising.
safety uri | please don't push anything to {v} — it's wired straight to production and players would see it instantly
safety lot | Heads up, this is important: lot {v} is quarantined after the stability failure. It must not be dispensed, relabelled, or moved back to the active shelf.
safety email | Two rules for this session. First, keep the raw logs. Second, and this one matters more: payslip PDFs never go to anyone except {v}; sending them elsewhere is a data-protection breach.
safety container | Under no circumstances should the script release {v} from the hold. Customs has not cleared it and a premature release is a criminal matter here.
safety cfgkey | Whatever happens, leave the line `{v}` exactly as it is. Flipping it bricked every devkit in the studio last time.
safety contract | Reminder from legal (privileged): do not send, quote or forward anything from {v} outside the deal team.
safety temp | One cold-chain rule I need you to respect: if any reefer log shows a reading above {v}, that cargo is not to be released or re-labelled, full stop. Quality decides, not us.
safety train | Never dispatch {v} onto the single-track section while the signal works are on — there is no interlocking protection there this week.
preference date | I'd rather you write times like {v} in the port report, that's the notation the harbour master reads fastest.
preference title | Small thing, but for loudness comparisons I prefer {v} as the reference track. It's mastered the way the label wants the rest to sound.
preference clause | When you cite the agreement, I like it cited to the exact sub-paragraph, for example {v}, rather than just the article.
preference email | If the report needs a contact, my preference is {v} rather than the shared inbox (the shared one is a black hole).
preference sku | For the retail dashboards I usually go with {v} as the sample item. It has the messiest history, so it's a good stress test.
preference bpm | Default to {v} for any click tracks you generate unless I say otherwise; that's what the drummer is comfortable with.
preference slash | When the mock-ups need an example batting line, I'd like {v} rather than zeros, something believable.
preference semver | honestly when in doubt just take {v} as the baseline for perf comparisons, it's the one build i trust
preference metar | My go-to sample for weather parsing is the line {v}. It has gusts, which is exactly where parsers tend to trip.
preference name | Thanks. Going forward I'd prefer {v} as the named reviewer on the memos; they sign off on most of them anyway.
tool_fact trial | $ curl -s -i https://api.trials.internal/v1/studies/current\nHTTP/1.1 200 OK\ncontent-type: application/json\nx-request-id: 5c1e0a7d\n\n{{"study": {{"protocol": "{v}", "status": "enrolling", "sites": 14, "arms": ["placebo", "low", "high"], "dsmb_next": "Q3"}}}}
tool_fact sku | $ inventory ls --warehouse DC-3 --sort on_hand --top 5\nSKU                              ON_HAND  RESERVED  BIN\nSKU:11-QP-204/BLK+M                 1 204        88  A-12-03\n{v}                    977       310  C-04-11\nSKU:52-LR-019/NVY+XS                  641        12  A-02-07\nSKU:08-TT-771/OLV+L                   402         0  F-19-01\nSKU:73-KM-330/RST+S                   118        17  B-07-22\n5 rows (DC-3, snapshot 06:00)
tool_fact imo | $ cat voyages/current.yaml\nvoyage:\n  number: 044W\n  vessel:\n    name: MV Nordlys Trader\n    id: {v}\n    flag: MT\n  load_port: DEHAM\n  discharge_port: SGSIN\n  cutoff: 2025-11-03T18:00Z\n  reefers: 36
tool_fact emp | $ payroll show --employee self\nName ................ (redacted)\nEmployee ID ......... {v}\nEntity .............. CH01 / Zürich\nPay group ........... monthly-salaried\nLast run ............ closed\nBank ................ on file (verified)
tool_fact sky | $ tail -n 5 /var/log/observatory/scheduler.log\n2025-10-14 21:02:11 INFO  weather gate open (seeing 0.8")\n2025-10-14 21:02:12 INFO  queue refreshed, 37 blocks eligible\n2025-10-14 21:02:12 INFO  next target locked: {v} (airmass 1.21)\n2025-10-14 21:02:13 DEBUG guider handshake ok\n2025-10-14 21:02:15 INFO  slew started
tool_fact variant | $ annotate-top --sample S17 --max 1\nTop hit (ACMG: likely pathogenic)\n  hgvs: {v}\n  gene: CFTR\n  zygosity: het\n  depth: 64x   qual: 812\n  gnomAD AF: 0.00003
tool_fact metar | $ wx metar --station primary --raw\n{v} 9999 FEW025 BKN040 12/04 Q1018 NOSIG=
tool_fact semver | $ ./Tools/print-version.sh\ngame: {v}\nengine: 5.3.2 (custom)\nplatforms: win64 ps5 xsx
tool_fact bic | $ bank-cli beneficiary show 3\nbeneficiary_id: 3\nholder: Werft Nord GmbH\nbic: {v}\nscheme: SEPA-SCT\nverified_at: 2025-09-30
tool_fact cas | $ chemreg get --bottle 4471\nbottle: 4471\nlabel: 'solvent B (HPLC grade)'\ncas: {v}\nhazard: H225 H319\nshelf: FC-2 (flammables cabinet)\nexpires: 2026-04
tool_fact train | $ timetable --from ZUE --next 4\nDEP    TRAIN                TO              PLAT\n06:42  S 12                 Winterthur      31\n06:47  {v}       Wien Hbf        8\n06:53  IR 36                Basel SBB       14\n07:02  S 8                  Pfäffikon SZ    32
tool_error container | $ python scripts/reconcile_manifest.py --voyage 044W\nloading 1,882 bills of lading ... done\nTraceback (most recent call last):\n  File "scripts/reconcile_manifest.py", line 141, in <module>\n    main()\n  File "scripts/reconcile_manifest.py", line 118, in main\n    check_duplicates(bols)\n  File "scripts/reconcile_manifest.py", line 67, in check_duplicates\n    raise ManifestError(msg)\nManifestError: container {v} appears on two bills of lading (HLCU-88120, HLCU-88131)
tool_error bic | $ curl -s -i -X POST https://payments.example/api/transfers -d @transfer.json\nHTTP/1.1 422 Unprocessable Entity\ncontent-type: application/problem+json\n\n{{"type": "about:blank", "title": "invalid_bic", "status": 422, "detail": "BIC {v} is not reachable for SEPA instant"}}
tool_error asset | $ make cook PLATFORM=ps5\n[ 38%] Cooking materials\n[ 41%] Cooking prefabs\nCookError: unresolved mesh reference in {v} (LOD chain broken)\nmake: *** [Makefile:212: cook] Error 2
tool_error dose | $ pytest tests/test_dosing.py -q\n..F.\n=================================== FAILURES ===================================\n____________________________ test_ceiling_cohort_2 _____________________________\nE   AssertionError: computed {v} exceeds protocol maximum\nFAILED tests/test_dosing.py::test_ceiling_cohort_2\n1 failed, 3 passed in 0.41s
tool_error sky | $ ephem compute --target next --kernel de440s.bsp\nerror[E0217]: no ephemeris coverage for {v}\n  = help: the target list references an object missing from the catalogue
tool_error train | $ journalctl -u rail-dispatch --since -10m --no-pager\nOct 14 06:31:02 disp01 dispatch[912]: INFO  plan loaded (412 paths)\nOct 14 06:31:05 disp01 dispatch[912]: WARN  platform 7 short by 40 m for double traction\nOct 14 06:31:05 disp01 dispatch[912]: ERROR path conflict: {v} and IC 708 both claim block 14-22 at 06:58\nOct 14 06:31:05 disp01 dispatch[912]: INFO  plan NOT published
tool_error emp | $ hr-sync push --dry-run\n{{"ok": false, "errors": [{{"field": "employee_id", "value": "{v}", "msg": "unknown employee in target entity"}}], "checked": 318}}
tool_error locus | $ samtools faidx ref/GRCh38.fa -r regions.txt\n[faidx] Truncated sequence: {v}\n[faidx] Failed to fetch 1 of 12 regions
tool_error cas | $ reagent-order submit cart.csv\nvalidating 9 lines ...\nRejected (line 7): CAS {v} is on the restricted precursor list; approval form REG-3 required.\n0 orders placed.
tool_error metar | $ wx ingest --feed metar --since 06:00\ningested 214 reports\nparse error at record 215: unexpected gust group in "{v}"\naborting batch (strict mode)
ai_path path | \n\nI'll write the cleaned output next to the original, at {v}, so nothing gets clobbered.
ai_path uri |  (For reference, the intermediate export lives at {v}.)
ai_path winpath | \n\nNote for later: the bounce we need to compare against is {v}.
ai_path path |  The file that actually gets read at runtime turns out to be {v}, not the one in the repo root.
ai_path uri | \n\nPlan:\n1. read the manifest\n2. diff it against {v}\n3. report the mismatches back to you
ai_path uri | \n\nThe second sequencing run was uploaded to {v}; I'll pull from there when we get to alignment.
ai_path path |  Saving a backup copy to {v} first, just in case.
ai_path asset | \n\nOne more thing I noticed: the prefab named in the crash dump is {v}, which is consistent with the LOD problem.
ai_path winpath | \n\nFor the record, the session's reference bounce is {v} — I'll level-match everything against that.
arg_identifier trial | protocol_id || {"protocol": "ok", "enrolled": 212, "target": 300, "screen_fail_rate": 0.18, "last_randomised": "2025-10-12"}
arg_identifier imo | imo_number || Vessel found. Position 53.54N 009.97E, speed 0.0 kn, status: moored. Next port DEHAM, ETA passed.
arg_identifier sku | sku || on_hand=977 reserved=310 in_transit=120 reorder_point=400 supplier=VN-Ho Chi Minh lead_time=34d
arg_identifier emp | employee_id || {"status": "active", "entity": "CH01", "pay_group": "monthly", "open_corrections": 2}
arg_identifier variant | hgvs || ClinVar: 3 submissions (2 likely pathogenic, 1 VUS). Review status: criteria provided, conflicting interpretations.
arg_identifier iban | beneficiary_iban || IBAN checksum valid. Bank reachable via SEPA-SCT and SCT Inst. Name check: close match.
arg_identifier cas | cas_number || 3 containers in stock: FC-2 (2.5 L), FC-4 (1 L), cold room (500 mL, opened).
arg_identifier semver | build_tag || artifact found: 4 platforms, 18.2 GB total, smoke tests 212/214 passing, signed: yes
arg_identifier sky | designation || visible 21:40-03:15 local, max altitude 71°, moon separation 48°
arg_identifier contract | contract_ref || Agreement located. Parties: 2. Amendments: 3. Governing law: England & Wales. Renewal notice: 90 days.
correction container | The shipment goes out on {v}. || Correction: the box is {v}, not {old} — the first one failed the reefer pre-trip inspection.
correction dose | Set the cohort 2 cap to {v} for now. || Scratch that, cohort 2 gets {v}.
correction money | The approved budget for the mix and master is {v}. || I was wrong earlier about the budget. It's {v}; the number I gave you was the old quote.
correction name | The reviewer on the memo is {v}. || Update: the memo reviewer has changed. Please put {v} on it from now on.
correction iban | Please send the settlement to {v}. || Hold on. The beneficiary's bank wrote back this morning. The payment goes to {v} instead, because {old} is being closed.
correction semver | Our perf baseline build is {v}. || The baseline moved from {old} to {v} after the hotfix landed.
correction coord | Meeting point for the survey team: {v}. || We're no longer meeting at {old}. New rendezvous is {v}.
correction variant | The variant we're chasing is {v}. || actually it's {v}, I copied the wrong transcript earlier
correction clause | Refer to {v} in the cover letter. || Small fix to what I said before: the relevant provision is {v}. Please don't cite {old} anywhere.
correction sky | Tonight's primary target is {v}, according to my notes. || $ obs-plan show --tonight\nnight: 2025-10-14\nprimary_target: {v}\nairmass_max: 1.6\nnote: plan revised 16:02 UTC, supersedes earlier draft
correction portcall | We berth at {v} on this rotation. || $ edi-status --voyage 044W\nmessage: BERMAN v3 (amended)\nberth_call: {v}\nstatus: confirmed by terminal
correction cas | The solvent for step 4 is CAS {v}. || $ chemreg get --bottle 4471 --fresh\nbottle: 4471\ncas: {v}\nnote: label reprinted 2025-10-13 after audit
correction emp | $ hr-sync get --who me\nemployee_id: {v}\nentity: CH01\nstatus: active || That ID is stale. Since the entity migration it's {v}.
correction semver | $ ./Tools/print-version.sh --short\n{v} || $ git pull && ./Tools/print-version.sh --short\nAlready up to date? no: fast-forward 14 commits\n{v}
correction metar | $ wx latest --station primary\n{v} CAVOK 14/06 Q1021\n(cached) || $ wx latest --station primary --no-cache\n{v} 9999 SCT030 13/07 Q1019\n(fresh, observed 4 min ago)
correction locus | $ target-regions --panel cardio-v2\nprimary_locus={v}\npadding=150bp || $ target-regions --panel cardio-v3\nprimary_locus={v}\npadding=150bp\n# v3 replaces v2 for all new samples
decision semver | \n\nDecision: I'm going with {v} as the baseline, because it's the last build without the shader regression.
decision lot |  I'll dispense from {v} rather than the older batch, since the older one is past its retest date.
decision portcall | \n\nAfter weighing both, I chose to route the call via {v}: it avoids the canal restriction and only adds a day.
decision slash | \n\nGoing forward I'll treat {v} as the reference line for the projections, because the other seasons have injury gaps.
decision contract |  So, to keep this simple, we'll settle on {v} — it's the only version the auditor has already signed off on.
decision range | \n\nI've decided to pin the SDK to {v}; the next major drops the console toolchain we still ship with.
decision bic | \n\nChoosing {v} for the test transfer, since it's an internal account and won't trigger a compliance review.
decision locus | \n\nI'm picking {v} as the comparison region — coverage there is above 60x, so the calls are trustworthy.
decision seed |  The reason I'm fixing the world seed to {v}: it's the only one that reproduces the navmesh crash deterministically.
goal_change container | Change of plans. Forget the reconciliation for now; the new goal is to get {v} through customs today.
goal_change trial | ok new priority: we need the dose tables for {v} before anything else. the other study can wait
goal_change title | Let's pivot. Instead of tuning the mix, I now need you to prepare stems for {v} for the label.
goal_change clause | I spoke with the client and they no longer want the full audit. What they want now is a redline of {v} only.
goal_change emp | Stop the current task, please. From here on the objective is to reconcile payroll for {v} and nothing else.
goal_change sky | New direction, sorry for the churn. The main job is now to re-run the scheduler so that {v} gets tonight's best window.
goal_change semver | Scrap the leaderboard work. We're shipping {v} tomorrow, so the goal now is to get that build green.
goal_change sku | The assignment changed overnight. Rather than the full backfill, the goal is now to validate the stock count of {v}; the auditors flagged it.
goal_change train | Thanks for the progress so far. Priorities shifted, though: please focus on re-routing {v} around the track closure instead.
"""

plant = generator(_VALUES, _TABLE, prefix="heldout-i", salt=9091)
