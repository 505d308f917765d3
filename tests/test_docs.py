"""The docs are checked: the API reference is what the code generates, every pycon
example in docs/ runs as written, and every relative link points at a file."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

from unavailable import require_extra

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted((ROOT / "docs").glob("*.md"))
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_the_api_reference_is_current() -> None:
    require_extra("langgraph", "langchain")  # the reference covers the integrations
    from stateledger.apidoc import render

    assert (ROOT / "docs" / "API.md").read_text() == render(), (
        "docs/API.md is stale: python -m stateledger.apidoc > docs/API.md")


@pytest.mark.parametrize("page", [p for p in DOCS if "```pycon" in p.read_text()],
                         ids=lambda p: p.name)
def test_examples_run(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    for i, block in enumerate(re.findall(r"```pycon\n(.*?)```", page.read_text(), re.S)):
        runner.run(doctest.DocTestParser().get_doctest(block, {}, f"{page.name}[{i}]",
                                                       str(page), 0))
    result = runner.summarize(verbose=False)
    assert result.failed == 0 and result.attempted > 0


@pytest.mark.parametrize("page", [*DOCS, ROOT / "README.md"], ids=lambda p: p.name)
def test_relative_links_resolve(page: Path) -> None:
    broken = [target for target in LINK.findall(page.read_text())
              if "://" not in target and not (page.parent / target).exists()]
    assert broken == [], f"{page.name} links to missing files: {broken}"
