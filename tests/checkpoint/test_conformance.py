"""The official ``langgraph-checkpoint-conformance`` suite, on every saver."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.conformance import checkpointer_test, validate
from langgraph.checkpoint.conformance.report import ProgressCallbacks
from pgserver import schema_dsn

from langgraph_compact.checkpoint import (
    AsyncCompactPostgresSaver,
    AsyncCompactSqliteSaver,
    CompactPostgresSaver,
    CompactSqliteSaver,
)


def _register(kind: str, tmp_path: Path):  # type: ignore[no-untyped-def]
    counter = iter(range(1000))

    async def factory() -> AsyncIterator[BaseCheckpointSaver[str]]:
        path = tmp_path / f"{kind}-{next(counter)}.sqlite"
        if kind == "sync":
            with CompactSqliteSaver.from_conn_string(str(path)) as saver:
                yield saver
        elif kind == "async":
            async with AsyncCompactSqliteSaver.from_conn_string(path) as asaver:
                yield asaver
        elif kind == "postgres":
            with CompactPostgresSaver.from_conn_string(schema_dsn(path)) as pg:
                yield pg
        else:
            async with AsyncCompactPostgresSaver.from_conn_string(schema_dsn(path)) as apg:
                yield apg

    return checkpointer_test(name=f"Compact-{kind}")(factory)


@pytest.mark.parametrize("kind", ["sync", "async", "postgres", "postgres_async"])
async def test_conformance_full(kind: str, tmp_path: Path) -> None:
    report = await validate(_register(kind, tmp_path), progress=ProgressCallbacks.verbose())
    report.print_report()
    results = report.results.values()
    passed = sum(1 for r in results if r.detected and r.passed is True)
    failures = [f for r in results for f in r.failures]
    assert failures == []
    assert passed == 8, report.to_dict()
    assert report.conformance_level() == "FULL"
