"""The canvas charts' builder (attn_ui/figures/chart.py): what the browser is sent."""

import json

import numpy as np
import pytest

from attn_ui.figures import bars, chart
from attn_ui.figures.heatmap import decode


def test_a_masked_value_is_sent_as_null_and_the_rest_as_numbers():
    s = chart.series("s / τ", np.array([1.5, -np.inf, -0.25]))
    assert s["values"] == [1.5, None, -0.25]
    json.dumps(s, allow_nan=False)  # no NaN or Infinity reaches the browser


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_a_value_that_is_not_a_number_is_refused(bad):
    with pytest.raises(ValueError, match="not a number"):
        chart.series("weight", [0.5, bad])


def test_every_series_needs_one_value_per_position():
    with pytest.raises(ValueError, match="has 2 values, not 3"):
        chart.bars(
            ["a", "b", "c"], [chart.series("w", [1, 2])], title="t", x_title="k", y_title="w"
        )
    with pytest.raises(ValueError, match="at least one series"):
        chart.lines([1, 2], [], title="t", x_title="d", y_title="v")


def test_a_log_axis_refuses_values_it_cannot_place():
    with pytest.raises(ValueError, match="positive"):
        chart.lines(
            [0, 1], [chart.series("v", [1, 2])], title="t", x_title="d", y_title="v", log_x=True
        )
    with pytest.raises(ValueError, match="positive"):
        chart.lines(
            [1, 2], [chart.series("v", [0, 2])], title="t", x_title="d", y_title="v", log_y=True
        )


def test_row_bars_label_a_repeated_word_at_each_position_and_mark_masked_bars():
    c = bars.row_bars([0.2, -np.inf, 0.8], ["the", "cat", "the"], title="w", y_title="weight")
    assert c["x"]["labels"] == ["the", "cat", "the"]  # positions, not categories
    (s,) = c["series"]
    assert s["values"] == [0.2, None, 0.8] and s["text"] == ["0.20", "−∞", "0.80"]


def test_stacked_parts_name_each_key_and_end_with_their_sum():
    parts = np.array([[0.1, -0.2], [0.3, 0.4]])
    c = bars.stacked_parts(parts, ["a", "b"], ["v0", "v1"], parts.sum(axis=0), title="Row 0")
    assert c["stacked"] and c["legend"]
    assert [s["name"] for s in c["series"]] == ["0 a", "1 b", "sum = output row"]
    assert c["series"][-1]["style"] == "diamond"
    assert c["series"][-1]["values"] == pytest.approx([0.4, 0.2])


def test_a_log_axis_without_ticks_gets_whole_powers_of_ten():
    c = chart.lines(
        [2, 30, 512],
        [chart.series("v", [1, 2, 3])],
        title="t",
        x_title="d",
        y_title="v",
        log_x=True,
    )
    assert c["x"]["ticks"] == [10.0, 100.0]
    given = chart.lines(
        [2, 512],
        [chart.series("v", [1, 2])],
        title="t",
        x_title="d",
        y_title="v",
        log_x=True,
        x_ticks=[2, 512],
    )
    assert given["x"]["ticks"] == [2.0, 512.0]


def test_a_series_keeps_its_own_x_error_bars_and_labels_and_refuses_bad_ones():
    s = chart.series("fit", [1, 2], x=[4, 8], error=[0.5, 0], text=["a", "b"], legend=False)
    assert (s["x"], s["error"], s["text"], s["legend"]) == (
        [4.0, 8.0],
        [0.5, 0.0],
        ["a", "b"],
        False,
    )
    with pytest.raises(ValueError, match="has 1 x for 2 values"):
        chart.series("fit", [1, 2], x=[4])
    with pytest.raises(ValueError, match="negative error bar"):
        chart.series("v", [1], error=[-1])
    with pytest.raises(ValueError, match="not a number"):
        chart.series("v", [1], x=[np.nan])
    with pytest.raises(ValueError, match="drawn as one of"):
        chart.series("v", [1], style="spline")


def test_lines_of_their_own_x_need_no_shared_x_and_bars_take_none():
    fit = chart.series("fit", [1, 2], x=[10, 100], style="dash")
    c = chart.lines(None, [fit], title="t", x_title="T", y_title="s", log_x=True)
    assert c["x"]["values"] == [] and c["x"]["ticks"] == [10.0, 100.0]
    with pytest.raises(ValueError, match="positive"):
        chart.lines(
            None, [chart.series("v", [1], x=[0])], title="t", x_title="T", y_title="s", log_x=True
        )
    with pytest.raises(ValueError, match="needs `lines`"):
        chart.bars(["a", "b"], [fit], title="t", x_title="k", y_title="w")


def test_a_plane_is_square_around_the_origin_and_holds_every_point():
    circle = chart.series("circle", [0, 2, 0], x=[-2, 0, 2], style="curve")
    c = chart.plane([circle], title="p", x_title="q_0", y_title="q_1")
    assert c["equal"] and c["x"]["range"] == c["y"]["range"]
    lo, hi = c["x"]["range"]
    assert lo == -hi and 2 < hi < 2.5
    with pytest.raises(ValueError, match="its own x"):
        chart.plane([chart.series("v", [1])], title="p", x_title="x", y_title="y")


def test_links_send_the_weights_and_refuse_a_matrix_of_another_shape():
    w = np.array([[0.25, 0.75], [1.0, 0.0]])
    c = chart.links(w, ["<b>", "cat"], 1, title="Lines", floor=0.01)
    assert c["tokens"] == ["<b>", "cat"] and c["query"] == 1
    np.testing.assert_array_equal(decode(c["weights"], (2, 2)), w)
    w32 = np.array([[0.1, 0.9], [0.3, 0.7]], dtype=np.float32)  # a pretrained head's
    c32 = chart.links(w32, ["a", "b"], None, title="L", floor=0.01)
    assert len(c32["weights"]) < len(c["weights"])  # 4 bytes a weight
    np.testing.assert_array_equal(decode(c32["weights"], (2, 2)), w32.astype(np.float64))
    with pytest.raises(ValueError, match="square matrix"):
        chart.links(w[:1], ["a", "b"], None, title="L", floor=0.01)


def test_a_histogram_needs_samples():
    with pytest.raises(ValueError, match="samples to count"):
        chart.histogram([("a", [], "red")], title="t", x_title="x")
