# ruff: noqa: E501
"""The fifth held-out canary generator, written without reading the library's recognizers
or any other generator's templates (only ``_plant.py`` and the ``KINDS``/``Canary`` header
of ``canaries.py``). Its values are everyday engineering and business data (branches,
DSNs, ARNs, Azure ids, money, dates, flights, seats, SKUs, IBANs, names in several
scripts, registry keys, regexes, feature flags, ...) and its phrasings are the way users,
tools and assistants write them: chatty, terse, forwarded, buried in a long paragraph,
in tables and logs. Its stale values have since been read while changing the code ("Y not
X" with no cue word, "(from X)", a CSV export's column), so it no longer measures wording
nobody tuned against; ``heldout_h.py`` does.
"""

from __future__ import annotations

import random
import string

from _plant import generator

__all__ = ["plant"]

_R = random.Random
_W = "ledger quartz marigold tundra falcon saffron cobalt juniper basalt orchid lynx sequoia kestrel umber".split()
_MON = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()
_NAMES = (
    ("王李张刘陈杨", ("秀英", "建国", "子涵", "浩然", "雨桐", "思远")),
    ("김이박최정", ("민준", "서연", "지훈", "하은", "도윤")),
)
_ARAB = (("محمد", "فاطمة", "يوسف", "ليلى", "عمر"), ("الحسيني", "العتيبي", "منصور", "الشامي"))
_HINDI = (("प्रिया", "अर्जुन", "कविता", "राहुल"), ("शर्मा", "वर्मा", "अय्यर", "गुप्ता"))


def _d(r: _R, k: int) -> str:
    return "".join(r.choice(string.digits) for _ in range(k))


def _code(r: _R) -> str:
    while True:
        c = "".join(r.choice(string.ascii_uppercase + string.digits) for _ in range(6))
        if sum(ch.isdigit() for ch in c) in (2, 3) and c[0].isalpha():
            return c


def _name(r: _R) -> str:
    k = r.randrange(4)
    if k < 2:
        fam, given = _NAMES[k]
        return r.choice(fam) + r.choice(given)
    first, last = _ARAB if k == 2 else _HINDI
    return f"{r.choice(first)} {r.choice(last)}"


def _uuid(r: _R) -> str:
    h = f"{r.getrandbits(128):032x}"
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


# fmt: off
_VALUES = {
    "branch": lambda r: f"{r.choice(('feature', 'hotfix', 'spike'))}/{r.choice(_W)}-{r.choice(_W)}-{_d(r, 3)}",
    "dsn": lambda r: f"postgres://svc_{r.choice(_W)}@pg-{r.choice(_W)}-{_d(r, 2)}.internal:6432/{r.choice(_W)}_{_d(r, 2)}",
    "redis": lambda r: f"app:{{{r.choice(_W)}{_d(r, 2)}}}:{r.choice(('cart', 'ratelimit', 'session'))}:{_d(r, 5)}",
    "arn": lambda r: f"arn:aws:iam::{_d(r, 12)}:role/{r.choice(_W)}-{r.choice(('deployer', 'auditor', 'writer'))}",
    "azure": lambda r: f"/subscriptions/{_uuid(r)}/resourceGroups/rg-{r.choice(_W)}-prd/providers/Microsoft.Storage/storageAccounts/st{r.choice(_W)}{_d(r, 3)}",
    "date_dmy": lambda r: f"{r.randint(2, 28)} {r.choice(_MON)} {r.randint(2026, 2029)}",
    "date_us": lambda r: f"{r.randint(1, 12):02d}/{r.randint(2, 28):02d}/{r.randint(2026, 2029)}",
    "time": lambda r: f"{r.randint(1, 11)}:{r.choice(('05', '10', '20', '35', '40', '50'))}{r.choice(('am', 'pm'))}",
    "money": lambda r: r.choice((f"${r.randint(1, 9)},{_d(r, 3)}.{r.choice(('00', '50', '99'))}", f"USD {r.randint(40, 990)}.{_d(r, 2)}")),
    "pct": lambda r: f"{r.randint(3, 97)}.{r.randint(1, 9)}%",
    "mem": lambda r: f"{r.choice((384, 640, 768, 1536, 2560, 3072))}Mi",
    "disk": lambda r: f"{r.randint(1, 9)}.{r.randint(1, 9)} GiB",
    "port": lambda r: str(r.randint(20001, 60999)),
    "latency": lambda r: f"{r.randint(120, 940)} ms",
    "ticket": lambda r: f"INC00{_d(r, 5)}",
    "flight": lambda r: f"{r.choice(('LH', 'BA', 'AF', 'KL', 'NH', 'QR', 'TK'))} {r.randint(100, 9899)}",
    "seat": lambda r: f"{r.randint(17, 44)}{r.choice('ACDFHK')}",
    "booking": _code,
    "sku": lambda r: f"SKU-{_d(r, 5)}-{r.choice(('NVY', 'BLK', 'OLV', 'SND'))}-{r.choice(('XS', 'M', 'XL'))}",
    "postal": lambda r: r.choice((f"{r.choice('ENSW')}{r.choice('CW')}{r.randint(1, 9)}{r.choice('ABHV')} {r.randint(1, 9)}{r.choice('DHJNQ')}{r.choice('TXYZ')}", f"{_d(r, 5)}-{_d(r, 4)}")),
    "iban": lambda r: f"DE{_d(r, 2)} {_d(r, 4)} {_d(r, 4)} {_d(r, 4)} {_d(r, 4)} {_d(r, 2)}",
    "name": _name,
    "regkey": lambda r: "HKLM\\SOFTWARE\\" + "\\".join((r.choice(("Contoso", "Fabrikam", "Northwind", "Tailspin")), r.choice(("PosAgent", "Updater", "Spooler", "Telemetry")), r.choice(("PollIntervalMs", "EndpointUrl", "MaxRetries", "LicenseKey")))),
    "regex": lambda r: f"^{''.join(r.choice(string.ascii_uppercase) for _ in range(3))}-\\d{{{r.randint(4, 8)}}}-[A-Z]{{{r.randint(2, 3)}}}$",
    "sqlcol": lambda r: f"{r.choice(('billing', 'sales', 'ops'))}.{r.choice(_W)}_{r.choice(('lines', 'events', 'ledger'))}.{r.choice(('tax_cents', 'settled_at', 'fx_rate', 'net_amount'))}",
    "flag": lambda r: f"enable_{r.choice(('new', 'async', 'split', 'guest', 'bulk'))}_{r.choice(('checkout', 'refunds', 'invoicing', 'seat_map', 'search'))}_{r.choice(_W)}",
    "semver": lambda r: f"{r.randint(1, 9)}.{r.randint(0, 19)}.{r.randint(0, 30)}+build.{r.randint(40, 999)}",
    "host": lambda r: f"{r.choice(_W)}-replica-{_d(r, 2)}.{r.choice(('fra2', 'iad1', 'sin3', 'gru1'))}.corp-{r.choice(_W)}.internal",
    "winpath": lambda r: f"C:\\Users\\svc-build\\AppData\\Local\\Temp\\export_{r.choice(_W)}_{_d(r, 4)}.csv",
}
# fmt: on

_TABLE = r"""
constraint latency | {v} is the hard ceiling for p99 on the search endpoint; anything slower and the release gets blocked.
constraint dsn | Some context before you dive in. The team is mid-migration so things are a bit messy. Whatever you change has to keep working against {v}, since that's the only database the staging jobs can reach. I'll be in meetings most of the afternoon. Ping me in the thread if you get stuck.
constraint disk | ground rules for this one:\n1. no new dependencies\n2. final docker image must stay under {v}\n3. don't touch the CI config
constraint money | Budget is fixed (max {v} for the whole trip incl. bags), so please don't suggest anything above that.
constraint regex | fyi ids in the export hav to match {v} or the importer just silently drops them, so dont change the format
safety host | Do not, under any circumstances, run migrations against {v}. That box is prod and billing shares it.
safety arn | Forwarding this from our security lead:\n\n> From: Mei-Lin Zhou\n> Subject: re: access for the agent\n> Hi all, the role {v} has write access to the audit bucket. Nobody assumes it from a laptop or a CI job. No exceptions.\n\nso yeah, stay away from it.
safety flag | never flip {v} in prod. staging only.
safety regkey | heads up: whatever is under {v} gets read by the payment terminals at boot and hand-editing it has bricked devices before. leave it alone
safety sqlcol | Please don't update or null out {v} — finance reconciles off that column and the oldest backup is a day old.
preference name | Please put the booking under {v}, that's exactly how it's written in my passport.
preference seat | if its all the same to you id like {v}, aisle seats make me anxious lol
preference date_us | For any dates in the report, write them the US way, e.g. {v} — our auditors are in Ohio and get confused otherwise.
preference time | Call me back after {v} if you can, I'm in back-to-back meetings before that.
preference azure | I'd prefer we reuse the storage account {v} rather than create a new one; fewer things to clean up later.
tool_fact semver | $ docker ps\nCONTAINER ID   IMAGE                                 STATUS        PORTS                    NAMES\n3f9c2a1b7d4e   registry.local/orders-api:{v}   Up 3 hours    0.0.0.0:8080->8080/tcp   orders-api\n91ab0c44e2f0   redis:7.2-alpine                      Up 3 hours    6379/tcp                 cache
tool_fact port | $ kubectl get svc -n payments\nNAME             TYPE       CLUSTER-IP     EXTERNAL-IP   PORT(S)           AGE\nledger-gateway   NodePort   10.96.14.201   <none>        443:{v}/TCP       12d\nledger-metrics   ClusterIP  10.96.3.77     <none>        9102/TCP          12d
tool_fact time | $ psql -c "select carrier, cutoff_local from shipping_cutoffs where region = 'eu'"\n carrier | cutoff_local\n---------+--------------\n dhl     | {v}\n(1 row)
tool_fact mem | $ helm get values checkout -n shop\nUSER-SUPPLIED VALUES:\nreplicaCount: 3\nresources:\n  limits:\n    cpu: 750m\n    memory: {v}\nserviceMonitor:\n  enabled: true
tool_fact host | $ curl -sv https://api.shop.example.test/v2/orders/latest -o /dev/null\n* Connected to api.shop.example.test (203.0.113.10) port 443\n> GET /v2/orders/latest HTTP/2\n> user-agent: curl/8.5.0\n< HTTP/2 200\n< content-type: application/json\n< x-served-by: {v}\n< cache-control: no-store
tool_error sqlcol | $ python -m pytest tests/test_invoices.py -q\n..F.\n=================================== FAILURES ===================================\n_____________________________ test_rounding_total ______________________________\nE   psycopg.errors.UndefinedColumn: column {v} does not exist\nE   LINE 1: SELECT sum(...\n=========================== short test summary info ============================\nFAILED tests/test_invoices.py::test_rounding_total - psycopg.errors.UndefinedColumn\n1 failed, 3 passed in 0.41s
tool_error port | $ cargo run --release -- --config prod.toml\n    Finished `release` profile [optimized] target(s) in 0.21s\n     Running `target/release/ingest --config prod.toml`\nthread 'main' panicked at src/server.rs:88:14:\nfailed to bind 0.0.0.0:{v}: Address already in use (os error 98)\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
tool_error flag | $ dotnet run --project src/Billing.Api\nUnhandled exception. System.Collections.Generic.KeyNotFoundException: The given key '{v}' was not present in the dictionary.\n   at System.Collections.Generic.Dictionary`2.get_Item(TKey key)\n   at Billing.Api.FeatureGate.IsOn(String name) in /src/Billing.Api/FeatureGate.cs:line 42
tool_error host | $ tail -n 1 /var/log/nginx/error.log\n2027/03/14 07:45:12 [error] 2231#2231: *918 upstream timed out (110: Connection timed out) while reading response header from upstream, client: 10.0.3.7, server: shop.example.test, request: "GET /api/cart HTTP/1.1", upstream: "http://{v}:8080/api/cart", host: "shop.example.test"
tool_error arn | $ aws s3 cp report.parquet s3://acme-audit/2027/ --debug 2>&1 | tail -n 4\n<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>User: {v} is not authorized to perform: s3:PutObject on resource: acme-audit/2027/report.parquet</Message><RequestId>7QX2ZB1M0C</RequestId></Error>
ai_path regkey | \n\n(For reference, the override lives at {v}; I'll come back to it once the tests pass.)
ai_path azure | \n\nNote to self: the blobs are being written to {v}.
ai_path branch | \n\nI pushed the work in progress to {v} so nothing gets lost if the sandbox resets.
ai_path redis | \n\nThe rate-limit counters sit under {v}, which explains why flushing the local cache didn't reset them.
ai_path winpath | \n\nThe export landed in {v} and I'll attach it at the end.
arg_identifier booking | booking_code || {"status": "confirmed", "cabin": "economy", "passengers": 2, "insurance": "no"}
arg_identifier ticket | ticket_id || Ticket updated. Assignment group: Platform-Oncall. State: In Progress.
arg_identifier branch | branch || Switched to branch; your branch is 3 commits ahead of 'origin/main'.
arg_identifier sku | sku || in_stock=14 warehouse=RNO-2 backorder=false
arg_identifier iban | iban || IBAN check passed (checksum ok, bank: Sparkasse, SEPA reachable)
decision host | \n\nThe Frankfurt replica is the only one with enough headroom left, which is why {v} is the target now.
decision flight | \n\nComparing the layovers, the morning connection is the only one that makes the meeting. {v} it is.
decision semver | \n\nFinal answer on the version pin: {v}.
decision dsn | \n\nI'll proceed with {v} because the pooler endpoint kept dropping idle sessions.
decision seat | \n\nBoth remaining window seats are in the same row, but one is next to the galley. Going with {v}.
goal_change ticket | nvm that — {v} just got escalated to P1, drop the refactor and look at that instead.
goal_change flag | new priority: get checkout running behind {v} by end of day, the rest can wait
goal_change flight | hold on — first rebook me onto {v}, the original one got cancelled. then we can sort out the baggage.
goal_change date_dmy | Change of plans. Forget about the refund; what I actually need now is the delivery moved to {v}, I won't be home before then.
goal_change sqlcol | ok scrap the perf stuff. what i need now is the quarterly numbers grouped by {v}, finance asked for it this morning
correction booking | the reservation is {v} || oops, {v} not {old}, i mixed it up with my wife's booking
correction latency | Set the request timeout on the batch client to {v}. || make that {v}, the upstream is slower than I thought
correction postal | Ship it to my office please, postcode {v}. || {old} is outdated, {v} is current. We moved offices in January.
correction semver | We've pinned the payments SDK to {v} in requirements.txt. || fyi it's been bumped to {v} (from {old}) after the security advisory
correction money | Budget for the offsite is {v}. || For the offsite: we have {v} to spend. Please plan around that.
correction port | The ledger service listens on {v} in staging, I think. || $ cat /run/ledger/listen_port\n{num}
correction pct | $ cat config/rollout.ini\n[checkout]\nrollout_pct = {v}\nregion = eu-central || $ ./rolloutctl show checkout --csv\nflag,rollout_pct,updated_by,updated_at\ncheckout,{num},ops-bot,2027-03-14T07:45:00Z
"""
plant = generator(_VALUES, _TABLE, prefix="heldout-e", salt=47)
