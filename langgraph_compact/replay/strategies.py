"""The context strategies a replay compares, each wired the way its authors document.

Every strategy is a pre-model step in front of the same agent and tool nodes, and all of
them share one ``Budget(context_window=B, reserved_output=0, compaction_reserve=0,
safety_margin=0)`` (usable = B, trigger = 0.8 B, target = 0.5 B, summary cap
S = min(2000, 3/5 target)) and one ``TokenCounter``:

- ``ours``: ``CompactionNode`` with the deterministic ``ExtractiveSummarizer``.
- ``ours-agent``: the same through ``CompactionMiddleware`` (the ``create_agent`` door), its
  ``wrap_model_call`` run as the step (``langgraph_compact.replay.doors``).
- ``ours+llm``: the same with ``ChatModelSummarizer`` over a ``TailSummaryModel`` that
  answers in the JSON the summarizer asks for (one retry call when items are missing).
- ``langmem``: LangMem's ``SummarizationNode(max_tokens=B, max_tokens_before_summary=0.8 B,
  max_summary_tokens=S)``; its default output key leaves the raw ``messages`` alone.
- ``middleware``: LangChain's ``SummarizationMiddleware(trigger=("tokens", 0.8 B),
  keep=("tokens", 0.5 B - S))`` run as ``create_agent`` runs it: its ``before_model``
  update goes through ``add_messages`` and the model sees ``[system_prompt, *messages]``.
- ``editing``: LangChain's ``ContextEditingMiddleware`` with one ``ClearToolUsesEdit(
  trigger=0.8 B)`` (its other defaults: the 3 latest tool results kept, cleared ones
  become ``[cleared]``), its ``wrap_model_call`` run as the step; the model sees
  ``[system_prompt, *edited messages]``. It never summarizes.
- ``trim``: ``langchain_core.messages.trim_messages`` to B tokens (``strategy="last"``,
  system kept, starting on a human turn): no summary at all.
- ``full``: the whole history, no compaction (the baseline every ratio is taken against).
- ``ours-deep``: ``DeepAgentsCompaction`` in a real ``create_deep_agent`` graph (the
  deepagents door), its model and tools replaying the recording; as for every other
  strategy here, tool schemas are left out of the budget (deepagents binds ~2,300 tokens
  of its own); extra ``[deepagents]``. Recordings a prebuilt agent loop cannot replay in
  order end with an error (``replay.doors.agent_gap``).
- ``deepagents``: deepagents' own ``SummarizationMiddleware`` (what ``create_deep_agent``
  installs), its ``wrap_model_call`` run as the step with the same mapping as
  ``middleware`` (``langgraph_compact.replay.deep``); extra ``[deepagents]``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, TypedDict

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AnyMessage, trim_messages
from langgraph.graph.message import add_messages

from langgraph_compact.compaction import (
    ChatModelSummarizer,
    CompactionSettings,
    ExtractiveSummarizer,
    Section,
    Summarizer,
)
from langgraph_compact.errors import CompactError, SettingsError
from langgraph_compact.node import CompactionNode, CompactState
from langgraph_compact.replay.models import CountingSummarizer, TailSummaryModel
from langgraph_compact.tokens import Budget, TokenCounter

__all__ = [
    "DEFAULT_STRATEGIES",
    "STRATEGIES",
    "Strategy",
    "StrategyUnavailable",
    "budget_of",
    "make_strategy",
]

STRATEGIES = (
    "ours",
    "ours-agent",
    "ours+llm",
    "langmem",
    "middleware",
    "editing",
    "trim",
    "full",
    "deepagents",
    "ours-deep",
)
DEFAULT_STRATEGIES = ("ours", "langmem", "middleware", "trim", "full")
_NEEDS = {
    "middleware": ("langchain", "agents"),
    "ours-agent": ("langchain", "agents"),
    "editing": ("langchain", "agents"),
    "langmem": ("langmem", None),
    "deepagents": ("deepagents", "deepagents"),
    "ours-deep": ("deepagents", "deepagents"),
}


class StrategyUnavailable(CompactError):
    """A replay strategy needs a package that is not installed."""


@dataclass
class Strategy:
    """A pre-model step plus what the replay harness needs to drive and measure it."""

    name: str
    state_schema: Any
    node: Any
    """The graph node: a runnable or a plain ``state -> update`` function."""
    input_key: str
    """State key the agent model reads after the step."""
    summary_model: Any
    """The chat model the strategy summarizes with (its ``calls``/``input_tokens`` are
    read after a replay), or None."""
    events: Callable[[], int]
    """Compaction events so far."""
    system_in_state: bool = True
    """False when the system prompt is passed apart from the state (``create_agent``)."""
    build: Callable[..., Any] | None = None
    """For a whole prebuilt agent instead of a step (``node`` unused):
    ``build(model, tools, system_message, checkpointer) -> compiled graph``."""

    def step(self, state: dict[str, Any]) -> dict[str, Any]:
        """Run the node once outside a graph; returns its state update."""
        run = getattr(self.node, "invoke", self.node)
        update: dict[str, Any] = run(state)
        return update


class MessagesState(TypedDict, total=False):
    messages: Annotated[list[AnyMessage], add_messages]


class LangMemState(TypedDict, total=False):
    messages: Annotated[list[AnyMessage], add_messages]
    context: dict[str, Any]
    summarized_messages: list[AnyMessage]


def budget_of(tokens: int) -> Budget:
    """The shared budget: the whole window is usable input."""
    return Budget(context_window=tokens, reserved_output=0, compaction_reserve=0, safety_margin=0)


def make_strategy(
    name: str,
    budget: Budget,
    counter: TokenCounter,
    *,
    summarizer: Summarizer | None = None,
    summary_model: BaseChatModel | None = None,
    options: Mapping[str, Any] | None = None,
) -> Strategy:
    """A fresh strategy (fresh summary model and counters) for one replay.

    Args:
        name: one of ``STRATEGIES``.
        budget: the shared budget.
        counter: the shared token counter.
        summarizer: for ``ours``: a summarizer instead of ``ExtractiveSummarizer``.
        summary_model: for ``ours+llm``, ``langmem`` and ``middleware``: the chat model
            that writes their summaries instead of a ``TailSummaryModel`` (give it
            ``calls`` and ``input_tokens`` attributes to have them reported).
        options: for ``ours``: further ``CompactionSettings`` fields (a summary cap, a
            head cap), to measure a setting against the defaults.

    Raises:
        StrategyUnavailable: the strategy's package is not installed (the message names
            the extra to install).
        SettingsError: an unknown name.
    """
    if name not in STRATEGIES:
        raise SettingsError(f"unknown strategy {name!r}; choose from {', '.join(STRATEGIES)}")
    if name in _NEEDS:
        module, extra = _NEEDS[name]
        try:
            __import__(module)
        except ImportError:
            hint = f"pip install 'langgraph-compact[{extra}]'" if extra else f"pip install {module}"
            raise StrategyUnavailable(f"{name}: needs {module} ({hint})") from None
    cap = CompactionSettings(budget).summary_cap
    if name == "ours":
        return _ours(name, budget, counter, summarizer, None, options)
    if name == "ours-agent":
        from langgraph_compact.replay.doors import middleware_step

        counting = CountingSummarizer(summarizer or ExtractiveSummarizer())
        schema, step, _ = middleware_step(budget, counter, counting)
        return Strategy(name, schema, step, "llm_input_messages", None, lambda: counting.calls)
    if name == "ours-deep":
        from langgraph_compact.replay.deep import deep_agent_builder

        counting = CountingSummarizer(summarizer or ExtractiveSummarizer())
        build = deep_agent_builder(CompactionSettings(budget, counter=counter, summarizer=counting))
        return Strategy(name, None, None, "messages", None, lambda: counting.calls, False, build)
    if name == "ours+llm":
        model = summary_model or TailSummaryModel(
            counter=counter, json_section=Section.CRITICAL.value
        )
        return _ours(name, budget, counter, ChatModelSummarizer(model=model), model)
    model = summary_model or TailSummaryModel(counter=counter)
    if name == "langmem":
        return _langmem(budget, counter, cap, model)
    if name == "middleware":
        return _middleware(budget, counter, cap, model)
    if name == "trim":
        return _trim(budget, counter)
    if name == "editing":
        return _editing(budget, counter)
    if name == "deepagents":
        from langgraph_compact.replay.deep import deepagents_step

        schema, step, _ = deepagents_step(budget, counter, cap, model)
        return Strategy(name, schema, step, "llm_input_messages", model, _calls(model))
    return Strategy("full", MessagesState, lambda state: {}, "messages", None, lambda: 0)


def _calls(model: Any) -> Callable[[], int]:
    return lambda: int(getattr(model, "calls", 0))


def _ours(
    name: str,
    budget: Budget,
    counter: TokenCounter,
    inner: Summarizer | None,
    model: Any,
    options: Mapping[str, Any] | None = None,
) -> Strategy:
    counting = CountingSummarizer(inner or ExtractiveSummarizer())
    settings = CompactionSettings(budget, counter=counter, summarizer=counting, **(options or {}))
    node = CompactionNode(settings)
    return Strategy(name, CompactState, node, "llm_input_messages", model, lambda: counting.calls)


def _langmem(budget: Budget, counter: TokenCounter, cap: int, model: BaseChatModel) -> Strategy:
    from langmem.short_term import SummarizationNode

    node = SummarizationNode(
        model=model,
        max_tokens=budget.usable,
        max_tokens_before_summary=budget.trigger_tokens,
        max_summary_tokens=cap,
        token_counter=counter,
    )
    return Strategy("langmem", LangMemState, node, "summarized_messages", model, _calls(model))


def _middleware(budget: Budget, counter: TokenCounter, cap: int, model: BaseChatModel) -> Strategy:
    from langchain.agents.middleware.summarization import SummarizationMiddleware

    mw = SummarizationMiddleware(
        model,
        trigger=("tokens", budget.trigger_tokens),
        keep=("tokens", budget.target_tokens - cap),
        token_counter=counter,  # type: ignore[arg-type]  # a messages -> int callable
    )

    def before_model(state: dict[str, Any]) -> dict[str, Any]:
        return mw.before_model(state, None) or {}  # type: ignore[arg-type]

    return Strategy(
        "middleware",
        MessagesState,
        before_model,
        "messages",
        model,
        _calls(model),
        system_in_state=False,
    )


def _trim(budget: Budget, counter: TokenCounter) -> Strategy:
    trimmed = [0]

    def trim(state: dict[str, Any]) -> dict[str, Any]:
        messages = state["messages"]
        kept = trim_messages(
            messages,
            max_tokens=budget.usable,
            token_counter=counter,
            strategy="last",
            include_system=True,
            start_on="human",
            allow_partial=False,
        )
        trimmed[0] += len(kept) < len(messages)
        return {"llm_input_messages": kept}

    return Strategy("trim", CompactState, trim, "llm_input_messages", None, lambda: trimmed[0])


def _editing(budget: Budget, counter: TokenCounter) -> Strategy:
    from langchain.agents.middleware.context_editing import (
        ClearToolUsesEdit,
        ContextEditingMiddleware,
    )
    from langchain.agents.middleware.types import ModelRequest, ModelResponse
    from langchain_core.messages import AIMessage, SystemMessage

    mw = ContextEditingMiddleware(
        edits=[ClearToolUsesEdit(trigger=budget.trigger_tokens)],
        token_counter=counter,
    )
    cleared = [0, 0]  # [events, results cleared at the last call]

    def step(state: dict[str, Any]) -> dict[str, Any]:
        messages = list(state["messages"])
        system = messages[0] if messages and isinstance(messages[0], SystemMessage) else None
        sent: list[Any] = []

        def handler(request: Any) -> Any:
            sent[:] = [*([request.system_message] if system else []), *request.messages]
            return ModelResponse(result=[AIMessage("")])

        request = ModelRequest(
            model=None,  # type: ignore[arg-type]  # never called: the handler answers
            messages=messages[1:] if system else messages,
            system_message=system,
            state=state,  # type: ignore[arg-type]
        )
        mw.wrap_model_call(request, handler)
        now = sum(bool(m.response_metadata.get("context_editing")) for m in sent)
        cleared[0] += now > cleared[1]
        cleared[1] = now
        return {"llm_input_messages": sent}

    return Strategy("editing", CompactState, step, "llm_input_messages", None, lambda: cleared[0])
