"""Optimistic writes: decide on what was read, commit only if nothing moved, else again.

Every write path (``Memory.add``, ``resolve``, keyed ``put``) reads its candidates, decides,
and commits with the version it read; a store refuses a commit whose user moved since
(``ConflictError``, nothing written), and the write is decided again on the new state.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable
from typing import TypeVar

from stateledger.errors import ConflictError

T = TypeVar("T")

WRITE_ATTEMPTS = 8  # decide-and-commit rounds when other writers keep changing the same records


def on_fresh_state(attempt: Callable[[], T]) -> T:
    """Run a read-decide-commit ``attempt``; when the commit is refused because another
    writer changed what it read (ConflictError, nothing written), read and decide again,
    up to WRITE_ATTEMPTS times in all."""
    for round_ in range(WRITE_ATTEMPTS - 1):
        with contextlib.suppress(ConflictError):
            return attempt()
        # Writers that keep colliding on one user spread out instead of retrying in step.
        time.sleep(random.uniform(0, 0.005 * 2**round_))
    return attempt()
