"""A second held-out canary generator, written after the recognizers it measures.

``heldout.py`` has been read while changing recognizers, so it is no longer fully held
out. This one was written once, after the changes it measures, from none of the
templates of ``canaries.py`` or ``heldout.py``: other sentence shapes (questions turned
statements, lists, parentheticals, tables), other value shapes (ARNs, image tags, cron
lines, DSNs, UUIDs, emails, S3 URIs, durations, Cyrillic and Greek labels) and other
carriers (a markdown table in a tool output, a YAML list, a note inside a long assistant
message). Do not tune recognizers against it; when it has been read for that, write
another.

``plant`` keeps the tool protocol intact (``_plant.py``).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from _plant import generator
from canaries import KINDS, Canary

__all__ = ["KINDS", "Canary", "plant"]


_NOUNS = "otter falcon maple quartz saffron tundra velvet walnut yarrow zephyr aspen birch".split()
_LABELS = ("Кедр", "Берёза", "Αθήνα", "Δέλτα", "Ångström", "Señora", "Ñandú", "Göteborg")


def _n(r: random.Random) -> str:
    return r.choice(_NOUNS)


_VALUES: dict[str, Callable[[random.Random], str]] = {
    "arn": lambda r: f"arn:aws:sqs:eu-central-1:{r.randint(10**11, 10**12 - 1)}:{_n(r)}-queue",
    "image": lambda r: f"registry.local/{_n(r)}/{_n(r)}:{r.randint(1, 9)}.{r.randint(0, 30)}",
    "cron": lambda r: f"*/{r.choice((5, 10, 15, 20))} {r.randint(0, 23)} * * {r.randint(1, 5)}",
    "dsn": lambda r: f"postgres://svc@{_n(r)}-db:{r.randint(5400, 5499)}/{_n(r)}",
    "uuid": lambda r: "-".join(
        "".join(r.choice("0123456789abcdef") for _ in range(k)) for k in (8, 4, 4, 4, 12)
    ),
    "email": lambda r: f"{_n(r)}.{_n(r)}@corp.example",
    "s3": lambda r: f"s3://{_n(r)}-artifacts/{r.randint(2024, 2027)}/{_n(r)}.tar.zst",
    "duration": lambda r: f"{r.randint(2, 95)}m{r.randint(10, 59)}s",
    "label": lambda r: f"{r.choice(_LABELS)}-{r.randint(100, 999)}",
    "ref": lambda r: f"refs/heads/{_n(r)}-{r.randint(100, 999)}",
    "port": lambda r: f"port {r.randint(20000, 29999)}",
    "money": lambda r: f"€{r.randint(1, 9)},{r.randint(100, 999)}.{r.randint(10, 99)}",
    "semver": lambda r: f"~{r.randint(1, 6)}.{r.randint(0, 19)}",
    "ipv6": lambda r: f"fd00:{r.randint(10, 99)}::{r.randint(100, 999)}",
    "dotted": lambda r: f"{_n(r)}.{_n(r)}.max_{r.choice(('conns', 'retries', 'bytes'))}",
    "srcref": lambda r: f"src/{_n(r)}/{_n(r)}.rs#L{r.randint(10, 900)}",
}

# kind shape | template (the row format of ``_plant.py``)
_TABLE = r"""
constraint arn | For the record, the only queue we're cleared to publish to is {v}.
constraint semver | Pin the client to {v} in every manifest — that range is what ops signed off.
constraint duration | Keep every job under {v} wall time, or the scheduler kills it.
constraint email | Every change request goes to {v} for approval before it ships.
safety dsn | Whatever happens, no DROP or TRUNCATE on {v}.
safety s3 | Treat {v} as read-only: it's the legal hold copy.
safety ref | Nobody rebases {v}. Ever.
preference label | My preference, if you need a tag for the fixtures: {v}.
preference cron | I'd schedule it as {v} — keeps it off the peak hours.
preference image | Build on top of {v} if possible; it's the base we like.
tool_fact uuid | $ cat deploy/state.json | jq .tenant\n"{v}"
tool_fact ipv6 | $ ip -6 addr show dev eth1 | grep inet6\n    inet6 {v}/64 scope global
tool_fact money | $ ./bin/quote --plan team\n| plan | monthly |\n|---|---|\n| team | {v} |
tool_fact duration | $ kubectl get job nightly\nNAME    COMPLETIONS   DURATION\nnightly   1/1   {v}
tool_error arn | $ aws sqs send-message\nAn error occurred (AccessDenied) calling SendMessage on {v}
tool_error image | $ docker pull\nError response from daemon: manifest for {v} not found
tool_error dsn | $ alembic upgrade head\nsqlalchemy.exc.OperationalError: could not connect to {v}
tool_error srcref | $ cargo test\nthread 'main' panicked at {v}: index out of bounds
ai_path srcref |  (Root cause spotted in {v}.)
ai_path s3 | \n\nFor later: the nightly dump I diffed against sits in {v}.
ai_path dotted | \n\nThe knob that matters here is {v}; everything else is default.
arg_identifier uuid | tenant_uuid || tenant loaded
arg_identifier email | notify || queued for delivery
arg_identifier ref | branch || checked out
arg_identifier image | image || pulled
decision image | \n\nAfter weighing both, {v} wins: the slim one lacked libssl.
decision cron | \n\nGoing forward the sync runs on {v}; the hourly one was overkill.
decision port | \n\nThe sidecar gets {v} — nothing else listens there.
decision label | \n\nLocking in {v} as the release codename, no more bikeshedding.
goal_change s3 | Drop the refactor. What I actually need today is a restore test from {v}.
goal_change email | Priority shift: the complaint from {v} comes first now.
goal_change ref | Park this. Please get {v} mergeable instead.
correction dsn | Staging data is on {v}. || Update: staging moved, it's {v} now.
correction duration | Budget {v} per run. || We measured again — budget {v} per run, not {old}.
correction port | The mock listens on {v}. || $ ss -ltn | grep mock\nLISTEN 0 128 *:{num} mock
correction label | Tag the build {v}. || Retag please: {v} replaces {old}.
"""
plant = generator(_VALUES, _TABLE, prefix="heldout-b", salt=11)
