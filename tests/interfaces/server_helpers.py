"""A real uvicorn server on a free 127.0.0.1 port, in a background thread (a helper module,
not conftest.py, so test modules can import it without clashing with other conftests)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from stateledger.memory import Memory
from unavailable import require_extra


@dataclass
class LiveServer:
    url: str
    memory: Memory
    keys: object  # KeyStore; typed loosely so collection works without the server extra


@contextmanager
def live_server(db: Path, keys_path: Path, **app_kw: object) -> Iterator[LiveServer]:
    require_extra("fastapi", "server")
    uvicorn = require_extra("uvicorn", "server")
    from stateledger.interfaces.server import create_app
    from stateledger.interfaces.server.keys import KeyStore

    memory = Memory(db)
    keys = KeyStore(keys_path)
    app = create_app(memory, keys, **app_kw)  # type: ignore[arg-type]
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))  # the kernel picks a free port; no race with other tests
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", lifespan="on", access_log=False)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    try:
        yield LiveServer(f"http://127.0.0.1:{port}", memory, keys)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
        memory.close()
