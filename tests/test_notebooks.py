"""The tutorial notebooks run top to bottom on a fresh kernel and are committed clean.

Each notebook is executed with ``nbclient`` on the ``python3`` kernel (ipykernel, from
the ``dev`` extra; jupyter_client starts it with this interpreter) in a temporary
working directory; any cell error fails the test.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import nbclient
import nbformat
import pytest

NOTEBOOK_DIR = Path(__file__).resolve().parent.parent / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
CELL_TIMEOUT = 120


def test_notebooks_exist() -> None:
    names = [p.name for p in NOTEBOOKS]
    assert "01_quickstart.ipynb" in names, names
    assert len(names) >= 3, names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_committed_clean(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    assert nb.metadata["kernelspec"]["name"] == "python3"
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [], f"{path.name}: outputs committed"
            assert cell.execution_count is None, f"{path.name}: execution count committed"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path: Path, tmp_path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        nb,
        timeout=CELL_TIMEOUT,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute()  # raises CellExecutionError on the first failing cell
    errors = [
        output
        for cell in nb.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if output.output_type == "error"
    ]
    assert not errors, errors


def test_committed_notebooks_are_what_the_generator_writes() -> None:
    spec = importlib.util.spec_from_file_location("_build", NOTEBOOK_DIR / "_build.py")
    assert spec and spec.loader
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    assert set(build.NOTEBOOKS) == {p.name for p in NOTEBOOKS}
    for name, cells in build.NOTEBOOKS.items():
        committed = nbformat.read(NOTEBOOK_DIR / name, as_version=4)
        generated = build.build(cells)
        assert [c.source for c in committed.cells] == [c.source for c in generated.cells], (
            f"{name} differs from notebooks/_build.py: run .venv/bin/python notebooks/_build.py"
        )
