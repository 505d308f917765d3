"""core.replaced: the value a change says it replaced."""

from __future__ import annotations

import pytest

from stateledger.core.replaced import replaced_value, replaces_another_value


@pytest.mark.parametrize(("text", "old"), [
    ("We picked slate for the roof rather than tiles.", "tiles"),
    ("I take the train now instead of the bus.", "the bus"),
    ("We migrated the wiki off Confluence onto Notion.", "Confluence"),
    ("She switched from Java to Kotlin last year.", "Java"),
    ("They replaced the boiler with a heat pump.", "the boiler"),
    ("Swapped my Garmin for an Apple Watch.", "my Garmin"),
    ("The recital got moved from May 3 to May 10.", "May 3"),
])
def test_the_replaced_value_is_read(text: str, old: str) -> None:
    found = replaced_value(text)
    assert found is not None and found.rstrip(".") == old


@pytest.mark.parametrize("text", [
    "I walk to work instead of driving.",  # an activity: a record may word it otherwise
    "We moved to Leeds in March.",
    "My rent went up to £950.",
])
def test_no_replaced_value(text: str) -> None:
    assert replaced_value(text) is None


def test_a_record_that_holds_the_replaced_value_may_be_changed() -> None:
    assert not replaces_another_value("We moved the data off Mongo onto Postgres.",
                                      "Our API keeps its data in MongoDB.")
    assert replaces_another_value("Went for larch cladding rather than oak.",
                                  "The builders start on April 8.")
    assert not replaces_another_value("I moved to Leeds.", "I live in York.")
