"""Lab: self- versus cross-attention. A second sentence supplies the keys and values."""

import streamlit as st

from attn_lessons.i18n import N_, _
from attn_ui import controls, frame, lab_tables, settings, tables
from attn_ui.compute import labs
from attn_ui.figures.matrix import matrix

D_MODELS = (2, 4, 8, 16, 32, 64, 128, 384)
SHAPES = {"Q": "q", "K": "k", "V": "v", N_("A (weights)"): "weights", "Z = A V": "output"}
WEIGHTS = {"similarity": N_("Similarity (W_Q = W_K = W_V = I)"), "random": N_("Random, seeded")}

text = frame.page(__file__)
with st.sidebar:
    weights = st.radio(
        _("Weights"), list(WEIGHTS), format_func=lambda v: _(WEIGHTS[v]), key="cross_weights"
    )
    d_model = st.select_slider(
        _("d_model (features per token)"), D_MODELS, value=16, key="cross_d_model"
    )
    d_k, seed = d_model, 0
    if weights == "random":
        d_k = st.select_slider(_("d_k (query/key size)"), settings.D_KS, value=4, key="cross_d_k")
        seed = st.number_input(_("seed"), 0, 10_000, 0, step=1, key="cross_seed")
    show_numbers = st.toggle(_("numbers on cells"), value=True, key="cross_numbers")

left, right = st.columns(2)
with left:
    controls.sentence_input()
    st.caption(text["Your sentence asks"])
with right:
    memory = controls.text_line(
        _("Second sentence"),
        key="cross_memory",
        default="A tired kitten slept on the rug.",  # i18n: the learner's input, not translated
        reads=_("The lab reads at most 64 tokens"),
        help=_(
            "Press Enter to apply. Up to 64 tokens; each token becomes one key and one value. "
            "A longer paste is cut to {chars} characters."
        ).format(chars=settings.MAX_SENTENCE_CHARS),
    )
    st.caption(text["The second sentence answers"])

sentence = controls.current().sentence
with frame.stop_on_error():
    run = labs.cross_run(sentence, memory, weights, d_model, d_k, int(seed))

tq, tk = run.tokens_q, run.tokens_k
with frame.beside(text, ratio=(2, 1)):  # the two heatmaps side by side, the words beside
    st.subheader(_("1. The weights: a rectangle against a square"))
    # widths follow the column counts, plus about three cells for the row labels both carry
    c = st.columns([max(len(tk), 4) + 3, max(len(tq), 4) + 3])
    pairs = (
        ("cross", _("Cross: A = softmax(Q Kᵀ/√d_k)"), run.cross, tk, _("key (second sentence)")),
        ("self", _("Self: A = softmax(Q Kᵀ/√d_k)"), run.self_trace, tq, _("key (your sentence)")),
    )
    for col, (which, name, t, keys, col_title) in zip(c, pairs, strict=True):
        with col:
            matrix(
                t.weights,
                tq,
                keys,
                name=name,
                kind="weights",
                row_title=_("query (your sentence)"),
                col_title=col_title,
                show_numbers=show_numbers,
                key=f"cross_{which}",
            )

st.subheader(_("2. Shapes, and what each query found"))
c = st.columns([1, 1.3])
with c[0]:
    st.markdown(_("**The same steps, different sizes** (rows × columns)"))
    traces = (run.self_trace, run.cross)
    shapes = {_(name): tuple(getattr(tr, f) for tr in traces) for name, f in SHAPES.items()}
    columns = (_("self"), _("cross"))
    st.dataframe(tables.shapes_table(shapes, columns=columns), key="cross_shapes")
with c[1]:
    st.markdown(_("**Cross-attention: each query's strongest key**"))
    best = lab_tables.strongest_table(run.cross.weights, tq, tk).round(4)
    st.dataframe(best, key="cross_best", height="content" if len(tq) <= 20 else 600)

matrix(
    run.cross.output,
    tq,
    tables.features(run.cross.d_v, "v"),
    name=_("Cross: Z = A V (the second sentence's values, mixed)"),
    row_title=_("query"),
    col_title=_("feature"),
    show_numbers=show_numbers,
    key="cross_z",
)

frame.footer(__file__)
