"""The fidelity benches' canary generators plant valid histories on the corpus runs.

Every generator (the bench's own and the held-out ones) must keep the tool protocol,
unique ids and the original messages in order, and put each probe verbatim in the
message it names; a correction's stale value comes before its correction.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from corpus import corpus_files
from langchain_core.messages import AIMessage, BaseMessage

from langgraph_compact.compaction.verify import protocol_violations
from langgraph_compact.trajectories import load_trajectory

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from fidelity_bench import GENERATORS, KINDS


def _visible(m: BaseMessage) -> str:
    text = m.content if isinstance(m.content, str) else str(m.content)
    if isinstance(m, AIMessage):
        text += "".join(f"\n{v}" for tc in m.tool_calls for v in tc["args"].values())
    return text


@pytest.mark.parametrize("generator", sorted(GENERATORS))
@pytest.mark.parametrize("seed", [1, 2])
def test_a_generator_plants_every_kind_in_a_valid_history(generator: str, seed: int) -> None:
    for path in corpus_files()[::5]:
        original = load_trajectory(path)
        planted, canaries = GENERATORS[generator](original, seed)
        assert protocol_violations(planted) == [], path.stem
        ids = [m.id for m in planted]
        assert len(set(ids)) == len(ids), path.stem
        kept = {m.id for m in original}
        assert [i for i in ids if i in kept] == [m.id for m in original], path.stem
        assert sorted(c.kind for c in canaries) == sorted(KINDS)
        shown = [_visible(m) for m in planted]
        for c in canaries:
            # the bench's own generator does not record where (position -1)
            at = (
                c.position
                if c.position >= 0
                else next(i for i, t in enumerate(shown) if c.probe in t)
            )
            assert c.probe in shown[at], (path.stem, c.kind, c.probe)
            if c.stale is not None:
                assert c.stale in "\n".join(shown[:at]), (path.stem, c.kind, c.stale)
