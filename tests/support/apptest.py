"""AppTest helpers: run a page headless through the entry point, and read its numbers.

AppTest cannot draw the canvas component, so figures are read as the JSON it is sent: each
heatmap's matrix, each chart's x and values (attn_ui/figures/chart.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from streamlit.testing.v1 import AppTest

from attn_ui.compute import lesson_run
from attn_ui.figures.heatmap import decode
from attn_ui.settings import LessonSettings

ROOT = Path(__file__).resolve().parents[2]
SENTENCE_KEY = "lesson_w_sentence"  # the lesson pages' sentence box
RANDOM = {"weights": "random"}  # a link to the seeded random weights (the toy heads)


def load(page: str, timeout: float = 60, query: dict | None = None) -> AppTest:
    """A page run once with default settings (or a link's `query`); fails on any exception."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=timeout)
    if query:
        at.query_params.update(query)
    at.switch_page(page)  # run through the entry point, as a browser does
    return rerun(at)


def rerun(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def lesson(**changes):
    """The engine's run for the default lesson settings with `changes` (what a page shows)."""
    return lesson_run(LessonSettings(**changes))


def type_sentence(at: AppTest, sentence: str, key: str = SENTENCE_KEY) -> AppTest:
    box = at.text_input(key=key) if key == SENTENCE_KEY else at.text_area(key=key)
    box.input(sentence)
    return rerun(at)


def shown(box, before: str) -> str:
    """The label a browser shows in selectbox `box` after a rerun: the one it showed `before`,
    whatever the new options are, unless the server sent it a value (``set_value``)."""
    return box.proto.raw_value if box.proto.set_value else before


# --- tables -------------------------------------------------------------------------------


def table(at: AppTest, title_part: str) -> np.ndarray:
    """The numbers of the table inside the expander whose label contains `title_part`, or
    of the matrix whose name contains it in an expander's "Matrix" choice (views.numbers_of).

    The step pages build a table only while its expander is open (views.numbers), so a
    closed one is opened, as a learner's click does, and the page rerun.
    """
    for exp in at.expander:
        if title_part in exp.label:
            if not exp.dataframe:
                open_tables(at)
                return table(at, title_part)
            return exp.dataframe[0].value.to_numpy(dtype=float)
    for exp in at.expander:
        if not exp.proto.id.endswith("_numbers"):
            continue
        if not exp.selectbox:
            open_tables(at)
            return table(at, title_part)
        names = [o for o in exp.selectbox[0].options if title_part in o]
        if names:
            if exp.selectbox[0].value != names[0]:
                exp.selectbox[0].select(names[0])
                rerun(at)
                return table(at, title_part)
            return exp.dataframe[0].value.to_numpy(dtype=float)
    raise AssertionError(f"no table titled {title_part!r}; have {matrices(at)}")


def matrices(at: AppTest) -> list[str]:
    """Every table's title: expander labels, and the names in "Matrix" choices."""
    choices = [o for e in at.expander for box in e.selectbox for o in box.options]
    return [e.label for e in at.expander] + choices


def open_tables(at: AppTest) -> AppTest:
    """Open every closed lazy table expander (views.numbers), as a learner's clicks would."""
    closed = [e for e in at.expander if e.proto.id.endswith("_numbers") and not e.dataframe]
    for exp in closed:
        at.session_state[exp.proto.id.split("-", 2)[2]] = True  # id: "$$ID-<hash>-<key>"
    return rerun(at) if closed else at


def frame(at: AppTest, column: str):
    """The first table on the page with a column named `column` (read-only tables have no key)."""
    for df in at.dataframe:
        if column in df.value.columns:
            return df.value
    raise AssertionError(f"no table with a column {column!r}")


def numeric_tables(at: AppTest, *, skip=()) -> list[np.ndarray]:
    """Every table whose cells are all numbers, except those in expanders labelled with `skip`."""
    open_tables(at)
    skipped = [
        e.dataframe[0].proto for e in at.expander if e.dataframe and any(p in e.label for p in skip)
    ]
    out = []
    for df in at.dataframe:
        values = df.value
        numeric = all(d.kind in "biuf" for d in values.dtypes)
        if numeric and not any(df.proto == p for p in skipped):
            out.append(values.to_numpy(dtype=float))
    return out


# --- figures ------------------------------------------------------------------------------


def canvas_charts(at: AppTest) -> list[dict]:
    """Every chart on the page (bars, lines, histograms, planes, a head's lines:
    attn_ui/figures/chart.py), in page order, as the browser component is sent it."""
    return [
        item
        for component in canvas_grids(at)
        for section in json.loads(component.proto.json)["sections"]
        for item in section["items"]
        if "chart" in item
    ]


def canvas_chart(at: AppTest, title_part: str) -> dict:
    """The first canvas chart whose title contains `title_part` (see `canvas_charts`)."""
    found = [c for c in canvas_charts(at) if title_part in c["title"]]
    assert found, f"no chart titled {title_part!r}; have {[c['title'] for c in canvas_charts(at)]}"
    return found[0]


def chart_values(c: dict, name: str) -> np.ndarray:
    """The values of the canvas chart's series called `name`; a masked one (sent as null) is
    -inf again."""
    for s in c["series"]:
        if s["name"] == name:
            return np.array([-np.inf if v is None else v for v in s["values"]], dtype=float)
    raise AssertionError(f"no series {name!r}; have {[s['name'] for s in c['series']]}")


def chart_x(c: dict, name: str) -> np.ndarray:
    """The x values of the canvas chart's series called `name`: its own, else the chart's."""
    for s in c["series"]:
        if s["name"] == name:
            return np.asarray(s.get("x", c["x"]["values"]), dtype=float)
    raise AssertionError(f"no series {name!r}; have {[s['name'] for s in c['series']]}")


def heatmaps(at: AppTest) -> list[dict]:
    """Every heatmap on the page in page order, as the canvas component is sent it
    (attn_ui.figures.heatmap.figure), with its matrix decoded as the browser decodes it
    under "m"."""
    out = []
    for component in canvas_grids(at):
        for section in json.loads(component.proto.json)["sections"]:
            figs = [it for it in section["items"] if "z" in it]  # not a chart
            out += [f | {"m": decode(f["z"], f["shape"])} for f in figs]
    return out


def heatmap(at: AppTest, title_part: str) -> dict:
    """The first heatmap whose title contains `title_part` (see `heatmaps`)."""
    found = [f for f in heatmaps(at) if title_part in f["title"]]
    assert found, f"no heatmap titled {title_part!r}; have {[f['title'] for f in heatmaps(at)]}"
    return found[0]


def canvas_matrices(at: AppTest) -> dict[str, np.ndarray]:
    """The overview's canvas heatmaps (attn_ui/figures/canvas_grid.py): figure title (without
    its shape) -> the matrix the browser draws."""
    figs = [it for sec in canvas_sections(at) for it in sec["items"] if "z" in it]
    return {f["title"].split("   (")[0]: decode(f["z"], f["shape"]) for f in figs}


def canvas_grids(at: AppTest) -> list:
    """The page's heatmap components (attn_ui/figures/canvas_grid.py), in page order; not
    the page's other browser component (attn_ui/page_style.py)."""
    return [c for c in at.get("bidi_component") if c.proto.component_name.endswith("canvas_grid")]


def canvas_sections(at: AppTest) -> list[dict]:
    """The sections of the page's canvas grid components, in page order, as sent to the
    browser (the overview's two: X, Q, K and V beside the lesson's words, then the rest)."""
    return [sec for grid in canvas_grids(at) for sec in json.loads(grid.proto.json)["sections"]]
