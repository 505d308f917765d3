"""The offline MiniLM embedder: the model folder's pipeline, run directly."""

from __future__ import annotations

import numpy as np

from stateledger.models.embedder import DIM, MiniLMEmbedder, default_embedder, model_dir

TEXTS = [
    "I moved to Berlin last spring.",
    "what did I cook yesterday",
    "My sister Anna started a new job at the hospital, and she says the night shifts are hard.",
    "ok",
    "Ünïcödé and emoji 🙂 still embed",
    "word " * 400,  # longer than the model's 256-token window: truncated, not an error
]


def test_vectors_match_the_sentence_transformers_pipeline() -> None:
    """The direct path must give the vectors sentence-transformers gives for the same folder,
    or stored embeddings and shipped model heads would silently drift."""
    from sentence_transformers import SentenceTransformer  # the reference (dev extra)

    reference = SentenceTransformer(str(model_dir()), device="cpu").encode(
        TEXTS, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
    )
    ours = MiniLMEmbedder(batch_size=4, cache_size=0).embed(TEXTS)
    assert ours.shape == (len(TEXTS), DIM) and ours.dtype == np.float32
    assert np.abs(ours - reference).max() < 1e-5


def test_vectors_are_unit_length_and_independent_of_batching() -> None:
    emb = default_embedder()
    together = emb.embed(TEXTS)
    fresh = MiniLMEmbedder(cache_size=0)  # nothing cached: each text embedded on its own
    one_by_one = np.vstack([fresh.embed([t]) for t in TEXTS[:3]])
    assert np.allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)
    assert np.abs(together[:3] - one_by_one).max() < 1e-5
    assert emb.embed([]).shape == (0, DIM)


def test_similar_sentences_are_closer_than_unrelated_ones() -> None:
    a, b, c = default_embedder().embed(
        ["I live in Paris now.", "These days my home is in Paris.", "The soup needs more salt."]
    )
    assert float(a @ b) > float(a @ c) + 0.2
