"""Every public name imports, and every public module declares ``__all__``."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import langgraph_compact

MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(langgraph_compact.__path__, "langgraph_compact.")
    if not m.name.rsplit(".", 1)[-1].startswith("_")
)


@pytest.mark.parametrize("name", langgraph_compact.__all__)
def test_top_level_names_resolve(name: str) -> None:
    assert getattr(langgraph_compact, name) is not None


@pytest.mark.parametrize("module", MODULES)
def test_public_modules_declare_all_and_export_real_names(module: str) -> None:
    if module == "langgraph_compact.deep_agents":
        pytest.importorskip("deepagents")  # the [deepagents] extra
    mod = importlib.import_module(module)
    assert hasattr(mod, "__all__"), f"{module} has no __all__"
    missing = [n for n in mod.__all__ if not hasattr(mod, n)]
    assert missing == []


def test_the_top_level_is_small_enough_to_learn() -> None:
    assert len(langgraph_compact.__all__) <= 20


PACKAGE = Path(langgraph_compact.__file__).resolve().parent
SOURCES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_only_public_apis_of_dependencies_are_imported(path: Path) -> None:
    private = re.compile(r"^\s*(?:from|import)\s+(?!langgraph_compact)[\w.]*\._\w+", re.M)
    assert private.findall(path.read_text(encoding="utf-8")) == []


MAX_MODULE_LINES = 350


def test_every_module_is_small_enough_to_read() -> None:
    sizes = {
        str(p.relative_to(PACKAGE)): len(p.read_text(encoding="utf-8").splitlines())
        for p in SOURCES
    }
    assert {p: n for p, n in sizes.items() if n > MAX_MODULE_LINES} == {}
