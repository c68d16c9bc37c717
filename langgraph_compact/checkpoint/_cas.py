"""Summary commits are compare-and-swap: a stale summary never replaces a newer one.

A ``RunningSummary`` carries its ``generation`` and the ``parent_generation`` it was
built on. A put that *continues* a checkpoint (this process read it as the thread's
newest, or wrote it: see ``_guard.LiveReads``) while another run has since moved the
lane's head is a race. Whatever summary the put carries, in any channel, must then
still fit the head's summary:

- the same summary (both runs carry it unchanged), or
- a successor of it (``parent_generation`` is the head summary's ``generation``: the
  candidate was built on the summary that is still current).

Anything else (an older generation carried along, no summary at all from a run that
read the thread before its first one, or a candidate built on a parent the other run
has already replaced) is refused with ``SummaryConflictError`` before a row
is written, inside the write transaction, after the backend's lock on the thread, so
check and write are atomic across processes. The caller can re-read the thread and run
again; losing a candidate is fine, silently losing the newer summary never is.

A put continuing a checkpoint read *by id* (time travel, a fork, ``update_state`` on
an older checkpoint) is a deliberate branch: it may carry any older generation.
``single_writer=True`` is stricter still: any continuation of a moved head is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from langchain_core.runnables import RunnableConfig

from langgraph_compact.checkpoint import _sql as q
from langgraph_compact.compaction.summary import RunningSummary
from langgraph_compact.errors import SummaryConflictError

if TYPE_CHECKING:
    from langgraph_compact.checkpoint._store import CheckpointStore

__all__ = ["check_summary_swap", "summaries_of"]


def summaries_of(values: Mapping[str, Any]) -> dict[str, RunningSummary]:
    """The channels of ``values`` that hold a ``RunningSummary``."""
    return {c: v for c, v in values.items() if isinstance(v, RunningSummary)}


def fits(candidate: RunningSummary | None, current: RunningSummary | None) -> bool:
    """Whether ``candidate`` may replace ``current`` (the head's summary, if any)."""
    if current is None:
        return True
    if candidate is None:  # read before the first summary: it would drop it
        return False
    return candidate == current or candidate.parent_generation == current.generation


def check_summary_swap(
    store: CheckpointStore,
    thread_id: str,
    ns: str,
    parent: str | None,
    head: str | None,
    values: Mapping[str, Any],
) -> q.Program[None]:
    """Raise ``SummaryConflictError`` if a put continuing ``parent`` would put a stale
    summary (or none) over the one at ``head`` (the lane's newest). Free unless the head
    moved; then it reads the head's values."""
    if head is None or head == parent:
        return
    at = {"thread_id": thread_id, "checkpoint_ns": ns, "checkpoint_id": head}
    tup = yield from store.get_tuple(RunnableConfig(configurable=at))
    current = summaries_of(tup.checkpoint["channel_values"]) if tup is not None else {}
    candidates = summaries_of(values)
    for channel in sorted({*current, *candidates}):
        now, candidate = current.get(channel), candidates.get(channel)
        if now is None or fits(candidate, now):
            continue
        run_id = tup.metadata.get("run_id") if tup is not None else None
        other = f"run {run_id!r}" if run_id else "another run"
        mine = (
            f"summary (generation {candidate.generation}, built on generation "
            f"{candidate.parent_generation})"
            if candidate is not None
            else "state (no summary yet)"
        )
        raise SummaryConflictError(
            f"thread {thread_id!r}, namespace {ns!r}, channel {channel!r}: {other} "
            f"committed summary generation {now.generation} in checkpoint {head!r} after "
            f"this run read checkpoint {parent!r}; this run's {mine} would replace it "
            "with a stale one, so its checkpoint was not stored. Run again from the "
            "thread's latest state.",
            thread_id=thread_id,
            checkpoint_ns=ns,
            read_checkpoint_id=parent,
            other_checkpoint_id=head,
            other_run_id=str(run_id) if run_id else None,
            channel=channel,
            stored_generation=now.generation,
            candidate_generation=candidate.generation if candidate is not None else 0,
        )
