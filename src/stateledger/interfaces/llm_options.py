"""Command-line options for the optional LLM backend, shared by the CLI, ``serve`` and ``mcp``.

The endpoint comes from flags or from ``STATELEDGER_LLM_*`` variables (flags win). Without an
endpoint everything stays offline; asking for an LLM part without one is an error rather than
a silent downgrade, because the operator explicitly wanted it.

- ``--answerer auto|llm|resolver``: ``auto`` (default) uses the LLM answerer exactly when an
  endpoint is configured.
- ``--policy rules|llm-judge``: the write-path policy; the judge falls back to the rules.
- ``--controller off|shadow|online``: the bounded retrieve controller over the packet pool.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from stateledger.errors import InvalidInputError

if TYPE_CHECKING:
    from stateledger.llm.backends import ControllerMode
    from stateledger.llm.client import LLMConfig

__all__ = ["add_llm_arguments", "llm_config", "memory_options"]

# flag dest -> environment variable LLMConfig.from_env reads
_ENV = {
    "llm_base_url": "STATELEDGER_LLM_BASE_URL",
    "llm_model": "STATELEDGER_LLM_MODEL",
    "llm_api_key": "STATELEDGER_LLM_API_KEY",
    "llm_timeout": "STATELEDGER_LLM_TIMEOUT",
}


def add_llm_arguments(
    p: argparse.ArgumentParser, *, answerer: bool = True, policy: bool = True,
    controller: bool = True,
) -> None:
    g = p.add_argument_group("LLM backend (optional; any OpenAI-compatible endpoint)")
    g.add_argument("--llm-base-url", default=None, metavar="URL",
                   help="e.g. http://localhost:11434/v1 (env STATELEDGER_LLM_BASE_URL)")
    g.add_argument("--llm-model", default=None, help="model name (env STATELEDGER_LLM_MODEL)")
    g.add_argument("--llm-api-key", default=None, metavar="KEY",
                   help="bearer key (env STATELEDGER_LLM_API_KEY or OPENAI_API_KEY)")
    g.add_argument("--llm-timeout", default=None, type=float, metavar="SECONDS",
                   help="per-request timeout (env STATELEDGER_LLM_TIMEOUT, default 20)")
    if answerer:
        g.add_argument("--answerer", default="auto", choices=["auto", "llm", "resolver"],
                       help="who writes answers; auto = the LLM when an endpoint is set")
    if policy:
        g.add_argument("--policy", default="open-world",
                       choices=["open-world", "rules", "learned", "llm-judge"],
                       help="write-path policy: open-world (default, the shipped relation "
                       "models), rules, learned (the TARL ledger policy), llm-judge (falls "
                       "back to open-world)")
    if controller:
        g.add_argument("--controller", default="off", choices=["off", "shadow", "online"],
                       help="bounded LLM reordering of the evidence pool")


def llm_config(args: argparse.Namespace, env: Mapping[str, str] | None = None) -> LLMConfig | None:
    """The endpoint from flags over environment; None when neither names one."""
    merged = dict(os.environ if env is None else env)
    for dest, var in _ENV.items():
        value = getattr(args, dest, None)
        if value is not None:
            merged[var] = str(value)
    url = merged.get(_ENV["llm_base_url"], "").strip()
    model = merged.get(_ENV["llm_model"], "").strip()
    if not url and not model:
        return None
    if not url or not model:
        raise InvalidInputError(
            "an LLM endpoint needs both a base URL and a model: --llm-base-url and --llm-model "
            "(or STATELEDGER_LLM_BASE_URL and STATELEDGER_LLM_MODEL)"
        )
    from stateledger.llm.client import LLMConfig

    return LLMConfig.from_env(merged)


def memory_options(
    args: argparse.Namespace, env: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """``Memory`` keyword arguments (policy, answerer, controller) the flags ask for."""
    wants_policy = getattr(args, "policy", "open-world")
    offline = _offline_policy(wants_policy)
    return {**offline, **_llm_options(args, env, wants_policy)}


def _offline_policy(name: str) -> dict[str, Any]:
    if name == "rules":
        from stateledger.models.rules import RulePolicy

        return {"policy": RulePolicy()}
    if name == "learned":
        from stateledger.models.ledger_policy import LearnedPolicy

        return {"policy": LearnedPolicy.load()}
    return {}


def _llm_options(
    args: argparse.Namespace, env: Mapping[str, str] | None, wants_policy: str
) -> dict[str, Any]:
    wants_answerer = getattr(args, "answerer", "resolver")
    wants_controller = getattr(args, "controller", "off")
    needed = [  # parts asked for explicitly: without an endpoint they are an error
        flag for flag, on in (("--answerer llm", wants_answerer == "llm"),
                              ("--policy llm-judge", wants_policy == "llm-judge"),
                              ("--controller " + wants_controller, wants_controller != "off"))
        if on
    ]
    if not needed and wants_answerer != "auto":
        return {}  # nothing LLM-backed wanted: do not even read the environment
    config = llm_config(args, env)
    if config is None:
        if needed:
            raise InvalidInputError(
                f"{', '.join(needed)} needs an LLM endpoint: --llm-base-url and --llm-model "
                "(or STATELEDGER_LLM_BASE_URL and STATELEDGER_LLM_MODEL)"
            )
        return {}
    from stateledger.llm import ChatClient, LLMAnswerer, LLMJudgePolicy, RetrieveController
    from stateledger.memory import default_policy

    client = ChatClient(config)
    out: dict[str, Any] = {}
    if wants_answerer in ("auto", "llm"):
        out["answerer"] = LLMAnswerer(client)
    if wants_policy == "llm-judge":
        out["policy"] = LLMJudgePolicy(client, fallback=default_policy())
    if wants_controller != "off":
        # argparse choices limit the value; RetrieveController validates it again anyway
        out["controller"] = RetrieveController(client, cast("ControllerMode", wants_controller))
    return out
