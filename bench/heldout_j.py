# ruff: noqa: E501
"""The tenth held-out canary set, written without reading the library's recognizers or any
other generator's templates.

Its author read only ``_plant.py`` (the planting machinery and the table format), the module
docstring, ``KINDS`` and ``Canary`` of ``canaries.py``, ``_generators.py``,
``tests/test_generators.py``, the ``[tool.ruff]`` settings of ``pyproject.toml``, and the
format section of the corpus README with the first three records of one corpus trajectory.

Its value shapes come from domains the bench had not used: telecom (IMSI, ICCID, E-UTRAN
cell ids, APNs), networking (IPv6 and MAC addresses, VLANs, CIDR blocks, BGP ASNs),
insurance claims and policies, agriculture (plots, harvest lots, hectares), manufacturing
(part numbers with revisions, serials, torque specs), film and video (SMPTE timecodes, camera
reel names), scholarly publishing (DOIs, ORCID ids, US patent numbers), postal codes of the
UK, Canada, the Netherlands and Brazil, Kubernetes (namespaces, pod names, resource limits),
energy (meter readings, tariff codes), education (course codes, rooms), lab science (plate
wells, sample ids, concentrations), hex digests of several lengths, and personal names in
Greek, Cyrillic, Arabic, Devanagari, Hangul and Thai script.

Once it has been read to tune the library it is no longer held out.
"""

from __future__ import annotations

import random
import string

from _plant import generator

__all__ = ["plant"]

D = string.digits
U = string.ascii_uppercase
L = string.ascii_lowercase
H = "0123456789abcdef"
K8S = "bcdfghjklmnpqrstvwxz2456789"  # the alphabet of pod-name suffixes

NAMES = (
    "Δημήτρης Παπαδόπουλος", "Ελένη Κωνσταντίνου", "Νικόλαος Οικονόμου", "Σοφία Βασιλείου",
    "Анастасия Волкова", "Дмитрий Соколов", "Олена Ковальчук", "Сергей Морозов",
    "فاطمة الزهراء", "يوسف الحداد", "ليلى منصور", "عمر الخطيب",
    "प्रिया शर्मा", "अर्जुन मेहता", "कविता अय्यर", "विक्रम सिंह",
    "김민준", "이서연", "박지훈", "최유나",
    "สมชาย ใจดี", "ณัฐวุฒิ ศรีสุข", "พิมพ์ชนก วงศ์ไทย", "อรทัย บุญมา",
)  # fmt: skip


def _s(r: random.Random, alphabet: str, k: int) -> str:
    return "".join(r.choice(alphabet) for _ in range(k))


def _cidr(r: random.Random) -> str:
    return f"10.{r.randint(16, 250)}.{r.randint(0, 63) * 4}.0/{r.choice([22, 23, 24, 26])}"


def _ukpost(r: random.Random) -> str:
    area = r.choice(["SW1A", "EC2M", "M14", "LS6", "EH3", "BS8", "CF10", "G12", "NW5", "B15"])
    return f"{area} {r.randint(1, 9)}{_s(r, 'ABDEFGHJLNPQRSTUWXYZ', 2)}"


def _capost(r: random.Random) -> str:
    a = "ABCEGHJKLMNPRSTVXY"
    return f"{r.choice(a)}{r.randint(0, 9)}{r.choice(a)} {r.randint(0, 9)}{r.choice(a)}{r.randint(0, 9)}"


VALUES = {
    "imsi": lambda r: r.choice(["310260", "234150", "262010", "440100", "505010"]) + _s(r, D, 9),
    "iccid": lambda r: "89" + r.choice(["01", "44", "49", "33", "61"]) + _s(r, D, 15),
    "cell": lambda r: (
        f"ECGI {r.choice(['262-01', '234-15', '310-260', '440-10'])}-{r.randint(10**6, 268435455)}"
    ),
    "apn": lambda r: (
        f"{r.choice(['iot', 'm2m', 'fleet', 'meter', 'telemetry'])}{r.randint(2, 99)}.{_s(r, L, 4)}.example"
    ),
    "ipv6": lambda r: f"2001:db8:{_s(r, H, 4)}:{r.randint(1, 0xFFFF):x}::{_s(r, H, 3)}",
    "mac": lambda r: ":".join(_s(r, H, 2) for _ in range(6)),
    "vlan": lambda r: f"VLAN {r.randint(1100, 4000)}",
    "cidr": _cidr,
    "asn": lambda r: f"AS{r.randint(4200000000, 4294967294)}",
    "policy": lambda r: f"{r.choice(['HO3', 'AUT', 'CGL', 'WC'])}-{_s(r, D, 4)}-{_s(r, D, 6)}",
    "claim": lambda r: f"CLM-{r.randint(19, 25)}-{_s(r, D, 4)}-{_s(r, U, 2)}{_s(r, D, 3)}",
    "plot": lambda r: (
        f"{r.choice(['North', 'Mill', 'Creek', 'Ridge', 'Lower'])} field, plot {r.choice(U)}-{r.randint(10, 99)}{r.choice('abc')}"
    ),
    "harvest": lambda r: (
        f"HL-{r.randint(2019, 2025)}-{r.choice(['WHT', 'BAR', 'SOY', 'CAN', 'MZE'])}-{_s(r, D, 4)}"
    ),
    "hectares": lambda r: f"{r.randint(3, 480)}.{r.randint(1, 9)}{r.randint(0, 9)} ha",
    "part": lambda r: f"PN-{_s(r, D, 4)}-{r.choice('ABCDEFGH')} rev {r.choice('BCDEFGHJK')}",
    "serial": lambda r: f"SN{r.randint(19, 25)}{r.randint(1, 52):02d}-{_s(r, U, 3)}{_s(r, D, 4)}",
    "torque": lambda r: (
        f"{r.randint(8, 120)}.{r.randint(0, 9)} {r.choice(['N·m', 'N·m', 'ft-lbf'])}"
    ),
    "timecode": lambda r: (
        f"{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}:{r.randint(0, 23):02d}"
    ),
    "reel": lambda r: (
        f"{r.choice('ABC')}{r.randint(1, 99):03d}C{r.randint(1, 999):03d}_{r.randint(20, 25)}{r.randint(1, 12):02d}{r.randint(1, 28):02d}_{_s(r, U + D, 4)}"
    ),
    "doi": lambda r: (
        f"10.{r.randint(1000, 99999)}/{r.choice(['zenodo', 'j.agee', 'acs.jpcb', 'nar', 'mnras'])}.{r.randint(2015, 2024)}.{_s(r, D, 5)}"
    ),
    "orcid": lambda r: f"0000-000{r.randint(1, 3)}-{_s(r, D, 4)}-{_s(r, D, 3)}{r.choice(D + 'X')}",
    "patent": lambda r: (
        f"US {r.randint(9, 12)},{_s(r, D, 3)},{_s(r, D, 3)} {r.choice(['B1', 'B2'])}"
    ),
    "ukpost": _ukpost,
    "capost": _capost,
    "nlpost": lambda r: f"{r.randint(1000, 9999)} {_s(r, 'ABCEGHJKLMNPRTVWXZ', 2)}",
    "brpost": lambda r: f"{_s(r, D, 5)}-{_s(r, D, 3)}",
    "k8s_ns": lambda r: (
        f"{r.choice(['payments', 'ingest', 'ledger', 'search', 'ml-serving'])}-{r.choice(['prod', 'stg', 'canary'])}-{_s(r, L + D, 3)}"
    ),
    "k8s_pod": lambda r: (
        f"{r.choice(['ingest-worker', 'ledger-api', 'edge-gateway', 'report-cron'])}-{_s(r, K8S, 10)}-{_s(r, K8S, 5)}"
    ),
    "limits": lambda r: f"{r.randint(3, 79) * 25}m/{r.randint(2, 120) * 64}Mi",
    "meter": lambda r: f"{r.randint(1000, 99999)}.{r.randint(0, 9)} kWh",
    "tariff": lambda r: (
        f"{r.choice(['DOM', 'SME', 'AGR', 'EV'])}-{r.choice(['TOU', 'FLAT', 'E7', 'DYN'])}-{_s(r, D, 4)}"
    ),
    "course": lambda r: (
        f"{r.choice(['CHEM', 'MATH', 'HIST', 'LING', 'EECS', 'BIOL'])} {r.randint(100, 499)}{r.choice(['A', 'L', 'H', 'W'])}"
    ),
    "room": lambda r: (
        f"{r.choice(['Hartley Hall', 'Science Ctr', 'Eng Bldg', 'Main Library'])} {r.randint(1, 4)}.{r.randint(1, 250):03d}"
    ),
    "well": lambda r: f"P{_s(r, D, 4)}:{r.choice('ABCDEFGH')}{r.randint(1, 12):02d}",
    "sample": lambda r: f"S-{r.randint(22, 25)}{r.randint(1, 12):02d}-{_s(r, D, 5)}",
    "conc": lambda r: (
        f"{r.randint(1, 200)}.{r.randint(0, 9)}{r.randint(1, 9)} {r.choice(['µM', 'nM', 'mM'])}"
    ),
    "hexdigest": lambda r: _s(r, H, r.choice([12, 16, 32, 40, 64])),
    "name": lambda r: r.choice(NAMES),
    "path_k8s": lambda r: (
        f"deploy/overlays/{r.choice(['prod', 'stg', 'edge'])}-{_s(r, L + D, 4)}/{r.choice(['ingest', 'ledger', 'gateway'])}-hpa.yaml"
    ),
    "path_lab": lambda r: (
        f"/data/assays/{r.randint(2022, 2025)}/P{_s(r, D, 4)}/{r.choice(['elisa', 'qpcr', 'bca'])}_raw_{_s(r, D, 3)}.csv"
    ),
    "path_film": lambda r: (
        f"/mnt/edit/{r.choice(['harbor', 'nightshift', 'saltmarsh'])}/{r.choice('ABC')}{r.randint(1, 99):03d}_{_s(r, U + D, 4)}/conform_v{r.randint(2, 19)}.edl"
    ),
    "path_sim": lambda r: (
        f"/var/lib/provisioning/sim_batches/batch_{r.randint(2019, 2025)}q{r.randint(1, 4)}_{_s(r, D, 4)}.csv"
    ),
    "path_ag": lambda r: (
        f"exports/yield/{r.choice(['north', 'mill', 'creek'])}_{r.randint(2019, 2025)}_{_s(r, L, 3)}{_s(r, D, 2)}.parquet"
    ),
    "path_pub": lambda r: (
        f"manuscripts/{r.choice(['jgr', 'plos', 'nar'])}-{_s(r, D, 5)}/refs/{r.choice(['main', 'supp'])}_{_s(r, L, 4)}.bib"
    ),
}

TABLE = r"""
constraint apn | Hard requirement: every modem profile you touch must keep APN `{v}` — the carrier whitelists only that one for our SIM pool.
constraint torque | The bracket fasteners are spec'd at {v}. Don't change anything in the assembly config that would alter that number.
constraint vlan | keep all test traffic on {v}, nothing else is trunked to the lab switch
constraint k8s_ns | pls only deploy into namespace "{v}". the other namespaces on that cluster belong to other teams and we don't have sign-off
constraint limits | Formal note from the platform team: containers in this workload may not exceed {v} (CPU/memory) each. Anything above that is rejected by the admission controller, and they will not raise the quota this quarter.
constraint nlpost | Whatever the geocoder fixture ends up looking like, the test address has to stay in postcode {v} (Amsterdam), since the tariff lookup is keyed on it.
constraint course | Scope note: restrict the grade export to students enrolled in {v}. The registrar hasn't approved any other section.
constraint cidr | Ground rules for the router work:\n1. no new static routes outside {v}\n2. leave the MTU at 1500\n3. don't restart the BGP session during business hours
constraint conc | The dilution script has to cap every well at {v} — above that the reader saturates and the whole plate is wasted.
safety claim | Do NOT close, merge or edit claim {v} under any circumstances. It is under a litigation hold.
safety imsi | Never send a detach or a SIM reset to IMSI {v}. That SIM sits in a cardiac telemetry unit at the pilot clinic.
safety k8s_pod | careful: don't delete or restart `{v}`, it's the only replica holding the migration lock. if it dies mid-run we lose the schema change
safety asn | A rule for this whole session: no prefix announcements toward {v} (our upstream). A bad announcement there blackholes customers, and the NOC has to roll it back by hand.
safety reel | The camera originals on reel {v} are the only copy until the LTO backup finishes. Read-only: no renames, no in-place transcodes, no deletes.
safety mac | Please never bounce the switch port where {v} is attached (core-sw-02). That's the PLC for the pasteurizer line.
safety ukpost | Do not send any mail or email to customers at {v}; there's an open data-erasure request for that address and contacting them would be a breach.
safety plot | Nobody sets foot in {v} until Friday — it was sprayed on Monday, so the scouting-route generator has to skip it entirely.
safety sample | Sample {v} is biohazard class 3. The inventory script must never move it out of the restricted freezer, even when racks get consolidated.
preference name | When you write up the summary, address it to {v} — they own the rollout on the customer side.
preference timecode | I like notes anchored to a timecode. Start with the one at {v}, where the colour shift begins.
preference tariff | For the billing examples I'd rather you used tariff {v} than made one up.
preference capost | Small thing: in the fixtures, use {v} for Canadian addresses. QA already knows that one.
preference hexdigest | Prefer referring to builds by digest (e.g. `{v}`) rather than by tag; tags get moved.
preference doi | In the bibliography, please cite the dataset as doi:{v}, not the preprint link.
preference room | If you end up booking anything for this, {v} is my preferred room — the projector there actually works.
preference brpost | Formatting preference: Brazilian CEPs in our output should look like {v}, i.e. five digits, hyphen, three digits.
tool_fact iccid | $ mmcli -m 0 --output-keyvalue | grep -E 'state|imei|sim|operator'\nmodem.generic.state                 : connected\nmodem.generic.sim                   : /org/freedesktop/ModemManager1/SIM/0\nmodem.3gpp.imei                     : 352753090418226\nmodem.3gpp.operator-name            : Example Mobile\nsim.properties.active               : yes\nsim.properties.iccid                : {v}\nsim.properties.operator-code        : 26201
tool_fact ipv6 | $ ip -6 addr show dev eth0\n2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 state UP qlen 1000\n    inet6 {v}/64 scope global dynamic mngtmpaddr\n       valid_lft 86211sec preferred_lft 14211sec\n    inet6 fe80::a00:27ff:fe4e:66a1/64 scope link\n       valid_lft forever preferred_lft forever
tool_fact k8s_pod | $ kubectl get pods -n ingest -o wide\nNAME                                READY   STATUS    RESTARTS      AGE    IP            NODE\nkafka-connect-0                     1/1     Running   0             3d4h   10.42.1.17    pool-a-7f2k\n{v}   1/1     Running   2 (41m ago)   19h    10.42.3.88    pool-c-x91m\nschema-registry-0                   1/1     Running   0             3d4h   10.42.2.203   pool-b-q0zd
tool_fact policy | $ curl -s "https://claims.internal/api/v2/policies?holder=88213" | jq .\n{{\n  "holder": 88213,\n  "policy_number": "{v}",\n  "product": "Homeowners special form",\n  "status": "in_force",\n  "renewal_date": "2025-03-01",\n  "deductible": 1000\n}}
tool_fact harvest | $ cat lots/summary.yaml\nseason: 2024\ncrop: durum wheat\nlot: {v}\nmoisture_pct: 12.8\ntest_weight_kg_hl: 79.4\nbins:\n  - silo-3\n  - silo-5\ngraded_by: elevator-east
tool_fact meter | $ tail -n 4 /var/log/ami/readings.log\n2024-11-02T00:00:04Z INFO  mtr=EMX-0042 register=1.8.0 status=OK\n2024-11-02T00:15:03Z INFO  mtr=EMX-0042 register=1.8.1 value="{v}" quality=VALID\n2024-11-02T00:15:03Z DEBUG push ack seq=88107 latency_ms=214\n2024-11-02T00:30:02Z INFO  mtr=EMX-0042 heartbeat
tool_fact orcid | $ python scripts/authors.py --paper 2211 --format md\n| # | author | affiliation | ORCID |\n|---|---|---|---|\n| 1 | R. Okafor | Univ. of Lagos | pending |\n| 2 | M. Lindqvist | KTH | {v} |\n| 3 | A. Ferreira | USP | not provided |\n3 authors, 1 verified
tool_fact hectares | $ psql -d farm -c "select plot, crop, area from plots where farm_id = 31"\n plot | crop   | area\n------+--------+----------\n N-3  | barley | 12.4 ha\n N-4  | canola | {v}\n(2 rows)
tool_fact well | $ platereader export --plate last --summary\nread at 2024-05-14 09:41:22, mode absorbance 450 nm, 96 wells\nblank mean: 0.047\nhighest signal: {v} (OD 2.913)\nwells flagged as saturated: 0\nexport written to stdout
tool_error k8s_pod | $ kubectl logs -n ingest deploy/writer --tail=20\nFound 2 pods, using pod/writer-5c8b6d9f7-qv2lt\nError from server (NotFound): pods "{v}" not found
tool_error part | $ mrp bom validate --assembly GX-200\nvalidating 14 components against PLM...\n  OK     13\n  ERROR  [BOM-117] component {v} is superseded and has no released successor\nvalidation failed: 1 error, 0 warnings
tool_error doi | $ python tools/fetch_refs.py refs.bib\nresolving 37 DOIs via api.crossref.org\nTraceback (most recent call last):\n  File "tools/fetch_refs.py", line 88, in <module>\n    meta = resolve(entry["doi"])\n  File "tools/fetch_refs.py", line 41, in resolve\n    raise LookupError(f"DOI not registered: {{doi}}")\nLookupError: DOI not registered: {v}
tool_error ipv6 | $ ping -6 -c 3 gw6.lab.internal\nPING gw6.lab.internal({v}) 56 data bytes\nFrom 2001:db8::1 icmp_seq=1 Destination unreachable: Address unreachable\nFrom 2001:db8::1 icmp_seq=2 Destination unreachable: Address unreachable\n\n--- gw6.lab.internal ping statistics ---\n3 packets transmitted, 0 received, +2 errors, 100% packet loss, time 2031ms
tool_error asn | $ grep ADJCHANGE /var/log/router/edge-1.log | tail -n 2\nNov  4 10:14:07 edge-1 %BGP-5-ADJCHANGE: neighbor 198.51.100.9 Up\nNov  4 10:14:39 edge-1 %BGP-3-NOTIFICATION: sent to neighbor 198.51.100.9 2/2 (peer in wrong AS) 4 bytes, expected {v}
tool_error timecode | $ ffmpeg -hide_banner -i reel3.mxf -c:v prores_ks -f mov out.mov\nInput #0, mxf, from 'reel3.mxf':\n  Duration: 00:21:48.12, start: 0.000000, bitrate: 184021 kb/s\n[mxf @ 0x55d1c0a7e2c0] frame discontinuity at timecode {v}\nError while decoding stream #0:0: Invalid data found when processing input\nConversion failed!
tool_error iccid | $ simctl activate --batch 2024-q3\n[12:01:44] activating 50 SIMs on profile fleet-default\n[12:01:47] FAILED iccid={v} reason=SIM_NOT_IN_INVENTORY code=4012\n[12:01:48] done: 49 activated, 1 failed
tool_error sample | $ lims push --run 2024-118\nPOST /api/v1/samples (24 records)\nHTTP/1.1 409 Conflict\n{{"error": "duplicate_sample", "sample_id": "{v}", "detail": "already registered in run 2024-097"}}
tool_error tariff | $ python -m billing.rate --customer 55102 --period 2024-10\nTraceback (most recent call last):\n  File "/srv/billing/rate.py", line 212, in rate_period\n    schedule = TARIFFS[account.tariff_code]\nKeyError: '{v}'
ai_path path_k8s | \n\nThe manifest for this lives at `{v}`; I'll edit that one rather than the base.
ai_path path_lab |  (The raw reads are in {v}.)
ai_path path_film | \n\nNote: the conformed EDL is "{v}" — the proxies all reference it.
ai_path path_sim | \n\nFiles touched so far:\n- {v}\n- README.md
ai_path path_ag |  Once the join works I'll write the yield export to {v}.
ai_path path_pub | \n\nBibliography source for the build: {v}
ai_path path_k8s |  Next I'll diff {v} against what's actually running in the cluster.
arg_identifier imsi | imsi || subscriber lookup ok\nstate: ATTACHED\nrat: LTE-M\nlast_seen: 2024-10-07T08:12:55Z\npdp_sessions: 1\nroaming: false
arg_identifier claim | claim_id || {"status": "open", "adjuster_queue": "property-7", "reserve": 18250.0, "currency": "USD", "last_note": "awaiting contractor estimate"}
arg_identifier k8s_ns | namespace || NAME                      READY   STATUS    RESTARTS   AGE\napi-6d5f9b7c8-2x7kq       1/1     Running   0          2d\nworker-0                  1/1     Running   1          2d
arg_identifier doi | doi || title: Soil carbon response to cover cropping in semi-arid systems\njournal: Agriculture, Ecosystems & Environment\nyear: 2021\nreferenced-by: 48
arg_identifier mac | mac_address || found on core-sw-01 port Gi1/0/17, vlan 40, dynamic, age 12s
arg_identifier serial | serial || unit passed end-of-line test\nstation: EOL-3\noperator: 0417\nresult: PASS (14/14 checks)\nfirmware: 2.8.1
arg_identifier hexdigest | digest || verified OK: signature matches key "release-2024", 1 layer, 48.2 MB
arg_identifier reel | reel || 412 clips, 1.83 TB, checksum manifest present (xxh64), last verified 2024-08-15 22:10
arg_identifier orcid | orcid || record public; 23 works, 4 employments, last modified 2024-02-11
decision apn | \n\nI'm going with APN {v} for the fallback profile, because the default one drops idle sessions after 30 minutes.
decision cidr |  Decision: carve the new lab subnet out of {v}, since it's the only block with no overlap in the current route table.
decision policy | \n\nI'll key the dedup on policy number {v} rather than the holder's name, because names repeat across household members.
decision limits | \n\nSetting the container limits to {v}. Reason: last week's p99 usage fits comfortably under that, and it keeps us inside the namespace quota.
decision harvest |  I'll treat lot {v} as the reference lot — it's the only one with a complete moisture log.
decision patent | \n\nI'll cite {v} as the closest prior art because its claim 1 covers the same torque-limiting clutch.
decision tariff |  Picking {v} for the test fixtures since it has both peak and off-peak rates, so both branches get exercised.
decision name | \n\nI'll list {v} as corresponding author: the submission system needs exactly one, and they're first on the manuscript.
goal_change claim | Change of plans — forget the dashboard work. What I need now is the payout history for claim {v}, reconciled against the ledger.
goal_change k8s_ns | new priority: get the canary running in {v} today. everything else can wait
goal_change ukpost | Stop the refactor for now. The urgent thing is the delivery-zone bug: orders to {v} are being quoted the Highlands surcharge.
goal_change timecode | Scrap the audio sync task. Instead, find out why the render drops frames after {v} on reel 3.
goal_change ipv6 | Update on scope: we're no longer doing the IPv4 cleanup. The goal is now to make {v} reachable from the monitoring host.
goal_change course | OK, different direction. The registrar needs the waitlist script working for {v} first; the rest of the catalogue can come later.
goal_change serial | Priority switch, sorry. Quality flagged unit {v} — trace its build record end to end before continuing with anything else.
goal_change meter | Put the tariff migration on hold. We need to explain the reading of {v} on the customer's last bill; they're disputing it.
correction ukpost | Deliveries for the pilot go to {v}. || Sorry, typo earlier: the pilot's postcode is {v}, not {old}.
correction name | The approver for this change is {v}. || Update: {old} is on leave, so approvals now go to {v}.
correction vlan | Put the new cameras on {v}. || Actually the cameras should go on {v} instead of {old}; that one is out of addresses.
correction part | Order the replacement bracket as {v}. || Engineering released a new revision — the replacement bracket is {v}. Don't order {old}.
correction torque | Torque the M8 flange bolts to {v}. || Correction from the design review: flange bolts at {v}.
correction k8s_ns | $ kubectl config view --minify -o jsonpath='{..namespace}'\n{v} || We moved the workload from {old} to {v} yesterday, so use the new namespace from now on.
correction apn | $ grep -i apn /etc/ppp/peers/lte\nconnect "/usr/sbin/chat -v -f /etc/chatscripts/gprs -T {v}" || {old} is abandoned, the carrier retired it. New APN for every profile: {v}.
correction policy | The customer's policy number is {v}. || $ claims-cli policy show --holder 40917\nholder:         40917\npolicy_number:  {v}\nstatus:         IN_FORCE\nprevious:       {old} (lapsed 2024-06-30)\nrenewal_date:   2025-07-01
correction doi | Cite the dataset as {v}. || $ python tools/resolve.py --title "Soil moisture panel 2019-2023"\nquery ok (1 match)\ndoi: {v}\nversion: 3 (latest)\npublished: 2024-01-19
correction k8s_pod | $ kubectl get pods -n fin -l app=ledger\nNAME                             READY   STATUS    RESTARTS   AGE\n{v}   1/1     Running   0          6d2h || $ kubectl get pods -n fin -l app=ledger\nNAME                             READY   STATUS    RESTARTS   AGE\n{v}   1/1     Running   0          2m11s
correction cell | We're camped on {v} at the test site. || $ qmicli -d /dev/cdc-wdm0 --nas-get-cell-location-info\n[/dev/cdc-wdm0] Successfully got cell location info\nIntrafrequency LTE Info\n    Tracking Area Code: '4417'\n    Global Cell ID: '{num}'\n    EUTRA Absolute RF Channel Number: '6300' (E-UTRA band 20)
correction nlpost | The warehouse postcode is {v}. || The warehouse has relocated; it's no longer {old}. Postcode is now {v}.
"""

plant = generator(VALUES, TABLE, prefix="heldout-j", salt=7331)
