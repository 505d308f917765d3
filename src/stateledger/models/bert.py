"""A compact BERT encoder forward for the bundled MiniLM weights (inference only).

Why not ``transformers``' ``BertModel``: for one short query its forward spends more time in
Python layers (output capture, mask builders, per-module hooks) than in arithmetic: one
query's forward took 9.5 ms there against 6.3 ms for this straight-line version over the
same weights (interleaved A/B, docs/BENCHMARKS.md), and single-query embedding is most of
a search's latency. The arithmetic is BERT's, op for op (query, key and
value projections fused into one matrix); tests check the vectors against the
sentence-transformers pipeline the model folder declares.

Reads ``config.json``, ``model.safetensors`` and ``tokenizer.json`` from the model folder and
refuses a configuration it does not implement rather than computing something else.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stateledger.errors import MissingDependencyError, ModelError


@dataclass(frozen=True)
class _Layer:
    qkv_w: Any
    qkv_b: Any
    out_w: Any
    out_b: Any
    ln1_w: Any
    ln1_b: Any
    ff_in_w: Any
    ff_in_b: Any
    ff_out_w: Any
    ff_out_b: Any
    ln2_w: Any
    ln2_b: Any


_SUPPORTED = {"model_type": "bert", "hidden_act": "gelu", "position_embedding_type": "absolute"}


class BertEncoder:
    """Token ids -> last hidden states, and the tokenizer that goes with them."""

    def __init__(self, path: Path, max_length: int) -> None:
        try:
            import torch
            from safetensors.torch import load_file
            from tokenizers import Tokenizer
        except ImportError as exc:  # pragma: no cover - core dependencies
            raise MissingDependencyError(
                f"the embedder needs torch, safetensors and tokenizers ({exc.name} is missing)"
            ) from exc
        config = json.loads((path / "config.json").read_text())
        for key, want in _SUPPORTED.items():
            if config.get(key, want) != want:
                raise ModelError(f"{path}: {key}={config.get(key)!r}, only {want!r} is supported")
        self._torch: Any = torch
        self.hidden = int(config["hidden_size"])
        self.heads = int(config["num_attention_heads"])
        self.eps = float(config["layer_norm_eps"])
        if max_length > int(config["max_position_embeddings"]):
            raise ModelError(f"max_length {max_length} exceeds the model's position embeddings")
        weights = load_file(str(path / "model.safetensors"))
        # Checkpoints differ in whether keys carry the "bert." prefix.
        w = {k.removeprefix("bert."): v for k, v in weights.items()}
        try:
            self._word = w["embeddings.word_embeddings.weight"]
            self._position = w["embeddings.position_embeddings.weight"]
            self._token_type = w["embeddings.token_type_embeddings.weight"][0]
            self._emb_ln = (w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
            self._layers = [
                self._layer(w, f"encoder.layer.{i}.")
                for i in range(int(config["num_hidden_layers"]))
            ]
        except KeyError as exc:
            raise ModelError(f"{path}: weight {exc.args[0]!r} not found") from exc
        tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
        tokenizer.enable_truncation(max_length=max_length)
        tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # to the longest in the batch
        self._tokenizer = tokenizer

    def _layer(self, w: dict[str, Any], p: str) -> _Layer:
        torch = self._torch
        attn = p + "attention.self."
        return _Layer(
            qkv_w=torch.cat([w[f"{attn}{n}.weight"] for n in ("query", "key", "value")]),
            qkv_b=torch.cat([w[f"{attn}{n}.bias"] for n in ("query", "key", "value")]),
            out_w=w[p + "attention.output.dense.weight"],
            out_b=w[p + "attention.output.dense.bias"],
            ln1_w=w[p + "attention.output.LayerNorm.weight"],
            ln1_b=w[p + "attention.output.LayerNorm.bias"],
            ff_in_w=w[p + "intermediate.dense.weight"],
            ff_in_b=w[p + "intermediate.dense.bias"],
            ff_out_w=w[p + "output.dense.weight"],
            ff_out_b=w[p + "output.dense.bias"],
            ln2_w=w[p + "output.LayerNorm.weight"],
            ln2_b=w[p + "output.LayerNorm.bias"],
        )

    def tokenize(self, texts: list[str]) -> tuple[Any, Any]:
        """(input ids, attention mask) as int64 tensors, padded to the longest text."""
        torch = self._torch
        encodings = self._tokenizer.encode_batch(texts)
        ids = torch.tensor([e.ids for e in encodings], dtype=torch.long)
        mask = torch.tensor([e.attention_mask for e in encodings], dtype=torch.long)
        return ids, mask

    def forward(self, ids: Any, mask: Any) -> Any:
        """Last hidden states, shape (batch, tokens, hidden). Call under inference_mode."""
        torch = self._torch
        f = torch.nn.functional
        batch, length = ids.shape
        d, heads = self.hidden, self.heads
        x = self._word[ids] + self._position[:length] + self._token_type
        x = f.layer_norm(x, (d,), *self._emb_ln, self.eps)
        # A single unpadded text needs no mask; padded rows get -inf-like additive bias.
        bias = None
        if not bool(mask.all()):
            bias = (1.0 - mask[:, None, None, :].to(x.dtype)) * torch.finfo(x.dtype).min
        for layer in self._layers:
            qkv = f.linear(x, layer.qkv_w, layer.qkv_b)
            q, k, v = qkv.view(batch, length, 3, heads, d // heads).permute(2, 0, 3, 1, 4)
            attn = f.scaled_dot_product_attention(q, k, v, attn_mask=bias)
            attn = attn.transpose(1, 2).reshape(batch, length, d)
            x = f.layer_norm(f.linear(attn, layer.out_w, layer.out_b) + x, (d,),
                             layer.ln1_w, layer.ln1_b, self.eps)
            h = f.gelu(f.linear(x, layer.ff_in_w, layer.ff_in_b))
            x = f.layer_norm(f.linear(h, layer.ff_out_w, layer.ff_out_b) + x, (d,),
                             layer.ln2_w, layer.ln2_b, self.eps)
        return x
