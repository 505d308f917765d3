"""The open-world update detector: does a new statement change the state a record holds?

One learned model, tied to no slot name: a small cross-encoder (``models.pair_encoder``:
the first ``layers`` transformer layers of the bundled all-MiniLM-L6-v2, fine-tuned) with
three heads over its [CLS] state and token mean:

- *relation*, over ``[CLS] record [SEP] statement [SEP]``: how a new statement relates to
  a stored record: ``unrelated`` (another state variable, or no state at all), ``same`` (a
  restatement), ``update`` (another value of the same variable: a change, a correction, a
  newer statement), ``end`` (the state stops, no replacement) or ``coexist`` (one more value
  of a many-valued variable);
- *relevance*, over ``[CLS] question [SEP] record [SEP]``: does the record state the
  variable the question asks about? (Trained beside the other two; the answer step reads
  the dedicated reranker of ``models.relevance`` instead.)
- *stance*, over ``[CLS] statement [SEP]``: does the text state a fact at all, is it a
  question, hedged, reported by someone else, about a past state, a change in progress, a
  correction, an ending? Read off the tokens, so "might", "used to" or "Sam says" count
  whatever the topic (a sentence embedding is dominated by the topic).

It is trained on generated data (``synth.statements``) by ``models.relation_training``
(``stateledger train relation``); inference runs on CPU in the write path's budget.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch

from stateledger import threads
from stateledger.core.open_world import RELATIONS
from stateledger.errors import InvalidInputError
from stateledger.models.pair_encoder import (
    Inference,
    PairConfig,
    PairEncoder,
    head,
    load_encoder,
    save_encoder,
    shipped_path,
    tokenize_pairs,
    tokenize_texts,
)

FORMAT_VERSION = 2  # 2: the stance head joined the cross-encoder
STANCES: tuple[str, ...] = (
    "fact", "question", "hedged", "reported", "past", "transition", "correction", "ending",
)
MODEL_FILE = "relation_model.pt"
# Stances read ahead (``read_stances_beside``) and not taken up yet, at most this many: a
# statement whose stance text changed after it was read ahead (another person named) is
# read again in its judge's forward, and its early reading waits here until pushed out.
EARLY_STANCES = 4096
EARLY_BATCH = 32


class CrossEncoder(PairEncoder):
    """MiniLM's first ``cfg.layers`` layers with a relation, a relevance and a stance head."""

    def __init__(self, cfg: PairConfig, word: torch.Tensor) -> None:
        super().__init__(cfg, word)
        self.relation = head(cfg, len(RELATIONS))
        self.relevance = head(cfg, 1)
        self.stance = head(cfg, len(STANCES))

    def forward(self, ids: torch.Tensor, types: torch.Tensor, mask: torch.Tensor
                ) -> tuple[torch.Tensor, torch.Tensor]:
        """(relation logits (batch, 5), relevance logit (batch,)) of text pairs."""
        h = self.encode(ids, types, mask)
        return self.relation(h), self.relevance(h).squeeze(-1)

    def stance_logits(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Stance logits (batch, len(STANCES)) of single texts."""
        logits: torch.Tensor = self.stance(self.encode(ids, torch.zeros_like(ids), mask))
        return logits


class RelationModel:
    """Inference over the shipped cross-encoder (thread-safe; see ``pair_encoder.Inference``)."""

    def __init__(self, model: CrossEncoder, tokenizer: Any, *, bf16: bool | None = None) -> None:
        self.model = model.eval()
        self.tokenizer = tokenizer
        self._inference = Inference(self.model, bf16)
        self._early: OrderedDict[str, tuple[threads.Pending[np.ndarray], int]] = OrderedDict()
        self._early_lock = threading.Lock()

    @property
    def bf16(self) -> bool:
        return self._inference.bf16

    @classmethod
    def load(cls, path: str | Path | None = None) -> RelationModel:
        p = Path(path) if path is not None else shipped_path(MODEL_FILE)
        model, tokenizer = load_encoder(CrossEncoder, p, FORMAT_VERSION, "relation model",
                                        "relation")
        return cls(model, tokenizer)

    def relations(self, records: Sequence[str], statement: str) -> np.ndarray:
        """Probabilities over RELATIONS for each (record, statement) pair: (len, 5)."""
        return self.pair_relations(records, [statement] * len(records))

    def pair_relations(self, records: Sequence[str], statements: Sequence[str]) -> np.ndarray:
        """Probabilities over RELATIONS for each (records[i], statements[i]): (len, 5)."""
        if not records:
            return np.zeros((0, len(RELATIONS)), dtype=np.float32)
        ids, types, mask = tokenize_pairs(self.tokenizer, records, statements)
        with self._inference() as net:
            logits = net.relation(self._inference.encode(ids, types, mask))
            return torch.softmax(logits.float(), dim=-1).numpy()

    def relevance(self, question: str, records: Sequence[str]) -> np.ndarray:
        """Probability that each record states the variable ``question`` asks about."""
        if not records:
            return np.zeros(0, dtype=np.float32)
        ids, types, mask = tokenize_pairs(self.tokenizer, [question] * len(records), records)
        with self._inference() as net:
            logit = net.relevance(self._inference.encode(ids, types, mask)).squeeze(-1)
            return torch.sigmoid(logit.float()).numpy()

    def judge(self, statement: str, records: Sequence[str], *, stance_text: str | None = None,
              paired: Sequence[str] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The statement's stance probabilities (len(STANCES),) and its relation
        probabilities to each record (len(records), 5), from one batched forward: the
        single text and the pairs share one pass over the weights. ``stance_text``: the
        statement as the stance is read; ``paired``: the statement as each record's pair
        reads it (default: ``statement`` for both). A stance read ahead
        (``read_stances_beside``) is taken as it is, and the forward holds only the pairs."""
        text = stance_text if stance_text is not None else statement
        early = self._early_stance(text)
        single = self.tokenizer.encode(text)
        seconds = list(paired) if paired is not None else [statement] * len(records)
        if len(seconds) != len(records):
            raise InvalidInputError("paired needs one statement text per record")
        pairs = (self.tokenizer.encode_batch(list(zip(records, seconds, strict=True)))
                 if records else [])
        # The batch is as wide as its widest text, the single one included whether its
        # stance was read ahead or not, so each pair reads the same padding either way.
        width = max(len(e.ids) for e in [single, *pairs])
        if early is not None and not pairs:
            return early, np.zeros((0, len(RELATIONS)), dtype=np.float32)
        rows = pairs if early is not None else [single, *pairs]
        first = 0 if early is not None else 1  # the first pair's row
        ids = torch.zeros((len(rows), width), dtype=torch.long)
        types = torch.zeros_like(ids)
        mask = torch.zeros_like(ids)
        for i, e in enumerate(rows):
            # Known artefact, kept on purpose until a relation model earns the fix: the
            # tokenizer pads the pairs to the longest of them and this mask reads that
            # padding as text, so a pair shorter than its longest neighbour leans to
            # "unrelated". Masking the padding (``e.attention_mask``) makes each pair's
            # relation independent of its neighbours but lets the model's over-eager
            # "update" on real chat statements through; every measurement of the fix so
            # far lost BEAM and the state bench, with the shipped weights and with three
            # retrainings (the latest: 609 supersede links instead of 370 on the BEAM dev
            # replay, BEAM 0.550 -> 0.450, state 0.867 -> 0.850), and so did padding every
            # pair to one fixed width or weighing "unrelated" up with the padding masked.
            # docs/BENCHMARKS.md, issue 10, "padded pairs".
            n = len(e.ids)
            ids[i, :n] = torch.tensor(e.ids)
            mask[i, :n] = 1
            if i >= first:
                types[i, :n] = torch.tensor(e.type_ids)
        # Attention masks padding where any row of the whole batch, the single text's
        # included, has some: the pairs' numbers do not depend on whether it is in it.
        padded = len(single.ids) < width or any(len(e.ids) < width for e in pairs)
        with self._inference() as net:
            h = self._inference.encode(ids, types, mask, padded=padded)
            relation = torch.softmax(net.relation(h[first:]).float(), dim=-1)
            stance = (early if early is not None
                      else torch.sigmoid(net.stance(h[:1]).float())[0].numpy())
            return stance, relation.numpy().reshape(len(records), len(RELATIONS))

    def read_stances_beside(self, texts: Sequence[str]) -> None:
        """Start reading the stances of ``texts`` on the side worker (``threads.beside``),
        where the process has one, for ``judge`` and ``stances`` to take up: the write path
        starts it before a message's embedding, whose one row leaves the other core idle,
        so a statement's judge forward holds only its pairs. Texts are read in batches of
        ``EARLY_BATCH`` of similar length, each row masked to its own tokens as in the
        judge's batch (the same probabilities up to a batch's arithmetic)."""
        unique = list(dict.fromkeys(texts))
        if not unique or not threads.has_side():
            return
        # An import's many texts go in forwards of similar lengths: one batch pads every
        # row to its longest.
        unique.sort(key=len)
        for start in range(0, len(unique), EARLY_BATCH):
            batch = unique[start:start + EARLY_BATCH]
            pending = threads.beside(self._stances_now, batch)
            with self._early_lock:
                for i, text in enumerate(batch):
                    self._early[text] = (pending, i)
                    self._early.move_to_end(text)
                while len(self._early) > EARLY_STANCES:
                    self._early.popitem(last=False)

    def _early_stance(self, text: str) -> np.ndarray | None:
        """The stance of ``text`` read ahead, once (None when it was not). Call outside
        ``with self._inference()``: a reading not started yet runs here."""
        with self._early_lock:
            got = self._early.pop(text, None)
        if got is None:
            return None
        pending, row = got
        stance: np.ndarray = pending.result()[row]
        return stance

    def stances(self, texts: Sequence[str]) -> np.ndarray:
        """Probabilities (len, len(STANCES)) of each stance (independent sigmoids); a
        single text's read ahead (``read_stances_beside``) is taken as it is."""
        if len(texts) == 1:
            early = self._early_stance(texts[0])
            if early is not None:
                return early[None, :]
        return self._stances_now(texts)

    def _stances_now(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, len(STANCES)), dtype=np.float32)
        ids, mask = tokenize_texts(self.tokenizer, texts)
        with self._inference() as net:
            h = self._inference.encode(ids, torch.zeros_like(ids), mask)
            return torch.sigmoid(net.stance(h).float()).numpy()


def save_relation_model(model: CrossEncoder, path: Path, extra: Mapping[str, Any]) -> None:
    """The fine-tuned weights in float16 (the frozen word embeddings are not saved)."""
    save_encoder(model, path, FORMAT_VERSION, extra)


_shared: dict[str, Any] = {}
_shared_lock = threading.Lock()


def shared_relation_model() -> RelationModel:
    """One process-wide shipped model (the write and the read path share it)."""
    with _shared_lock:
        if "model" not in _shared:
            _shared["model"] = RelationModel.load()
        model: RelationModel = _shared["model"]
        return model
