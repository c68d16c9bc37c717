"""Message identity: digests see content changes, and the identity cache never goes stale."""

from __future__ import annotations

import gc
from concurrent.futures import ThreadPoolExecutor

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from langgraph_compact.errors import MessageError
from langgraph_compact.messages import MessageCache, check_messages, message_digest, span_digest


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


def test_message_cache_is_per_object_and_drops_entries_with_their_message() -> None:
    cache = MessageCache()
    m = HumanMessage("secret", id="h")
    assert cache.digest(m) == message_digest(m)
    redacted = m.model_copy(update={"content": "[redacted]"})
    assert cache.digest(redacted) != cache.digest(m)
    before = span_digest([m])
    copy = cache.copy(m, {"content": "short"})
    assert cache.copy(m, {"content": "short"}) is copy  # the same copy again
    assert cache.copy(m, {"content": "other"}) is not copy
    size = len(cache)
    del m, copy
    gc.collect()
    assert len(cache) < size  # entries die with their message object
    fresh = HumanMessage("secret", id="h")
    assert span_digest([fresh], cache) == before  # the memo never changes the value
    assert span_digest([fresh], cache) == before  # the remembered span, same answer
    assert span_digest([redacted], cache) != before


def test_message_cache_is_safe_to_share_between_threads() -> None:
    cache = MessageCache()
    messages = [HumanMessage(f"m{i}", id=f"h{i}") for i in range(200)]
    expected = [message_digest(m) for m in messages]
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: [cache.digest(m) for m in messages], range(8)))
    assert all(r == expected for r in results)


@pytest.mark.parametrize("bad", [{"role": "user", "content": "hi"}, ("user", "hi"), "hi", None])
def test_check_messages_names_the_entry_that_is_not_a_message(bad: object) -> None:
    with pytest.raises(MessageError, match=r"messages\[1\] is a "):
        check_messages([HumanMessage("ok", id="a"), bad])
