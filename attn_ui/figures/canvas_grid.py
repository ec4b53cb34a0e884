"""The browser component that draws every heatmap of the app, and the step pages' bar and
line charts, on <canvas>.

One custom component (st.components.v2: no iframe, no extra library) draws one figure or a
page's worth of them, in place: a new sentence redraws the canvases instead of mounting new
figures (heatmap.py says why, and builds the figures; canvas_grid.js draws them, with
canvas_chart.js and the modules of js/, whose pure helpers tests/js tests with Node).
A page sends sections: a titled grid of figures and arrows (the overview), a single figure
(`figure`: what `matrix.matrix` draws, or a chart of `chart.py`), or a grid of small
figures with row and column labels and one colour bar (`small_multiples`, the model
explorer's 72 heads). A section's items may mix heatmaps and charts.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import streamlit as st

from attn_lessons.i18n import N_, _
from attn_ui.figures import chart, heatmap, js_bundle

# canvas_grid.js and the modules it imports (canvas_chart.js, js/*.js), joined into the one
# script a component takes (js_bundle.py says how, and why not files)
_JS = js_bundle.bundle(Path(__file__).with_name("canvas_grid.js"))
# The component's script where the script is served: it imports the file named in the
# element's data (once per page and file) and hands the element to it; if the file cannot be
# had, the figure says so in its place.
LOADER = """const loaded = {};
export default function (element) {
  const { src, words } = element.data;
  let cleanup = null, gone = false;
  loaded[src] = loaded[src] || import(new URL(src, window.location.origin).href);
  loaded[src].then(
    (m) => { if (!gone) cleanup = m.default(element); },
    (err) => {
      if (gone) return;
      const note = document.createElement("p");
      note.setAttribute("role", "alert");
      note.textContent = (words && words.noScript) || "This figure could not load.";
      element.parentElement.replaceChildren(note);
      console.error(err);
    },
  );
  return () => { gone = true; if (typeof cleanup === "function") cleanup(); };
}
"""


def _static_folder() -> Path | None:
    """The folder a running server serves at app/static/ (.streamlit/config.toml turns that
    on): `static` beside the app's main script, whose path Streamlit puts in sys.argv[0].
    None outside a server (AppTest, a script) or with static serving off."""
    if not (st.runtime.exists() and st.get_option("server.enableStaticServing")):
        return None
    return Path(sys.argv[0]).resolve().parent / "static"


# The script goes to the static folder once, and each figure element carries LOADER
# (js_bundle.publish says why); where it cannot, the elements carry the script itself.
_FOLDER = _static_folder()
_FILE = js_bundle.publish(_JS, _FOLDER, "figures") if _FOLDER else None
_component = st.components.v2.component(
    "attention_lab_canvas_grid", js=LOADER if _FILE else _JS, isolate_styles=False
)

# What the script says in the hover box, the live region and to screen readers, sent in the
# page's language with the figures ({fields} filled in by js/words.js `say`, which has the
# same messages in English for a figure sent without them)
WORDS = {
    "masked": N_("{value} (masked)"),
    "value": N_("value: {value}"),
    "bin": N_("{title} from {low} to {high}"),
    "point": N_("point"),
    "queries": N_("queries"),
    "keys": N_("keys"),
    "query": N_("query {index}: {token}"),
    "key": N_("key {index}: {token}"),
    "weight": N_("weight: {value}"),
    "download": N_("Download this figure as a PNG image"),
    "noScript": N_("This figure could not load. Reload the page to try again."),
}


def arrow(text: str = "→") -> dict:
    """An arrow between figures (it turns to point down on a phone)."""
    return {"arrow": text}


def section(
    items: list[dict], *, widths: Sequence[float], heading: str = "", caption: str = ""
) -> dict:
    """A titled grid of `items` (figures and arrows) whose columns have the relative
    `widths`; items fill it row by row. On a phone-width screen each item gets its own line."""
    if not widths:
        raise ValueError("a grid needs at least one column")
    return {
        "heading": heading,
        "caption": caption,
        "items": items,
        "widths": [float(w) for w in widths],
    }


def small_multiples(
    items: list[dict], *, row_labels: Sequence[str], col_labels: Sequence[str], bar: dict, name: str
) -> dict:
    """A grid of small figures (`heatmap.small`), row by row, labelled at its left and top,
    with one colour bar (`heatmap.colour_bar`) and one PNG link for the whole grid (saved as
    `name`.png). It keeps its columns on a phone."""
    if len(items) != len(row_labels) * len(col_labels):
        raise ValueError("a grid of small figures needs one figure per row and column")
    grid = section(items, widths=[1.0] * len(col_labels))
    return grid | {
        "labels": {"rows": list(row_labels), "cols": list(col_labels)},
        "bar": bar,
        "name": name,
    }


def _spoken(item: dict) -> dict:
    """The item with what a screen reader says of it, in the page's language (its kind and
    how to read it: `heatmap.spoken`, `chart.spoken`)."""
    if "z" in item:
        return item | heatmap.spoken(item)
    if "chart" in item:
        return item | chart.spoken(item)
    return item  # an arrow


def show(sections: list[dict], *, key: str) -> None:
    """Draw the sections, one browser component for all of them (each element costs the
    server about a millisecond per rerun, bench/bench_app.py), with the words the script
    says (`WORDS`) in the page's language."""
    sent = [sec | {"items": [_spoken(it) for it in sec["items"]]} for sec in sections]
    words = {name: _(message) for name, message in WORDS.items()}
    data = {"sections": sent, "words": words}
    if _FILE:
        data["src"] = script_url()
    _component(data=data, key=key)


def script_url() -> str:
    """Where the browser fetches the figures' script: its path under the server's base path."""
    base = st.get_option("server.baseUrlPath").strip("/")
    return "/".join(["", *([base] if base else []), "app", "static", _FILE])


def figure(fig: dict, *, key: str) -> None:
    """Draw one figure (`heatmap.figure`) as the whole width it is given."""
    show([section([fig], widths=[1])], key=key)
