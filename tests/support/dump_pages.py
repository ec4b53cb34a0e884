"""Dump every number every page shows, for a fixed set of sentences and settings.

Made for the layout redesign (issue "The house"): run it before moving code and after;
the two dumps must be byte-identical. It drives each page through AppTest (the entry
point, as a browser does), opens every lazy table, walks the overview's "Matrix" choice,
and writes, per page and setting, every table, every figure's numbers (each heatmap's
matrix and each chart's x, values and error bars, in page order) and every code block.

Numbers are written to 8 significant digits, far finer than any page prints (2 to 4
decimals), so that a reordering of a floating-point sum (a last-bit change) cannot show,
while any change a learner could see does.

    .venv/bin/python tests/support/dump_pages.py --out /tmp/before.txt
    .venv/bin/python tests/support/dump_pages.py --out /tmp/after.txt
    cmp /tmp/before.txt /tmp/after.txt
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # run as a script: the app's packages

from attn_ui.figures.heatmap import decode  # noqa: E402

# Metrics that read the clock or the server's latest generation (the KV cache page's
# "Writing together"): what they show is not the page's computation; left out of the dump.
LIVE = ("That step took", "A step for one alone (latest)", "Generations sharing the latest step")
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


def heatmap_lines(z: np.ndarray) -> list[str]:
    """One matrix: a heatmap, or a head's weights drawn as lines."""
    out = [f"heatmap {' × '.join(str(n) for n in z.shape)}"]
    return out + ["  " + line for line in matrix_lines(z)]


def chart_lines(item: dict) -> list[str]:
    """A canvas chart's numbers (attn_ui/figures/chart.py): its x (shared, a series' own, a
    histogram's bin edges), each series' values (null: a masked value, -inf) and error bars;
    a head's lines: the query they start from, the floor and the weights."""
    out = [f"{item['chart']} {item['title']}"]
    if item["chart"] == "links":
        n = len(item["tokens"])
        out.append(f"  query: {item['query']}, floor: {fmt(item['floor'])}")
        weights = decode(item["weights"], (n, n))
        return out + ["  " + line for line in heatmap_lines(weights)]
    if item["x"].get("values"):
        out.append("  x: " + row_text(item["x"]["values"]))
    if "edges" in item["x"]:
        out.append("  edges: " + row_text(item["x"]["edges"]))
    for s in item["series"]:
        v = [float("-inf") if x is None else x for x in s["values"]]
        out.append(f"  {s['name']}: " + row_text(v))
        if "x" in s:
            out.append("    x: " + row_text(s["x"]))
        if "error" in s:
            out.append("    ±: " + row_text(s["error"]))
    return out


def canvas_lines(payload: str) -> list[str]:
    """The canvas component's figures (attn_ui/figures/canvas_grid.py): matrices as base64
    floats (`heatmap.decode`), and charts (`chart_lines`)."""
    out: list[str] = []
    for sec in json.loads(payload).get("sections", []):
        for item in sec.get("items", []):
            if "z" in item:
                out += heatmap_lines(decode(item["z"], item["shape"]))
            elif "chart" in item:
                out += chart_lines(item)
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


WORDS = (
    "markdown",
    "caption",
    "title",
    "header",
    "subheader",
    "text",
    "info",
    "success",
    "exception",
)
LABELLED = (
    "button",
    "checkbox",
    "toggle",
    "radio",
    "selectbox",
    "multiselect",
    "slider",
    "select_slider",
    "text_input",
    "text_area",
    "number_input",
    "expander",
    "tabs",
    "page_link",
    "download_button",
    "form_submit_button",
    "color_picker",
)


def words(node) -> list[str]:
    """The words of an element a learner reads: text, a widget's label, options and help."""
    kind = node.type
    if kind in WORDS:
        return [f"{kind}: {node.value}"]
    label = getattr(node, "label", None) or getattr(getattr(node, "proto", None), "label", None)
    if kind in LABELLED or (label and isinstance(label, str)):
        out = [f"{kind} label: {label}"]
        for attr in ("options", "help", "placeholder"):
            value = getattr(node, attr, None)
            if value:
                out.append(f"  {attr}: {list(value) if attr == 'options' else value}")
        return out
    return []


def elements(at: AppTest, with_words: bool = False) -> list[str]:
    """Every number-bearing element of the page, in page order (and, `with_words`, the
    words of every element)."""
    out: list[str] = []
    for node in _walk(at._tree):
        kind = node.type
        if with_words:
            out += words(node)
        if kind in ("dataframe", "table"):
            out.append(f"{kind}")
            out += ["  " + line for line in frame_lines(node.value)]
        elif kind == "bidi_component" and node.proto.component_name.endswith("canvas_grid"):
            out += canvas_lines(node.proto.json)
        elif kind == "code":
            out.append("code")
            out += ["  " + line for line in node.value.splitlines()]
        elif kind == "metric" and node.label not in LIVE:
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


def dump_page(page: str, settings: dict, with_words: bool = False) -> list[str]:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update(settings)
    if page != "app.py":
        at.switch_page(page)
    run(at)
    open_tables(at)
    out = elements(at, with_words)
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
    ap.add_argument("--words", action="store_true", help="the words too, and the home page")
    ap.add_argument("--lang", help="with ?lang=... (es, zh)")
    args = ap.parse_args(argv)
    lines: list[str] = []
    extra = {"lang": args.lang} if args.lang else {}
    for page in args.pages or ((["app.py"] if args.words else []) + PAGES):
        for settings in SETTINGS:
            lines.append(f"=== {page} {json.dumps(settings, sort_keys=True)}")
            lines += dump_page(page, {**settings, **extra}, args.words)
            print(page, settings, file=sys.stderr, flush=True)
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines)} lines -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
