"""Our NumPy attention against PyTorch on the CPU, single-threaded, float32.

    .venv-ref/bin/python bench/bench_core.py            # every size
    .venv-ref/bin/python bench/bench_core.py --quick    # fewer repeats

attention: one head, q, k, v each (T, d_model), so d_k = d_v = d_model, no mask.
  torch fused   F.scaled_dot_product_attention (output only, may use a fused kernel)
  torch steps   the same unfused steps we keep: q k^T, * scale, softmax, @ v
multi-head: x (T, d_model), 8 heads, w_q, w_k, w_v, w_o (d_model, d_model), no bias.
  torch module  nn.MultiheadAttention(bias=False, batch_first=True), need_weights=True,
                average_attn_weights=False: it returns every head's weights, as our trace does
  torch fast    the same module with need_weights=False: output only, its attention
                goes through F.scaled_dot_product_attention (fused, no weights kept)
  torch steps   the same unfused steps by hand: projections, batched heads, concat, w_o

Each figure is the median over repeated samples of the time per call, in microseconds of
CPU time of the calling thread (time.thread_time): both libraries run single-threaded in
this thread, and time spent waiting for other processes on a busy machine does not count.
ratio = ours / torch: below 1 means we are faster.
"""

from __future__ import annotations

import os

# One thread for NumPy's BLAS: the variables must be set before NumPy is imported.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import platform  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import attn_core  # noqa: E402

CLOCK = time.thread_time  # this thread's CPU time: other load on the machine is not counted
SIZES_T = (16, 64, 256, 1024)
SIZES_D = (64, 384)
N_HEADS = 8


def blas_threads() -> str:
    """Check, with threadpoolctl when it is installed, that every BLAS/OpenMP pool has 1 thread."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return "threadpoolctl not installed; relying on the environment variables"
    pools = [f"{p['internal_api']}={p['num_threads']}" for p in threadpool_info()]
    return "threadpoolctl sees " + ", ".join(pools)


def medians_us(fns, budget: float) -> list[float]:
    """Median CPU time per call of each function, in microseconds.

    The functions are timed in turns (ours, torch, ...) within every round, so a
    burst of load from elsewhere on the machine hits all of them alike. Each sample
    repeats the call long enough (about 2 ms) for the timer to be accurate.
    """
    inner, round_time = [], 0.0
    for fn in fns:
        fn()  # warm up: allocations, torch's dispatch caches
        start = CLOCK()
        fn()
        once = max(CLOCK() - start, 1e-7)
        inner.append(max(1, int(2e-3 / once)))
        round_time += max(once, 2e-3)
    samples = [[] for _ in fns]
    for _ in range(int(min(max(budget * len(fns) / round_time, 7), 101))):
        for fn, n, out in zip(fns, inner, samples, strict=True):
            start = CLOCK()
            for _ in range(n):
                fn()
            out.append((CLOCK() - start) / n)
    return [statistics.median(s) * 1e6 for s in samples]


def torch_steps(q, k, v, scale):
    scores = q @ k.T
    scaled = scores * scale
    weights = torch.softmax(scaled, dim=-1)
    return weights @ v


def bench_attention(t, d, budget, rng):
    q, k, v = (rng.standard_normal((t, d), dtype=np.float32) for _ in range(3))
    tq, tk, tv = (torch.from_numpy(a) for a in (q, k, v))
    scale = 1.0 / np.sqrt(d)
    ours = attn_core.attention(q, k, v)
    assert ours.output.dtype == np.float32 and ours.weights.dtype == np.float32
    fused = F.scaled_dot_product_attention(tq[None], tk[None], tv[None])[0]
    steps = torch_steps(tq, tk, tv, scale)
    np.testing.assert_allclose(ours.output, fused.numpy(), rtol=1e-3, atol=1e-4)
    np.testing.assert_allclose(ours.output, steps.numpy(), rtol=1e-3, atol=1e-4)
    return medians_us(
        [
            lambda: attn_core.attention(q, k, v),
            lambda: F.scaled_dot_product_attention(tq[None], tk[None], tv[None]),
            lambda: torch_steps(tq, tk, tv, scale),
        ],
        budget,
    )


def torch_mha_steps(x, w_q, w_k, w_v, w_o, n_heads):
    t, d = x.shape
    q = (x @ w_q).view(t, n_heads, d // n_heads).transpose(0, 1)  # (h, T, d_k)
    k = (x @ w_k).view(t, n_heads, d // n_heads).transpose(0, 1)
    v = (x @ w_v).view(t, n_heads, d // n_heads).transpose(0, 1)
    scores = q @ k.transpose(1, 2)  # (h, T, T)
    weights = torch.softmax(scores * (d // n_heads) ** -0.5, dim=-1)
    concat = (weights @ v).transpose(0, 1).reshape(t, d)  # (h, T, d_v) -> (T, h*d_v)
    return concat @ w_o


def bench_mha(t, d, budget, rng):
    x = rng.standard_normal((t, d), dtype=np.float32)
    mha = torch.nn.MultiheadAttention(d, N_HEADS, bias=False, batch_first=True).eval()
    w_in = mha.in_proj_weight.detach().numpy()  # torch computes x @ W^T: transpose to x @ W
    w_q, w_k, w_v = (np.ascontiguousarray(w.T) for w in np.split(w_in, 3))
    w_o = np.ascontiguousarray(mha.out_proj.weight.detach().numpy().T)
    tx = torch.from_numpy(x)[None]
    tw = [torch.from_numpy(a) for a in (w_q, w_k, w_v, w_o)]

    def module(need_weights):
        return mha(tx, tx, tx, need_weights=need_weights, average_attn_weights=False)

    ours = attn_core.multi_head_attention(x, w_q, w_k, w_v, w_o, N_HEADS)
    assert ours.output.dtype == np.float32
    out, weights = module(True)
    np.testing.assert_allclose(ours.output, out[0].numpy(), rtol=1e-3, atol=1e-4)
    np.testing.assert_allclose(ours.weights, weights[0].numpy(), rtol=1e-3, atol=1e-5)
    steps = torch_mha_steps(tx[0], *tw, N_HEADS)
    np.testing.assert_allclose(ours.output, steps.numpy(), rtol=1e-3, atol=1e-4)
    return medians_us(
        [
            lambda: attn_core.multi_head_attention(x, w_q, w_k, w_v, w_o, N_HEADS),
            lambda: module(True),
            lambda: module(False),
            lambda: torch_mha_steps(tx[0], *tw, N_HEADS),
        ],
        budget,
    )


def row(cells, widths):
    return "  ".join(str(c).rjust(w) for c, w in zip(cells, widths, strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a shorter time budget per figure")
    budget = 0.15 if parser.parse_args().quick else 0.6  # seconds per figure, roughly
    torch.set_num_threads(1)
    torch.set_grad_enabled(False)
    rng = np.random.default_rng(0)
    print(
        f"numpy {np.__version__}, torch {torch.__version__}, {platform.processor() or 'cpu'}, "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at start"
    )
    print(
        f"threads: torch {torch.get_num_threads()}; numpy via OMP/OPENBLAS/MKL_NUM_THREADS=1; "
        f"{blas_threads()}"
    )
    print("float32, median CPU time per call in microseconds; ratio = ours / torch\n")

    print("attention(q, k, v), one head, q/k/v (T, d_model), no mask")
    widths = (5, 7, 10, 11, 6, 11, 6)
    print(row(("T", "d_model", "ours", "torch fused", "ratio", "torch steps", "ratio"), widths))
    for d in SIZES_D:
        for t in SIZES_T:
            ours, fused, steps = bench_attention(t, d, budget, rng)
            cells = (
                t,
                d,
                f"{ours:.1f}",
                f"{fused:.1f}",
                f"{ours / fused:.2f}",
                f"{steps:.1f}",
                f"{ours / steps:.2f}",
            )
            print(row(cells, widths), flush=True)

    print(f"\nmulti_head_attention(x, ...), {N_HEADS} heads, x (T, d_model), no mask")
    widths = (5, 7, 10, 12, 6, 11, 6, 11, 6)
    head = (
        "T",
        "d_model",
        "ours",
        "torch module",
        "ratio",
        "torch fast",
        "ratio",
        "torch steps",
        "ratio",
    )
    print(row(head, widths))
    for d in SIZES_D:
        for t in SIZES_T:
            ours, mod, fast, steps = bench_mha(t, d, budget, rng)
            cells = (
                t,
                d,
                f"{ours:.1f}",
                f"{mod:.1f}",
                f"{ours / mod:.2f}",
                f"{fast:.1f}",
                f"{ours / fast:.2f}",
                f"{steps:.1f}",
                f"{ours / steps:.2f}",
            )
            print(row(cells, widths), flush=True)


if __name__ == "__main__":
    main()
