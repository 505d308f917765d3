"""What a test needs but a developer's machine may lack (an extra, a server, data, a browser).

Missing, it skips and says what to install; under ``CI=true``, where ``.ci/run`` installs
everything, it fails instead, so CI can never pass by skipping.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import NoReturn

import pytest


def unavailable(reason: str) -> NoReturn:
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true but {reason}", pytrace=False)
    pytest.skip(reason, allow_module_level=True)


def require_extra(module: str, extra: str) -> ModuleType:
    """Import ``module`` from the optional ``extra``, or skip (fail in CI) saying how."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        unavailable(f"the {extra} extra is not installed ({exc}); "
                    f"pip install 'stateledger[{extra}]'")
