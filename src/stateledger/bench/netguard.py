"""A guard that refuses every outbound network connection and counts the attempts.

The benches promise to run offline (the embedder, mem0 with ``infer=False``); running them
under this guard turns the promise into a measured fact: an attempt fails loudly inside the
system that made it, and the count is reported with the results.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any


@dataclass
class NetworkLog:
    attempts: list[str] = field(default_factory=list)


class NetworkBlockedError(OSError):
    """Raised in place of a connection while the guard is active."""


@contextmanager
def no_network() -> Iterator[NetworkLog]:
    """Block ``socket.connect``, ``create_connection`` and name resolution of anything but
    local sockets and localhost."""
    log = NetworkLog()
    orig_connect = socket.socket.connect
    orig_create = socket.create_connection
    orig_getaddrinfo = socket.getaddrinfo

    def connect(self: socket.socket, address: Any) -> None:
        if self.family == socket.AF_UNIX:
            return orig_connect(self, address)
        log.attempts.append(repr(address))
        raise NetworkBlockedError(f"network access blocked during the bench: {address!r}")

    def create_connection(address: Any, *args: Any, **kwargs: Any) -> socket.socket:
        log.attempts.append(repr(address))
        raise NetworkBlockedError(f"network access blocked during the bench: {address!r}")

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host in (None, "localhost", "127.0.0.1", "::1"):
            return orig_getaddrinfo(host, *args, **kwargs)
        log.attempts.append(f"resolve {host!r}")
        raise NetworkBlockedError(f"name resolution blocked during the bench: {host!r}")

    socket.socket.connect = connect  # type: ignore[method-assign,assignment]
    socket.getaddrinfo = getaddrinfo
    socket.create_connection = create_connection
    try:
        yield log
    finally:
        socket.socket.connect = orig_connect  # type: ignore[method-assign]
        socket.create_connection = orig_create
        socket.getaddrinfo = orig_getaddrinfo
