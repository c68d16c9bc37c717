"""Every public name of the checkpoint package imports and is documented."""

from __future__ import annotations

import importlib

import pytest

MODULES = [
    "langgraph_compact.checkpoint",
    "langgraph_compact.checkpoint.sqlite",
    "langgraph_compact.checkpoint.aio",
    "langgraph_compact.checkpoint.history",
    "langgraph_compact.checkpoint.recall",
    "langgraph_compact.checkpoint.redact",
    "langgraph_compact.checkpoint.threads",
    "langgraph_compact.checkpoint.verify",
]


@pytest.mark.parametrize("module", MODULES)
def test_all_names_import_and_have_docstrings(module: str) -> None:
    mod = importlib.import_module(module)
    assert mod.__doc__
    for name in mod.__all__:
        obj = getattr(mod, name)
        if callable(obj):
            assert obj.__doc__, f"{module}.{name} has no docstring"
