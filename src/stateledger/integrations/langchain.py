"""LangChain tools over a Memory (extra ``langchain``): ``remember``, ``recall``, ``answer``.

``memory_tools(memory, user_id)`` returns three ``StructuredTool``s bound to one user (and
optionally one agent and run), for any LangChain or LangGraph agent
(``langgraph.prebuilt.create_react_agent(model, memory_tools(mem, "alice"))``). Each tool
has a sync and an async form (the async one runs off the event loop); an engine error
(bad input, unknown record) comes back to the agent as the tool's error message, so it can
correct the call instead of crashing the graph.
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from stateledger.core.model import Evidence
from stateledger.errors import MissingDependencyError, StateLedgerError

if TYPE_CHECKING:
    from langchain_core.tools import BaseTool

    from stateledger.memory import Memory

__all__ = ["memory_tools"]
_INSTALL = "the LangChain tools need langchain-core: pip install 'stateledger[langchain]'"


def _lines(items: tuple[Evidence, ...]) -> str:
    """Evidence as an agent reads it: label, since when, text (one per line)."""
    if not items:
        return "nothing in memory about that"
    return "\n".join(f"[{ev.label.value}, since {ev.record.valid_from.date().isoformat()}] "
                     f"{ev.record.text}" for ev in items)


def memory_tools(memory: Memory, user_id: str, *, agent_id: str | None = None,
                 run_id: str | None = None) -> list[BaseTool]:
    """The three memory tools, bound to ``user_id`` (and ``agent_id``/``run_id`` for the
    records they write; reads see the user's memories from every agent and run)."""
    try:
        from langchain_core.tools import StructuredTool, ToolException
    except ImportError as exc:
        raise MissingDependencyError(_INSTALL) from exc

    def remember(text: str) -> str:
        """Store one durable statement the user made about themselves (a move, a job, a
        pet, a plan, a preference). Returns what the memory did with it and why."""
        tx = memory.add(text, user_id, agent_id=agent_id, run_id=run_id)
        return json.dumps({"action": tx.action.value, "reason": tx.reason,
                           "replaced": tx.target.text if tx.target else None})

    def recall(query: str, k: int = 5) -> str:
        """The memories relevant to a query, each labelled current / historical /
        transition memory with the date it holds from."""
        return _lines(memory.search(query, user_id, k=k).items)

    def answer(question: str) -> str:
        """Answer a question about the user from the state it asks for ("where do I live
        now?" vs "where did I live before?"); "not in memory" when nothing supports it."""
        ans = memory.answer(question, user_id)
        used = (ans.used,) if ans.used is not None else ans.evidence[:1]
        return ans.text if not ans.found else f"{ans.text}\n\nevidence:\n{_lines(used)}"

    return [StructuredTool.from_function(func=_guarded(fn, ToolException),
                                         coroutine=_off_loop(_guarded(fn, ToolException)),
                                         name=fn.__name__, description=fn.__doc__ or "",
                                         handle_tool_error=True)
            for fn in (remember, recall, answer)]


def _guarded(fn: Callable[..., str], tool_error: type[Exception]) -> Callable[..., str]:
    """``fn`` with engine errors turned into the framework's tool error."""
    @functools.wraps(fn)  # the tool's argument schema comes from fn's signature
    def call(*args: Any, **kwargs: Any) -> str:
        try:
            return fn(*args, **kwargs)
        except StateLedgerError as exc:
            raise tool_error(str(exc)) from exc
    return call


def _off_loop(sync: Callable[..., str]) -> Callable[..., Any]:
    """The async form of a tool: the sync one in a worker thread."""
    @functools.wraps(sync)
    async def run_async(*args: Any, **kwargs: Any) -> str:
        return await asyncio.to_thread(sync, *args, **kwargs)
    return run_async
