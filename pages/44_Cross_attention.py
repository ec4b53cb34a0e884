"""Lab: self- versus cross-attention. A second sentence supplies the keys and values."""

import streamlit as st

from attn_ui import controls, frame, lab_tables, settings, tables
from attn_ui.compute import labs
from attn_ui.figures.matrix import matrix

D_MODELS = (2, 4, 8, 16, 32, 64, 128, 384)
SHAPES = {"Q": "q", "K": "k", "V": "v", "A (weights)": "weights", "Z = A V": "output"}
WEIGHTS = {"similarity": "Similarity (W_Q = W_K = W_V = I)", "random": "Random, seeded"}

text = frame.page(__file__)
with st.sidebar:
    weights = st.radio("Weights", list(WEIGHTS), format_func=WEIGHTS.get, key="cross_weights")
    d_model = st.select_slider(
        "d_model (features per token)", D_MODELS, value=16, key="cross_d_model"
    )
    d_k, seed = d_model, 0
    if weights == "random":
        d_k = st.select_slider("d_k (query/key size)", settings.D_KS, value=4, key="cross_d_k")
        seed = st.number_input("seed", 0, 10_000, 0, step=1, key="cross_seed")
    show_numbers = st.toggle("numbers on cells", value=True, key="cross_numbers")

left, right = st.columns(2)
with left:
    controls.sentence_input()
    st.caption(text["Your sentence asks"])
with right:
    memory = controls.text_line(
        "Second sentence",
        key="cross_memory",
        default="A tired kitten slept on the rug.",
        reads="The lab reads at most 64 tokens",
        help="Press Enter to apply. Up to 64 tokens; each token becomes one key and one value. "
        f"A longer paste is cut to {settings.MAX_SENTENCE_CHARS} characters.",
    )
    st.caption(text["The second sentence answers"])

sentence = controls.current().sentence
with frame.stop_on_error():
    run = labs.cross_run(sentence, memory, weights, d_model, d_k, int(seed))

tq, tk = run.tokens_q, run.tokens_k
with frame.beside(text, ratio=(2, 1)):  # the two heatmaps side by side, the words beside
    st.subheader("1. The weights: a rectangle against a square")
    # widths follow the column counts, plus about three cells for the row labels both carry
    c = st.columns([max(len(tk), 4) + 3, max(len(tq), 4) + 3])
    pairs = {
        "Cross": (run.cross, tk, "second sentence"),
        "Self": (run.self_trace, tq, "your sentence"),
    }
    for col, (name, (t, keys, source)) in zip(c, pairs.items(), strict=True):
        with col:
            matrix(
                t.weights,
                tq,
                keys,
                name=f"{name}: A = softmax(Q Kᵀ/√d_k)",
                kind="weights",
                row_title="query (your sentence)",
                col_title=f"key ({source})",
                show_numbers=show_numbers,
                key=f"cross_{name.lower()}",
            )

st.subheader("2. Shapes, and what each query found")
c = st.columns([1, 1.3])
with c[0]:
    st.markdown("**The same steps, different sizes** (rows × columns)")
    traces = (run.self_trace, run.cross)
    shapes = {name: tuple(getattr(tr, f) for tr in traces) for name, f in SHAPES.items()}
    st.dataframe(tables.shapes_table(shapes, columns=("self", "cross")), key="cross_shapes")
with c[1]:
    st.markdown("**Cross-attention: each query's strongest key**")
    best = lab_tables.strongest_table(run.cross.weights, tq, tk).round(4)
    st.dataframe(best, key="cross_best", height="content" if len(tq) <= 20 else 600)

matrix(
    run.cross.output,
    tq,
    tables.features(run.cross.d_v, "v"),
    name="Cross: Z = A V (the second sentence's values, mixed)",
    row_title="query",
    col_title="feature",
    show_numbers=show_numbers,
    key="cross_z",
)

frame.footer(__file__)
