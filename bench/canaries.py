"""Canaries: items that must survive compaction, planted at random places of a trajectory.

Ten kinds, each with several phrasings and random values, so a test cannot pass by
knowing one sentence: a constraint, a safety rule, a preference, a fact stated in a tool
output, an error printed by a tool, a path named in assistant text, an identifier in a
tool-call argument, a decision with its reason, the current goal after a change of plan,
and a correction with a stale predecessor. Each canary has a ``probe`` (a value that
must still be visible to the model at the end) and, for corrections, a ``stale`` value
that must not be shown as current.

Planting never breaks the tool protocol: human messages go between turns, tool facts
and errors come with their own call (or are appended to an existing output), and text
for the assistant is appended to one of its messages.
"""

from __future__ import annotations

import random
import string
from collections.abc import Sequence
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
    """One planted item: where, what it said, and what must (not) be visible later."""

    kind: str
    text: str
    probe: str
    stale: str | None = None
    position: int = 0
    """Index in the planted trajectory of the message that carries it."""


def _word(rng: random.Random, n: int = 6) -> str:
    return "".join(rng.choice(string.ascii_lowercase) for _ in range(n))


def _code(rng: random.Random) -> str:
    letters = "".join(rng.choice(string.ascii_uppercase) for _ in range(3))
    return f"{letters}-{rng.randint(1000, 9999)}"


def _path(rng: random.Random) -> str:
    return f"{_word(rng, 5)}/{_word(rng, 6)}/{_word(rng, 7)}_{rng.randint(10, 99)}.py"


def _human(rng: random.Random, kind: str) -> tuple[str, str]:
    """(text, probe) of a human-stated canary of ``kind``."""
    d, m, host = _word(rng), _word(rng, 7), f"{_word(rng, 4)}-{rng.randint(10, 99)}"
    lines = rng.randint(40, 90)
    phrasings: dict[str, list[tuple[str, str]]] = {
        "constraint": [
            (f"Never modify files under {d}_legacy/.", f"{d}_legacy/"),
            (f"You must keep the public API of the {m} module unchanged.", m),
            (f"Do not add any new dependency except {d}lib.", f"{d}lib"),
            (f"Only touch code inside the {d}_core package.", f"{d}_core"),
            (f"Make sure every change stays compatible with {m}_v{rng.randint(2, 9)}.", m),
            (f"Changes have to stay inside the {d}_core package.", f"{d}_core"),
            (f"It is important that the {m} API stays as it is.", m),
        ],
        "safety": [
            (f"Never run destructive commands on the production host {host}.", host),
            (
                f"Do not delete anything in the bucket {d}-archive without asking me.",
                f"{d}-archive",
            ),
            (f"Under no circumstances push directly to the {m} branch.", m),
            (
                f"Avoid running migrations against {d}_live; it is the production database.",
                f"{d}_live",
            ),
            (f"Don't rotate the {m} credentials without my approval.", m),
            (f"Ask me before deleting anything in {d}-archive.", f"{d}-archive"),
            (f"No force pushes to the {m} branch, ever.", m),
        ],
        "preference": [
            (f"I prefer {m}-style docstrings in this codebase.", m),
            (f"Please use {d}fmt for formatting the code.", f"{d}fmt"),
            (f"I'd rather you name new branches {m}/<topic>.", f"{m}/"),
            (f"My preference: keep each commit under {lines} lines.", f"{lines} lines"),
            (f"Please write commit messages in the {m} convention.", m),
            (f"Use {d}fmt for the formatting, please.", f"{d}fmt"),
            (f"Can you keep the docstrings in the {m} style?", m),
        ],
        "goal_change": [
            (f"Change of plan: build the {m} export report first.", f"{m} export"),
            (f"New task: migrate the {m} scheduler to async.", f"{m} scheduler"),
            (f"Forget the previous request; now I need you to audit the {m} logs.", f"{m} logs"),
            (f"Switch to fixing the {m} dashboard instead.", f"{m} dashboard"),
            (f"The priority is now the {m} billing bug.", f"{m} billing"),
            (f"Stop working on that and fix the {m} dashboard instead.", f"{m} dashboard"),
        ],
    }
    n = rng.randrange(len(phrasings[kind]))
    return phrasings[kind][n]


def _tool_fact(rng: random.Random) -> tuple[str, str]:
    key = f"{_word(rng, 5)}_{rng.choice(['limit', 'region', 'timeout', 'pool', 'version'])}"
    value = rng.choice(
        [
            f"{rng.choice(['eu', 'us', 'ap'])}-{_word(rng, 4)}-{rng.randint(1, 9)}",
            str(rng.randint(101, 9999)),
            f"{rng.randint(1, 9)}.{rng.randint(0, 20)}.{rng.randint(0, 40)}",
            f"{rng.randint(11, 99)}{rng.choice(['ms', 's', 'MB'])}",
        ]
    )
    line = rng.choice(
        [
            f"{key}: {value}",
            f"{key} = {value}",
            f'{{"{key}": "{value}", "status": "ok"}}',
            f"The {key.replace('_', ' ')} is {value}.",
            f"INFO loaded settings: {key}={value}",
            f"{key} | {value}",
        ]
    )
    return line, value


def _tool_error(rng: random.Random) -> tuple[str, str]:
    word, code = _word(rng, 7), rng.randint(100, 999)
    options = [
        (f"ERROR {word}-service: connection refused (code E{code})", f"E{code}"),
        (f"FAILED tests/test_{word}.py::test_{_word(rng, 5)} - AssertionError", f"test_{word}"),
        (f"HTTP/1.1 503 Service Unavailable (upstream {word}{code})", f"{word}{code}"),
        (
            f"src/{word}.c:{code}:7: error: use of undeclared identifier '{word}_{code}'",
            f"{word}_{code}",
        ),
        (f"npm ERR! code E{word.upper()}", f"E{word.upper()}"),
        (
            'Traceback (most recent call last):\n  File "x.py", line 3\n'
            f"KeyError: '{word}_{code}'",
            f"{word}_{code}",
        ),
        (f"make: *** [Makefile:{code}: {word}] Error 2", f"Makefile:{code}: {word}"),
        (f"E: Unable to locate package lib{word}-dev", f"lib{word}-dev"),
        (
            f'Exception in thread "main" java.lang.IllegalStateException: {word} pool exhausted',
            f"{word} pool exhausted",
        ),
        (f"ld: library not found for -l{word}{code}", f"-l{word}{code}"),
    ]
    return options[rng.randrange(len(options))]


def _ai_text(rng: random.Random, kind: str) -> tuple[str, str]:
    path, lib, other = _path(rng), f"{_word(rng, 6)}lib", f"{_word(rng, 6)}kit"
    if kind == "ai_path":
        options = [
            (f"The bug is in {path}.", path),
            (f"I'll put the fix in {path}.", path),
            (f"{path} defines the retry logic.", path),
            (f"Looking at {path}, the handler is registered twice.", path),
            (f"Next I need to check {path}.", path),
        ]
    else:
        reason = rng.choice(["it is already vendored", "it handles timezones", "it avoids a lock"])
        options = [
            (f"I'll use {lib} instead of {other} because {reason}.", lib),
            (f"Decided to switch to {lib} since {reason}.", lib),
            (f"Let's go with {lib} to avoid pulling in {other}.", lib),
            (f"I chose {lib} because {reason}.", lib),
            (f"We will use {lib} so that {other} is not needed.", lib),
        ]
    return options[rng.randrange(len(options))]


def _correction(rng: random.Random) -> tuple[str, str, str, str]:
    """(first statement, correction, new value, old value)."""
    key = f"{_word(rng, 5)} {rng.choice(['deadline', 'port', 'budget', 'owner', 'quota'])}"
    old, new = (
        (f"{rng.randint(1000, 4999)}", f"{rng.randint(5000, 9999)}")
        if rng.random() < 0.5
        else (f"{_word(rng, 6).title()}", f"{_word(rng, 6).title()}")
    )
    first = f"The {key} is {old}."
    later = rng.choice(
        [
            f"Correction: the {key} is now {new}, not {old}.",
            f"Actually, the {key} is {new} (not {old}).",
            f"Update: the {key} changed from {old} to {new}.",
            f"Sorry, I got that wrong: the {key} should be {new} instead of {old}.",
            f"Scratch that, the {key} is {new}, not {old}.",
        ]
    )
    return first, later, new, old


def _turn_starts(messages: Sequence[BaseMessage], lo: int, hi: int) -> list[int]:
    """Indices in [lo, hi) where a new turn may begin (before an AI message that follows
    a completed tool group or a human message)."""
    return [
        i
        for i in range(max(lo, 2), min(hi, len(messages)))
        if isinstance(messages[i], AIMessage) and not isinstance(messages[i - 1], AIMessage)
    ]


def plant(
    messages: Sequence[BaseMessage],
    seed: int,
    kinds: Sequence[str] = KINDS,
    *,
    span: float = 0.7,
    tool_name: str | None = None,
) -> tuple[list[BaseMessage], list[Canary]]:
    """A copy of ``messages`` with one canary of each of ``kinds`` planted in its first
    ``span`` fraction, and the canaries.

    Positions are random (seeded); corrections state the stale value first and correct
    it at a later turn.
    """
    rng = random.Random(seed)
    out = list(messages)
    name = tool_name or next(
        (m.name for m in messages if isinstance(m, ToolMessage) and m.name), "bash"
    )
    planted: list[tuple[str, str, str, str | None]] = []
    starts = _turn_starts(out, 2, int(len(out) * span)) or [len(out)]
    ai_positions = [
        i for i, m in enumerate(out[: int(len(out) * span)]) if isinstance(m, AIMessage)
    ]
    for n, kind in enumerate(kinds):
        tag = f"canary-{seed}-{n}"
        if kind in ("constraint", "safety", "preference", "goal_change"):
            text, probe = _human(rng, kind)
            out.insert(rng.choice(starts), HumanMessage(text, id=tag))
            planted.append((kind, text, probe, None))
        elif kind in ("tool_fact", "tool_error", "arg_identifier"):
            if kind == "arg_identifier":
                ident = _code(rng)
                arg = rng.choice(["order_id", "ticket", "user_id", "reservation", "build_id"])
                call = {"id": f"{tag}-call", "name": name, "args": {arg: ident}}
                text, probe, output = f"{arg}={ident}", ident, "done"
            else:
                output, probe = _tool_fact(rng) if kind == "tool_fact" else _tool_error(rng)
                call = {
                    "id": f"{tag}-call",
                    "name": name,
                    "args": {"command": f"check {_word(rng)}"},
                }
                text = output
            at = rng.choice(starts)
            out[at:at] = [
                AIMessage("", tool_calls=[call], id=f"{tag}-ai"),
                ToolMessage(output, tool_call_id=call["id"], name=name, id=tag),
            ]
            planted.append((kind, text, probe, None))
        elif kind in ("ai_path", "decision"):
            text, probe = _ai_text(rng, kind)
            i = rng.choice(ai_positions) if ai_positions else None
            if i is None:
                continue
            target = out[i]
            body = target.content if isinstance(target.content, str) else ""
            out[i] = target.model_copy(update={"content": f"{body}\n\n{text}".strip()})
            planted.append((kind, text, probe, None))
        elif kind == "correction":
            first, later, new, old = _correction(rng)
            a, b = sorted(rng.sample(starts, 2)) if len(starts) >= 2 else (starts[0], starts[0])
            out.insert(b, HumanMessage(later, id=f"{tag}-new"))
            out.insert(a, HumanMessage(first, id=f"{tag}-old"))
            planted.append((kind, later, new, old))
        starts = _turn_starts(out, 2, int(len(out) * span)) or [len(out)]
        ai_positions = [
            i for i, m in enumerate(out[: int(len(out) * span)]) if isinstance(m, AIMessage)
        ]
    canaries = [
        Canary(kind, text, probe, stale, position=_locate(out, text))
        for kind, text, probe, stale in planted
    ]
    return out, canaries


def _locate(messages: Sequence[BaseMessage], text: str) -> int:
    head = text.split("\n")[0]
    return next(
        (i for i, m in enumerate(messages) if isinstance(m.content, str) and head in m.content), -1
    )
