"""Why a decoding step for ten learners costs about three steps for one: the decoder's matrix
products for M rows at once, with SmolLM2's own weights, on one BLAS thread.

A step multiplies M rows (one per learner) by every weight matrix of the model once: the 30
blocks' seven products (q, k, v, o, gate, up, down) and the output layer (49,152 x 576). With
one row, NumPy's OpenBLAS runs a matrix-vector product that streams the 538 MB of weights; with
more rows it runs a matrix product, which first copies (packs) each weight matrix, so for a few
rows the copy, not the arithmetic, sets the time. Printed per M: the blocks' products, the
output layer, both against M = 1, and the same products written two other ways that were tried
(the weights as the first operand, and the rows padded to 16, a multiple of the kernel's width).

Run: `OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/bench_products.py` (`--rows 1 10`,
`--runs 5`). Each figure is the best of the runs.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from attn_core.pretrained import load_smollm  # noqa: E402

BLOCK = ("w_q", "w_k", "w_v", "w_o", "w_gate", "w_up", "w_down")


def blocks(weights, n_layers: int, m: int, way: str) -> float:
    """Seconds for every block's seven products of m rows, written `way`."""
    rng = np.random.default_rng(m)
    rows = {d: rng.standard_normal((m, d), dtype=np.float32) for d in (576, 1536)}
    if way == "padded to 16" and m % 16:
        rows = {d: np.vstack([r, np.zeros((16 - m % 16, d), np.float32)]) for d, r in rows.items()}
    t0 = time.perf_counter()
    for layer in range(n_layers):
        for name in BLOCK:
            w = weights[f"{layer}.{name}"]
            x = rows[w.shape[0]]
            _ = (w.T @ x.T).T if way == "weights first" else x @ w
    return time.perf_counter() - t0


def output_layer(weights, m: int, way: str) -> float:
    """Seconds for the output layer's product of m rows, written `way`."""
    x = np.random.default_rng(m).standard_normal((m, 576), dtype=np.float32)
    embed = weights["embed"]  # (vocab, d_model): the logits are x embed^T
    t0 = time.perf_counter()
    _ = (embed @ x.T).T if way == "weights first" else x @ embed.T
    return time.perf_counter() - t0


def main(ms: list[int], runs: int) -> None:
    model = load_smollm()
    w = model.weights
    print(f"BLAS threads: {os.environ.get('OPENBLAS_NUM_THREADS', 'unset')}, best of {runs}")
    base = None
    for m in ms:
        for way in ("as the model writes it", "weights first", "padded to 16"):
            if way == "padded to 16" and m % 16 == 0:
                continue
            b = min(blocks(w, model.n_layers, m, way) for _ in range(runs))
            o = min(output_layer(w, m, way) for _ in range(runs)) if way != "padded to 16" else 0
            if base is None:
                base = (b, o)
            note = f"output layer {1000 * o:6.1f} ms ({o / base[1]:4.1f} x)" if o else ""
            print(
                f"M={m:<3d} {way:<24s} blocks {1000 * b:6.1f} ms ({b / base[0]:4.1f} x M=1)  {note}"
            )


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, nargs="*", default=[1, 2, 4, 10, 16, 32])
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    main(a.rows, a.runs)
