"""The by-hand page's inputs: the rule settings and the learner's own X and weights.

The grids are text editors, so anything can be typed; ``attn_core.by_hand.answers.whole_grid``
checks every cell on the server and says which one to fix.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from attn_core.by_hand.answers import whole_grid
from attn_core.by_hand.trace import HandTrace
from attn_core.errors import AttentionInputError
from attn_lessons.i18n import N_, _
from attn_ui.by_hand.grids import RULE_NAMES, dims, features, tokens
from attn_ui.frame import fill

# The worked example: 6 features x 4 tokens, d_k = 3, as on the classic sheet. Its scores
# run from -4 to 4 and three are negative and odd, so floor and trunc differ there.
EXAMPLE = {
    "x": [[1, 0, 1, 2], [1, 1, 1, 1], [0, 1, 1, 1], [2, 2, 2, -1], [-1, -1, 0, 0], [1, 1, 1, 1]],
    "w_q": [[0, -1, 1, 0, 1, -1], [1, -1, 1, 0, 0, -1], [-1, 0, 0, 0, 0, 0]],
    "w_k": [[0, 0, 1, 0, 1, 0], [0, -1, 0, 0, 0, -1], [-1, 1, -1, 0, -1, 0]],
    "w_v": [[0, 0, -1, 0, 0, 0], [0, -1, 0, -1, -1, 0], [0, -1, -1, 1, 0, 0]],
}
LIMIT = 9  # givens in -9..9
# min, max, example; each key is its input's label (`_(name)`) and names its session key
SIZES = {N_("Tokens"): (2, 6, 4), N_("Features"): (2, 8, 6), "d_k": (1, 4, 3)}
WARN_SCALED, MAX_SCALED = 6, 20  # 3^6 = 729 is still workable; 3^20 is not
NAMES = {"x": "X", "w_q": "W_Q", "w_k": "W_K", "w_v": "W_V"}


def rules() -> tuple[str, bool]:
    """The scale rule (floor by default) and the causal mask switch."""
    c = st.columns([2, 1])
    rule = c[0].radio(
        _("Scale rule"),
        tuple(RULE_NAMES),
        format_func=lambda v: _(RULE_NAMES[v]),
        key="hand_rule",
        horizontal=True,
        help=_("Printed sheets differ: floor(-1.5) = -2, trunc(-1.5) = -1."),
    )
    causal = c[1].toggle(
        _("Causal mask"), key="hand_causal", help=_("Query j sees keys 1..j only.")
    )
    return rule, causal


def _fit(a, shape: tuple[int, int]) -> np.ndarray:
    """The example cut or padded with zeros to `shape`."""
    out = np.zeros(shape, dtype=np.int64)
    a = np.asarray(a)[: shape[0], : shape[1]]
    out[: a.shape[0], : a.shape[1]] = a
    return out


def editor_key(name: str, shape: tuple[int, int], version: int = 0) -> str:
    """A fresh editor per size and per reset, so stale edits never land on a new grid."""
    return f"hand_ed_{name}_{version}_{shape[0]}x{shape[1]}"


def _editor(name: str, shape, rows, cols, version: int) -> np.ndarray:
    """A grid of text cells seeded with the example; returns what is in it, unchecked."""
    df = pd.DataFrame(
        _fit(EXAMPLE[name], shape).astype(str), index=pd.Index(rows, name="row"), columns=cols
    )  # a named corner: a header cell with no text reads as nothing (empty-table-header)
    config = {c: st.column_config.TextColumn(c, width=52) for c in cols}  # "-9" fits
    # i18n: the corner's name is data, shown translated through its column's label: the
    # editor keeps what was typed only while its index (name included) stays the same, so a
    # change of language must not rename it
    config["_index"] = st.column_config.Column(_("row"))
    st.markdown(f"**{NAMES[name]}**")
    edited = st.data_editor(
        df, column_config=config, num_rows="fixed", key=editor_key(name, shape, version)
    )
    return edited.to_numpy(dtype=object)


def _reset() -> None:
    st.session_state["hand_version"] = st.session_state.get("hand_version", 0) + 1
    for name, (_lo, _hi, example) in SIZES.items():
        st.session_state[f"hand_{name.lower()}"] = example


def _size(col, name: str) -> int:
    lo, hi, example = SIZES[name]
    key = f"hand_{name.lower()}"
    st.session_state.setdefault(key, example)  # no value=: "Back to the example" may set it
    return int(col.number_input(_(name), lo, hi, step=1, key=key))


def own_numbers(text: dict[str, str]) -> tuple[np.ndarray, ...]:
    """X, W_Q, W_K, W_V as typed (the example until then). Raises AttentionInputError.

    text : the page's lesson sections (the editors' caption)."""
    with st.expander(_("Your own numbers: type X and the weights"), icon=":material/edit:"):
        c = st.columns(4, vertical_alignment="bottom")
        t, f, d = (_size(col, name) for col, name in zip(c, SIZES, strict=False))
        c[3].button(_("Back to the example"), key="hand_reset", on_click=_reset)
        st.caption(fill(text["Your own numbers"], limit=LIMIT))
        version = st.session_state.get("hand_version", 0)
        slots = [*st.columns(2), *st.columns(2)]  # X | W_Q over W_K | W_V
        typed = {}
        for slot, name in zip(slots, NAMES, strict=True):
            shape = (f, t) if name == "x" else (d, f)
            labels = (features(f), tokens(t)) if name == "x" else (dims(d), features(f))
            with slot:
                typed[name] = (_editor(name, shape, *labels, version), labels)
    # every grid is drawn before any is checked, so one bad cell hides nothing
    return tuple(
        whole_grid(cells, NAMES[n], *labels, limit=LIMIT) for n, (cells, labels) in typed.items()
    )


def check_size(t: HandTrace) -> None:
    """Refuse powers too large to write down; warn when they get long."""
    top = int(np.abs(t.scaled).max())
    if top > MAX_SCALED:
        raise AttentionInputError(
            _(
                "A scaled score reaches {top}, and 3^{top} has {digits} digits: far too "
                "large to work by hand. Use smaller numbers, for example -2 to 2."
            ).format(top=top, digits=len(str(3**top)))
        )
    if top > WARN_SCALED:
        st.warning(
            _(
                "A scaled score reaches {top}, so 3^{top} = {power}: the fractions get "
                "long. Smaller numbers (-2 to 2) make a friendlier sheet."
            ).format(top=top, power=3**top),
            icon=":material/info:",
        )
