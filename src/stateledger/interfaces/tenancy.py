"""Tenants: one store shared by several tenants, each user id stored as ``<tenant>:<user>``.

The REST server scopes every request to its API key's tenant; the CLI's ``--tenant`` reads
and writes the same stored ids, so both see one memory.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from stateledger.core import validate
from stateledger.errors import InvalidInputError

MAX_USER_CHARS = 128  # validate.user_id's limit applies to the scoped id
_TENANT = re.compile(r"[A-Za-z0-9_-]{1,32}")  # no ':' so "tenant:user" splits unambiguously


def validate_tenant(value: object) -> str:
    if not isinstance(value, str) or not _TENANT.fullmatch(value):
        raise InvalidInputError(
            f"tenant must be 1-32 characters of letters, digits, '_' or '-', got {value!r}"
        )
    return value


@dataclass(frozen=True)
class Tenant:
    """The caller's tenant and the mapping between client and stored user ids."""

    name: str

    @property
    def prefix(self) -> str:
        return f"{self.name}:"

    def scope(self, user_id: object) -> str:
        """The stored id of a client's user id (validated as the client sent it)."""
        uid = validate.user_id(user_id)
        room = MAX_USER_CHARS - len(self.prefix)
        if len(uid) > room:
            raise InvalidInputError(f"user_id is {len(uid)} characters; the limit is {room}")
        return self.prefix + uid

    def owns(self, stored_user_id: str) -> bool:
        return stored_user_id.startswith(self.prefix)

    def users(self, stored: Iterable[str]) -> list[str]:
        """This tenant's users among stored ids, as the tenant names them."""
        return [u.removeprefix(self.prefix) for u in stored if self.owns(u)]

    def unscope(self, value: Any) -> Any:
        """Strip the tenant prefix from every ``user_id`` (and ``users`` list) in a response
        payload."""
        if isinstance(value, dict):
            return {
                k: (v.removeprefix(self.prefix) if k == "user_id" and isinstance(v, str)
                    else self.users(v) if k == "users" and isinstance(v, list)
                    else self.unscope(v))
                for k, v in value.items()
            }
        if isinstance(value, list):
            return [self.unscope(v) for v in value]
        return value

    def scrub(self, message: str) -> str:
        """Error messages come from the engine, which only knows stored ids."""
        return message.replace(self.prefix, "")


__all__ = ["MAX_USER_CHARS", "Tenant", "validate_tenant"]
