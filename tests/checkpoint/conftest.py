"""Fixtures for the checkpoint tests: real SQLite files in ``tmp_path``, real graphs.

``backend`` runs a feature test once per entry of ``backends.BACKENDS`` (Postgres in a
database of this run, see ``pgserver``), or once per backend its
``@pytest.mark.backends(...)`` names.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from backends import BACKENDS, Backend, open_saver
from pgserver import drop_database

from langgraph_compact.checkpoint import AsyncCompactSqliteSaver, CompactSqliteSaver


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "checkpoints.sqlite"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "backends(*names): the backends a test runs on")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames:
        marker = metafunc.definition.get_closest_marker("backends")
        names = list(marker.args) if marker else BACKENDS
        metafunc.parametrize("backend", names, indirect=True)


def pytest_sessionfinish(session: pytest.Session) -> None:
    drop_database()


@pytest.fixture
def backend(request: pytest.FixtureRequest, db_path: Path) -> Iterator[Backend]:
    with open_saver(request.param, db_path) as saver:
        yield Backend(request.param, saver, db_path)


@pytest.fixture
def saver(db_path: Path) -> Iterator[CompactSqliteSaver]:
    with CompactSqliteSaver.from_conn_string(str(db_path)) as s:
        yield s


@pytest.fixture
async def asaver(db_path: Path) -> AsyncIterator[AsyncCompactSqliteSaver]:
    async with AsyncCompactSqliteSaver.from_conn_string(db_path) as s:
        yield s
