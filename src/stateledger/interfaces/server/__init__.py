"""The REST server (extra ``server``): ``create_app`` builds the FastAPI app.

``keys`` (the API-key file) and ``cli`` (``stateledger serve`` / ``stateledger keys``) import
without FastAPI, so ``stateledger keys create`` works on a machine that only manages keys;
``create_app`` is loaded on first use and raises ``MissingDependencyError`` with the install
hint when the extra is missing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from stateledger.interfaces.server.app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from stateledger.interfaces.server.app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
