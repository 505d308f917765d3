"""The API reference (docs/API.md), generated from the public objects' signatures and
docstrings, so it cannot drift from the code: ``python -m stateledger.apidoc > docs/API.md``
writes it, and a test fails when the file is not what this prints.
"""

from __future__ import annotations

import enum
import inspect
import sys
from collections.abc import Iterable
from typing import Any

import stateledger

HEADER = """# API reference

Generated from the code by `python -m stateledger.apidoc > docs/API.md` (a test checks it is
current). Everything here is importable from `stateledger` unless a section names another
module. Guides: [concepts](CONCEPTS.md), [integrations](INTEGRATIONS.md),
[serving](SERVING.md), [coming from mem0 or Zep](COMING_FROM.md).
"""
# Classes whose public methods are documented one by one, in this order.
DETAILED = ("Memory", "AsyncMemory")
# Further modules with a public API of their own.
MODULES = ("stateledger.integrations.langchain", "stateledger.integrations.langgraph",
           "stateledger.keyed")


def _doc(obj: Any) -> str:
    doc = inspect.cleandoc(obj.__doc__) if obj.__doc__ else ""
    name = getattr(obj, "__name__", "")
    # A dataclass without its own docstring gets its signature as one: the signature block
    # already shows it.
    return "" if name and doc.startswith(f"{name}(") else doc


def _summary(obj: Any) -> str:
    """The first paragraph, on one line."""
    return " ".join(_doc(obj).split("\n\n")[0].split())


def _signature(obj: Any) -> str:
    try:
        sig = str(inspect.signature(obj))
    except (TypeError, ValueError):
        return ""
    return sig.replace("'", "")


def _methods(cls: type) -> Iterable[tuple[str, Any]]:
    for name, member in cls.__dict__.items():
        if name.startswith("_") and name not in ("__init__",):
            continue
        if isinstance(member, property) or inspect.isfunction(member):
            yield name, member


def _class_section(name: str, cls: type, detailed: bool) -> list[str]:
    out = [f"### `{name}`", ""]
    if issubclass(cls, enum.Enum):
        doc = cls.__doc__ or ""
        if doc and doc != enum.Enum.__doc__ and "An enumeration" not in doc:
            out += [_doc(cls), ""]
        out += [f"Values: {', '.join(f'`{m.value}`' for m in cls)}", ""]
        return out
    out += [f"```python\n{name}{_signature(cls)}\n```", "", _doc(cls), ""]
    if detailed:
        for meth_name, member in _methods(cls):
            if meth_name == "__init__":
                continue
            if isinstance(member, property):
                out += [f"#### `{name}.{meth_name}` (property)", "", _doc(member), ""]
                continue
            kind = "async " if inspect.iscoroutinefunction(member) else ""
            doc = _doc(member)
            if not doc and kind and hasattr(stateledger.Memory, meth_name):
                doc = f"The awaitable form of `Memory.{meth_name}`."
            out += [f"#### `{name}.{meth_name}`", "",
                    f"```python\n{kind}def {meth_name}{_signature(member)}\n```", "",
                    doc, ""]
    return out


def _errors() -> list[str]:
    out = ["## Errors", "", "Every error the engine raises is a `StateLedgerError`:", ""]
    errors = [getattr(stateledger, n) for n in stateledger.__all__
              if isinstance(getattr(stateledger, n), type)
              and issubclass(getattr(stateledger, n), stateledger.StateLedgerError)]
    for err in sorted(errors, key=lambda e: (len(e.__mro__), e.__name__)):
        bases = ", ".join(b.__name__ for b in err.__bases__)
        out.append(f"- `{err.__name__}` ({bases}): {_summary(err)}")
    return [*out, ""]


def render() -> str:
    out = [HEADER]
    names = [n for n in stateledger.__all__ if not n.startswith("_")]
    out += ["## Memory", ""]
    for name in DETAILED:
        out += _class_section(name, getattr(stateledger, name), detailed=True)
    out += ["## Data types", ""]
    for name in names:
        obj = getattr(stateledger, name)
        if name in DETAILED or not isinstance(obj, type):
            continue
        if issubclass(obj, BaseException):
            continue
        out += _class_section(name, obj, detailed=False)
    out += _errors()
    for module_name in MODULES:
        module = sys.modules.get(module_name) or __import__(module_name, fromlist=["_"])
        out += [f"## `{module_name}`", "", _doc(module), ""]
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if inspect.isclass(obj):
                out += _class_section(name, obj, detailed=True)
            elif inspect.isfunction(obj):
                out += [f"### `{name}`", "", f"```python\ndef {name}{_signature(obj)}\n```", "",
                        _doc(obj), ""]
    return "\n".join(out).rstrip() + "\n"


if __name__ == "__main__":
    sys.stdout.write(render())
