"""One client for any OpenAI-compatible chat-completions endpoint.

Every LLM feature of stateledger (answerer, judge policy, retrieve controller) goes through
``ChatClient.complete_json``, so retries, timeouts, JSON extraction and validation live in one
place and fail the same way: with an ``LLMError`` subclass that callers turn into a fallback to
the deterministic path. ``httpx`` is imported lazily because the LLM backend is an optional
extra; the offline engine must import without it.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from stateledger.errors import (
    InvalidInputError,
    LLMHTTPError,
    LLMOutputError,
    LLMTimeoutError,
    MissingDependencyError,
)

try:
    from pydantic import BaseModel, ValidationError
except ImportError as _exc:  # pragma: no cover - depends on the environment
    raise MissingDependencyError(
        "the LLM backend needs pydantic v2: pip install 'stateledger[llm]'"
    ) from _exc

if TYPE_CHECKING:
    import httpx

__all__ = ["ChatClient", "JSONCompletion", "LLMConfig", "parse_json_reply", "strip_fences"]

M = TypeVar("M", bound=BaseModel)

_RETRY_STATUS = frozenset({408, 409, 429})  # plus every 5xx
_MAX_RETRY_AFTER_S = 5.0  # never let a server's Retry-After stall a memory write for long
_SNIPPET = 300
_FENCE = re.compile(r"^\s*```[A-Za-z0-9_-]*\s*\n?(.*?)\n?\s*```\s*$", re.DOTALL)


@dataclass(frozen=True)
class LLMConfig:
    """Where and how to reach the endpoint.

    ``base_url`` includes the API prefix (e.g. ``http://localhost:11434/v1``); the client posts
    to ``{base_url}/chat/completions``. ``timeout_s`` bounds each network operation of one
    attempt; ``max_retries`` counts extra attempts after the first on transient failures.
    ``json_mode`` sends ``response_format={"type": "json_object"}``; turn it off for servers
    that reject that field (the prompts ask for JSON anyway).
    """

    base_url: str
    model: str
    api_key: str | None = field(default=None, repr=False)
    timeout_s: float = 20.0
    max_retries: int = 2
    backoff_s: float = 0.5
    json_mode: bool = True

    def __post_init__(self) -> None:
        if not self.base_url.strip() or not self.model.strip():
            raise InvalidInputError("LLMConfig needs a non-empty base_url and model")
        if self.timeout_s <= 0:
            raise InvalidInputError(f"LLMConfig.timeout_s must be > 0, got {self.timeout_s}")
        if self.max_retries < 0:
            raise InvalidInputError(f"LLMConfig.max_retries must be >= 0, got {self.max_retries}")
        if self.backoff_s < 0:
            raise InvalidInputError(f"LLMConfig.backoff_s must be >= 0, got {self.backoff_s}")

    @property
    def endpoint(self) -> str:
        return self.base_url.rstrip("/") + "/chat/completions"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> LLMConfig | None:
        """Read ``STATELEDGER_LLM_*`` variables; None when the endpoint is not configured.

        Returning None (rather than raising) lets callers treat "no LLM configured" as the
        normal offline case and keep the deterministic backends.
        """
        env = os.environ if env is None else env
        base_url = env.get("STATELEDGER_LLM_BASE_URL", "").strip()
        model = env.get("STATELEDGER_LLM_MODEL", "").strip()
        if not base_url or not model:
            return None
        api_key = env.get("STATELEDGER_LLM_API_KEY") or env.get("OPENAI_API_KEY") or None
        raw_timeout = env.get("STATELEDGER_LLM_TIMEOUT", "").strip()
        timeout_s = 20.0
        if raw_timeout:
            try:
                timeout_s = float(raw_timeout)
            except ValueError as exc:
                raise InvalidInputError(
                    f"STATELEDGER_LLM_TIMEOUT must be a number of seconds, got {raw_timeout!r}"
                ) from exc
        return cls(base_url=base_url, model=model, api_key=api_key, timeout_s=timeout_s)


@dataclass(frozen=True)
class JSONCompletion(Generic[M]):
    """A validated reply plus what traces need: the raw text and how many attempts it took."""

    value: M
    raw: str
    attempts: int
    elapsed_s: float


def _snippet(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _SNIPPET else text[: _SNIPPET - 3] + "..."


def strip_fences(text: str) -> str:
    """Remove a surrounding Markdown code fence (```json ... ```), which many models add."""
    match = _FENCE.match(text)
    return match.group(1).strip() if match else text.strip()


def parse_json_reply(text: str, schema: type[M]) -> M:
    """Turn model text into a validated ``schema`` instance or raise ``LLMOutputError``.

    Tolerates fences and prose around a single JSON object, because small local models add
    both even in JSON mode; anything still unparseable is an output error, never a guess.
    """
    body = strip_fences(text)
    try:
        data: Any = json.loads(body)
    except json.JSONDecodeError:
        start, end = body.find("{"), body.rfind("}")
        if start < 0 or end <= start:
            raise LLMOutputError(f"reply is not JSON: {_snippet(text)!r}", raw=text) from None
        try:
            data = json.loads(body[start : end + 1])
        except json.JSONDecodeError as exc:
            raise LLMOutputError(
                f"reply is not valid JSON ({exc.msg}): {_snippet(text)!r}", raw=text
            ) from None
    if not isinstance(data, dict):
        raise LLMOutputError(f"reply must be a JSON object, got {type(data).__name__}", raw=text)
    try:
        return schema.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '<root>'}: {err['msg']}"
            for err in exc.errors()[:5]
        )
        raise LLMOutputError(
            f"reply does not match {schema.__name__}: {problems}", raw=text
        ) from None


def _message_content(payload: Any) -> str:
    """Extract ``choices[0].message.content`` from a chat-completions response body."""
    try:
        choice = payload["choices"][0]
        content = choice["message"]["content"]
    except (KeyError, IndexError, TypeError):
        raise LLMOutputError(
            f"response has no choices[0].message.content: {_snippet(json.dumps(payload))!r}"
        ) from None
    if isinstance(content, list):  # some servers return content parts
        content = "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    if not isinstance(content, str) or not content.strip():
        reason = choice.get("finish_reason") if isinstance(choice, dict) else None
        raise LLMOutputError(f"response message is empty (finish_reason={reason!r})")
    return content


class ChatClient:
    """Synchronous chat-completions client that always returns validated JSON.

    Owns the retry policy: timeouts, connection failures, 408/409/429 and 5xx are retried with
    exponential backoff (honouring a short ``Retry-After``); other 4xx and bad output are not,
    since repeating a deterministic (temperature 0) request would fail the same way.
    """

    def __init__(self, config: LLMConfig) -> None:
        try:
            import httpx
        except ImportError as exc:
            raise MissingDependencyError(
                "the LLM backend needs httpx: pip install 'stateledger[llm]'"
            ) from exc
        self.config = config
        self._http: httpx.Client = httpx.Client(timeout=httpx.Timeout(config.timeout_s))

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> ChatClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.config.api_key:
            headers["Authorization"] = f"Bearer {self.config.api_key}"
        return headers

    def _body(self, messages: Sequence[Mapping[str, str]]) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.config.model,
            "messages": [dict(m) for m in messages],
            "temperature": 0,
        }
        if self.config.json_mode:
            body["response_format"] = {"type": "json_object"}
        return body

    def _wait(self, attempt: int, retry_after: str | None) -> None:
        delay = self.config.backoff_s * (2**attempt)
        if retry_after:
            with contextlib.suppress(ValueError):  # an HTTP-date Retry-After: keep ours
                delay = max(delay, min(float(retry_after), _MAX_RETRY_AFTER_S))
        if delay > 0:
            time.sleep(delay)

    def _post(self, messages: Sequence[Mapping[str, str]]) -> tuple[str, int]:
        """POST with retries; return the message content and the number of attempts."""
        import httpx

        url, cfg = self.config.endpoint, self.config
        body, headers = self._body(messages), self._headers()
        attempts = cfg.max_retries + 1
        last: LLMTimeoutError | LLMHTTPError | None = None
        for attempt in range(attempts):
            retry_after: str | None = None
            tag = f"model {cfg.model!r} at {url}, attempt {attempt + 1}/{attempts}"
            try:
                resp = self._http.post(url, json=body, headers=headers)
            except httpx.TimeoutException:
                last = LLMTimeoutError(f"no answer within {cfg.timeout_s:g}s ({tag})")
            except httpx.HTTPError as exc:
                last = LLMHTTPError(f"could not reach endpoint: {exc!s} ({tag})")
            else:
                code = resp.status_code
                if code < 400:
                    try:
                        payload = resp.json()
                    except ValueError:
                        raise LLMOutputError(
                            f"endpoint returned a non-JSON body ({tag}): {_snippet(resp.text)!r}"
                        ) from None
                    return _message_content(payload), attempt + 1
                msg = f"HTTP {code} ({tag}): {_snippet(resp.text)!r}"
                if code not in _RETRY_STATUS and code < 500:
                    raise LLMHTTPError(msg, status=code)
                last = LLMHTTPError(msg, status=code)
                retry_after = resp.headers.get("Retry-After")
            if attempt + 1 < attempts:
                self._wait(attempt, retry_after)
        assert last is not None  # the loop ran at least once and did not return
        raise last

    def complete_json_detailed(
        self, messages: Sequence[Mapping[str, str]], schema: type[M]
    ) -> JSONCompletion[M]:
        """Like ``complete_json`` but also returns the raw text and attempt count for traces."""
        started = time.monotonic()
        content, attempts = self._post(messages)
        value = parse_json_reply(content, schema)
        return JSONCompletion(value, content, attempts, time.monotonic() - started)

    def complete_json(self, messages: Sequence[Mapping[str, str]], schema: type[M]) -> M:
        """Send ``messages`` and return the reply validated as ``schema``.

        Raises ``LLMTimeoutError``, ``LLMHTTPError`` or ``LLMOutputError`` (all ``LLMError``).
        """
        return self.complete_json_detailed(messages, schema).value
