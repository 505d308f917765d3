"""Measure a torch-free inference path for the bundled MiniLM: ONNX Runtime against the
shipped torch forward, same weights, same texts (the agent-stack issue, point 1).

    pip install onnx onnxruntime          # not project dependencies (yet)
    python docs/experiments/onnx_embedder.py export      # writes /tmp/minilm.onnx (uses torch)
    for m in torch onnx torch onnx; do
      STATELEDGER_THREADS=1 OMP_NUM_THREADS=1 python docs/experiments/onnx_embedder.py $m
    done
    python docs/experiments/onnx_embedder.py compare

Each measuring run is a fresh process: ``cold_start_s`` is import + load + the first query.
Results: docs/BENCHMARKS.md ("Torch-free embedding").
"""

import json
import statistics
import sys
import time

ONNX = "/tmp/minilm.onnx"


def export() -> None:
    import torch

    from stateledger.models.embedder import MiniLMEmbedder

    enc = MiniLMEmbedder()._encoder

    class Wrapped(torch.nn.Module):
        """stateledger's own BertEncoder forward + mean pooling + L2. The example input
        below is padded, so the trace keeps the forward's masked branch (it also serves
        unpadded input: the bias is then all zeros)."""

        def forward(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
            x = enc.forward(ids, mask)
            m = mask.unsqueeze(-1).to(x.dtype)
            pooled = (x * m).sum(1) / m.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(pooled, p=2, dim=1)

    ids, mask = enc.tokenize(["hello world, this is a test", "short"])
    torch.onnx.export(Wrapped(), (ids, mask), ONNX, input_names=["ids", "mask"],
                      output_names=["vec"], opset_version=17, dynamo=False,
                      dynamic_axes={"ids": {0: "b", 1: "t"}, "mask": {0: "b", 1: "t"}})
    print(f"wrote {ONNX}")


def measure(mode: str) -> None:
    t_start = time.perf_counter()
    texts = [f"I moved to city number {i} last week and I love the coffee there"
             for i in range(200)]
    batch = [f"My colleague {i} works in building {i % 17} on the {i % 9}th floor."
             for i in range(256)]
    import numpy as np

    if mode == "torch":
        from stateledger.models.embedder import MiniLMEmbedder

        emb = MiniLMEmbedder(cache_size=0)

        def many(ts: list[str]) -> np.ndarray:
            return emb.embed(ts)
    else:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        from stateledger.models.embedder import model_dir

        opts = ort.SessionOptions()
        opts.intra_op_num_threads = opts.inter_op_num_threads = 1
        sess = ort.InferenceSession(ONNX, opts, providers=["CPUExecutionProvider"])
        tok = Tokenizer.from_file(str(model_dir() / "tokenizer.json"))
        tok.enable_truncation(256)
        tok.enable_padding()

        def many(ts: list[str]) -> np.ndarray:
            order = sorted(range(len(ts)), key=lambda i: len(ts[i]))
            out = np.empty((len(ts), 384), dtype=np.float32)
            for s in range(0, len(order), 64):
                idx = order[s:s + 64]
                enc = tok.encode_batch([ts[i] for i in idx])
                ids = np.array([e.ids for e in enc], dtype=np.int64)
                mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
                out[idx] = sess.run(["vec"], {"ids": ids, "mask": mask})[0]
            return out

    many(["warm up: the very first query"])
    cold = time.perf_counter() - t_start
    lat = []
    for t in texts:
        t0 = time.perf_counter()
        many([t])
        lat.append(time.perf_counter() - t0)
    t0 = time.perf_counter()
    vecs = many(batch)
    took = time.perf_counter() - t0
    np.save(f"/tmp/minilm_vecs_{mode}.npy", vecs)
    print(json.dumps({"mode": mode, "cold_start_s": round(cold, 2),
                      "single_ms_p50": round(statistics.median(lat) * 1000, 2),
                      "batch_per_s": round(len(batch) / took, 1)}))


def compare() -> None:
    import numpy as np

    a, b = np.load("/tmp/minilm_vecs_torch.npy"), np.load("/tmp/minilm_vecs_onnx.npy")
    print(json.dumps({"min_cosine_torch_vs_onnx": float((a * b).sum(1).min())}))


if __name__ == "__main__":
    {"export": export, "compare": compare}.get(sys.argv[1], lambda: measure(sys.argv[1]))()
