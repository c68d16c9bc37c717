"""The planting machinery the held-out canary generators share (``heldout_b.py`` to
``heldout_f.py``): each brings its own value shapes and templates, this puts them into a
run without breaking the tool protocol. Human canaries are new human turns, tool canaries
new call/result pairs, assistant canaries are appended to an assistant message; everything
lands in the first ``span`` of the run, so later turns follow it.

A table row is ``kind shape | body``; ``{v}`` is the probe. Tool bodies are ``"$ command\n
output"``, argument bodies ``"argname || output"``, corrections ``"first || later"`` with
``{v}`` each side's value and ``{old}`` the superseded one (``{num}``: the new value's last
word, the probe when the later side is a tool output).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from canaries import KINDS, Canary
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

__all__ = ["Planter", "generator", "parse_table", "plant_with"]


def parse_table(table: str, kinds: Sequence[str]) -> dict[str, list[tuple[str, str]]]:
    """``kind -> [(shape, body)]`` from the rows of ``table``."""
    out: dict[str, list[tuple[str, str]]] = {k: [] for k in kinds}
    for row in table.strip().splitlines():
        head, body = row.split(" | ", 1)
        kind, shape = head.split()
        out[kind].append((shape, body.replace(r"\n", "\n")))
    return out


def split_body(body: str) -> tuple[str | None, str]:
    if body.startswith("$ "):
        cmd, _, out = body[2:].partition("\n")
        return cmd, out
    return None, body


class Planter:
    """Plants canaries from ``table`` (kind -> [(shape, body)]) with ``values`` (shape ->
    a value from a ``random.Random``) into a copy of ``messages``; ids start ``prefix``."""

    def __init__(
        self,
        messages: Sequence[BaseMessage],
        seed: int,
        span: float,
        tool: str,
        values: Mapping[str, Callable[[random.Random], str]],
        table: Mapping[str, Sequence[tuple[str, str]]],
        prefix: str,
        salt: int,
    ):
        self.r = random.Random(seed * 7919 + salt)
        self.values, self.table, self.prefix = values, table, prefix
        self.msgs = list(messages)
        self.seed, self.tool, self.n = seed, tool, 0
        self.limit = max(3, min(len(self.msgs) - 1, int(span * len(self.msgs))))
        self.text = "\n".join(str(m.content) for m in self.msgs)
        self.used: list[str] = []
        self.edited: set[str] = set()

    def value(self, shape: str, avoid: str = "") -> str:
        for _ in range(300):
            v = self.values[shape](self.r)
            if v not in self.text and all(
                v not in u and u not in v for u in [*self.used, avoid] if u
            ):
                self.used.append(v)
                return v
        raise ValueError(f"no fresh {shape} value")

    def _id(self, kind: str) -> str:
        self.n += 1
        return f"{self.prefix}-{self.seed}-{self.n}-{kind}"

    def _slot(self, after: int = 1) -> int:
        turns = [
            i
            for i in range(max(2, after + 1), len(self.msgs))
            if isinstance(self.msgs[i], AIMessage) and not isinstance(self.msgs[i - 1], AIMessage)
        ]
        early = [i for i in turns if i <= self.limit] or turns
        if not early:
            raise ValueError("no turn boundary")
        return self.r.choice(early)

    def add(self, kind: str, cmd: str | None, text: str, after: int = 1,
            args: dict[str, str] | None = None) -> BaseMessage:  # fmt: skip
        at = self._slot(after)
        if cmd is None and args is None:
            msg: BaseMessage = HumanMessage(text, id=self._id(kind))
            self.msgs.insert(at, msg)
            self.limit += 1
            return msg
        tag = "".join(w[0] for w in self.prefix.split("-"))  # heldout-b: hb
        cid = f"call_{tag}_{self.seed}_{self.n + 1}"
        ai = AIMessage("", tool_calls=[{"id": cid, "name": self.tool,
                                        "args": args or {"command": cmd or ""}}],
                       id=self._id(kind))  # fmt: skip
        tm = ToolMessage(text, tool_call_id=cid, name=self.tool, id=self._id(kind))
        self.msgs[at:at] = [ai, tm]
        self.limit += 2
        return ai if args is not None else tm

    def append(self, kind: str, addition: str) -> BaseMessage:
        spots = [
            i
            for i, m in enumerate(self.msgs[: self.limit])
            if isinstance(m, AIMessage) and isinstance(m.content, str) and m.content.strip()
            and not (m.id or "").startswith(self.prefix) and m.id not in self.edited
        ]  # fmt: skip
        if not spots:
            raise ValueError("no assistant text to append to")
        i = self.r.choice(spots)
        old = self.msgs[i]
        self.msgs[i] = old.model_copy(update={"content": f"{old.content}{addition}"})
        self.edited.add(old.id or "")
        return self.msgs[i]

    def plant(self, kind: str) -> tuple[Canary, BaseMessage]:
        shape, body = self.r.choice(self.table[kind])
        if kind == "correction":
            first, later = body.split(" || ")
            old, new = self.value(shape), self.value(shape, avoid="")
            num = new.split()[-1]
            c1, t1 = split_body(first)
            carrier = self.add("stale", c1, t1.format(v=old))
            at = self.msgs.index(carrier)
            c2, t2 = split_body(later)
            probe = num if c2 is not None else new
            stale = old.split()[-1] if c2 is not None else old
            text = t2.format(v=new, old=old, num=num)
            return Canary(kind, text, probe, stale), self.add(kind, c2, text, after=at + 1)
        v = self.value(shape)
        if kind == "arg_identifier":
            name, output = body.split(" || ")
            return Canary(kind, f"{name}={v}", v), self.add(kind, None, output, args={name: v})
        if kind in ("ai_path", "decision"):
            text = body.format(v=v)
            return Canary(kind, text, v), self.append(kind, text)
        cmd, text = split_body(body)
        return Canary(kind, text.format(v=v), v), self.add(kind, cmd, text.format(v=v))


def plant_with(
    messages: Sequence[BaseMessage],
    seed: int,
    kinds: Sequence[str],
    *,
    span: float,
    tool_name: str | None,
    values: Mapping[str, Callable[[random.Random], str]],
    table: Mapping[str, Sequence[tuple[str, str]]],
    prefix: str,
    salt: int,
) -> tuple[list[BaseMessage], list[Canary]]:
    """A copy of ``messages`` with one canary of each of ``kinds``, and the canaries."""
    tool = tool_name or next(
        (m.name for m in messages if isinstance(m, ToolMessage) and m.name), "bash"
    )
    p = Planter(messages, seed, span, tool, values, table, prefix, salt)
    planted = [p.plant(kind) for kind in kinds]
    where = {id(m): i for i, m in enumerate(p.msgs)}
    return p.msgs, [Canary(c.kind, c.text, c.probe, c.stale, where[id(m)]) for c, m in planted]


Plant = Callable[..., tuple[list[BaseMessage], list[Canary]]]


def generator(
    values: Mapping[str, Callable[[random.Random], str]], table: str, *, prefix: str, salt: int
) -> Plant:
    """The ``plant`` function of a held-out generator with these value shapes and this
    template ``table`` (rows as ``parse_table`` reads them); ids start ``prefix``."""
    rows = parse_table(table, KINDS)

    def plant(
        messages: Sequence[BaseMessage],
        seed: int,
        kinds: Sequence[str] = KINDS,
        *,
        span: float = 0.75,
        tool_name: str | None = None,
    ) -> tuple[list[BaseMessage], list[Canary]]:
        """A copy of ``messages`` with one canary of each of ``kinds``, and the canaries."""
        return plant_with(
            messages, seed, kinds, span=span, tool_name=tool_name,
            values=values, table=rows, prefix=prefix, salt=salt,
        )  # fmt: skip

    return plant
