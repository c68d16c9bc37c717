"""The ``deepagents`` replay strategy: deepagents' own summarization middleware.

``create_deep_agent`` puts a ``SummarizationMiddleware`` of its own in every agent: it
keeps ``messages`` intact, records a ``_summarization_event`` (cutoff + summary message)
in private state, offloads what it summarized to ``/conversation_history/<id>.md`` on
its backend, and swaps the request's messages in ``wrap_model_call``. The replay runs
exactly that hook as the pre-model step: the request it hands on is what the model
would have been sent, and its state update (event, offloaded files) is applied. Budget
mapping as for LangChain's middleware: ``trigger=("tokens", 0.8 B)``,
``keep=("tokens", 0.5 B - S)``; argument truncation with deepagents' defaults for a
model without a profile.

``replay_deep_agent`` runs a recording through a real ``create_deep_agent`` graph instead,
with either our ``DeepAgentsCompaction`` or deepagents' summarization in the same slot.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import (
    AIMessage,
    AnyMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langgraph.channels.untracked_value import UntrackedValue

from langgraph_compact.replay.doors import RecordedTurnsModel, recorded_tools
from langgraph_compact.tokens import Budget, TokenCounter

__all__ = [
    "BUILTIN_TOOLS",
    "DeepReplay",
    "RecordedTurnsModel",
    "deep_agent_builder",
    "deepagents_step",
    "replay_deep_agent",
    "replayable",
]


def deepagents_step(
    budget: Budget, counter: TokenCounter, cap: int, model: BaseChatModel
) -> tuple[Any, Any, Any]:
    """``(state schema, step, middleware)`` for a replay of deepagents' summarization."""
    from deepagents.backends import StateBackend
    from deepagents.middleware.filesystem import FilesystemState
    from deepagents.middleware.summarization import (
        SummarizationMiddleware,
        SummarizationState,
        compute_summarization_defaults,
    )

    from langgraph_compact.replay.doors import model_call_step

    class DeepAgentsReplayState(SummarizationState, FilesystemState):
        llm_input_messages: Annotated[list[AnyMessage], UntrackedValue]

    defaults = compute_summarization_defaults(model)
    middleware = SummarizationMiddleware(
        model,
        backend=StateBackend(),
        trigger=("tokens", budget.trigger_tokens),
        keep=("tokens", budget.target_tokens - cap),
        token_counter=counter,  # type: ignore[arg-type]  # a messages -> int callable
        truncate_args_settings=defaults["truncate_args_settings"],
    )

    step = model_call_step(middleware, model)
    return DeepAgentsReplayState, step, middleware


def deep_agent_builder(settings: Any) -> Any:
    """``Strategy.build`` for ``ours-deep``: ``create_deep_agent`` with
    ``DeepAgentsCompaction(settings)`` and ``CompactDeepAgentState``.

    The replay leaves tool schemas out of every strategy's budget; deepagents binds its
    own (filesystem, ``task``), so this door's middleware does not count them either.
    """
    from deepagents import create_deep_agent

    from langgraph_compact.deep_agents import CompactDeepAgentState, DeepAgentsCompaction

    class Unframed(DeepAgentsCompaction):
        def _schema_tokens(self, tools: list[Any]) -> int:
            return 0

    def build(model: Any, tools: list[Any], system: Any, checkpointer: Any) -> Any:
        return create_deep_agent(
            model,
            tools=tools,
            system_prompt=system,
            middleware=[Unframed(settings)],
            state_schema=CompactDeepAgentState,
            checkpointer=checkpointer,
        )

    return build


BUILTIN_TOOLS = frozenset(
    {"ls", "read_file", "write_file", "edit_file", "delete", "glob", "grep", "execute", "task"}
)
"""deepagents' own tools: a recording that calls a tool of that name cannot be replayed
with its recorded answers."""


@dataclass
class DeepReplay:
    """One recorded run through a real ``create_deep_agent`` graph."""

    calls: list[int] = field(default_factory=list)
    """Input tokens of every model call."""
    last_messages: int = 0
    lost: int = 0
    summarizer_calls: int = 0
    """Compaction events: summarizer runs (ours: the extractive one, no model)."""
    summarizer_input_tokens: int = 0
    violations: int = 0


def replayable(trajectory: Sequence[BaseMessage]) -> str | None:
    """Why a recording cannot run through a real deep agent, or None."""
    if sum(isinstance(m, HumanMessage) for m in trajectory) != 1:
        return "more than one user turn"
    names = {c["name"] for m in trajectory for c in getattr(m, "tool_calls", None) or []}
    if clash := sorted(names & BUILTIN_TOOLS):
        return f"calls a tool named like a deepagents built-in ({clash[0]})"
    return None


def replay_deep_agent(
    trajectory: Sequence[BaseMessage],
    budget: Budget,
    counter: TokenCounter,
    *,
    ours: bool,
    checkpointer: Any = None,
) -> DeepReplay:
    """Drive a single-request recording through ``create_deep_agent``: with our
    ``DeepAgentsCompaction`` (``ours``) or deepagents' summarization mapped to ``budget``.
    """
    from deepagents import create_deep_agent

    from langgraph_compact.compaction import (
        CompactionSettings,
        ExtractiveSummarizer,
        protocol_violations,
    )
    from langgraph_compact.deep_agents import CompactDeepAgentState, DeepAgentsCompaction
    from langgraph_compact.replay.models import CountingSummarizer, TailSummaryModel

    raw = list(trajectory)
    last_tool = max((i for i, m in enumerate(raw) if isinstance(m, ToolMessage)), default=0)
    raw = [*raw[: last_tool + 1], AIMessage("Done.", id="replay-final")]
    model = RecordedTurnsModel(turns=[m for m in raw if isinstance(m, AIMessage)])
    summary_model = TailSummaryModel(counter=counter)
    cap = CompactionSettings(budget).summary_cap
    counting = CountingSummarizer(ExtractiveSummarizer())
    if ours:
        settings = CompactionSettings(budget, counter=counter, summarizer=counting)
        middleware: Any = DeepAgentsCompaction(settings)
    else:
        _, _, middleware = deepagents_step(budget, counter, cap, summary_model)
    system = raw[0] if isinstance(raw[0], SystemMessage) else None
    agent = create_deep_agent(
        model,
        tools=recorded_tools(raw),
        system_prompt=str(system.content) if system else None,
        middleware=[middleware],
        state_schema=CompactDeepAgentState,
        checkpointer=checkpointer,
    )
    config: Any = {"configurable": {"thread_id": "deep-replay"}, "recursion_limit": 100_000}
    feed = raw[1:] if system else raw
    first = next(m for m in feed if isinstance(m, HumanMessage))
    out = agent.invoke({"messages": [first]}, config)
    final_ids = {m.id for m in out["messages"]}
    return DeepReplay(
        calls=[counter.count_messages(m) for m in model.seen],
        last_messages=len(model.seen[-1]) if model.seen else 0,
        lost=sum(m.id not in final_ids for m in feed),
        summarizer_calls=counting.calls if ours else summary_model.calls,
        summarizer_input_tokens=summary_model.input_tokens,
        violations=sum(bool(protocol_violations(m)) for m in model.seen),
    )
