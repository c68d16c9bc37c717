"""Every real trajectory folds into a valid projection, with refs, input untouched."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from corpus import corpus_files
from factories import unreferenced_changes
from langchain_core.messages import AIMessage, BaseMessage, ToolCall, ToolMessage

from langgraph_compact.compaction.fold import fold
from langgraph_compact.compaction.settings import CompactionSettings
from langgraph_compact.compaction.verify import assert_tool_pairs_intact, protocol_violations
from langgraph_compact.policies import ToolPolicies, ToolPolicy
from langgraph_compact.tokens import Budget, TokenCounter
from langgraph_compact.trajectories import load_trajectory

FILES = corpus_files()
COUNTER = TokenCounter()
BUDGET = Budget(context_window=128_000)
CONFIGS = {
    "default": CompactionSettings(BUDGET, counter=COUNTER, keep_recent_tokens=20_000),
    "tight": CompactionSettings(
        BUDGET,
        counter=COUNTER,
        policies=ToolPolicies(default=ToolPolicy(max_chars=800, max_arg_chars=300)),
        keep_recent_tokens=1_500,
        max_text_chars=2_000,
    ),
}


def test_corpus_is_present() -> None:
    assert len(FILES) == 34


@pytest.mark.parametrize("config_name", list(CONFIGS))
@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_fold_keeps_protocol_and_refs(path: Path, config_name: str) -> None:
    config = CONFIGS[config_name]
    raw = load_trajectory(path)
    snapshot = [m.model_dump() for m in raw]
    result = fold(raw, config)
    assert [m.model_dump() for m in raw] == snapshot
    assert_tool_pairs_intact(result.messages)
    assert result.repairs == ()  # the corpus is valid as converted
    assert unreferenced_changes(raw, result.messages) == []
    assert result.tokens_after == COUNTER.count_messages(result.messages)
    assert result.tokens_after <= result.tokens_before
    if config_name == "tight":
        assert result.tokens_after < result.tokens_before


def _restore_reused_ids(messages: list[BaseMessage]) -> list[BaseMessage]:
    """Undo the corpus's ``-dupN`` renaming: tau-bench's raw data reuses call ids."""
    strip = re.compile(r"-dup\d+$")
    out: list[BaseMessage] = []
    for m in messages:
        if isinstance(m, AIMessage) and m.tool_calls:
            calls = [ToolCall(**{**c, "id": strip.sub("", c["id"] or "")}) for c in m.tool_calls]
            out.append(m.model_copy(update={"tool_calls": calls}))
        elif isinstance(m, ToolMessage):
            out.append(m.model_copy(update={"tool_call_id": strip.sub("", m.tool_call_id)}))
        else:
            out.append(m)
    return out


TAU = [p for p in FILES if p.name.startswith("tau-bench")]


@pytest.mark.parametrize("path", TAU, ids=[p.stem for p in TAU])
def test_raw_tau_bench_id_reuse_is_repaired(path: Path) -> None:
    raw = _restore_reused_ids(load_trajectory(path))
    assert any("already used" in p for p in protocol_violations(raw))
    result = fold(raw, CONFIGS["default"])
    assert_tool_pairs_intact(result.messages)
    assert result.repairs and all("reused tool call id" in r for r in result.repairs)
    assert [m.id for m in result.messages] == [m.id for m in raw]
