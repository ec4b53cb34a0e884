"""What the grouped menu costs the server when a learner moves a slider (issue 23).

The menu is drawn by `attn_ui.frame.navigation` on every full rerun of a page: a sidebar
control (the temperature on Softmax, a full rerun, not a fragment's). This moves that
slider N times through AppTest, which runs the real page in-process, with the menu and
with `navigation` replaced by a no-op, interleaved (menu, none, menu, none, ...) so that a
busy machine slows both alike, and prints the medians and their difference.

    .venv/bin/python bench/bench_menu.py            # Softmax, 40 moves each
    .venv/bin/python bench/bench_menu.py --page pages/04_Scaling.py --n 60
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

from attn_ui import frame  # noqa: E402

SLIDER = "lesson_w_temperature"


def page(path: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.switch_page(path)
    at.run()
    assert not at.exception, at.exception
    return at


def move(at: AppTest, i: int) -> float:
    """One slider move (a new temperature each time): the server time of the rerun."""
    at.slider(key=SLIDER).set_value(round(0.5 + (i % 20) / 10, 1))
    t0 = time.perf_counter()
    at.run()
    took = time.perf_counter() - t0
    assert not at.exception, at.exception
    return took


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--page", default="pages/05_Softmax.py")
    args.add_argument("--n", type=int, default=40)
    a = args.parse_args()

    real = frame.navigation
    inside: list[float] = []  # the time spent in navigation() itself, in the script

    def timed(*args, **kwargs) -> None:
        t0 = time.perf_counter()
        real(*args, **kwargs)
        inside.append(time.perf_counter() - t0)

    with_menu, without = page(a.page), page(a.page)
    times = {"with the menu": [], "without it": []}
    for i in range(a.n):
        frame.navigation = timed
        times["with the menu"].append(move(with_menu, i))
        frame.navigation = lambda *_, **__: None
        times["without it"].append(move(without, i))
    frame.navigation = real

    print(f"{a.page}: a sidebar slider moved {a.n} times each, interleaved (server time)")
    for name, xs in times.items():
        ms = sorted(x * 1000 for x in xs)
        p90 = ms[int(0.9 * len(ms))]
        print(f"  {name:<14} median {statistics.median(ms):6.1f} ms   p90 {p90:6.1f} ms")
    m = {k: statistics.median(v) * 1000 for k, v in times.items()}
    print(
        f"  the menu: {m['with the menu'] - m['without it']:+.1f} ms a rerun, "
        f"{m['with the menu'] / m['without it']:.2f} x the page without it; "
        f"navigation() itself {statistics.median(inside) * 1000:.1f} ms (median); the rest "
        "of the difference is outside the script (AppTest's own handling of the elements)"
    )


if __name__ == "__main__":
    main()
