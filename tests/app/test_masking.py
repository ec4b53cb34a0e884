"""The masking page: causal, padding, window and a custom mask; the right way against the wrong."""

import numpy as np
import pytest

import attn_core
from attn_core.labs import masking
from tests.support.apptest import (
    frame,
    heatmap,
    lesson,
    load,
    rerun,
    table,
)

PAGE = "pages/07_Masking.py"
RIGHT = "Numbers of softmax(S/√d_k + M) "
WRONG = "softmax(S/√d_k), masked → 0"


def unmasked(**changes):
    return lesson(**changes).trace


def choose_mask(at, mask, **sliders):
    at.selectbox(key="lesson_w_mask").select(mask)
    rerun(at)
    for name, value in sliders.items():
        at.slider(key=f"lesson_w_{name}").set_value(value)
        rerun(at)
    return at


def sums(at):
    df = frame(at, "wrong way")
    return df["right way"].to_numpy(dtype=float), df["wrong way"].to_numpy(dtype=float)


def edit_cells(at, key, cells):
    """Tick or untick cells of the custom mask, as a learner's clicks would."""
    rows = {}
    for (i, col), value in cells.items():
        rows.setdefault(i, {})[col] = value
    at.session_state[key] = {"edited_rows": rows, "added_rows": [], "deleted_rows": []}
    return rerun(at)


def test_page_opens_on_the_causal_mask(loaded):
    at = loaded(PAGE)
    assert at.selectbox(key="lesson_w_mask").value == "causal"
    n = len(unmasked().weights)
    np.testing.assert_allclose(table(at, RIGHT), unmasked(mask="causal").weights, atol=1e-12)
    right, wrong = sums(at)
    assert np.all(wrong[:-1] < 1.0)  # the two ways differ from the first screen
    m = table(at, "M (0 = may attend")
    causal = attn_core.causal_mask(n)
    assert np.all(m[causal] == 0.0) and np.all(np.isnan(m[~causal]))
    assert "mask" in at.query_params  # the link keeps what the page shows
    mask_m = heatmap(at, "M (0 = may attend")
    assert [item["text"] for item in mask_m["legend"]] == ["0: may attend", "−∞: masked"]


def test_the_page_default_is_not_the_other_pages_setting():
    at = load(PAGE)
    at.switch_page("pages/05_Softmax.py")
    rerun(at)
    assert at.selectbox(key="lesson_w_mask").value == "none"


def test_a_link_without_a_mask_still_means_none_elsewhere_and_none_here_when_chosen():
    at = load(PAGE, query={"mask": "none"})
    assert at.selectbox(key="lesson_w_mask").value == "none"


def test_no_mask_both_ways_agree():
    at = choose_mask(load(PAGE), "none")
    t = unmasked()
    np.testing.assert_allclose(table(at, RIGHT), t.weights, atol=1e-12)
    np.testing.assert_allclose(table(at, WRONG), t.weights, atol=1e-12)
    assert np.all(table(at, "M (0 = may attend") == 0.0)
    right, wrong = sums(at)
    np.testing.assert_allclose(right, 1.0, atol=1e-6)
    np.testing.assert_allclose(wrong, 1.0, atol=1e-6)


def test_causal_right_way_zeros_wrong_way_loses_mass():
    at = choose_mask(load(PAGE), "causal")
    t = unmasked()
    n = len(t.weights)
    mask = attn_core.causal_mask(n)
    right = table(at, RIGHT)
    np.testing.assert_allclose(right, unmasked(mask="causal").weights, atol=1e-12)
    assert np.all(right[~mask] == 0.0)
    wrong = table(at, WRONG)
    np.testing.assert_allclose(wrong, masking.mask_after_softmax(t.scaled, mask), atol=1e-12)
    assert np.all(wrong[~mask] == 0.0)
    right_sums, wrong_sums = sums(at)
    np.testing.assert_allclose(right_sums, 1.0, atol=1e-6)
    assert np.all(wrong_sums[:-1] < 1.0) and wrong_sums[-1] == pytest.approx(1.0)
    m = table(at, "M (0 = may attend")
    assert np.all(m[mask] == 0.0) and np.all(np.isnan(m[~mask]))  # -inf cells shown empty
    scores = table(at, "Numbers of S/√d_k + M (")
    np.testing.assert_allclose(scores[mask], t.scaled[mask], atol=1e-12)
    assert np.all(np.isnan(scores[~mask]))


def test_padding_columns_get_no_attention():
    at = choose_mask(load(PAGE), "padding", n_pad=2)
    right = table(at, RIGHT)
    assert np.all(right[:, -2:] == 0.0) and np.all(right[:, :-2] > 0.0)
    np.testing.assert_allclose(right.sum(axis=1), 1.0, atol=1e-6)  # MiniLM: float32


def test_window_is_a_band():
    at = choose_mask(load(PAGE), "window", window=1)
    right = table(at, RIGHT)
    i, j = np.indices(right.shape)
    assert np.all(right[np.abs(i - j) > 1] == 0.0) and np.all(right[np.abs(i - j) <= 1] > 0.0)


def test_temperature_reaches_both_ways():
    at = choose_mask(load(PAGE), "causal")
    at.slider(key="lesson_w_temperature").set_value(0.5)
    rerun(at)
    t = unmasked()
    mask = attn_core.causal_mask(len(t.weights))
    expected = masking.mask_after_softmax(t.scaled, mask, temperature=0.5)
    np.testing.assert_allclose(table(at, WRONG), expected, atol=1e-12)
    np.testing.assert_allclose(table(at, RIGHT), unmasked(mask="causal", temperature=0.5).weights)


def test_custom_mask_starts_from_the_sidebar_and_follows_the_ticks():
    at = choose_mask(load(PAGE), "causal")
    at.toggle(key="mask_custom").set_value(True)
    rerun(at)
    t = unmasked()
    n = len(t.weights)
    grid = at.data_editor[0].value.to_numpy(dtype=bool)
    np.testing.assert_array_equal(grid, attn_core.causal_mask(n))
    names = list(at.data_editor[0].value.columns)
    edit_cells(at, at.data_editor[0].key, {(0, names[3]): True, (5, names[0]): False})
    mask = attn_core.causal_mask(n)
    mask[0, 3], mask[5, 0] = True, False
    right = table(at, RIGHT)
    np.testing.assert_allclose(right, attn_core.attention(t.q, t.k, t.v, mask=mask).weights)
    assert right[0, 3] > 0.0 and right[5, 0] == 0.0
    np.testing.assert_allclose(sums(at)[0], 1.0, atol=1e-6)


def test_custom_row_with_nothing_allowed_is_explained_in_words():
    at = choose_mask(load(PAGE), "causal")
    at.toggle(key="mask_custom").set_value(True)
    rerun(at)
    names = list(at.data_editor[0].value.columns)
    edit_cells(at, at.data_editor[0].key, {(0, names[0]): False})
    assert [e.value for e in at.error] == [str(attn_core.FullyMaskedRowError([0]))]
    assert "Query row 0 may not look at any key" in at.error[0].value
    assert not any(RIGHT in e.label or WRONG in e.label for e in at.expander)  # no NaN weights


def test_fully_masked_custom_mask_keeps_its_figure_and_the_page_links():
    at = choose_mask(load(PAGE), "causal")
    at.toggle(key="mask_custom").set_value(True)
    rerun(at)
    names = list(at.data_editor[0].value.columns)
    n = len(names)
    every = {(i, names[j]): False for i in range(n) for j in range(i + 1)}  # the causal ticks
    edit_cells(at, at.data_editor[0].key, every)
    assert (
        "Query rows 0, 1, 2" in at.error[0].value and "may not look at any key" in at.error[0].value
    )
    m = heatmap(at, "M (0 = may attend")  # still drawn: every cell masked, rows in order
    assert m["shape"] == [n, n] and np.all(np.isneginf(m["m"])) and "legend" in m
    assert m["rows"] == list(lesson().tokens)  # in the sentence's order, row 0 on top
    text = " ".join(md.value for md in at.markdown)
    assert "Try this" in text
    labels = [p.proto.label for p in at.get("page_link")]
    assert any(label.startswith("Previous:") for label in labels), labels
    assert any(label.startswith("Next:") for label in labels), labels


def test_custom_mask_in_the_by_hand_layout_has_queries_as_columns():
    at = choose_mask(load(PAGE), "causal")
    at.toggle(key="lesson_w_columns").set_value(True)
    at.toggle(key="mask_custom").set_value(True)
    rerun(at)
    n = len(unmasked().weights)
    np.testing.assert_array_equal(
        at.data_editor[0].value.to_numpy(dtype=bool), attn_core.causal_mask(n).T
    )
    names = list(at.data_editor[0].value.columns)
    edit_cells(at, at.data_editor[0].key, {(3, names[0]): True})  # key 3 for query 0
    t = unmasked()
    mask = attn_core.causal_mask(n)
    mask[0, 3] = True  # query 0 may now look at key 3
    shown = table(at, "softmax by column (+ Mᵀ)")  # by hand: column j is query j
    np.testing.assert_allclose(shown, attn_core.attention(t.q, t.k, t.v, mask=mask).weights.T)
    assert shown[3, 0] > 0.0 and shown[1, 0] == 0.0  # key 1 is still hidden from query 0


def test_a_link_keeps_no_mask_on_the_page_that_opens_on_the_causal_one():
    """Masking opens on the causal mask, so choosing None must show in its link (mask=none,
    which is every other page's default), and that link opens on None."""
    at = load(PAGE)
    assert at.query_params["mask"] == "causal"
    at.selectbox(key="lesson_w_mask").select("none")
    rerun(at)
    assert at.query_params["mask"] == "none"
    again = load(PAGE, query={"mask": "none"})
    assert again.selectbox(key="lesson_w_mask").value == "none"
