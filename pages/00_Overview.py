"""Overview: X -> Q, K, V -> scores -> scaled -> weights -> output on one screen.

Up to thirteen matrices change with every sentence here, so the page is built for speed
(bench/bench_app.py): the sentence box and the figures form one `st.fragment`, so typing
reruns only them, and the figures are drawn by two browser components (attn_ui/canvas_grid,
which draws every heatmap of the app) instead of thirteen: X, Q, K and V beside the lesson's
words, the rest across the page.
"""

import streamlit as st

from attn_lessons.i18n import _, ngettext
from attn_ui import compute, controls, frame, settings, tables
from attn_ui.figures import canvas_grid
from attn_ui.figures.matrix import oriented_figure
from attn_ui.path import checks, where

text = frame.page(__file__)
controls.sidebar(heads=True, sentence=False, here=("n_heads",))


class Figures:
    """The page's matrices, as the learner asked to see them (rows, or the by-hand layout)."""

    def __init__(self, s: settings.LessonSettings) -> None:
        self.s = s
        self.tables: dict[str, object] = {}  # name -> the table's maker, for the numbers

    def __call__(
        self,
        m,
        rows,
        cols,
        *,
        name,
        by_hand_name=None,
        kind="signed",
        row_title=None,
        col_title=None,
    ) -> dict:
        fig, m, rows, cols, _shown = oriented_figure(
            m,
            rows,
            cols,
            name=name,
            by_hand_name=by_hand_name,
            kind=kind,
            row_title=_("query") if row_title is None else row_title,
            col_title=_("key") if col_title is None else col_title,
            columns=self.s.columns,
            show_numbers=self.s.show_numbers,
        )
        self.tables[fig["title"]] = lambda: tables.table(m, rows, cols)
        return fig


@st.fragment
def pipeline() -> None:
    s = controls.sentence_box(note=True)
    with frame.stop_on_error():
        run = compute.lesson_run(s, multi=s.n_heads > 1)
    t, tok = run.trace, run.tokens
    fig = Figures(s)
    feat = {"row_title": _("token"), "col_title": _("feature")}
    k_cols, v_cols = tables.features(t.d_k, "k"), tables.features(t.d_v, "v")
    x = fig(
        run.x,
        tok,
        tables.features(run.x.shape[1]),
        name="X",
        by_hand_name=_("X (features × tokens)"),
        **feat,
    )
    projections = ((t.q, "Q", k_cols), (t.k, "K", k_cols), (t.v, "V", v_cols))
    qkv = [
        fig(m, tok, cols, name=f"{n} = X W_{n}", by_hand_name=f"{n} = W_{n} X", **feat)
        for m, n, cols in projections
    ]
    sections = [
        canvas_grid.section(
            [x, canvas_grid.arrow(), *qkv],
            widths=[1.2, 0.15, 1, 1, 1],
            heading=_("1. Embeddings and projections"),
        ),
        canvas_grid.section(
            [
                fig(t.scores, tok, tok, name="S = Q Kᵀ", by_hand_name="Kᵀ Q"),
                fig(
                    t.masked,
                    tok,
                    tok,
                    name=_("S × {scale} (+ mask)").format(scale=f"{t.scale:.3g}"),
                    by_hand_name=_("scaled Kᵀ Q (+ mask)"),
                ),
                fig(
                    t.weights,
                    tok,
                    tok,
                    name=_("A = softmax by row"),
                    by_hand_name=_("A (columns sum to 1)"),
                    kind="weights",
                ),
                fig(t.output, tok, v_cols, name="Z = A V", by_hand_name="Z = V A", **feat),
            ],
            widths=[1, 1],
            heading=_("2. Scores, scaling, softmax, output"),
        ),
    ]
    if run.multi is not None:
        mh = run.multi
        heads = [
            fig(h.weights, tok, tok, name=_("head {i}: A").format(i=i), kind="weights")
            for i, h in enumerate(mh.heads)
        ]
        sections.append(
            canvas_grid.section(
                heads,
                widths=[1] * min(mh.n_heads, 2),  # wider than 2 across: labels would overlap
                # n_heads > 1 here: the English singular is never shown
                heading=ngettext(
                    "3. {n} head side by side, then W_O",
                    "3. {n} heads side by side, then W_O",
                    mh.n_heads,
                ).format(n=mh.n_heads),
                caption=text["Heads side by side"],
            )
        )
        sections.append(
            canvas_grid.section(
                [
                    fig(
                        mh.output,
                        tok,
                        tables.features(mh.output.shape[1]),
                        name=_("concat(heads) W_O"),
                        by_hand_name=_("W_Oᵀ concat(heads)ᵀ"),
                        **feat,
                    ),
                ],
                widths=[1],
            )
        )
    # X, Q, K and V with the lesson's words beside them; the rest of the pipeline gets the
    # page's whole width (a grid under 640 px wide puts one figure per line)
    with frame.beside(text) as words:
        canvas_grid.show(sections[:1], key="ov_projections")
    with words:
        where.show(__file__, run, s)
    canvas_grid.show(sections[1:], key="ov_figures")
    label = _("Numbers of every matrix (tables, CSV download)")
    tables.numbers_of(label, fig.tables, key="ov")
    checks.show(__file__, run, s, whole_page=True)  # in the fragment: a new sentence, new questions


pipeline()
frame.footer(__file__)
