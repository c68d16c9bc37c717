"""Per-tool policies: how each tool's output may be shortened in the projection.

Tools differ: a file read can be re-run, so an old copy is cheap to drop; a web fetch or a
clock cannot, so it must never be deduplicated; a task spec returned by a tool may have to
stay verbatim. A :class:`ToolPolicies` registry maps tool names to a :class:`ToolPolicy`,
falling back to a default for tools it does not name.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType

import pydantic

__all__ = [
    "TOOL_ARG_MAX_CHARS",
    "TOOL_OUTPUT_MAX_CHARS",
    "ToolMode",
    "ToolPolicies",
    "ToolPolicy",
]

TOOL_OUTPUT_MAX_CHARS = 6_000
"""Default clip limit for one tool output (~1.5k tokens of code or logs)."""
TOOL_ARG_MAX_CHARS = 2_000
"""Default clip limit for one string argument of a tool call (outside the recent tail)."""


class ToolMode(StrEnum):
    """What the fold may do to a tool's output.

    - ``KEEP_VERBATIM``: never clipped, never pruned (only exact duplicates are replaced,
      since the later identical result stays verbatim).
    - ``CLIP_ON_INSERT``: clipped head+tail to ``max_chars`` everywhere; outside the
      protected recent window, replaced by a one-line stub.
    - ``DROP_AFTER_CONSUMED``: replaced by a stub as soon as the model has answered after
      it (a later AI message exists), even inside the recent window; clipped until then.
    """

    KEEP_VERBATIM = "keep_verbatim"
    CLIP_ON_INSERT = "clip_on_insert"
    DROP_AFTER_CONSUMED = "drop_after_consumed"


class ToolPolicy(pydantic.BaseModel, frozen=True):
    """Settings for one tool.

    >>> ToolPolicy(max_chars=500).mode
    <ToolMode.CLIP_ON_INSERT: 'clip_on_insert'>
    """

    mode: ToolMode = ToolMode.CLIP_ON_INSERT
    max_chars: int = pydantic.Field(default=TOOL_OUTPUT_MAX_CHARS, gt=0)
    """Longest output kept whole; longer ones are clipped head+tail with a marker."""
    max_arg_chars: int = pydantic.Field(default=TOOL_ARG_MAX_CHARS, gt=0)
    """Longest string argument kept whole in calls outside the protected tail."""
    open_world: bool = False
    """The tool is not repeatable (web fetch, clock, random): never deduplicated."""
    prunable: bool = True
    """Whether outputs outside the recent window become stubs (ignored for keep_verbatim)."""


class ToolPolicies:
    """A registry of :class:`ToolPolicy` by tool name, with a default.

    Args:
        policies: policies by exact tool name.
        default: the policy of every tool not named.

    >>> reg = ToolPolicies({"web_fetch": ToolPolicy(open_world=True)})
    >>> reg.for_tool("web_fetch").open_world, reg.for_tool("bash").open_world
    (True, False)
    """

    def __init__(
        self,
        policies: Mapping[str, ToolPolicy] | None = None,
        *,
        default: ToolPolicy | None = None,
    ) -> None:
        self._policies: Mapping[str, ToolPolicy] = MappingProxyType(dict(policies or {}))
        self.default = default if default is not None else ToolPolicy()

    @property
    def policies(self) -> Mapping[str, ToolPolicy]:
        """The named policies (read-only)."""
        return self._policies

    def for_tool(self, name: str | None) -> ToolPolicy:
        """The policy for ``name`` (the default for unknown or missing names)."""
        if name is None:
            return self.default
        return self._policies.get(name, self.default)

    def with_policy(self, name: str, policy: ToolPolicy) -> ToolPolicies:
        """A new registry with ``name`` set to ``policy`` (this one is unchanged)."""
        return ToolPolicies({**self._policies, name: policy}, default=self.default)

    def __repr__(self) -> str:
        return f"ToolPolicies({dict(self._policies)!r}, default={self.default!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ToolPolicies):
            return NotImplemented
        return dict(self._policies) == dict(other._policies) and self.default == other.default

    def __hash__(self) -> int:
        return hash((tuple(sorted(self._policies.items())), self.default))
