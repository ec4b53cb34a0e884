"""Overview: X -> Q, K, V -> scores -> scaled -> weights -> output on one screen."""

import streamlit as st

from attn_ui import compute, controls, layout, views

layout.page(__file__)
s = controls.sidebar(heads=True)
with views.stop_on_error():
    run = compute.lesson_run(s, multi=s.n_heads > 1)

t, tok = run.trace, run.tokens
common = {"columns": s.columns, "show_numbers": s.show_numbers}
d_cols = views.features(run.x.shape[1])
k_cols = views.features(t.d_k, "k")
v_cols = views.features(t.d_v, "v")

st.subheader("1. Embeddings and projections")
c = st.columns([1.2, 0.1, 1, 1, 1], vertical_alignment="center")
with c[0]:
    views.matrix(
        run.x,
        tok,
        d_cols,
        name="X",
        by_hand_name="X (features × tokens)",
        row_title="token",
        col_title="feature",
        key="ov_x",
        narrow=True,
        **common,
    )
c[1].markdown("## →")
qkv = ((c[2], t.q, "Q", k_cols), (c[3], t.k, "K", k_cols), (c[4], t.v, "V", v_cols))
for col, m, n, cols in qkv:
    with col:
        views.matrix(
            m,
            tok,
            cols,
            name=f"{n} = X W_{n}",
            by_hand_name=f"{n} = W_{n} X",
            row_title="token",
            col_title="feature",
            key=f"ov_{n}",
            narrow=True,
            **common,
        )

st.subheader("2. Scores, scaling, softmax, output")
grid = st.columns(2) + st.columns(2)
steps = (
    (t.scores, tok, "S = Q Kᵀ", "Kᵀ Q", "signed"),
    (t.masked, tok, f"S × {t.scale:.3g} (+ mask)", "scaled Kᵀ Q (+ mask)", "signed"),
    (t.weights, tok, "A = softmax by row", "A (columns sum to 1)", "weights"),
)
for col, (m, cols, name, hand, kind) in zip(grid, steps, strict=False):
    with col:
        views.matrix(
            m, tok, cols, name=name, by_hand_name=hand, kind=kind, key=f"ov_{hand}", **common
        )
with grid[3]:
    views.matrix(t.output, tok, v_cols, name="Z = A V", by_hand_name="Z = V A",
                 row_title="token", col_title="feature", key="ov_z", **common)  # fmt: skip

if run.multi is not None:
    st.subheader(f"3. {run.multi.n_heads} heads side by side, then W_O")
    st.caption(
        "Each head has its own W_Q, W_K, W_V; their outputs are concatenated and mixed by W_O."
    )
    heads = st.columns(min(run.multi.n_heads, 2))  # wider than 4 across: labels would overlap
    for h, head in enumerate(run.multi.heads):
        with heads[h % len(heads)]:
            views.matrix(head.weights, tok, tok, name=f"head {h}: A", kind="weights",
                         key=f"ov_head{h}", **common)  # fmt: skip
    views.matrix(run.multi.output, tok, views.features(run.multi.output.shape[1]),
                 name="concat(heads) W_O", by_hand_name="W_Oᵀ concat(heads)ᵀ",
                 row_title="token", col_title="feature", key="ov_mh_out", **common)  # fmt: skip

layout.footer(__file__)
