"""One exception hierarchy: every error stateledger raises on purpose is a StateLedgerError.

Callers can catch the base class; the subclasses say what kind of input or state was wrong.
Every error raised before a commit leaves the store unchanged.
"""

from __future__ import annotations


class StateLedgerError(Exception):
    """Base class of every error raised by stateledger."""


class InvalidInputError(StateLedgerError, ValueError):
    """An argument is malformed: empty or oversized text, bad date, bad k, unknown ledger..."""


class InvalidTextError(InvalidInputError):
    """Statement or query text is empty, not a string, too long or not valid UTF-8."""


class AmbiguousIdError(InvalidInputError):
    """A short record id matches more than one record."""


class InvalidTimeError(InvalidInputError):
    """A timestamp could not be parsed or carries no timezone."""


class UnknownRecordError(StateLedgerError, LookupError):
    """No record with this id exists."""


class NotPendingError(StateLedgerError):
    """A confirm/deny named a record that is not (or no longer) pending."""


class StoreError(StateLedgerError):
    """The storage backend failed; the transaction was rolled back."""


class ConflictError(StoreError):
    """Another writer changed a record this transaction changes since it was read; nothing
    was written. ``Memory`` decides again on the new state; other callers retry the same way."""


class SchemaVersionError(StoreError):
    """The database was written by a newer stateledger than this one."""


class MissingDependencyError(StateLedgerError, ImportError):
    """An optional part was used without its extra installed."""


class DataError(StateLedgerError):
    """Benchmark or training data is missing or malformed."""


class ModelError(StateLedgerError):
    """A learned model's weights are missing, incompatible or failed to load."""


class LLMError(StateLedgerError):
    """An LLM endpoint failed, timed out or returned output that did not validate."""


class LLMTimeoutError(LLMError):
    """The endpoint did not answer within the configured timeout, after all retries."""


class LLMHTTPError(LLMError):
    """The endpoint was unreachable or answered with an HTTP error status.

    ``status`` is the last HTTP status code, or None when no response arrived at all.
    """

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class LLMOutputError(LLMError):
    """The endpoint answered, but its reply was not the JSON the prompt asked for.

    ``raw`` holds the model's text (when there was one) so traces can show what failed.
    """

    def __init__(self, message: str, raw: str | None = None) -> None:
        super().__init__(message)
        self.raw = raw
