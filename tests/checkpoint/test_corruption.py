"""Damaged databases: every load is either exactly right or a ``CorruptionError`` naming where.

A reference database (``damage.Reference``: two threads of a real graph, with an edit,
a summary value, a fork and pending writes) gets one kind of damage at one randomly
chosen place per case: a flipped byte in each kind of stored value, two rows swapping
their values or digests, a deleted row of each table, a changed flag or key, a base or
head pointer moved, and on SQLite random bytes over the file or a truncated file. A
fresh saver then loads every checkpoint by id, the newest one, the whole history and
every message page. The suite asserts 0 silently wrong loads (a load returning anything
but the original), that every error is a ``CorruptionError`` naming the thread and the
checkpoint asked for, and that ``verify()`` reports every kind of damage, on SQLite and
on Postgres (the same damage as SQL on its tables).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from backends import BACKENDS, open_saver
from damage import DAMAGE, RAW_DAMAGE, SEEDS, THREADS, Reference, damaged_copy

from langgraph_compact.checkpoint import CompactSaverBase
from langgraph_compact.errors import CorruptionError


@dataclass
class Truth:
    checkpoints: dict[str, dict[str, Any]] = field(default_factory=dict)
    latest: dict[str, Any] = field(default_factory=dict)
    lists: dict[str, list[Any]] = field(default_factory=dict)
    history: dict[str, list[Any]] = field(default_factory=dict)


def _cfg(thread: str, checkpoint_id: str | None = None) -> Any:
    conf = {"thread_id": thread, "checkpoint_ns": ""}
    return {"configurable": {**conf, "checkpoint_id": checkpoint_id} if checkpoint_id else conf}


def _read(saver: CompactSaverBase, thread: str, kind: str, arg: Any = None) -> Any:
    if kind == "checkpoint":
        return saver.get_tuple(_cfg(thread, arg))
    if kind == "latest":
        return saver.get_tuple(_cfg(thread))
    if kind == "list":
        return list(saver.list(_cfg(thread)))
    return [(i.index, i.message) for i in saver.history(thread, limit=1000).items]


def _truth(ref: Reference, scratch: Path) -> Truth:
    truth = Truth()
    with ref.saver(None, 0, scratch) as saver:
        for thread in THREADS:
            tuples = list(saver.list(_cfg(thread)))
            truth.lists[thread] = tuples
            truth.checkpoints[thread] = {t.checkpoint["id"]: t for t in tuples}
            truth.latest[thread] = _read(saver, thread, "latest")
            truth.history[thread] = _read(saver, thread, "history")
        assert saver.verify().ok
    return truth


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[Reference, Truth]:
    path = tmp_path_factory.mktemp("corruption") / "reference.sqlite"
    ref = Reference.write("sqlite", path)
    return ref, _truth(ref, tmp_path_factory.mktemp("intact"))


@pytest.fixture(scope="module")
def pg_reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[Reference, Truth]:
    ref = Reference.write("postgres", tmp_path_factory.mktemp("corruption-pg") / "reference")
    return ref, _truth(ref, tmp_path_factory.mktemp("intact-pg"))


@dataclass
class Outcome:
    silent: list[str] = field(default_factory=list)
    errors: int = 0
    verify_problems: int = 0


def _load_all(saver: CompactSaverBase, truth: Truth) -> Outcome:
    out = Outcome()
    reads: list[tuple[str, str, Any, Any]] = []
    for thread in THREADS:
        for cid, expected in truth.checkpoints[thread].items():
            reads.append((thread, "checkpoint", cid, expected))
        reads.append((thread, "latest", None, truth.latest[thread]))
        reads.append((thread, "list", None, truth.lists[thread]))
        reads.append((thread, "history", None, truth.history[thread]))
    for thread, kind, arg, expected in reads:
        try:
            got = _read(saver, thread, kind, arg)
        except CorruptionError as e:
            out.errors += 1
            assert e.thread_id == thread, (kind, arg, str(e))
            if kind == "checkpoint":
                assert e.checkpoint_id == arg, (kind, arg, str(e))
            else:
                assert e.checkpoint_id or "newest checkpoint" in str(e), (kind, str(e))
            assert "saver.verify(" in str(e)
            continue
        if got != expected:
            out.silent.append(f"{kind} {thread} {arg}")
    return out


def _damage_is_reported(ref: Reference, truth: Truth, kind: str, scratch: Path) -> None:
    reported = 0
    for seed in ref.seeds:
        with ref.saver(kind, seed, scratch) as saver:
            outcome = _load_all(saver, truth)
            report = saver.verify()
        assert outcome.silent == [], f"{kind} (seed {seed}): silently wrong {outcome.silent}"
        if outcome.errors:
            assert not report.ok, f"{kind} (seed {seed}): loads failed but verify saw nothing"
        reported += not report.ok
        for problem in report.problems:
            assert problem.kind and problem.detail
    assert reported, f"verify() reported none of the {kind} damage"


@pytest.mark.parametrize("kind", [*DAMAGE, *RAW_DAMAGE])
def test_damage_is_never_loaded_silently_and_verify_reports_it(
    kind: str, reference: tuple[Reference, Truth], tmp_path: Path
) -> None:
    _damage_is_reported(*reference, kind, tmp_path)


@pytest.mark.parametrize("kind", [*DAMAGE])
def test_damage_on_postgres_is_never_loaded_silently_and_verify_reports_it(
    kind: str, pg_reference: tuple[Reference, Truth], tmp_path: Path
) -> None:
    _damage_is_reported(*pg_reference, kind, tmp_path)


@pytest.mark.parametrize(
    "kind", ["flipped byte in a message skeleton", "deleted ref list", "truncated file"]
)
def test_the_async_saver_reports_damage_the_same_way(
    kind: str, reference: tuple[Reference, Truth], tmp_path: Path
) -> None:
    ref, truth = reference
    path = tmp_path / "damaged.sqlite"
    damaged_copy(ref.path, path, kind, SEEDS[0])
    with open_saver(BACKENDS[1], path) as saver:
        outcome = _load_all(saver, truth)
        assert outcome.silent == [] and outcome.errors > 0
        assert not saver.verify().ok
