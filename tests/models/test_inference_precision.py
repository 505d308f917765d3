"""bfloat16 inference: where the CPU runs it natively the shipped models answer under
bfloat16 autocast (``models.pair_encoder.bf16_pays_off``), about 1.7x faster. The suite
itself runs in float32 (``tests/conftest.py``) so that its outcomes do not depend on the
CPU it lands on; this test holds the bfloat16 path to float32's probabilities, on any CPU
(where bfloat16 is emulated it is only slower)."""

from __future__ import annotations

import numpy as np
import pytest

from stateledger.models.pair_encoder import BF16_ENV, bf16_pays_off
from stateledger.models.relation import RelationModel, shared_relation_model
from stateledger.models.relevance import RelevanceModel, shared_relevance_model

RECORDS = ["I live in Leeds.", "My grocery budget is 400 a month.",
           "The site runs on WordPress", "My son Leo is 9.", "I love Chinese food.",
           "We use PostgreSQL for the project."]
STATEMENTS = ["I moved to Bristol last month.", "I've raised the grocery budget to 450.",
              "We moved the site off WordPress onto Ghost.",
              "Leo turned 10 last week and had a big party.",
              "Honestly I can't stand Chinese food anymore.", "Tell me a joke about lawyers."]
QUESTIONS = ["Where do I live?", "What is my grocery budget?", "What does the site run on?",
             "How old is Leo?", "How do I feel about Chinese food?", "Which database do we use?"]
TOLERANCE = 0.03  # measured: at most 0.012 (relation) and 0.006 (relevance) on these


def _outputs(bf16: bool) -> tuple[np.ndarray, np.ndarray]:
    # The shipped weights, loaded once per process, under the precision asked for.
    shipped_rel, shipped_rv = shared_relation_model(), shared_relevance_model()
    rel = RelationModel(shipped_rel.model, shipped_rel.tokenizer, bf16=bf16)
    rv = RelevanceModel(shipped_rv.model, shipped_rv.tokenizer, bf16=bf16)
    pairs = rel.pair_relations([r for r in RECORDS for _ in STATEMENTS],
                               [s for _ in RECORDS for s in STATEMENTS])
    scores = np.concatenate([rv.relevance(q, RECORDS + STATEMENTS) for q in QUESTIONS])
    return pairs, scores


def test_bfloat16_inference_stays_within_tolerance_of_float32() -> None:
    full_pairs, full_scores = _outputs(bf16=False)
    half_pairs, half_scores = _outputs(bf16=True)
    assert np.abs(half_pairs - full_pairs).max() <= TOLERANCE
    assert np.abs(half_scores - full_scores).max() <= TOLERANCE
    # The decisions the write path reads off the pairs are the same.
    assert (half_pairs.argmax(axis=1) == full_pairs.argmax(axis=1)).all()


def test_the_switch_forces_either_precision_whatever_the_cpu(
        monkeypatch: pytest.MonkeyPatch) -> None:
    shipped = shared_relation_model()
    monkeypatch.setenv(BF16_ENV, "0")
    assert not bf16_pays_off()
    assert not RelationModel(shipped.model, shipped.tokenizer).bf16
    monkeypatch.setenv(BF16_ENV, "1")
    assert bf16_pays_off()
    assert RelationModel(shipped.model, shipped.tokenizer).bf16


def test_bfloat16_weights_give_the_products_autocast_gives_and_leave_the_model_alone() -> None:
    # The bfloat16 path multiplies with weights cast once at load instead of on every
    # call; the numbers must be autocast's own, and the float32 model others read (the
    # float32 wrapper above, training) must keep its weights.
    import torch

    from stateledger.models.pair_encoder import tokenize_pairs

    shipped = shared_relation_model()
    fast = RelationModel(shipped.model, shipped.tokenizer, bf16=True)
    firsts = [r for r in RECORDS for _ in STATEMENTS]
    seconds = [s for _ in RECORDS for s in STATEMENTS]
    ids, types, mask = tokenize_pairs(shipped.tokenizer, firsts, seconds)
    with torch.inference_mode(), torch.autocast("cpu", torch.bfloat16):
        logits, _ = shipped.model(ids, types, mask)
        expected = torch.softmax(logits.float(), dim=-1).numpy()
    assert np.array_equal(fast.pair_relations(firsts, seconds), expected)
    assert all(p.dtype == torch.float32 for p in shipped.model.parameters())
