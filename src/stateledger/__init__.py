"""stateledger: long-term memory for LLM agents that keeps every state of a fact.

Every update is a transaction (append / noop / revise / reject_conflict / defer_verify) over
three ledgers (accepted, pending, history); every answer comes from the state the question
asks about, with evidence labelled current / historical / transition.
"""

from stateledger.async_memory import AsyncMemory
from stateledger.core.model import (
    Action,
    Answer,
    Decision,
    Evidence,
    Label,
    Ledger,
    Link,
    LinkType,
    Message,
    Packet,
    Record,
    Relation,
    Source,
    Status,
    Transaction,
    View,
)
from stateledger.core.validate import TimeInput
from stateledger.errors import (
    AmbiguousIdError,
    ConflictError,
    DataError,
    InvalidInputError,
    InvalidTextError,
    InvalidTimeError,
    LLMError,
    MissingDependencyError,
    ModelError,
    SchemaVersionError,
    StateLedgerError,
    StoreError,
    UnknownRecordError,
)
from stateledger.memory import Memory

__version__ = "0.1.0"

__all__ = [
    "Action",
    "AmbiguousIdError",
    "Answer",
    "AsyncMemory",
    "ConflictError",
    "DataError",
    "Decision",
    "Evidence",
    "InvalidInputError",
    "InvalidTextError",
    "InvalidTimeError",
    "LLMError",
    "Label",
    "Ledger",
    "Link",
    "LinkType",
    "Memory",
    "Message",
    "MissingDependencyError",
    "ModelError",
    "Packet",
    "Record",
    "Relation",
    "SchemaVersionError",
    "Source",
    "StateLedgerError",
    "Status",
    "StoreError",
    "TimeInput",
    "Transaction",
    "UnknownRecordError",
    "View",
    "__version__",
]
