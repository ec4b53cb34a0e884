"""all-MiniLM-L6-v2's stored files, read and arranged for ``attn_core.pretrained.minilm.MiniLM``.

The folder holds ``config.json`` (sizes), ``sentence_bert_config.json`` (the length limit),
``tokenizer.json`` and ``model.safetensors`` (PyTorch tensors, y = x W^T + b). Every weight is
turned into a read-only float32 array in the ``x @ W`` layout (d_in, d_out), and each layer's
query, key and value matrices are put side by side so one product gives all three.

``safetensors`` and ``tokenizers`` are imported by ``read_minilm`` only, when a model is
loaded: ``import attn_core`` needs NumPy alone.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np


@dataclass(frozen=True, eq=False)
class LayerWeights:
    """One encoder layer. ``w_qkv`` holds [w_q | w_k | w_v]; head h of each is its columns
    h*d_k:(h+1)*d_k. ``ln_1`` / ``ln_2`` are (gamma, beta) after attention / feed-forward."""

    w_qkv: np.ndarray  # (d_model, 3 d_model)
    b_qkv: np.ndarray  # (3 d_model,)
    w_o: np.ndarray  # (d_model, d_model)
    b_o: np.ndarray
    ln_1: tuple[np.ndarray, np.ndarray]
    w_1: np.ndarray  # (d_model, d_ff)
    b_1: np.ndarray
    w_2: np.ndarray  # (d_ff, d_model)
    b_2: np.ndarray
    ln_2: tuple[np.ndarray, np.ndarray]


def read_minilm(path: Path) -> dict[str, Any]:
    """Read the model folder `path` into the keyword arguments of ``MiniLM``.

    Returns
    -------
    dict
        ``word`` (vocab, d_model), ``position`` (512, d_model), ``token_type`` (2, d_model),
        ``ln_emb`` (gamma, beta), ``layers`` (n_layers ``LayerWeights``), ``n_heads``, ``eps``,
        ``tokenizer`` (padding and truncation off) and ``max_seq_length``.
    """
    from safetensors import safe_open  # the file libraries, only when a model is loaded
    from tokenizers import Tokenizer

    config = json.loads((path / "config.json").read_text())
    if (config["model_type"], config["hidden_act"]) != ("bert", "gelu"):
        raise ValueError(f"{path} is not a BERT model with GELU; this code runs only that.")
    tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
    tokenizer.no_padding()  # the file pads every sentence to 128 [PAD] tokens
    tokenizer.no_truncation()
    st_config = json.loads((path / "sentence_bert_config.json").read_text())
    with safe_open(str(path / "model.safetensors"), framework="np") as f:
        # tensor by tensor, so each stored copy is dropped once it is rearranged
        weights = _build(f.get_tensor, config)
    return {**weights, "tokenizer": tokenizer, "max_seq_length": st_config["max_seq_length"]}


def _build(tensor, config: dict) -> dict[str, Any]:
    """Arrange the stored tensors (PyTorch layout, y = x W^T + b) for y = x W + b."""

    def get(name: str, transpose: bool = False) -> np.ndarray:
        return _frozen(tensor(name).T if transpose else tensor(name))

    def norm(prefix: str) -> tuple[np.ndarray, np.ndarray]:
        return get(prefix + ".LayerNorm.weight"), get(prefix + ".LayerNorm.bias")

    def layer(pre: str) -> LayerWeights:
        qkv = [f"{pre}attention.self.{n}" for n in ("query", "key", "value")]
        return LayerWeights(
            _frozen(np.concatenate([tensor(n + ".weight").T for n in qkv], axis=1)),
            _frozen(np.concatenate([tensor(n + ".bias") for n in qkv])),
            get(f"{pre}attention.output.dense.weight", True),
            get(f"{pre}attention.output.dense.bias"),
            norm(pre + "attention.output"),
            get(pre + "intermediate.dense.weight", True),
            get(pre + "intermediate.dense.bias"),
            get(pre + "output.dense.weight", True),
            get(pre + "output.dense.bias"),
            norm(pre + "output"),
        )

    return dict(
        word=get("embeddings.word_embeddings.weight"),
        position=get("embeddings.position_embeddings.weight"),
        token_type=get("embeddings.token_type_embeddings.weight"),
        ln_emb=norm("embeddings"),
        layers=tuple(layer(f"encoder.layer.{i}.") for i in range(config["num_hidden_layers"])),
        n_heads=config["num_attention_heads"],
        eps=float(config["layer_norm_eps"]),
    )


def _frozen(a: np.ndarray) -> np.ndarray:
    """A C-contiguous float32 copy nobody can write to: the model is shared by every page."""
    a = np.ascontiguousarray(a, dtype=np.float32)
    a.flags.writeable = False
    return a
