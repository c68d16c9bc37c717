"""The Postgres server the tests run against: one database per test run, one schema per test.

The server is ``LGC_POSTGRES_DSN`` (default ``postgresql://postgres@127.0.0.1:5432/postgres``).
The first test that needs it creates the database ``lgc_test_<pid>_<random>``;
``drop_database()`` (called when the session ends) drops it. Each test gets a schema of
its own in it (named after its ``tmp_path``), so tests never see each other's rows. An
unreachable server skips the Postgres tests with the reason, except with ``CI=true``,
where it fails them.
"""

from __future__ import annotations

import hashlib
import os
import secrets
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo

__all__ = ["drop_database", "require", "schema_dsn", "server_dsn"]

DEFAULT_DSN = "postgresql://postgres@127.0.0.1:5432/postgres"
_database: list[str] = []
_unreachable: list[str] = []


def server_dsn() -> str:
    """The DSN of the server's maintenance database (``LGC_POSTGRES_DSN``)."""
    return os.environ.get("LGC_POSTGRES_DSN") or DEFAULT_DSN


def require() -> str:
    """The DSN of this run's database, created on first use; skip (or, in CI, fail) if
    the server cannot be reached."""
    if _database:
        return _database[0]
    if not _unreachable:
        name = f"lgc_test_{os.getpid()}_{secrets.token_hex(4)}"
        try:
            with psycopg.connect(server_dsn(), autocommit=True, connect_timeout=5) as conn:
                conn.execute(f'CREATE DATABASE "{name}"')
        except psycopg.OperationalError as e:
            _unreachable.append(f"Postgres at {server_dsn()!r} is unreachable: {e}")
        else:
            _database.append(make_conninfo(server_dsn(), dbname=name))
            return _database[0]
    if os.environ.get("CI") == "true":
        pytest.fail(_unreachable[0] + " (CI=true: the Postgres tests must run)")
    pytest.skip(_unreachable[0] + " (set LGC_POSTGRES_DSN to a server)")


def schema_dsn(path: Path) -> str:
    """A DSN on this run's database whose ``search_path`` is a schema named after ``path``."""
    dsn = require()
    schema = "t_" + hashlib.sha1(str(path).encode()).hexdigest()[:24]
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA IF NOT EXISTS {schema}")
    # Commits need not wait for the WAL flush here: no test kills the server, and the
    # benches (bench/postgres_bench.py) measure with the server's own setting.
    return make_conninfo(dsn, options=f"-c search_path={schema} -c synchronous_commit=off")


def drop_database() -> None:
    """Drop this run's database (its connections are ended first)."""
    if not _database:
        return
    name = conninfo_to_dict(_database.pop())["dbname"]
    with psycopg.connect(server_dsn(), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
