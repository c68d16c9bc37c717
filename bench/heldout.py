"""Held-out canary generator for the fidelity benchmark.

This module plants test items ("canaries") into recorded trajectories, like the bench's own
generator does, but it was written independently of the recognizers in
``langgraph_compact.compaction`` and of the bench's canary templates, without reading either.
Its templates, sentence shapes and value shapes are deliberately different from the usual ones
(times with zones, host:port pairs, URLs with queries, Windows paths, non-ASCII labels, JSON
fragments, ...). It exists to measure how well compaction generalises. Do not tune recognizers
against it: once its templates feed back into the code it is no longer held out.

``plant`` keeps the tool protocol intact. Human-stated canaries are new ``HumanMessage``s, and
tool canaries are new AIMessage+ToolMessage pairs; both are inserted at turn boundaries. AI-stated
canaries are appended to an existing AIMessage.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

__all__ = ["KINDS", "Canary", "plant"]

KINDS = (
    "constraint",
    "safety",
    "preference",
    "tool_fact",
    "tool_error",
    "ai_path",
    "arg_identifier",
    "decision",
    "goal_change",
    "correction",
)


@dataclass(frozen=True)
class Canary:
    kind: str
    text: str  # the planted text (for correction: the LATER, correcting text)
    probe: str  # a value that must still be visible verbatim to the model at the end
    stale: str | None = None  # corrections only: the superseded value
    position: int = 0  # index in the planted list of the message that carries `text`


# ----------------------------------------------------------------------------- value shapes
_W = "amber basalt cobalt dune ember fjord garnet harbor indigo juniper kestrel lumen".split()
_UNI = ("Zürich", "café", "東京", "Malmö", "Kraków", "São-Paulo", "Straße", "Ørsted", "Łódź")
_HOSTS = ("db", "cache", "build", "kafka", "vault", "relay", "bastion", "edge")


def _hex(r: random.Random, n: int = 10) -> str:
    return "".join(r.choice("0123456789abcdef") for _ in range(n))


def _host(r: random.Random) -> str:
    return f"{r.choice(_HOSTS)}-{r.randint(2, 99)}"


def _camel(r: random.Random) -> str:
    a, b, c = r.sample(_W, 3)
    return a + b.capitalize() + c.capitalize() + r.choice(("Ms", "Id", "V2", "Ref", ""))


def _posix(r: random.Random) -> str:
    a, b = r.sample(_W, 2)
    return f"/srv/{a}/{b}-{r.randint(2, 899)}/{r.choice(('state.db', 'run.lock', 'out.parquet'))}"


_SHAPES: dict[str, Callable[[random.Random], str]] = {
    "utc": lambda r: f"{r.randrange(24):02d}:{r.choice((5, 15, 20, 35, 40, 55)):02d} UTC",
    "clock": lambda r: f"{r.randrange(24):02d}:{r.randrange(60):02d}",
    "hostport": lambda r: f"{_host(r)}.internal:{r.randint(1025, 65000)}",
    "url": lambda r: (
        f"https://{r.choice(('ci.example.org', 'dash.example.net'))}/job/{r.randint(100, 99999)}"
        f"?attempt={r.randint(1, 9)}"
    ),
    "date": lambda r: f"{r.randint(2025, 2028)}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}",
    "hex": _hex,
    "version": lambda r: (
        f"{r.randint(1, 9)}.{r.randint(0, 40)}.{r.randint(0, 20)}"
        + r.choice(("-rc.1", "-rc.3", "-beta.2", "+build.7", "-alpha.4"))
    ),
    "winpath": lambda r: (
        f"C:\\Users\\{r.choice(('dev', 'ci', 'svc_ops'))}\\{r.choice(_W)}{r.randint(2, 99)}"
        f"\\{r.choice(('cfg.toml', 'keys.json', 'local.ini'))}"
    ),
    "posix": _posix,
    "fileline": lambda r: f"{'_'.join(r.sample(_W, 2))}.py:{r.randint(10, 999)}:{r.randint(1, 60)}",
    "nskey": lambda r: f"{r.choice(('billing', 'auth', 'feeds', 'quota'))}:{_camel(r)}",
    "uni": lambda r: f"{r.choice(_UNI)}-{r.randint(10, 999)}",
    "camel": _camel,
    "json": lambda r: (
        f'{{"{r.choice(("retries", "maxInflight", "backoff_ms", "shards"))}": {r.randint(3, 997)}}}'
    ),
    "env": lambda r: f"{r.choice(('PGHOST', 'REDIS_HOST', 'BROKER'))}={_host(r)}.internal",
    "size": lambda r: f"{r.randint(3, 97) * 64}{r.choice(('MiB', 'KiB'))}",
    "pct": lambda r: f"{r.randint(1, 99)}.{r.randint(1, 9)}%",
    "ticket": lambda r: f"{r.choice(('OPS', 'INC', 'SEC', 'REL'))}-{r.randint(1000, 99999)}",
    "errcode": lambda r: f"{r.choice(('EQUOTA', 'ELEASE', 'ETOKEN'))}-{r.randint(100, 9999)}",
    "exc": lambda r: f"{r.choice(('KeyError', 'LookupError', 'ValueError'))}: '{_camel(r)}'",
    "conn": lambda r: f"ECONNREFUSED {_host(r)}:{r.randint(1025, 65000)}",
    "reqid": lambda r: f"{r.choice((409, 422, 429, 503))} req={_hex(r, 8)}",
    "segv": lambda r: f"segfault at 0x{_hex(r, 12)}",
}

_FILL = (
    "Thanks for the progress so far.|I skimmed your last message.|No rush, but this matters.|"
    "Quick note before you continue.|This came up in standup.|The logs are noisy; ignore that.|"
    "Carry on with the rest as planned.|Two other teams depend on this."
).split("|")

# ------------------------------------------------------------------------------- templates
# One row per template: "kind shape | body". {p} is the probe, {f} a filler sentence, a literal
# \n a line break. Tool bodies are "$ command\noutput"; arg_identifier bodies "key || output";
# correction bodies "old || new", where {v} is each side's value and {old} the superseded one.
_TABLE = r"""
constraint utc | Hard constraint: nothing is merged after {p} today.
constraint size | {f} Whatever you change, peak memory has to stay below {p}.
constraint hostport | All database traffic must go through {p} (no direct primary connections).
constraint posix | Constraints:\n- only write inside {p}\n- keep the public API\n- no new deps
constraint version | We are pinned to {p}, so the lockfile must not change. {f}
constraint pct | The coverage gate is strict: it must not drop below {p}. {f}
constraint date | It all has to land by {p}; anything later is out of scope.
constraint json | Keep the client config at exactly {p} because ops depends on that value.
constraint clock | {f} The batch job locks the tables at {p} local time, so migrate before then.
safety env | Please never echo {p} or anything derived from it into logs.
safety winpath | {f} Do NOT delete or overwrite {p}; it is the only copy of the signing key.
safety url | Under no circumstances trigger {p}: that job deploys straight to prod.
safety hostport | Don't run write queries against {p}. It is the live primary.
safety nskey | The cache key {p} must never be flushed (it logs every customer out).
safety posix | Safety note, important: `rm -rf` is forbidden anywhere under {p}. {f}
safety ticket | Anything touching payments needs sign-off on {p} first; do not bypass it.
safety hex | Never force-push over commit {p}, the audit trail depends on it.
preference camel | Small thing: I'd like helper names in camelCase, e.g. {p}, like the rest.
preference uni | {f} By the way, tag the test fixtures with the site code {p} so I find them.
preference date | In the changelog please write dates in ISO form, like {p}.
preference size | I prefer binary units for buffers: default to {p}, not a bare number.
preference fileline | When you cite code, cite it as {p} (file:line:col); my editor jumps to it.
preference pct | For reports I'd rather see one-decimal percentages such as {p}. {f}
preference nskey | Preference: namespace new feature flags the way we do elsewhere, e.g. {p}.
preference clock | If it's all the same to you, run the cron entry at {p} rather than 00:00.
goal_change fileline | Change of plans. Stop on the current fix; the real problem is at {p}.
goal_change ticket | {f} New priority: drop what you're doing and close out {p} first.
goal_change url | Forget the refactor for now. The goal is now to get {p} green.
goal_change camel | Scope update: no CLI flag after all; we need a {p} function exported.
goal_change version | Actually the target has changed: make this work on {p}, not on latest.
goal_change uni | The customer switched, so the report is now for the {p} site only.
goal_change hostport | Different task now: make the job read from {p}. The bug can wait. {f}
goal_change posix | Goal change: rather than patching, write a standalone repro at {p}.
ai_path posix | \n\nNote to self: the patched copy lives at {p}.
ai_path winpath |  (On the Windows runner the same file is {p}.)
ai_path fileline | \n\nThe failing branch is at {p}; I'll come back to it.
ai_path posix | \n\nI saved the intermediate results to {p} so I don't recompute them.
ai_path url | \n\nBuild logs for this attempt: {p}
ai_path winpath | \n\nBackup saved as {p} before editing.
ai_path fileline |  The offending call is {p}, inside the retry loop.
ai_path posix | \n\nFiles touched so far:\n- {p}\n- the test module
decision camel | \n\nDecision: {p} becomes the single entry point; the wrapper goes.
decision version | \n\nI've decided to pin {p} rather than chase newer releases.
decision json | \n\nHaving compared both, I'll set {p} in the client config.
decision nskey | \n\nWe'll keep the state under {p}, decided against a new table.
decision hostport | \n\nChoosing {p} as the migration target since the other replica lags.
decision size | \n\nSettled: the chunk size will be {p}. Smaller was slower, larger OOMed.
decision clock | \n\nPlan fixed: the cutover happens at {p}, after the batch window.
decision uni | \n\nFinal choice for the region tag is {p}. I won't revisit this.
tool_fact hostport | $ cat config/database.yml\nprod:\n  adapter: pg\n  host_port: {p}\n  pool: 12
tool_fact size | $ cat /sys/fs/cgroup/memory.max\nlimit: {p}\n(cgroup v2, unified)
tool_fact version | $ python -c 'import svc; print(svc.__version__)'\n{p}
tool_fact pct | $ coverage report | tail -n 1\nTOTAL    48213   6021   {p}
tool_fact env | $ env | grep -E 'HOST|BROKER' | sort\nHOME=/home/runner\n{p}\nTERM=xterm
tool_fact hex | $ git rev-parse --short=10 HEAD\n{p}
tool_fact date | $ curl -s https://status.example.org/maint\n{{"next_window": "{p}", "h": 4}}
tool_fact uni | $ grep -n region deploy/values.yaml\n14:  region: {p}\n15:  replicas: 3
tool_fact nskey | $ redis-cli --scan | head -3\nsessions:warm\n{p}\nratelimit:global
tool_error errcode | $ make deploy\nDeploying...\nerror: upstream rejected release ({p})\nError 2
tool_error exc | $ python -m pytest -x -q\nF\n=== FAILURES ===\nE   {p}\n1 failed, 3 passed
tool_error conn | $ psql -c 'select 1'\npsql: error: connection to server failed: {p}
tool_error reqid | $ curl -sf https://api.example.org/v2/export\ncurl: (22) server said: {p}
tool_error errcode | $ terraform apply\nError: creating bucket: {p}: quota\n  on main.tf line 12
tool_error exc | $ python manage.py migrate\nTraceback (most recent call last):\n  ...\n{p}
tool_error segv | $ ./run_worker --threads 8\nworker[3]: fatal: {p}\nSegmentation fault
tool_error errcode | $ kubectl rollout status deploy/api\nerror: rollout stalled (reason {p})
arg_identifier ticket | ticket_ref || Ticket linked.
arg_identifier hex | artifact_sha || ok
arg_identifier url | build_url || queued
arg_identifier nskey | cache_key || 1 key inspected
arg_identifier hostport | target || reachable
arg_identifier version | release_tag || tag exists
arg_identifier posix | manifest_path || read 14 entries
arg_identifier camel | handler_name || registered
arg_identifier date | as_of || snapshot selected
correction hostport | The reports replica is at {v}. || Correction: it is {v}, not {old}.
correction version | Build against {v} for now. || {f} Please build against {v} instead of {old}.
correction camel | Let's call the entry point {v}. || The name {old} is dropped; call it {v}.
correction date | The release freeze starts on {v}. {f} || Heads up: it moved from {old} to {v}.
correction posix | Our fixtures live in {v}. || The fixtures are no longer in {old}; now {v}.
correction utc | The staging window is {v}. || The staging window is {v}.
correction env | The app reads {v} from its env. || $ cat /etc/app/runtime.env\n# generated\n{v}
correction size | $ grep mem limits.yaml\n    memory: {v} || $ grep mem limits.yaml\n    memory: {v}
correction uni | Ship the pilot to the {v} site. || Sorry, typo earlier: it's {v}, not {old}. {f}
correction hostport | {f} Point the client at {v}. || $ grep -n host app.toml\n7:endpoint = "{v}"
correction clock | Standup is at {v} this sprint. || Standup at {old} is abandoned; we meet at {v}.
"""
_T: dict[str, list[tuple[str, str]]] = {kind: [] for kind in KINDS}
for _row in _TABLE.strip().splitlines():
    _head, _body = _row.split(" | ", 1)
    _kind, _shape = _head.split()
    _T[_kind].append((_shape, _body.replace(r"\n", "\n")))

_Side = tuple[str | None, str]


def _side(body: str) -> _Side:
    """``$ command\\noutput`` is a tool pair; anything else a human message."""
    if body.startswith("$ "):
        cmd, _, out = body[2:].partition("\n")
        return cmd, out
    return None, body


# -------------------------------------------------------------------------------- planting
def _visible(m: BaseMessage) -> str:
    text = m.content if isinstance(m.content, str) else json.dumps(m.content, ensure_ascii=False)
    if isinstance(m, AIMessage):
        text += "".join(f"\n{v}" for tc in m.tool_calls for v in tc["args"].values())
    return text


def _boundaries(msgs: list[BaseMessage], limit: int, after: int = 1) -> list[int]:
    """Turn boundaries after ``after``, preferring those at or before ``limit``."""
    all_b = [
        i
        for i in range(max(2, after + 1), len(msgs))
        if isinstance(msgs[i], AIMessage) and not isinstance(msgs[i - 1], AIMessage)
    ]
    return [i for i in all_b if i <= limit] or all_b


def _span_mark(n: int, span: float) -> int:
    return max(3, min(n - 1, int(span * n)))


class _Planter:
    def __init__(self, messages: Sequence[BaseMessage], seed: int, span: float, tool: str):
        self.r = random.Random(seed)
        self.msgs = list(messages)
        self.seed, self.tool, self.n = seed, tool, 0
        # Index of the original message at the `span` mark; everything is planted before it.
        self.limit = _span_mark(len(self.msgs), span)
        self.orig = "\n".join(_visible(m) for m in self.msgs)
        self.taken: list[str] = []  # every value planted so far
        self.mine: set[int] = set()  # id() of inserted or edited messages

    def value(self, shape: str, avoid: str = "") -> str:
        for _ in range(500):
            v = _SHAPES[shape](self.r)
            clash = any(v in t or t in v for t in [*self.taken, avoid] if t)
            if not clash and v not in self.orig:
                self.taken.append(v)
                return v
        raise ValueError(f"cannot draw a fresh {shape!r} value")

    def _id(self, kind: str) -> str:
        self.n += 1
        return f"heldout-{self.seed}-{self.n}-{kind}"

    def human_text(self, tpl: str, **kw: str) -> str:
        text = tpl.format(f=self.r.choice(_FILL), **kw)
        if self.r.random() < 0.3:
            text = f"{self.r.choice(_FILL)} {text}"
        if self.r.random() < 0.3:
            text = f"{text}\n\n{self.r.choice(_FILL)}"
        return text

    def insert(
        self, kind: str, side: _Side, after: int = 1, args: dict[str, str] | None = None
    ) -> BaseMessage:
        """Insert a human message (cmd None) or a tool pair; returns the carrying message."""
        cmd, text = side
        cands = _boundaries(self.msgs, self.limit, after)
        if not cands:
            raise ValueError("no turn boundary to plant at")
        i = self.r.choice(cands[:-1] if after <= 1 and len(cands) > 1 else cands)
        if cmd is None and args is None:
            msg: BaseMessage = HumanMessage(text, id=self._id(kind))
            self.msgs.insert(i, msg)
            self.limit += i <= self.limit
            self.mine.add(id(msg))
            return msg
        call_id = f"call_heldout_{self.seed}_{self.n + 1}"
        call = {"id": call_id, "name": self.tool, "args": args or {"command": cmd or ""}}
        ai = AIMessage("", tool_calls=[call], id=self._id(kind))
        tm = ToolMessage(text, tool_call_id=call_id, name=self.tool, id=self._id(kind))
        self.msgs[i:i] = [ai, tm]
        self.limit += 2 * (i <= self.limit)
        self.mine.update((id(ai), id(tm)))
        return ai if args is not None else tm

    def append_ai(self, kind: str, addition: str) -> BaseMessage:
        cands = [
            i
            for i, m in enumerate(self.msgs)
            if isinstance(m, AIMessage) and isinstance(m.content, str) and id(m) not in self.mine
        ]
        cands = [i for i in cands if i < self.limit] or cands
        if not cands:
            raise ValueError("no AIMessage with text content to append to")
        i = self.r.choice(cands)
        old = self.msgs[i]
        assert isinstance(old.content, str)
        new = old.model_copy(update={"content": old.content + addition})
        self.msgs[i] = new
        self.mine.add(id(new))
        return new

    def plant(self, kind: str) -> tuple[Canary, BaseMessage]:
        if kind not in _T:
            raise ValueError(f"unknown canary kind {kind!r}; expected one of {KINDS}")
        shape, body = self.r.choice(_T[kind])
        if kind == "correction":
            old_body, new_body = body.split(" || ")
            old = self.value(shape)
            if shape == "env":  # the same setting with a new value; another key is a new fact
                key, value = old.split("=", 1)
                new = key + "=" + self.value(shape, avoid=value).split("=", 1)[1]
            else:
                new = self.value(shape, avoid=old)
            ocmd, otpl = _side(old_body)
            otext = self.human_text(otpl, v=old) if ocmd is None else otpl.format(v=old)
            first = self.insert("stale", (ocmd, otext))
            ncmd, ntpl = _side(new_body)
            text = self.human_text(ntpl, v=new, old=old) if ncmd is None else ntpl.format(v=new)
            at = next(i for i, m in enumerate(self.msgs) if m is first)
            return Canary(kind, text, new, old), self.insert(kind, (ncmd, text), after=at + 1)
        p = self.value(shape)
        if kind == "arg_identifier":
            key, out = body.split(" || ")
            args = {key: p}
            return Canary(kind, json.dumps(args), p), self.insert(kind, (None, out), args=args)
        if kind in ("ai_path", "decision"):
            text = body.format(p=p)
            return Canary(kind, text, p), self.append_ai(kind, text)
        cmd, tpl = _side(body)
        text = self.human_text(tpl, p=p) if cmd is None else tpl.format(p=p)
        return Canary(kind, text, p), self.insert(kind, (cmd, text))


def plant(
    messages: Sequence[BaseMessage],
    seed: int,
    kinds: Sequence[str] = KINDS,
    *,
    span: float = 0.8,
    tool_name: str | None = None,
) -> tuple[list[BaseMessage], list[Canary]]:
    """A copy of ``messages`` with one canary of each of ``kinds`` planted, and the canaries.

    Every planted or edited message comes before the original message at index
    ``int(span * len(messages))``, so the last ``1 - span`` of the original run follows them all.
    """
    first_tool = next((m.name for m in messages if isinstance(m, ToolMessage) and m.name), None)
    p = _Planter(messages, seed, span, tool_name or first_tool or "bash")
    planted = [p.plant(kind) for kind in kinds]
    where = {id(m): i for i, m in enumerate(p.msgs)}
    canaries = [
        Canary(c.kind, c.text, c.probe, c.stale, where[id(carrier)]) for c, carrier in planted
    ]
    return p.msgs, canaries


# ------------------------------------------------------------------------------ self-check
def _protocol_ok(msgs: Sequence[BaseMessage]) -> bool:
    pending: set[str] = set()
    for m in msgs:
        if isinstance(m, ToolMessage):
            if m.tool_call_id not in pending:
                return False
            pending.discard(m.tool_call_id)
        elif pending:
            return False
        elif isinstance(m, AIMessage):
            pending = {str(tc["id"]) for tc in m.tool_calls}
    return not pending


def _check(orig: list[BaseMessage], out: list[BaseMessage], cs: list[Canary]) -> None:
    mark = next(i for i, m in enumerate(out) if m.id == orig[_span_mark(len(orig), 0.8)].id)
    assert all(c.position < mark for c in cs), "a canary lies past the span mark"
    ids = [m.id for m in out]
    assert None not in ids and len(set(ids)) == len(ids), "message ids not unique"
    calls = [tc["id"] for m in out if isinstance(m, AIMessage) for tc in m.tool_calls]
    assert len(set(calls)) == len(calls), "tool_call ids not unique"
    assert _protocol_ok(out), "tool protocol broken"
    keep = {m.id for m in orig}
    assert [m.id for m in out if m.id in keep] == [m.id for m in orig], "originals reordered"
    assert sorted(c.kind for c in cs) == sorted(KINDS)
    shown = [_visible(m) for m in out]
    for c in cs:
        assert c.probe in shown[c.position], (c, "probe not at position")
        assert c.text in shown[c.position] or c.kind == "arg_identifier", c
        assert not any(c.probe in s for s in shown[: c.position]), (c, "probe shown earlier")
        if c.kind == "correction":
            assert c.stale and c.stale not in c.probe and c.probe not in c.stale, c
            first = next(i for i, s in enumerate(shown) if c.stale in s)
            assert first < c.position - 1, (c, "stale not strictly earlier")


if __name__ == "__main__":
    import glob
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from langgraph_compact.trajectories import load_trajectory

    files = sorted(glob.glob("/work/shared/corpus/trajectories/*.jsonl"))
    openings: set[str] = set()
    runs, far = 0, 0.0
    for path in files:
        orig = load_trajectory(path)
        before = [m.model_dump() for m in orig]
        assert _protocol_ok(orig), f"{path}: corpus itself breaks the protocol"
        for seed in range(200):
            out, cs = plant(orig, seed)
            _check(orig, out, cs)
            again = plant(orig, seed)
            assert [m.model_dump() for m in again[0]] == [m.model_dump() for m in out], "not seeded"
            assert again[1] == cs, "canaries not seeded"
            openings.update(f"{c.kind}:{c.text.strip()[:20]}" for c in cs)
            far = max(far, *(c.position / len(out) for c in cs))
            runs += 1
        assert [m.model_dump() for m in orig] == before, f"{path}: input was mutated"
    print(f"ok: {runs} plantings ({len(files)} files x seeds 0..199), all checks passed")
    print(f"{len(openings)} distinct (kind, opening) pairs; latest carrier at {far:.0%} of a run")
    print("templates per kind:", ", ".join(f"{k} {len(_T[k])}" for k in KINDS))
