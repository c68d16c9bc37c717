"""Message identity: digests see content changes, and the identity cache never goes stale."""

from __future__ import annotations

import gc

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from langgraph_compact.messages import cached_digest, message_digest, span_digest


def test_digest_changes_with_anything_the_model_sees_but_not_the_id() -> None:
    base = AIMessage("x", id="a", tool_calls=[{"id": "c", "name": "t", "args": {"n": 1}}])
    variants = [
        base.model_copy(update={"content": "y"}),
        base.model_copy(update={"tool_calls": [{"id": "c", "name": "t", "args": {"n": "1"}}]}),
        base.model_copy(update={"tool_calls": [{"id": "c", "name": "u", "args": {"n": 1}}]}),
        HumanMessage("x", id="a"),
    ]
    digests = {message_digest(m) for m in [base, *variants]}
    assert len(digests) == 5
    assert message_digest(base.model_copy(update={"id": "other"})) == message_digest(base)
    tool = ToolMessage("ok", tool_call_id="c", id="t")
    assert message_digest(tool) != message_digest(tool.model_copy(update={"tool_call_id": "d"}))


def test_cached_digest_is_per_object_and_follows_replacements() -> None:
    m = HumanMessage("secret", id="h")
    assert cached_digest(m) == message_digest(m)
    redacted = m.model_copy(update={"content": "[redacted]"})
    assert cached_digest(redacted) != cached_digest(m)
    before = span_digest([m])
    del m
    gc.collect()
    fresh = HumanMessage("secret", id="h")
    assert span_digest([fresh]) == before
    assert span_digest([redacted]) != before
