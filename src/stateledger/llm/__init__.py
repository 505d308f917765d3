"""LLM backends over any OpenAI-compatible chat-completions endpoint (the ``llm`` extra).

Everything here is optional: each backend falls back to the deterministic path on any
``LLMError``, so the engine behaves the same offline, only without the LLM's help.
"""

from stateledger.llm.backends import (
    ControllerMode,
    LLMAnswerer,
    LLMJudgePolicy,
    LLMOutcome,
    RetrieveController,
)
from stateledger.llm.client import ChatClient, JSONCompletion, LLMConfig, parse_json_reply
from stateledger.llm.prompts import (
    CONTROLLER_MAX_CANDIDATES,
    CONTROLLER_MAX_SELECTED,
    CONTROLLER_TEXT_CHARS,
    NOT_IN_MEMORY,
    AnswerReply,
    ControllerReply,
    JudgeReply,
    answer_prompt,
    controller_prompt,
    judge_prompt,
)

__all__ = [
    "CONTROLLER_MAX_CANDIDATES",
    "CONTROLLER_MAX_SELECTED",
    "CONTROLLER_TEXT_CHARS",
    "NOT_IN_MEMORY",
    "AnswerReply",
    "ChatClient",
    "ControllerMode",
    "ControllerReply",
    "JSONCompletion",
    "JudgeReply",
    "LLMAnswerer",
    "LLMConfig",
    "LLMJudgePolicy",
    "LLMOutcome",
    "RetrieveController",
    "answer_prompt",
    "controller_prompt",
    "judge_prompt",
    "parse_json_reply",
]
