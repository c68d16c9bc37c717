"""Every option of every command takes effect, or is refused with exit 2 naming what is missing.

The walk reads the real click tree: each (command, option) pair it finds needs a ``Case``
here, so an option added later without one fails ``test_every_option_has_a_case``. A case
runs its command twice on a copy of the demo database, in a fresh folder, without the
option and with it; what a run shows is its exit code, its stdout, its ``Error:`` line and
the names of the files it wrote.
"""

from __future__ import annotations

import contextlib
import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import click
import pytest
from cli_helpers import (
    SAMPLE,
    THREAD,
    assert_bad_input,
    copy_database,
    demo_dir_fixture,  # noqa: F401  (fixtures)
    threads_db_fixture,  # noqa: F401
)
from click.testing import CliRunner, Result

from langgraph_compact.checkpoint import CompactSaverBase
from langgraph_compact.cli import main
from langgraph_compact.cli.db import open_saver
from langgraph_compact.cli.thread import model_inputs
from langgraph_compact.trajectories import load_trajectory, sample_path

DB = "demo.sqlite"
"""The database every run reads, copied into the run's own folder."""
EXCLUDED = {"--help"}
"""Options every command has from click, which change nothing but print the help."""


def _stand_in_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--model`` without a provider package or key: ``init_chat_model`` gives a fixed model."""
    import langchain.chat_models
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage

    def init_chat_model(spec: str, **kwargs: object) -> GenericFakeChatModel:
        answers = itertools.repeat(AIMessage("## Goal\n- Find the flag of the eps challenge."))
        return GenericFakeChatModel(messages=answers)

    monkeypatch.setattr(langchain.chat_models, "init_chat_model", init_chat_model)


@dataclass(frozen=True)
class Case:
    """One option: the command line without it, what it adds, and a sign of its effect.

    ``shows`` is text in what the run with the option shows and not in the run without
    it; ``{name}`` fields are filled from the demo database (``facts``).
    """

    command: str
    flag: str
    base: tuple[str, ...]
    adds: tuple[str, ...]
    shows: str
    setup: Callable[[pytest.MonkeyPatch], None] | None = None

    @property
    def id(self) -> str:
        return f"{self.command or 'langgraph-compact'} {self.flag}"


_DEMO = ("--sample", SAMPLE, "--budget", "4000", "--out", "d")
"""Each demo case adds one option to a prefix of this line, so runs are shared."""
_REPLAY = ("{trajectory}", "--budget", "4000", "--strategy", "trim")
_ONE = ("{db}", "--thread", "{thread}")
_REDACT = ("{db}", "{thread}", "{message}", "--reason", "leak", "--yes")

CASES = [
    Case("", "--version", (), ("--version",), "langgraph-compact, version"),
    Case("demo", "--sample", _DEMO[2:4], _DEMO[:2], f"{SAMPLE}: 14 model calls"),
    Case("demo", "--budget", _DEMO[:2], _DEMO[2:4], "budget 4,000"),
    Case("demo", "--out", _DEMO[:4], _DEMO[4:], "file d/demo.html"),
    Case("demo", "--model", _DEMO, ("--model", "stand-in:model"), "chat-model", _stand_in_model),
    Case("replay", "--budget", _REPLAY[:1] + _REPLAY[3:], ("--budget", "2000"), "| 2,000 | trim |"),
    Case("replay", "--strategy", _REPLAY[:3], ("--strategy", "ours+llm"), "| 4,000 | ours+llm |"),
    Case("replay", "--probe", _REPLAY, ("--probe", "flag"), "kept 'flag'"),
    Case("replay", "--format", _REPLAY, ("--format", "json"), '"strategy": "trim"'),
    Case("replay", "--output", _REPLAY, ("-o", "report.md"), "file report.md"),
    Case("replay", "--chart", _REPLAY, ("--chart", "c.png"), "file c.png"),
    Case("inspect", "--thread", ("{db}",), _ONE[1:], "raw messages, page 1 of 1"),
    Case("inspect", "--budget", _ONE, ("--budget", "4000"), "verbatim"),
    Case(
        "inspect",
        "--checkpoint",
        (*_ONE, "--budget", "4000"),
        ("--checkpoint", "{checkpoint}"),
        "what the model saw after checkpoint {checkpoint}",
    ),
    Case("inspect", "--page", (*_ONE, "--page-size", "10"), ("--page", "2"), "page 2 of 3"),
    Case("inspect", "--page-size", _ONE, ("--page-size", "10"), "page 1 of 3"),
    Case("inspect", "--html", _ONE, ("--html", "page.html"), "file page.html"),
    Case("inspect", "--json", ("{db}",), ("--json",), '"thread_id": "{thread}"'),
    Case("verify", "--thread", ("{db}",), ("--thread", "{thread}"), "│ {thread} │"),
    Case("verify", "--json", ("{db}",), ("--json",), '"problems": []'),
    Case("history", "--text", ("{db}", "{thread}"), ("--text", "{word}"), "{text_matches}"),
    Case("history", "--role", ("{db}", "{thread}"), ("--role", "system"), "{role_matches}"),
    Case("history", "--tool", ("{db}", "{thread}"), ("--tool", "{tool}"), "{tool_matches}"),
    Case("history", "--start", ("{db}", "{thread}"), ("--start", "25"), "{start_matches}"),
    Case("history", "--end", ("{db}", "{thread}"), ("--end", "5"), "{end_matches}"),
    Case("history", "--limit", ("{db}", "{thread}"), ("--limit", "3"), "{limit_matches}"),
    Case("history", "--json", ("{db}", "{thread}"), ("--json",), '"message_id": "{message0}"'),
    Case("redact", "--reason", _REDACT[:3] + _REDACT[5:], _REDACT[3:5], "'[redacted: leak]'"),
    Case("redact", "--actor", _REDACT, ("--actor", "alice"), "logged for 'alice'"),
    Case("redact", "--yes", _REDACT[:5], _REDACT[5:], "redacted 1 message(s)"),
    Case("export", "--output", ("{db}", "{thread}"), ("-o", "t.jsonl"), "file t.jsonl"),
]


def _options() -> set[tuple[str, str]]:
    """Every (command, option) of the real command tree, by the option's long name."""
    found = set()
    for name, command in [("", main), *main.commands.items()]:
        ctx = click.Context(command, info_name=name or "langgraph-compact")
        for param in command.get_params(ctx):  # command.params, plus click's --help
            flag = max(param.opts, key=len)
            if isinstance(param, click.Option) and flag not in EXCLUDED:
                found.add((name, flag))
    return found


def _shown(result: Result, cwd: Path) -> str:
    """What a run shows: exit code, stdout, its error line and the files it wrote."""
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    written = sorted(
        p.relative_to(cwd).as_posix()
        for p in cwd.rglob("*")
        if p.is_file() and not p.relative_to(cwd).as_posix().startswith(DB)
    )
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    return "\n".join(
        [f"exit {result.exit_code}", result.stdout, *errors, *(f"file {f}" for f in written)]
    )


@pytest.fixture(scope="module", name="shown")
def shown_fixture(
    demo_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Callable[[Sequence[str]], str]:
    """Runs a command line once (each in its own folder, on its own copy of the database)."""
    seen: dict[tuple[str, ...], str] = {}

    def shown(args: Sequence[str]) -> str:
        key = tuple(args)
        if key not in seen:
            cwd = tmp_path_factory.mktemp("run")
            copy_database(demo_dir / "demo.sqlite", cwd / DB)
            with contextlib.chdir(cwd):
                result = CliRunner().invoke(
                    main, list(key), prog_name="langgraph-compact", env={"COLUMNS": "80"}
                )
            seen[key] = _shown(result, cwd)
        return seen[key]

    return shown


def _matches(saver: CompactSaverBase, limit: int = 20, **filters: object) -> str:
    """The title ``history`` gives these filters, from the saver's own search."""
    page = saver.history(THREAD, limit=limit, **filters)  # type: ignore[arg-type]
    return f" {len(page.items)} of {page.total} messages match"


@pytest.fixture(scope="module", name="facts")
def facts_fixture(demo_dir: Path) -> dict[str, str]:
    """Values from the demo database that the cases name."""
    recorded = load_trajectory(sample_path(SAMPLE))
    word = re.findall(r"[A-Za-z]{7,}", recorded[3].text)[0]
    tool = next(str(m.name) for m in recorded if m.type == "tool" and m.name)
    with open_saver(str(demo_dir / "demo.sqlite")) as saver:
        facts = {
            "db": DB,
            "thread": THREAD,
            "trajectory": str(sample_path(SAMPLE)),
            "checkpoint": model_inputs(saver, THREAD)[-1].checkpoint_id,
            "message": str(recorded[4].id),
            "message0": str(recorded[0].id),
            "word": word,
            "tool": tool,
            "text_matches": _matches(saver, text=word),
            "role_matches": _matches(saver, role="system"),
            "tool_matches": _matches(saver, tool_name=tool),
            "start_matches": _matches(saver, start=25),
            "end_matches": _matches(saver, end=5),
            "limit_matches": _matches(saver, limit=3),
        }
        assert _matches(saver) not in {v for k, v in facts.items() if k.endswith("_matches")}
    return facts


def _line(case: Case, args: tuple[str, ...], facts: dict[str, str]) -> list[str]:
    return [*([case.command] if case.command else []), *(a.format(**facts) for a in args)]


def test_every_option_has_a_case() -> None:
    cased = [(c.command, c.flag) for c in CASES]
    assert len(cased) == len(set(cased)), "two cases for one option"
    assert set(cased) == _options()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_each_option_changes_what_the_command_does(
    case: Case,
    shown: Callable[[Sequence[str]], str],
    facts: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    without = shown(_line(case, case.base, facts))
    if case.setup:
        case.setup(monkeypatch)
    with_it = shown(_line(case, case.base + case.adds, facts))
    sign = case.shows.format(**facts)
    assert with_it != without
    assert sign in with_it, (sign, with_it)
    assert sign not in without, (sign, without)


REFUSED = [
    (("inspect", *_ONE, "--checkpoint", "{checkpoint}"), ["--checkpoint needs --budget"]),
    (("inspect", "{many}", "--page", "2"), ["--page needs --thread", "3 threads"]),
    (("inspect", "{many}", "--page-size", "5"), ["--page-size needs --thread"]),
    (("inspect", *_ONE, "--page", "9"), ["--page 9", "1 page(s) of 40"]),
    (
        (
            "inspect",
            *_ONE,
            "--budget",
            "4000",
            "--checkpoint",
            "{checkpoint}",
            "--json",
            "--page=2",
        ),
        ["--page", "--json with --checkpoint"],
    ),
    (("verify", "{db}", "--thread", "ghost"), ["thread 'ghost'"]),
    (("history", "{db}", "ghost"), ["thread 'ghost'"]),
    (("export", "{db}", "ghost"), ["thread 'ghost'"]),
    (("redact", "{db}", "ghost", "x", "--reason", "r", "--yes"), ["thread 'ghost'"]),
    (("redact", "{db}", "{thread}", "x", "--yes"), ["--reason"]),
]


@pytest.mark.parametrize(("args", "needles"), REFUSED, ids=[" ".join(a) for a, _ in REFUSED])
def test_a_missing_piece_is_refused_naming_it(
    args: tuple[str, ...],
    needles: list[str],
    demo_dir: Path,
    threads_db: Path,
    facts: dict[str, str],
) -> None:
    named = {**facts, "db": str(demo_dir / "demo.sqlite"), "many": str(threads_db)}
    result = CliRunner().invoke(main, [a.format(**named) for a in args])
    assert_bad_input(result, *needles)
