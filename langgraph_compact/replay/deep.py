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
"""

from __future__ import annotations

from typing import Annotated, Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AnyMessage, SystemMessage
from langgraph.channels.untracked_value import UntrackedValue

from langgraph_compact.tokens import Budget, TokenCounter

__all__ = ["deepagents_step"]


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
    from langchain.agents.middleware.types import ExtendedModelResponse, ModelRequest, ModelResponse

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

    def step(state: dict[str, Any]) -> dict[str, Any]:
        messages = list(state["messages"])
        system = messages[0] if messages and isinstance(messages[0], SystemMessage) else None
        sent: list[Any] = []

        def handler(request: Any) -> Any:
            sent[:] = [
                *([request.system_message] if request.system_message else []),
                *request.messages,
            ]
            return ModelResponse(result=[AIMessage("")])

        request = ModelRequest(
            model=model,
            messages=messages[1:] if system else messages,
            system_message=system,
            state=state,  # type: ignore[arg-type]
        )
        response = middleware.wrap_model_call(request, handler)
        update: dict[str, Any] = {"llm_input_messages": sent}
        if isinstance(response, ExtendedModelResponse) and response.command is not None:
            extra = dict(response.command.update or {})
            extra.pop("messages", None)  # the replay's agent node writes the reply
            update.update(extra)
        return update

    return DeepAgentsReplayState, step, middleware
