"""Publish a benchmark's output: a results file in ``bench/results/`` and its README block.

Every number in the README comes from a bench run. A bench prints its report and, with
``--write-readme``, calls :func:`publish`: the text is saved with the run's data in
``bench/results/<name>.json`` and copied between the README markers
``<!-- bench:<name> -->`` and ``<!-- /bench:<name> -->``. ``tests/test_docs.py`` checks
that every README block equals its results file, so a hand edit of the numbers (or a
results file nobody copied) fails the suite.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import platform
import re
import sys
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

__all__ = [
    "README",
    "RESULTS_DIR",
    "block_pattern",
    "captured",
    "main",
    "publish",
    "readme_blocks",
]

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
RESULTS_DIR = ROOT / "bench" / "results"


def block_pattern(name: str) -> re.Pattern[str]:
    """The README block of ``name``: a fenced text block between its two markers."""
    return re.compile(
        rf"(<!-- bench:{re.escape(name)} -->\n```text\n)(?P<body>.*?)(```\n<!-- /bench:"
        rf"{re.escape(name)} -->)",
        re.DOTALL,
    )


def readme_blocks(text: str) -> dict[str, str]:
    """Every bench block in a README text, by name."""
    names = re.findall(r"<!-- bench:([\w.-]+) -->", text)
    out: dict[str, str] = {}
    for name in names:
        found = block_pattern(name).search(text)
        if found is None:
            raise ValueError(f"README block {name!r} has no matching end marker or fence")
        out[name] = found.group("body")
    return out


def publish(name: str, text: str, data: Any = None, *, readme: Path = README) -> Path:
    """Save a bench report and copy it into the README block of the same name.

    Args:
        name: the block and results-file name (``storage``, ``fidelity``, ...).
        text: the report exactly as the bench printed it.
        data: the numbers behind it (anything JSON can encode), kept for later reading.
        readme: the README to update; it must already contain the block's markers.

    Returns:
        The results file written.

    Raises:
        ValueError: the README has no block for ``name``.
    """
    body = text if text.endswith("\n") else text + "\n"
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    path = RESULTS_DIR / f"{name}.json"
    record = {
        "name": name,
        "text": body,
        "data": data,
        "written_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "machine": f"{platform.system()} {platform.machine()}",
    }
    path.write_text(json.dumps(record, indent=1, default=str) + "\n", encoding="utf-8")
    source = readme.read_text(encoding="utf-8")
    pattern = block_pattern(name)
    if not pattern.search(source):
        raise ValueError(
            f"{readme.name} has no block for {name!r}; add the markers "
            f"<!-- bench:{name} --> and <!-- /bench:{name} --> around a ```text fence"
        )
    updated = pattern.sub(lambda m: m.group(1) + body + m.group(3), source, count=1)
    readme.write_text(updated, encoding="utf-8")
    return path


class _Tee(io.TextIOBase):
    """Writes to the terminal and keeps a copy."""

    def __init__(self, terminal: TextIO) -> None:
        self.terminal = terminal
        self.copy = io.StringIO()

    def write(self, text: str) -> int:
        self.terminal.write(text)
        self.copy.write(text)
        return len(text)

    def flush(self) -> None:
        self.terminal.flush()


@contextlib.contextmanager
def captured() -> Iterator[io.StringIO]:
    """Print as usual and keep what was printed: ``with captured() as out: ...``.

    ``out.getvalue()`` is then the report exactly as the terminal showed it.
    """
    tee = _Tee(sys.stdout)
    with contextlib.redirect_stdout(tee):
        yield tee.copy


def main(name: str, doc: str, run: Callable[..., Any], quick: str) -> None:
    """The command line of a bench whose ``run(quick=...)`` prints its report and returns
    its data: ``--quick`` (described by ``quick``) and ``--write-readme``."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=quick)
    parser.add_argument("--write-readme", action="store_true", help="publish to README.md")
    args = parser.parse_args()
    with captured() as out:
        data = run(quick=args.quick)
    if args.write_readme:
        publish(name, out.getvalue(), data)
