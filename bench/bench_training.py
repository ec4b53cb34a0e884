"""Training time of train_head per task, and the backward pass against the forward, one thread.

    .venv/bin/python bench/bench_training.py

CPU time of this thread (time.thread_time), medians; NumPy's BLAS held to one thread.
"""

from __future__ import annotations

import os

# One thread for NumPy's BLAS: the variables must be set before NumPy is imported.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import attn_core  # noqa: E402


def cpu(fn, repeats: int) -> float:
    """Median CPU seconds of this thread per call."""
    times = []
    for _ in range(repeats):
        start = time.thread_time()
        fn()
        times.append(time.thread_time() - start)
    return statistics.median(times)


def main() -> None:
    print("train_head, default settings (200 steps, batch 32 x 8 tokens), median of 3:")
    for task in attn_core.training.TASKS:
        s = cpu(lambda task=task: attn_core.train_head(task, seed=0), 3)
        run = attn_core.train_head(task, seed=0)
        print(f"  {task:15s} {s:6.2f} s CPU   weight on the right key: {run.evaluate(123):.3f}")
    print("\nself_attention forward vs attention_backward, float64, d_model = d_k = d_v:")
    print(f"  {'T':>5} {'d':>4} {'forward ms':>11} {'backward ms':>12} {'ratio':>6}")
    for t, d in ((16, 32), (64, 64), (256, 64), (1024, 64)):
        rng = np.random.default_rng(0)
        x, d_z = rng.normal(size=(t, d)), rng.normal(size=(t, d))
        w = [rng.normal(size=(d, d)) / np.sqrt(d) for _ in range(3)]
        trace = attn_core.self_attention(x, *w)
        repeats = 200 if t <= 64 else 20
        fwd = cpu(lambda x=x, w=w: attn_core.self_attention(x, *w), repeats)
        bwd = cpu(lambda trace=trace, d_z=d_z: attn_core.attention_backward(trace, d_z), repeats)
        print(f"  {t:5d} {d:4d} {fwd * 1e3:11.3f} {bwd * 1e3:12.3f} {bwd / fwd:6.2f}")


if __name__ == "__main__":
    main()
