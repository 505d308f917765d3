"""Forwards on both cores (the side thread's, ``stateledger.threads``: halves of a batch,
a second intra-op thread, stances read ahead) from many caller threads at once, in a
subprocess so a crash is a test failure: every result must match the one computed with the
side thread off, and the process must exit cleanly."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

_SCRIPT = textwrap.dedent(
    """
    import os, random
    from concurrent.futures import ThreadPoolExecutor

    import numpy as np

    from stateledger.models.embedder import MiniLMEmbedder
    from stateledger.models.relation import shared_relation_model
    from stateledger.models.relevance import shared_relevance_model

    rng = random.Random(5)
    words = ("I moved to Leeds in March; my sister still works at the bakery; we switched "
             "the project from Django to FastAPI; Biscuit the cat turned nine; I am not sure "
             "about the new job yet; Sam says I live in Bristol now").replace(";", "").split()
    texts = [" ".join(rng.choices(words, k=rng.randint(3, 20))) for _ in range(300)]
    relation, reranker = shared_relation_model(), shared_relevance_model()
    embedder = MiniLMEmbedder(cache_size=0)
    # Each job's statement its own, and no other text: a stance read ahead is keyed by it.
    jobs = [(f"{text} today", rng.sample(texts, rng.randint(0, 6)),
             rng.sample(texts, rng.randint(1, 40)))
            for text in rng.sample(sorted(set(texts)), 16)]

    def run(job):
        text, records, batch = job
        relation.read_stances_beside([text])  # started beside the embedding, as in an add
        vectors = embedder.embed(batch)
        stance, relations = relation.judge(text, records)
        if os.environ["STATELEDGER_SIDE_THREAD"] == "0":  # nothing was read ahead
            stance = relation.stances([text])[0]
        return (stance, relations, reranker.relevance(text, batch),
                relation.stances(batch[:9]), vectors)

    os.environ["STATELEDGER_SIDE_THREAD"] = "0"
    alone = [run(job) for job in jobs]
    os.environ["STATELEDGER_SIDE_THREAD"] = "1"
    for _ in range(2):
        with ThreadPoolExecutor(4) as callers:
            together = list(callers.map(run, jobs))
        for want, got in zip(alone, together, strict=True):
            # The models' probabilities to the arithmetic of another thread count and batch
            # shape (bfloat16 where the CPU runs it: the same to the bit on the machines
            # measured, and a race would give garbage); the embeddings, whose forwards
            # split by batches, to float32's.
            for a, b, tol in zip(want, got, (0.02, 0.02, 0.02, 0.02, 1e-5), strict=True):
                assert a.shape == b.shape and np.allclose(a, b, atol=tol), abs(a - b).max()
    print("checked", 2 * len(jobs))
    """
)


def test_concurrent_split_forwards_match_and_do_not_crash() -> None:
    done = subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True,
                          timeout=600, env={**os.environ, "HF_HUB_OFFLINE": "1"})
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split()[-2:] == ["checked", "32"]
