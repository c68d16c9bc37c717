# ruff: noqa: E501
"""Held-out canaries, fourth set: value shapes and phrasings from a separate hand.

The fourth held-out generator, written without reading the library's recognizers or the
templates of the other generators (``canaries.py``, ``heldout.py``, ``heldout_b.py``,
``heldout_c.py``); only the shared planting machinery in ``_plant.py`` was used. Values are
infrastructure and customer-service identifiers (S3 URIs, k8s workloads, CIDR blocks, IPv6,
image digests, cron schedules, euro amounts, Unicode names, ...) in messages the way users,
tools and assistants write them: markdown tables, YAML, JSON, key=value logs, CLI tables,
HTTP responses and Java/Go/Node/Python failures. Its misses have since been read while
changing the code (a table's cells, values the summary kept stale), so it no longer
measures wording nobody tuned against; ``heldout_h.py`` does.
"""

from __future__ import annotations

import random
import uuid

from _plant import generator

__all__ = ["plant"]


def _c(r: random.Random, n: int) -> str:
    return "".join(r.choice("bcdfghjkmnpqrstvwxz") for _ in range(n))


def _x(r: random.Random, n: int) -> str:
    return "".join(r.choice("0123456789abcdef") for _ in range(n))


def _p(r: random.Random, words: str) -> str:
    return r.choice(words.split())


# given names; family names; "<" when the family name comes first (a · joins a given name)
_NAMES = """Σταύρος Ελένη Δημήτρης Αικατερίνη; Παπαδάκη Οικονόμου Γεωργίου Καραγιάννη; >
Ярослава Всеволод Людмила Святослав; Кузнецова Щербаков Жукова Вернадский; >
Thị·Ánh Đức·Thắng Ngọc·Hương Quốc·Bảo; Nguyễn Trần Phạm Đặng; <
Şebnem Çağrı Gökhan Özlem İlkay; Yılmaz Öztürk Çelik Şahin Güneş; >""".splitlines()


def _name(r: random.Random) -> str:
    given, family, order = r.choice(_NAMES).split("; ")
    g, f = _p(r, given).replace("·", " "), _p(r, family)
    return f"{f} {g}" if order == "<" else f"{g} {f}"


def _semver(r: random.Random) -> str:
    a, b = r.randint(2, 9), r.randint(11, 47)
    return f">={a}.{b}.{r.randint(2, 19)},<{a}.{b + r.randint(1, 3)}"


_VALUES = {
    "s3": lambda r: (
        f"s3://{_p(r, 'acme globex initech tidewater')}-{_c(r, 4)}-{_p(r, 'exports audit raw')}/{_p(r, 'ledger events snapshots')}/{r.randint(2023, 2026)}-{r.randint(1, 12):02d}/"
    ),
    "k8s": lambda r: (
        f"{_p(r, 'payments ingest edge billing')}-{_c(r, 3)}/{_p(r, 'ledger-writer fraud-scorer api-gateway cron-reaper')}-{_x(r, 5)}"
    ),
    "semver": _semver,
    "cron": lambda r: f"{r.randint(1, 59)} {r.randint(0, 23)} * * {r.randint(1, 6)}",
    "dur": lambda r: f"{r.randint(2, 9)}h{r.randint(11, 59)}m",
    "ip6": lambda r: f"fd{_x(r, 2)}:{_x(r, 4)}:{_x(r, 4)}::{r.randint(16, 4095):x}",
    "cidr": lambda r: f"10.{r.randint(16, 250)}.{r.randint(1, 63) * 4}.0/{_p(r, '22 23 24 26')}",
    "email": lambda r: (
        f"{_p(r, 'm.okafor s.lindqvist p.ramaswamy j.achterberg')}+{_c(r, 3)}@{_p(r, 'tidewater-freight.io northwind-labs.eu globex.co.uk')}"
    ),
    "jira": lambda r: f"{_p(r, 'PLAT OPS BILL SRE INFRA')}-{r.randint(1000, 9999)}",
    "sha": lambda r: _x(r, 16),
    "image": lambda r: (
        f"{_p(r, 'ghcr.io registry.gitlab.com quay.io')}/{_p(r, 'acme northwind')}/{_p(r, 'ingest-worker ledger-api')}:{r.randint(1, 4)}.{r.randint(0, 30)}.{r.randint(0, 9)}@sha256:{_x(r, 64)}"
    ),
    "eur": lambda r: f"€{r.randint(1, 48)},{r.randint(0, 999):03d}.{r.randint(0, 99):02d}",
    "phone": lambda r: f"+{_p(r, '44 49 30 90 84')}{r.randint(10**9, 10**10 - 1)}",
    "order": lambda r: f"#W{r.randint(1000000, 9999999)}",
    "name": _name,
    "loc": lambda r: (
        f"src/{_p(r, 'billing reconcile ui/window ingest')}/{_p(r, 'parseWindow ledgerSync batchPlan')}.{_p(r, 'ts js mjs')}:{r.randint(40, 999)}:{r.randint(3, 60)}"
    ),
    "uuid": lambda r: str(uuid.UUID(int=r.getrandbits(128), version=4)),
    "grpc": lambda r: (
        f"{_p(r, 'acme northwind globex')}.{_p(r, 'ledger settlement fx')}.v{r.randint(1, 4)}.{_p(r, 'SettlementService LedgerService RateService')}/{_p(r, 'ReplayWindow ReconcileBatch StreamQuotes GetSnapshot')}"
    ),
}

_TABLE = r"""
constraint dur | Hard limit from the platform team: any single migration job has to finish inside {v}, otherwise the scheduler kills it and we start over.
constraint semver | Heads up before you touch dependencies. Legal only signed off on the client library within {v}, so anything outside that range needs a fresh license review. Pin it.
constraint cidr | {v} is the only range the firewall lets through to the staging database, so whatever you spin up has to live inside it.
constraint eur | Whatever we end up doing, the total can't go over my budget (max {v}, including the change fees).
constraint cron | Requirements for the new job, in case the ticket isn't clear:\n\n| setting | value |\n|---|---|\n| schedule | `{v}` |\n| retries | 0 |\n\nThe schedule is non-negotiable, ops has a maintenance window around it.
safety s3 | Whatever you do, don't delete or overwrite anything under {v} — that's the only copy of last quarter's audit export.
safety k8s | FYI {v} is serving live traffic. Read-only kubectl against it is fine, but no restarts, no scale-downs, no edits.
safety email | One more thing: please never paste {v} into logs, tickets or commit messages. It's a customer's personal address and we're under GDPR.
safety uuid | ```yaml\nprotected_tenants:\n  # our largest customer; do not drop, migrate or reseed\n  - id: {v}\n```\nPlease respect that list in anything you run.
safety ip6 | The bastion at {v} is shared with the payments team, so leave its sshd config and firewall rules exactly as they are.
preference name | When you draft the reply, address it to {v}, spelled exactly like that in the original script with every accent; they complained last time we anglicised it.
preference jira | small thing but I care about it: every commit message starts with the ticket key, i.e. `{v}: <summary>`. no emoji, no conventional-commit prefixes.
preference phone | If you need me for the 2FA code, text {v} rather than emailing. I barely check mail on weekends.
preference grpc | For the smoke test I'd rather you hit {v} directly with grpcurl than go through the REST gateway; the errors are clearer.
tool_fact image | $ kubectl get deploy ledger-writer -o jsonpath='{.spec.template.spec.containers[0].image}'\n{v}
tool_fact sha | $ curl -s localhost:8081/api/v1/builds/latest\n{{"build": 2291, "status": "passed", "artifact": "release.tar.gz", "sha256_prefix": "{v}", "signed": true}}
tool_fact cidr | $ aws ec2 describe-subnets --filters Name=tag:env,Values=staging --output table\n+--------------+-------------------+-----------+\n|  AZ          |  CidrBlock        |  FreeIPs  |\n+--------------+-------------------+-----------+\n|  eu-west-1b  |  {v}  |  187      |\n+--------------+-------------------+-----------+
tool_fact dur | $ journalctl -u backup-sync --since today | tail -2\nMay 15 03:12:09 db2 backup-sync[4121]: level=info msg="upload started" parts=112\nMay 15 05:58:41 db2 backup-sync[4121]: level=info msg="snapshot complete" elapsed={v} bytes=48211230912 verified=true
tool_fact uuid | $ curl -si -X POST localhost:8080/v1/exports -d @export.json\nHTTP/1.1 202 Accepted\nLocation: /v1/exports/{v}\nContent-Type: application/json\n\n{{"state": "queued", "id": "{v}"}}
tool_error grpc | $ ./gradlew :ledger-client:integrationTest\n> Task :ledger-client:integrationTest FAILED\nio.grpc.StatusRuntimeException: UNIMPLEMENTED: Method not found: {v}\n    at io.grpc.stub.ClientCalls.toStatusRuntimeException(ClientCalls.java:271)\n    at io.grpc.stub.ClientCalls.getUnchecked(ClientCalls.java:252)\n    at com.acme.ledger.client.SettlementClient.replay(SettlementClient.java:88)\n\nBUILD FAILED in 41s
tool_error ip6 | $ go run ./cmd/reconciler --once\n2024/05/15 14:02:11 starting reconciler (workers=4)\n2024/05/15 14:02:16 fatal: open pool: dial tcp [{v}]:5432: connect: connection refused\nexit status 1
tool_error order | $ curl -s -X POST localhost:8000/api/orders/cancel -d @cancel.json -i\nHTTP/1.1 409 Conflict\ncontent-type: application/problem+json\n\n{{"title": "Conflict", "status": 409, "detail": "order {v} is already fulfilled and cannot be cancelled"}}
tool_error loc | $ npm test -- --runInBand\n\n FAIL  src/__tests__/window.test.ts\n  ● parseWindow › rejects overlapping ranges\n\n    TypeError: Cannot read properties of undefined (reading 'start')\n\n      at parseWindow ({v})\n      at Object.<anonymous> (src/__tests__/window.test.ts:22:12)\n\nTests: 1 failed, 37 passed, 38 total
tool_error email | $ python manage.py send_invoices --all\nTraceback (most recent call last):\n  File "/app/billing/mail.py", line 61, in deliver\n    server.sendmail(sender, [to], body)\nsmtplib.SMTPRecipientsRefused: {{'{v}': (550, b'5.1.1 mailbox unavailable')}}
ai_path loc | \n\nThe crash originates at {v}, so that's the spot I'll patch first.
ai_path s3 | \n\n(For reference, the raw inputs I'm reading come from {v}; I haven't written anything there.)
ai_path k8s | \n\nWorth noting: the workload that actually serves this endpoint is `{v}`, not the one named in the ticket.
ai_path grpc | \n\nFollowing the call chain, the REST handler forwards to {v}, and that's where the deadline gets set.
arg_identifier uuid | tenant_id || {"tenant": "found", "rows_scanned": 18234, "orphans": 0}
arg_identifier order | order_id || Order status: pending. Items: 3. Payment method: gift_card_0041.
arg_identifier image | image || Pulled. Layers: 11 (4 cached). Size: 412MB.
arg_identifier jira | issue_key || Transitioned to "In Review". Watchers notified: 3.
decision cidr | \n\nI've decided on {v} for the new subnet: it doesn't overlap the VPN range and still leaves room for a second node pool.
decision semver | \n\nSettled: pin the client to `{v}`, because the next minor drops the sync API we still depend on.
decision dur | \n\nMy call is a request timeout of {v} — long enough for the slow shard, short enough that we fail before the gateway does.
decision image | \n\nGoing with {v} as the rollback target; it's the last build that passed the canary and QA tested that exact digest.
decision cron | \n\nThe nightly slot collides with the backup window and nobody is on call at weekends, so `{v}` it is.
goal_change order | Change of plans, forget the address update. What I actually need now is to return everything in order {v} and get the money back on the original card.
goal_change jira | ok park that. priorities just shifted: {v} is blocking the release, so drop the refactor and work on that ticket instead.
goal_change k8s | Thanks for digging into this so far. I talked to the on-call lead and we don't need the root cause today after all. New goal: get {v} healthy again, then stop.
goal_change name | Sorry, different request. Could you move the booking from my name to my colleague, {v}? That's the only thing I need now.
correction eur | The quote they gave me was {v} for the whole thing. || scratch that, I misread the invoice. It's actually {v}, not {old}.
correction ip6 | $ dig +short AAAA replica-2.db.internal\n{v} || {old} was wrong, that host was decommissioned last month — use {v} for the replica.
correction dur | The upstream SLA gives us {v} per batch, plan around that. || update: batch SLA is {v} now (was {old}), they renegotiated last week.
correction phone | Best number to reach me is {v}. || $ crm customer show 88412 --fields phone,updated_at\nphone={num}  updated_at=2024-05-15T14:58:02Z  source=customer_portal
correction s3 | Drop the finished report into {v} when it's done. || We've switched from {old} to {v} for exports, so the report goes there.
"""

plant = generator(_VALUES, _TABLE, prefix="heldout-d", salt=61)
