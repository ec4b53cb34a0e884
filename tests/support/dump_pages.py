"""Dump every number every page shows, for a fixed set of sentences and settings.

Made for the layout redesign (issue "The house"): run it before moving code and after;
the two dumps must be byte-identical. It drives each page through AppTest (the entry
point, as a browser does), opens every lazy table, walks the overview's "Matrix" choice,
and writes, per page and setting, every table, every figure's numbers (each heatmap's
matrix in page order, whichever renderer draws it; other charts' traces) and every code
block.

Numbers are written to 8 significant digits, far finer than any page prints (2 to 4
decimals), so that a reordering of a floating-point sum (a last-bit change) cannot show,
while any change a learner could see does.

    .venv/bin/python tests/support/dump_pages.py --out /tmp/before.txt
    .venv/bin/python tests/support/dump_pages.py --out /tmp/after.txt
    cmp /tmp/before.txt /tmp/after.txt
"""

from __future__ import annotations

import argparse
import base64
import json
import sys
from pathlib import Path

import numpy as np
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]

PAGES = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "pages").glob("*.py"))

# Query strings a teacher's link could carry; together they reach every control.
SETTINGS = (
    {},
    {"sentence": "the cat saw the cat", "n_heads": "4", "mask": "causal", "d_k": "8"},
    {
        "sentence": "Bill is going to the theatre to watch a new movie",
        "weights": "pretrained",
        "layer": "2",
        "head": "5",
    },
    {"columns": "True", "mask": "padding", "n_pad": "2", "weights": "similarity"},
    {"mask": "window", "window": "2", "temperature": "0.5", "d_model": "16", "seed": "7"},
)


def fmt(x) -> str:
    if isinstance(x, float | np.floating):
        return format(float(x), ".8g")
    return str(x)


def row_text(values) -> str:
    return " ".join(fmt(v) for v in values)


def matrix_lines(m) -> list[str]:
    m = np.asarray(m)
    if m.ndim < 2:
        return [row_text(m.ravel().tolist())]
    return [row_text(r) for r in m.reshape(m.shape[0], -1).tolist()]


def decode_plotly(v):
    """A Plotly data array: a list, or a typed array {"dtype", "bdata", "shape"?}."""
    if isinstance(v, dict) and "bdata" in v:
        a = np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"])
        if "shape" in v:
            a = a.reshape([int(n) for n in str(v["shape"]).split(",")])
        return a
    return v


def numeric(v) -> np.ndarray | None:
    v = decode_plotly(v)
    try:
        a = np.asarray(v, dtype=float)
    except (TypeError, ValueError):
        return None
    return a if a.size else None


def heatmap_lines(z: np.ndarray) -> list[str]:
    """One matrix, whichever renderer draws it (a Plotly trace or a canvas figure)."""
    out = [f"heatmap {' × '.join(str(n) for n in z.shape)}"]
    return out + ["  " + line for line in matrix_lines(z)]


def plotly_lines(spec: str) -> list[str]:
    """A Plotly figure's numbers: each heatmap's matrix, each other trace's x, y, values."""
    out: list[str] = []
    for trace in json.loads(spec).get("data", []):
        kind = trace.get("type", "scatter")
        if kind == "heatmap":
            z = numeric(trace.get("z"))
            # a Plotly heatmap was sent NaN for a masked cell: that cell holds -inf
            out += heatmap_lines(np.where(np.isnan(z), -np.inf, z)) if z is not None else []
            continue
        out.append(f"{kind} {trace.get('name', '')}")
        for axis in ("x", "y", "z", "values"):
            a = numeric(trace.get(axis)) if axis in trace else None
            if a is not None:
                out.append(f"  {axis}: " + row_text(a.ravel().tolist()))
    return out


def canvas_lines(payload: str) -> list[str]:
    """The canvas component's figures (attn_ui/figures/canvas_grid.py): float64 matrices,
    base64, and charts' series."""
    out: list[str] = []
    for sec in json.loads(payload).get("sections", []):
        for item in sec.get("items", []):
            if "z" in item:
                raw = base64.b64decode(item["z"])
                out += heatmap_lines(np.frombuffer(raw, dtype="<f8").reshape(item["shape"]))
            elif "chart" in item:  # attn_ui/figures/chart.py; null: a masked value
                out.append(f"{item['chart']} {item['title']}")
                for s in item["series"]:
                    v = [float("-inf") if x is None else x for x in s["values"]]
                    out.append(f"  {s['name']}: " + row_text(v))
    return out


def frame_lines(df) -> list[str]:
    out = [" | ".join(str(c) for c in df.columns)]
    for label, row in zip(df.index, df.itertuples(index=False), strict=True):
        out.append(f"{label}: " + row_text(row))
    return out


def open_tables(at: AppTest) -> None:
    closed = [e for e in at.expander if e.proto.id.endswith("_numbers") and not e.dataframe]
    for exp in closed:
        at.session_state[exp.proto.id.split("-", 2)[2]] = True  # id: "$$ID-<hash>-<key>"
    if closed:
        run(at)


def run(at: AppTest) -> None:
    at.run()
    if at.exception:
        raise RuntimeError([e.value for e in at.exception])


def elements(at: AppTest) -> list[str]:
    """Every number-bearing element of the page, in page order."""
    out: list[str] = []
    for node in _walk(at._tree):
        kind = node.type
        if kind in ("dataframe", "table"):
            out.append(f"{kind}")
            out += ["  " + line for line in frame_lines(node.value)]
        elif kind == "plotly_chart":
            out += plotly_lines(node.proto.spec)
        elif kind == "bidi_component" and node.proto.component_name.endswith("canvas_grid"):
            out += canvas_lines(node.proto.json)
        elif kind == "code":
            out.append("code")
            out += ["  " + line for line in node.value.splitlines()]
        elif kind == "metric":
            out.append(f"metric {node.label}: {node.value}")
        elif kind in ("error", "warning"):
            out.append(f"{kind}: {node.value}")
    return out


def _walk(node):
    children = getattr(node, "children", None)
    if children is None:
        yield node
        return
    for key in sorted(children):
        yield from _walk(children[key])


def dump_page(page: str, settings: dict) -> list[str]:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update(settings)
    at.switch_page(page)
    run(at)
    open_tables(at)
    out = elements(at)
    for exp in at.expander:  # the overview's one box of tables: every matrix in turn
        if exp.proto.id.endswith("_numbers") and exp.selectbox:
            box = exp.selectbox[0]
            for name in box.options[1:]:
                box.select(name)
                run(at)
                out.append(f"choice {name}")
                out += [f"  {line}" for line in frame_lines(exp.dataframe[0].value)]
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--pages", nargs="*", help="only these page files")
    args = ap.parse_args(argv)
    lines: list[str] = []
    for page in args.pages or PAGES:
        for settings in SETTINGS:
            lines.append(f"=== {page} {json.dumps(settings, sort_keys=True)}")
            lines += dump_page(page, settings)
            print(page, settings, file=sys.stderr, flush=True)
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines)} lines -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
