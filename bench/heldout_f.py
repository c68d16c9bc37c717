# ruff: noqa: E501
"""Held-out canaries, sixth set: what the fidelity bench scores faithfulness on.

Written without reading the library's recognizers or any other generator's templates
(only ``_plant.py``, the head of ``canaries.py`` and a few corpus records): value shapes
from data engineering, mobile, finance, ops, identity, retail and travel, plus names in
Thai, Hebrew, Georgian and Amharic script, phrased as Slack pings, bullet lists, HTML,
TOML, Go/Kotlin failures, Terraform plans, ``systemctl``/``git``/``jq``/``ls`` output and
GraphQL errors. Its templates and misses have since been read while changing the code (a
rule pointing back with "it", coordinates listed by a comma, device paths, ``ls -l`` and
Terraform lines, booking codes in capitals), so it no longer measures wording nobody tuned
against; ``heldout_h.py`` does.
"""

from __future__ import annotations

import random
import string

from _plant import generator

__all__ = ["plant"]

_TEAM = ("orders", "payments", "ledger", "refunds", "fulfil", "pricing", "catalog", "loyalty")
_ENT = ("invoice", "shipment", "chargeback", "stocklevel", "coupon", "payout", "basket", "voucher")
_ORG = ("tidewell", "quillo", "brightfern", "okapiworks", "larchmont", "venndigo", "saltmarsh", "kettlebay")  # fmt: skip
_FIRST = ("mira", "teodor", "ayasha", "bruno", "ilse", "kwame", "noor", "sven", "paz", "oksana")
_NAMES = (
    (("สมชาย", "กนกวรรณ", "ปิยะพงษ์", "วราภรณ์"), ("ใจดี", "ศรีสุข", "บุญมา", "วงศ์ทอง")),
    (("נועה", "יונתן", "תמר", "אביגיל"), ("כהן", "לוי", "מזרחי", "פרץ")),
    (("ნინო", "გიორგი", "თამარ", "ლევან"), ("ბერიძე", "კაპანაძე", "გელაშვილი", "ლომიძე")),
    (("አበበ", "ትዕግሥት", "ሰላም", "ዮናስ"), ("ቢቂላ", "ተፈራ", "ገብሬ", "አለሙ")),
)
_UP, _AN = string.ascii_uppercase, string.ascii_uppercase + string.digits


def _s(r: random.Random, chars: str, n: int) -> str:
    return "".join(r.choice(chars) for _ in range(n))


def _amount(r: random.Random) -> str:
    return r.choice((
        f"¥{r.randint(11, 99)},{r.randint(0, 999):03d}",
        f"CHF {r.randint(11, 990)}.-",
        f"€{r.randint(2, 9)}.{r.randint(100, 999)},{r.randint(10, 99)}",
    ))  # fmt: skip


def _coords(r: random.Random) -> str:
    la, lo = r.uniform(-55, 65), r.uniform(-120, 150)
    return f"{abs(la):.4f}° {'NS'[la < 0]}, {abs(lo):.4f}° {'EW'[lo < 0]}"


def _name(r: random.Random) -> str:
    first, last = r.choice(_NAMES)
    return f"{r.choice(first)} {r.choice(last)}"


# fmt: off
_VALUES = {
    "topic": lambda r: f"{r.choice(_TEAM)}.{r.choice(_ENT)}s.v{r.randint(2, 9)}.{r.choice(('dlq', 'retry', 'parked'))}",
    "offset": lambda r: f"p{r.randint(3, 47)}@{r.randint(1_000_000, 9_999_999)}",
    "dag": lambda r: f"{r.choice(_TEAM)}_{r.choice(('backfill', 'reconcile', 'snapshot', 'dedupe'))}_{r.choice(_ENT)}_{r.choice(('hourly', 'nightly', 'weekly'))}",
    "dbt": lambda r: f"{r.choice(('stg', 'int', 'fct'))}_{r.choice(('stripe', 'adyen', 'netsuite', 'zendesk'))}__{r.choice(_ENT)}s_{r.choice(('dedup', 'snap', 'scd2', 'v3'))}",
    "bq": lambda r: f"{r.choice(_ORG)}-prod-{r.randint(1000, 9999)}.{r.choice(_TEAM)}_raw.{r.choice(_ENT)}s_v{r.randint(2, 9)}",
    "bundle": lambda r: f"com.{r.choice(_ORG)}.{r.choice(('wallet', 'scanner', 'courier', 'kiosk', 'pantry'))}",
    "build": lambda r: f"{r.randint(3, 9)}.{r.randint(10, 39)} ({r.randint(1200, 4999)})",
    "color": lambda r: f"#{r.randrange(16**6):06x}",
    "viewport": lambda r: f"{r.randint(1101, 1989)}x{r.randint(601, 1189)}",
    "coords": _coords,
    "isin": lambda r: f"{r.choice(('CH', 'DE', 'LU', 'IE', 'JP'))}{_s(r, _AN, 9)}{r.randint(0, 9)}",
    "ticker": lambda r: f"{r.choice(('NASDAQ', 'NYSE', 'SIX', 'XETRA'))}:{_s(r, _UP, 4)}",
    "amount": _amount,
    "unit": lambda r: f"{r.choice(_TEAM)}-{r.choice(('sync', 'drain', 'reaper', 'relay', 'shipper'))}@{r.choice(('eu2', 'us1', 'ap3'))}.service",
    "device": lambda r: r.choice((f"/dev/nvme{r.randint(0, 3)}n1p{r.randint(2, 9)}", f"/dev/mapper/vg_{r.choice(_TEAM)}-lv_{r.choice(('wal', 'spool', 'scratch'))}")),
    "mount": lambda r: f"/srv/{r.choice(_TEAM)}-{r.choice(('spool', 'archive', 'scratch'))}-{r.randint(10, 99)}",
    "cfgpath": lambda r: f"/etc/{r.choice(_TEAM)}-{r.choice(('sync', 'relay'))}/conf.d/{r.randint(10, 89)}-{r.choice(('retry', 'backoff', 'quotas', 'tls'))}.toml",
    "handle": lambda r: f"@{r.choice(_FIRST)}-{r.choice(string.ascii_lowercase)}{r.choice(('', 'x', 'dev'))}",
    "channel": lambda r: r.choice((f"#inc-{r.randint(1000, 9999)}", f"#{r.choice(_TEAM)}-oncall-{r.randint(2, 9)}")),
    "dn": lambda r: f"uid={r.choice(_FIRST)}.{_s(r, string.ascii_lowercase, 3)},ou={r.choice(_TEAM)},dc={r.choice(_ORG)},dc=io",
    "pnr": lambda r: _s(r, "ABCDEFGHJKLMNPQRSTUVWXYZ", 2) + _s(r, "ABCDEFGHJKLMNPQRSTUVWXYZ23456789", 4),
    "tracking": lambda r: f"1Z{_s(r, _AN, 6)}{r.randint(10, 99)}{r.randint(10**7, 10**8 - 1)}",
    "errcode": lambda r: f"{r.choice('EWF')}{r.choice(('LG', 'KX', 'SY', 'QM'))}-{r.randint(1000, 9999)}",
    "name": _name,
}
# fmt: on

_TABLE = r"""
constraint bq | Quick one before you continue: everything you write has to land in `{v}`. The other datasets are read-only for this service account and the job will 403 halfway through if you point it anywhere else.
constraint topic | hey :wave: fyi for the consumer work, it must only ever publish to {v}. the audit team replays that topic and nothing else, so keep it there :pray: cc @dana-w
constraint viewport | A few things for the screenshot tests:\n- run them headless\n- the viewport has to be exactly {v}; the baselines were captured at that size and anything else diffs on every pixel\n- skip the dark-mode pass for now\nThanks!
constraint amount | Budget note from finance: total spend on this change can't exceed {v}. If your estimate comes out above that, stop and tell me instead of trimming scope on your own.
constraint bundle | Pasting from the release checklist:\n<ul>\n  <li>Only sign builds whose application id is <code>{v}</code></li>\n  <li>Upload to the internal track, never production</li>\n</ul>
constraint mount | ```toml\n[storage]\n# infra requirement: scratch space stays on this mount\nscratch_dir = "{v}"\nmax_gb = 40\n```\nthat part is non-negotiable, the root volume is tiny.
safety device | Heads up: {v} is the WAL disk on the primary. Do not format it, repartition it or point fio at it, even "just to check". Ask me first if you think you need to.
safety unit | :rotating_light: please nobody restart {v} during business hours. last time it double-posted ~3k journal entries. if it looks stuck, ping @ops-primary instead
safety dn | One hard rule: leave the LDAP entry {v} exactly as it is. It's the break-glass account, and touching it locks everyone out of the vault.
safety topic | whatever you end up doing, don't delete or reset offsets on {v}. those are the only copies of the failed charges we still have to replay by hand
safety bq | Please don't run DROP, TRUNCATE or CREATE OR REPLACE against {v}. It's the regulator-facing snapshot and immutable by policy, not just by convention.
preference color | Small design thing: I'd like the primary button in {v} rather than the default blue. Matches the rest of the brand kit.
preference handle | for reviews could you tag {v} instead of me? she knows the billing code way better and i'm out thu/fri :palm_tree:
preference channel | When you post status updates, {v} is the better place; the general eng channel is way too noisy for this.
preference name | The customer asked that invoices show her name in her own script: {v}. Please use that spelling on the PDF header rather than a transliteration.
preference coords | The pin for the pickup point should be {v}; that's the loading dock at the back, not the main entrance the geocoder picks.
preference dag | If you need something to copy from, I'd rather you base it on {v}. It's the cleanest of our DAGs and already has the retry/SLA settings we like.
tool_fact unit | $ systemctl --no-pager status "$SYNC_UNIT"\n● {v} - Ledger sync worker\n     Loaded: loaded (/etc/systemd/system/{v}; enabled; vendor preset: enabled)\n     Active: active (running) since Tue 2024-05-14 03:12:09 UTC; 1 day 9h ago\n   Main PID: 48213 (python3)\n      Tasks: 7 (limit: 4915)\n     Memory: 182.4M
tool_fact offset | $ grep -m1 'committed' /var/log/reconciler/consumer.log\n2024-05-14T03:12:09.441Z INFO  consumer: committed {{"group":"reconciler","position":"{v}","lag":0,"rebalance":false}}
tool_fact pnr | $ jq '.bookings[] | select(.status == "HELD") | .pnr' holds.json\n"{v}"
tool_fact dbt | $ git status\nOn branch main\nYour branch is up to date with 'origin/main'.\n\nChanges not staged for commit:\n  (use "git add <file>..." to update what will be committed)\n        modified:   models/marts/{v}.sql\n\nno changes added to commit (use "git add" and/or "git commit -a")
tool_fact mount | $ ls -la /srv/releases\ntotal 16\ndrwxr-xr-x  4 deploy deploy 4096 May 14 03:10 .\ndrwxr-xr-x  9 root   root   4096 Feb  2 11:47 ..\nlrwxrwxrwx  1 deploy deploy   27 May 14 03:10 current -> {v}\ndrwxr-xr-x 12 deploy deploy 4096 May 14 03:09 r-2291
tool_fact topic | $ terraform plan -target=module.events\n  # kafka_topic.replay will be created\n  + resource "kafka_topic" "replay" {{\n      + id                 = (known after apply)\n      + name               = "{v}"\n      + partitions         = 12\n      + replication_factor = 3\n    }}\n\nPlan: 1 to add, 0 to change, 0 to destroy.
tool_error errcode | $ go test ./internal/posting/...\n--- FAIL: TestPostingIsIdempotent (0.04s)\n    posting_test.go:88: unexpected error: got code {v}, want <nil>\nFAIL\nFAIL    github.com/larchmont/ledger/internal/posting    0.412s\nFAIL
tool_error bundle | $ adb logcat -d -s AndroidRuntime\nE AndroidRuntime: FATAL EXCEPTION: main\nE AndroidRuntime: Process: {v}, PID: 21877\nE AndroidRuntime: java.lang.IllegalStateException: Keystore alias 'wallet_master' not provisioned\nE AndroidRuntime:     at io.vault.crypto.KeyVault.unwrap(KeyVault.kt:142)\nE AndroidRuntime:     at io.vault.session.SessionRepository$restore$2.invokeSuspend(SessionRepository.kt:67)
tool_error isin | $ curl -s -X POST https://api.internal/graphql -H 'content-type: application/json' -d @query.json\n{{"errors":[{{"message":"Instrument not found for ISIN {v}","locations":[{{"line":2,"column":3}}],"path":["instrument"],"extensions":{{"code":"NOT_FOUND"}}}}],"data":{{"instrument":null}}}}
tool_error unit | $ journalctl -p err --since -1h --no-pager | tail -n 2\nMay 14 03:12:09 worker-4 systemd[1]: {v}: Main process exited, code=exited, status=75/TEMPFAIL\nMay 14 03:12:09 worker-4 systemd[1]: {v}: Failed with result 'exit-code'.
tool_error tracking | $ python scripts/sync_shipments.py --carrier ups\nTraceback (most recent call last):\n  File "scripts/sync_shipments.py", line 61, in <module>\n    main()\n  File "scripts/sync_shipments.py", line 44, in main\n    status = client.track(number)\ncarriers.ups.TrackingError: 404 from Track API for {v}: tracking number not found
tool_error dbt | $ dbt run --select state:modified+\n12:04:51  1 of 3 START sql incremental model analytics.{v} ... [RUN]\n12:04:53  1 of 3 ERROR creating sql incremental model analytics.{v} ... [ERROR in 1.92s]\n12:04:53  Database Error in model {v}\n12:04:53    column "refund_total" does not exist
ai_path cfgpath | \n\nThe retry settings actually live in {v}, not in the main config, so that's the file I'll be editing.
ai_path device | \n\n(Side note: the scratch volume shows up as {v} on this host; I'll mount it read-only before copying anything.)
ai_path mount | \n\nPlan:\n1. snapshot the current state\n2. write the rebuilt index under {v}\n3. swap the symlink once the checks pass
ai_path bq | \n\nI'll read the source rows from `{v}` and compare counts before touching anything downstream.
ai_path dbt | \n\nThe model to change is `models/intermediate/{v}.sql`; the mart just selects from it.
arg_identifier topic | topic || Topic metadata: 12 partitions, replication 3, cleanup.policy=delete, retention.ms=604800000
arg_identifier tracking | tracking_number || Status: In transit. Last scan: Louisville, KY, 05/14 02:17. Expected delivery: 05/16 by end of day.
arg_identifier pnr | record_locator || 2 passengers, 3 segments, ticketed. Fare basis KLX7ZNB. Seat map unlocked for segment 2 only.
arg_identifier isin | isin || Senior unsecured note 2029, currency CHF, coupon 2.375%, next coupon 2024-09-30, settlement T+2.
arg_identifier dn | bind_dn || Bind successful. 14 group memberships returned; account not locked; password last set 83 days ago.
arg_identifier channel | channel || ok: posted, ts=1715656329.004812, thread not started
decision dbt | \n\n{v} is the one that survives the load test, so that's what ships.
decision viewport | \n\nRendering the previews at {v}. Nothing else fits the memory budget on the low-end tablets.
decision unit | \n\nSticking with {v}: it already has the retry backoff and the watchdog, so no new unit file.
decision topic | \n\n{v} over a fresh topic: fewer moving parts, and the consumers already know about it.
decision color | \n\nAfter comparing contrast ratios I'll use {v} for the focus ring; it's the only candidate that passes AA on both light and dark backgrounds.
decision offset | \n\nReplay starts from {v}. Everything before it is already reconciled, so starting earlier would just double-post.
goal_change dag | forget the migration for now, on-call needs {v} green again before the 06:00 reports. get that running cleanly and we'll come back to the rest later.
goal_change tracking | Priority change: the customer escalated. Drop the refund work and find out where parcel {v} is and why it hasn't moved since Monday.
goal_change bundle | Before anything else, get a signed release build of {v} onto the internal track. QA is blocked on it; everything else waits.
goal_change channel | :warning: new plan: stop the refactor and help out with the incident in {v}. that's the only thing that matters this afternoon
goal_change build | hold on, new priority: crash reports are spiking on {v}. figure out what changed in that build before you continue with anything else.
goal_change ticker | Change of direction: instead of the dashboard, I need the backtest rerun for {v} only, with the corrected corporate actions. That's the deliverable now.
correction handle | assign the review to {v} please || no wait, it's {v}. {old} moved to the platform team last month
correction pnr | The booking reference is {v}, I read it off the confirmation email. || Sorry: {v}, not {old} (typo earlier). The confirmation number and the booking reference are different things.
correction unit | logs for the sync job come from {v} || {old} got retired last week; {v} replaces it, same config otherwise.
correction amount | The vendor's quote came in at {v} for the annual plan. || Finance re-sent the numbers: the {v} figure is the right one, ignore {old}.
correction channel | Status updates for this go to {v}. || Status updates for this go to {v}, thanks.
correction topic | Replay from {v}; that's where the failed payouts ended up. || $ kubectl -n payments get cm replay-worker -o jsonpath='{.data.SOURCE_TOPIC}'\n{num}
correction bundle | The application id for the prod flavor is {v}. || $ cat fastlane/flavors.toml\n[flavor.prod]\napp_identifier = "{num}"\nscheme = "Prod"\n\n[flavor.staging]\napp_identifier = "dev.sandbox.wallet"\nscheme = "Staging"
"""

plant = generator(_VALUES, _TABLE, prefix="heldout-f", salt=89)
