"""Tiled attention (the online softmax) against plain attention: time and peak memory against T.

    .venv/bin/python bench/bench_tiled.py            # T = 256 .. 4096
    .venv/bin/python bench/bench_tiled.py --quick    # fewer repeats, T up to 2048

One head, q, k, v each (T, d) float64 with d = 64, no mask, one BLAS thread.
  plain          attn_core.attention: keeps scores, scaled, weights, each T x T
  tiled, trace   attn_core.tiled_attention: keeps every step for the page (all tiles
                 together are T x T again, plus a (T, d_v) output per block)
  tiled, lean    attn_core.tiled.tiled_output: only the running m, l, u and one tile
Time: the median of repeated calls, CPU time of this thread (time.thread_time), in ms.
Peak: the largest memory traced by tracemalloc during one call, inputs excluded, in MiB
(NumPy reports its array buffers to tracemalloc). The last column is the difference
between plain and lean outputs.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"  # before NumPy is imported

import argparse  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import tracemalloc  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import attn_core  # noqa: E402
from attn_core.tiled import tiled_output  # noqa: E402

D = 64
BLOCK = 128
MIB = 2**20


def runs(q, k, v) -> dict:
    return {
        "plain": lambda: attn_core.attention(q, k, v).output,
        "tiled, trace": lambda: attn_core.tiled_attention(q, k, v, block=BLOCK).output,
        "tiled, lean": lambda: tiled_output(q, k, v, block=BLOCK),
    }


def median_ms(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.thread_time()
        fn()
        times.append(time.thread_time() - start)
    return 1000 * statistics.median(times)


def peak_mib(fn) -> float:
    tracemalloc.start()
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    result = fn()
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    del result
    return peak / MIB


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    sizes = (256, 512, 1024, 2048) if args.quick else (256, 512, 1024, 2048, 4096)
    rng = np.random.default_rng(0)
    print(f"one head, d = {D}, float64, block = {BLOCK} keys, NumPy {np.__version__}, 1 thread")
    head = f"{'T':>5} | {'time ms: plain':>14} {'trace':>8} {'lean':>8} | "
    head += f"{'peak MiB: plain':>15} {'trace':>8} {'lean':>8} | {'T x T MiB':>9} | max |diff|"
    print(head)
    print("-" * len(head))
    for t in sizes:
        q, k, v = (rng.normal(size=(t, D)) for _ in range(3))
        fns = runs(q, k, v)
        repeats = 3 if args.quick or t >= 2048 else 7
        times = [median_ms(fn, repeats) for fn in fns.values()]
        peaks = [peak_mib(fn) for fn in fns.values()]
        diff = np.abs(fns["plain"]() - fns["tiled, lean"]()).max()
        print(
            f"{t:>5} | {times[0]:>14.1f} {times[1]:>8.1f} {times[2]:>8.1f} | "
            f"{peaks[0]:>15.1f} {peaks[1]:>8.1f} {peaks[2]:>8.1f} | "
            f"{t * t * 8 / MIB:>9.1f} | {diff:.1e}"
        )


if __name__ == "__main__":
    main()
