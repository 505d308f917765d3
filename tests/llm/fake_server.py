"""A real local HTTP server speaking the chat-completions wire format, with scripted replies.

Tests run the production client over a real socket (not a mocked transport) so timeouts,
status codes, headers and body encoding are exercised exactly as against a real endpoint.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

PATH = "/v1/chat/completions"


@dataclass(frozen=True)
class Scripted:
    """One scripted reply: an HTTP status, a chat message content or a raw body, a delay."""

    status: int = 200
    content: str | None = None  # wrapped in a chat.completion body when set
    body: str | None = None  # sent verbatim otherwise
    delay_s: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)


def reply_json(obj: Any) -> Scripted:
    return Scripted(content=json.dumps(obj))


def reply_fenced(obj: Any) -> Scripted:
    return Scripted(content="```json\n" + json.dumps(obj, indent=2) + "\n```")


def reply_text(text: str) -> Scripted:
    return Scripted(content=text)


def reply_status(code: int, message: str = "scripted failure") -> Scripted:
    return Scripted(status=code, body=json.dumps({"error": {"message": message}}))


def reply_delayed(seconds: float, then: Scripted) -> Scripted:
    return Scripted(then.status, then.content, then.body, seconds, then.headers)


@dataclass(frozen=True)
class SeenRequest:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


def _completion(content: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 0,
        "model": "fake-model",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


class FakeChatServer:
    """Serves scripted replies in order on 127.0.0.1 (free port) and records every request.

    An empty script answers 500 so a test that makes an unexpected call fails loudly.
    """

    def __init__(self) -> None:
        self.script: deque[Scripted] = deque()
        self.requests: list[SeenRequest] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._httpd.daemon_threads = True
        self._httpd.block_on_close = False
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def push(self, *replies: Scripted) -> None:
        with self._lock:
            self.script.extend(replies)

    def __enter__(self) -> FakeChatServer:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stop.set()  # wakes handlers sleeping in a scripted delay
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def _next(self, seen: SeenRequest) -> Scripted:
        with self._lock:
            self.requests.append(seen)
            return self.script.popleft() if self.script else reply_status(500, "script empty")

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
                pass

            def _send(self, status: int, body: str, headers: dict[str, str]) -> None:
                data = body.encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for key, value in headers.items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                raw = self.rfile.read(length)
                if self.path != PATH:
                    self._send(404, json.dumps({"error": "not found"}), {})
                    return
                seen = SeenRequest(self.path, dict(self.headers.items()), json.loads(raw))
                reply = server._next(seen)
                if reply.delay_s and server._stop.wait(reply.delay_s):
                    return
                body = (
                    reply.body if reply.content is None else json.dumps(_completion(reply.content))
                )
                with contextlib.suppress(OSError):  # the client may have timed out already
                    self._send(reply.status, body or "", reply.headers)

        return Handler
