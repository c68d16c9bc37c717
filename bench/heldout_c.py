"""A third held-out canary generator, written after the recognizers read the first two.

``heldout.py`` and ``heldout_b.py`` have both been read while changing recognizers. This
one was written after those changes, from none of the templates of the other three, and
has since been read as well (its stale values: a tool output that is one value, which
``subject.answer`` now reads); ``_generators.UNTUNED`` names those not tuned against.
Its shapes: values a summary is most tempted to rewrite (clock times with zones,
``host:port`` pairs, URLs, ISO dates, hex ids and addresses, JSON pairs, Windows and
POSIX paths, MAC addresses, environment assignments, words in Polish, Czech, Danish or
Japanese), carried in a middle sentence of a longer request, a quoted memo, a bullet, a
JSON body, a traceback, a ``ip link`` listing; corrections in each form a user writes
one ("not X", "instead of X", "X is abandoned", "moved from X to Y", "no longer X", a
plain restatement with the new value, a tool output showing it).

``plant`` keeps the tool protocol intact (``_plant.py``).
"""

# ruff: noqa: E501  (the template table: one row per line)
from __future__ import annotations

import random
from collections.abc import Callable

from _plant import generator
from canaries import KINDS, Canary

__all__ = ["KINDS", "Canary", "plant"]


_NOUNS = "kestrel heron lynx ibis marten osprey puffin stoat tern vole wren bison".split()
_PLACES = ("Zürich", "Łódź", "Kraków", "Ærøskøbing", "München", "Čáslav", "東京", "Málaga")


def _n(r: random.Random) -> str:
    return r.choice(_NOUNS)


def _hex(r: random.Random, k: int) -> str:
    return "".join(r.choice("0123456789abcdef") for _ in range(k))


_VALUES: dict[str, Callable[[random.Random], str]] = {
    "clock": lambda r: (
        f"{r.randint(0, 23):02d}:{r.choice((0, 15, 30, 45)):02d} "
        + r.choice(("CET", "PST", "IST", "JST"))
    ),
    "hostport": lambda r: (
        f"{_n(r)}-{r.randint(2, 40)}.{r.choice(('eu', 'us', 'ap'))}"
        f".internal:{r.randint(6000, 9999)}"
    ),
    "url": lambda r: (
        f"https://{_n(r)}.acme.test/{r.choice(('issues', 'runs', 'docs'))}/{r.randint(1000, 99999)}"
    ),
    "isodate": lambda r: f"{r.randint(2026, 2029)}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}",
    "hexid": lambda r: _hex(r, 12),
    "pointer": lambda r: "0x" + _hex(r, 8),
    "jsonpair": lambda r: (
        f'"{r.choice(("replicas", "shard", "timeout_ms", "max_batch"))}": {r.randint(2, 5000)}'
    ),
    "winpath": lambda r: f"E:\\{_n(r)}\\{_n(r)}-data\\{_n(r)}.ini",
    "posix": lambda r: f"/opt/{_n(r)}/etc/{_n(r)}-{r.randint(1, 99)}.conf",
    "place": lambda r: f"{r.choice(_PLACES)}-{r.randint(10, 99)}",
    "mac": lambda r: ":".join(_hex(r, 2) for _ in range(6)),
    "version": lambda r: (
        f"v{r.randint(1, 9)}.{r.randint(0, 40)}.{r.randint(0, 9)}-rc{r.randint(1, 5)}"
    ),
    "percent": lambda r: f"{r.randint(60, 99)}.{r.randint(0, 9)}%",
    "pod": lambda r: f"{_n(r)}-{_hex(r, 5)}",
    "envvar": lambda r: f"{_n(r).upper()}_POOL={r.randint(4, 512)}",
}

_TABLE = r"""
constraint clock | Two things before you start. Deploys are frozen outside the window that opens at {v}, so plan around it. Thanks!
constraint version | > From release management: everything shipped this week builds against {v}.\nPlease follow that.
constraint hostport | - every integration call goes to {v} (the other endpoints are throttled)
constraint percent | Line coverage on this package may not fall below {v}.
safety posix | Careful: {v} holds production secrets. Don't print it and don't copy it anywhere.
safety winpath | Hands off {v} — the license server reads it at boot and a bad edit bricks the box.
safety hexid | Under no circumstances revert commit {v}; it carries the security fix.
preference place | When a test needs a sample customer, use {v}; that's the one I always pick.
preference isodate | In the examples I'd rather see {v} as the cutover date, it reads better.
preference envvar | Personally I run with {v} locally, the default feels too small.
tool_fact jsonpair | $ curl -s localhost:8080/config\n{{"status": "ok", {v}, "source": "file"}}
tool_fact mac | $ ip link show eth0\n2: eth0: <BROADCAST,MULTICAST,UP> mtu 1500\n    link/ether {v} brd ff:ff:ff:ff:ff:ff
tool_fact hexid | $ git log -1 --format=%h%n%s\n{v}\nbump schema
tool_fact url | $ gh pr view --json url -q .url\n{v}
tool_error posix | $ python -m app.migrate\nTraceback (most recent call last):\n  File "{v}", line 42, in load\nPermissionError: [Errno 13] Permission denied
tool_error hostport | $ make integration\nFAILED tests/test_sync.py::test_push - ConnectionRefusedError: [Errno 111] Connect call failed ('{v}')
tool_error version | $ pip install -r requirements.txt\nERROR: No matching distribution found for kestrel-sdk=={v}
tool_error pointer | $ ./bin/worker --once\nSegmentation fault at address {v}\nAborted (core dumped)
ai_path winpath | \n\n- Logs of the failing run: {v}
ai_path posix | \n\nNB: the generated stub landed at {v}; I'll clean it up later.
ai_path url | \n\nThe write-up I followed: {v}
arg_identifier pod | pod || pod restarted
arg_identifier hexid | commit || cherry-picked onto the release branch
arg_identifier url | webhook || webhook registered
arg_identifier place | customer || record updated
decision hostport | \n\nConclusion: the replay goes through {v}; the primary is too busy.
decision isodate | \n\nFrom here on I'm treating {v} as the go-live date.
decision jsonpair | \n\nFor the worker we'll use {v}, which keeps memory flat.
decision version | \n\nWe stay on {v}: upgrading in the middle of an incident is too risky.
goal_change url | Stop what you're doing, please. New task: reproduce the bug reported at {v}.
goal_change place | Change of plans: forget the cleanup and onboard the {v} tenant first.
goal_change posix | Leave that for now. I need {v} rewritten so it loads lazily.
correction clock | The maintenance slot starts at {v}. || Small fix: the slot starts at {v}, not {old}.
correction hostport | Point the client at {v}. || Use {v} instead of {old}, that box is being drained.
correction version | We're targeting {v} for the release. || {old} is abandoned; the release is {v}.
correction posix | The service config lives in {v}. || The service config moved from {old} to {v}.
correction envvar | The pool is sized with {v}. || The pool is no longer {old}; it's {v}.
correction isodate | Cutover happens on {v}. || Cutover happens on {v}.
correction hexid | The pinned build is {v}. || $ cat PINNED\n{num}
"""
plant = generator(_VALUES, _TABLE, prefix="heldout-c", salt=23)
