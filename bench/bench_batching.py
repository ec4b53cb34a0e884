"""Continuous batching in the core (attn_core/pretrained/batching.py): K learners writing N
tokens each, one after another (as the server's queue does today) against decoded together
(one pass per step for all of them), one BLAS thread, in this process.

Printed per K: the time for everyone to finish both ways, one step's time alone and with K
together, and how fast each learner's tokens arrive together against writing alone.

Run: `OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/bench_batching.py` (`--k 1 4 10`,
`--tokens 20`, `--runs 3`: the best of the runs is printed, with the spread).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the server runs it (serve.py)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from attn_core.pretrained import load_smollm  # noqa: E402
from attn_core.pretrained.batching import Batch  # noqa: E402
from bench.bench_load import WORDS  # noqa: E402


def prompts(k: int) -> list[str]:
    """k prompts of 6 to 15 words, different lengths."""
    return [" ".join(WORDS[(3 * i + j) % len(WORDS)] for j in range(6 + i % 10)) for i in range(k)]


def alone(model, texts: list[str], n: int) -> tuple[float, float]:
    """(seconds for all, one after another; seconds per token of one generation)."""
    t0 = time.perf_counter()
    for text in texts:
        model.generate(text, n)
    total = time.perf_counter() - t0
    return total, total / (len(texts) * n)


def together(model, texts: list[str], n: int) -> tuple[float, float]:
    """(seconds for all, decoded together; seconds per batched step)."""
    batch = Batch(model)
    t0 = time.perf_counter()
    for i, text in enumerate(texts):
        batch.join(i, text, n)
    t1 = time.perf_counter()
    steps = 0
    while batch.step():
        steps += 1
    total = time.perf_counter() - t0
    return total, (total - (t1 - t0)) / max(steps, 1)


def main(ks: list[int], n: int, runs: int) -> None:
    model = load_smollm()
    model.generate("warm up", 2)
    threads = os.environ["OPENBLAS_NUM_THREADS"]
    print(f"{n} tokens each, BLAS threads: {threads}, best of {runs}")
    for k in ks:
        texts = prompts(k)
        a = sorted(alone(model, texts, n) for _ in range(runs))
        b = sorted(together(model, texts, n) for _ in range(runs))
        spread = f"(runs {a[0][0]:.2f}-{a[-1][0]:.2f} s and {b[0][0]:.2f}-{b[-1][0]:.2f} s)"
        print(
            f"K={k:<3d} all done: one after another {a[0][0]:6.2f} s, together {b[0][0]:6.2f} s "
            f"{spread}; a token alone {1000 * a[0][1]:5.1f} ms, a step of {k} together "
            f"{1000 * b[0][1]:5.1f} ms: each learner's tokens arrive at "
            f"{a[0][1] / b[0][1]:.2f} x the speed of writing alone"
        )


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--k", type=int, nargs="*", default=[1, 4, 10])
    ap.add_argument("--tokens", type=int, default=20)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    main(a.k, a.tokens, a.runs)
