"""What the saver mixins (``SaverFeatures``, ``TurnLeases``) need of a saver.

A saver has a ``CheckpointStore`` whose programs it runs in a transaction: ``_run`` on a
sync driver, ``_arun`` on an async one; each saver class supplies the one it has.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from langgraph_compact.checkpoint._check import Where
from langgraph_compact.checkpoint._sql import Program

if TYPE_CHECKING:
    from langgraph_compact.checkpoint._store import CheckpointStore

__all__ = ["Runners"]

T = TypeVar("T")


class Runners:
    """The store and the two runners; a saver class overrides the runner it drives."""

    _store: CheckpointStore

    def _run(self, program: Program[T], *, write: bool = False, where: Where | None = None) -> T:
        raise NotImplementedError

    async def _arun(
        self, program: Program[T], *, write: bool = False, where: Where | None = None
    ) -> T:
        raise NotImplementedError
