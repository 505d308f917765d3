"""A LangGraph agent with stateledger memory, offline: a scripted chat model plays the LLM.

    pip install 'stateledger[langchain]'
    python examples/langgraph_agent.py [--db memory.db]

The scripted model issues the tool calls a real model would (remember what the user says,
answer from memory when asked), so the example runs with no LLM and no network; replace
``scripted_model()`` with any LangChain chat model that supports tool calling
(``ChatOpenAI(...)``, ``ChatOllama(...)``) to run it for real.
"""

from __future__ import annotations

import argparse
import warnings
from collections.abc import Sequence
from typing import Any

from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage, HumanMessage

from stateledger import Memory
from stateledger.integrations.langchain import memory_tools


class ScriptedToolModel(FakeMessagesListChatModel):
    """Plays back fixed replies; accepts tools as a tool-calling model does (a real model
    would read their schemas, this one already knows which call to make)."""

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedToolModel:
        return self


def scripted_model() -> ScriptedToolModel:
    """The replies a tool-calling model would give to the three user turns below."""

    def call(name: str, args: dict[str, str], n: int) -> AIMessage:
        return AIMessage("", tool_calls=[{"name": name, "args": args, "id": f"call-{n}"}])

    return ScriptedToolModel(responses=[
        call("remember", {"text": "I live in Portland."}, 1),
        AIMessage("Noted: you live in Portland."),
        call("remember", {"text": "I moved to Seattle last month."}, 2),
        AIMessage("Got it, Seattle now."),
        call("answer", {"question": "Where did I live before?"}, 3),
        AIMessage("Before Seattle you lived in Portland."),
    ])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default=":memory:", help="where the memory lives")
    args = parser.parse_args()
    from langgraph.prebuilt import create_react_agent

    with Memory(args.db) as memory:
        with warnings.catch_warnings():  # it is moving to langchain.agents.create_agent
            warnings.simplefilter("ignore", DeprecationWarning)
            agent = create_react_agent(scripted_model(), memory_tools(memory, "alice"))
        for turn in ("I live in Portland.", "I moved to Seattle last month.",
                     "Where did I live before?"):
            result = agent.invoke({"messages": [HumanMessage(turn)]})
            for message in result["messages"][1:]:
                if message.type == "tool":
                    print(f"  [{message.name}] {message.content}")
            print(f"user: {turn}\nagent: {result['messages'][-1].content}")
        live = [r.text for r in memory.records("alice")]
        past = [r.text for r in memory.records("alice", "history")]
        print(f"live: {live}\npast: {past}")


if __name__ == "__main__":
    main()
