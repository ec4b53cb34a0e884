"""Hostile input through the paths the pages use: a finite result or an AttentionInputError.

Any other exception, an empty message, or a NaN / infinity in a result fails the test.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import attn_core
from attn_core import AttentionInputError, by_hand
from attn_core.by_hand import checking
from attn_core.text import embed
from attn_ui.compute import lesson_run
from attn_ui.settings import D_KS, D_MODELS, MASKS, WEIGHT_SOURCES, LessonSettings

FUZZ = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
HOSTILE_TEXT = [
    "<script>alert(1)</script>",
    "<b>x</b>",
    "**x**",
    "[a](javascript:x)",
    "\x00\x01\x07\x1b[31m\x7f",
    "x" * 10_000,
    "word " * 2_000,
    "😀🧠👩‍👩‍👧 🇫🇷",
    "مرحبا بالعالم שלום",
    "\u202eevil\u202c text",
    "",
    "   \n\t ",
    "\ufeff\u200b\u200d",
    "ﷺ" * 300,
]
texts = st.one_of(st.sampled_from(HOSTILE_TEXT), st.text(max_size=300))
numbers = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, 1e308, -1e308, 1e-320, 2**63, 1e154]),
    st.integers(-(2**70), 2**70),
)


def outcome(call):
    """Run `call`: return its result, or None after a non-empty AttentionInputError."""
    try:
        return call()
    except AttentionInputError as exc:
        assert str(exc).strip(), f"empty message from {type(exc).__name__}"
        return None


def finite(*arrays) -> None:
    for a in arrays:
        a = np.asarray(a, dtype=float)
        assert np.isfinite(a).all(), a


def check_trace(t) -> None:
    """Every number a page shows is finite; masked scores are -inf only where masked."""
    finite(t.q, t.k, t.v, t.scores, t.scaled, t.weights, t.output)
    masked_ok = np.isfinite(t.masked) | (t.masked == -np.inf)
    assert masked_ok.all()
    np.testing.assert_allclose(t.weights.sum(axis=-1), 1.0, atol=1e-6)


def lesson_settings(**over):
    fields = dict(
        sentence=texts,
        d_model=st.sampled_from(D_MODELS),
        d_k=st.sampled_from(D_KS),
        weights=st.sampled_from(list(WEIGHT_SOURCES)),
        seed=st.integers(0, 10_000),
        mask=st.sampled_from(list(MASKS)),
        n_pad=st.integers(0, 8),
        window=st.integers(0, 8),
        n_heads=st.integers(1, 8),
        temperature=st.sampled_from([x / 10 for x in range(1, 51)]),
        layer=st.integers(0, 5),
        head=st.integers(0, 11),
    )
    return st.builds(LessonSettings, **(fields | over))


@FUZZ
@given(s=lesson_settings(), multi=st.booleans())
def test_lesson_run_with_widget_values(s, multi):
    """Any sentence and any combination the sidebar widgets allow."""
    run = outcome(lambda: lesson_run(s, multi=multi))
    if run is None:
        return
    assert len(run.tokens) == run.x.shape[0] >= 1
    finite(run.x)
    check_trace(run.trace)
    if run.multi is not None:
        finite(run.multi.concat, run.multi.output, run.multi.weights)


@FUZZ
@given(s=lesson_settings(temperature=numbers, seed=st.integers(-5, 10**12)))
def test_lesson_run_with_values_no_widget_allows(s):
    """Temperatures and seeds from outside the widgets' ranges (a crafted link, a bug)."""
    run = outcome(lambda: lesson_run(s, multi=True))
    if run is not None:
        check_trace(run.trace)


@FUZZ
@given(
    sentence=texts,
    d=st.one_of(st.integers(-3, 400), numbers, st.none()),
    source=st.sampled_from(["pretrained", "random", "", "<b>x</b>"]),
    seed=st.one_of(st.integers(-3, 2**40), st.floats()),
)
def test_embed(sentence, d, source, seed):
    got = outcome(lambda: embed(sentence, d, source=source, seed=seed))
    if got is not None:
        tokens, x = got
        assert len(tokens) == x.shape[0] >= 1
        finite(x)


@pytest.mark.parametrize("text", HOSTILE_TEXT[:5] + HOSTILE_TEXT[7:10])
def test_markup_emoji_and_rtl_are_words_like_any_other(text):
    """HTML, Markdown, control characters, emoji and RTL give a result, not an error."""
    run = lesson_run(LessonSettings(sentence=text), multi=True)
    assert len(run.tokens) >= 1
    check_trace(run.trace)


@pytest.mark.parametrize("text", ["", "   \n\t ", "word " * 2_000])
def test_empty_and_overlong_sentences_are_explained(text):
    with pytest.raises(AttentionInputError, match=r"\w"):
        lesson_run(LessonSettings(sentence=text), multi=True)


# --- matrices ---------------------------------------------------------------------------

elements = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True, width=64),
    st.sampled_from([1e308, -1e308, 1e200, 1e-320, 0.0]),
)
float_arrays = hnp.arrays(
    dtype=st.sampled_from([np.float64, np.float32, np.int64, np.int8, np.bool_]),
    shape=hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=4),
    elements=None,
)
odd_arrays = st.one_of(
    hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=3, max_side=4), elements=elements),
    float_arrays,
    st.just(np.array([[1, "a"], [2, 3]], dtype=object)),
    st.just(np.array([[1.0, None]], dtype=object)),
    st.just(np.array([[1 + 2j, 0]])),
    st.just(np.array([["1", "2"]])),
    st.just([[1.0, 2.0], [3.0]]),
    st.none(),
    st.just("<script>alert(1)</script>"),
)
square = hnp.arrays(np.float64, st.tuples(st.integers(1, 4), st.just(3)), elements=elements)


@FUZZ
@given(
    q=st.one_of(square, odd_arrays),
    k=st.one_of(square, odd_arrays),
    v=st.one_of(square, odd_arrays),
    temperature=numbers,
    scale=st.one_of(st.none(), numbers),
)
def test_attention(q, k, v, temperature, scale):
    t = outcome(lambda: attn_core.attention(q, k, v, scale=scale, temperature=temperature))
    if t is not None:
        check_trace(t)


@FUZZ
@given(
    x=st.one_of(square, odd_arrays),
    n_heads=st.one_of(st.integers(-1, 5), numbers),
    mask=st.one_of(st.none(), odd_arrays, hnp.arrays(np.bool_, (3, 3))),
)
def test_multi_head_attention(x, n_heads, mask):
    w = attn_core.lesson_weights(3, 2, n_heads=1, seed=0)

    def call():
        return attn_core.multi_head_attention(x, w.w_q, w.w_k, w.w_v, w.w_o, n_heads, mask=mask)

    mh = outcome(call)
    if mh is not None:
        finite(mh.concat, mh.output)
        for head in mh.heads:
            check_trace(head)


@FUZZ
@given(x=odd_arrays, temperature=numbers)
def test_softmax(x, temperature):
    w = outcome(lambda: attn_core.softmax(x, temperature=temperature))
    if w is not None:
        finite(w)


def masks(t, width) -> None:
    for make in (
        lambda: attn_core.causal_mask(t),
        lambda: attn_core.window_mask(t, width),
        lambda: attn_core.padding_mask(width, t),
    ):
        m = outcome(make)
        if m is not None:
            assert m.dtype == bool and m.shape == (t, t)


# Sizes are kept small: a mask of T = 1e5 would allocate 10 GB on a shared machine.
@FUZZ
@given(
    t=st.one_of(st.integers(-3, 70), st.floats(), st.none(), st.text(max_size=3)),
    width=st.one_of(st.integers(-3, 70), numbers),
)
def test_masks(t, width):
    masks(t, width)


@pytest.mark.parametrize("t", [2**31, 10**12, 2**63])
def test_masks_reject_sizes_numpy_cannot_allocate(t):
    """T so large that NumPy refuses before allocating anything: still the core's error."""
    for make in (attn_core.causal_mask, lambda t: attn_core.window_mask(t, 1)):
        with pytest.raises(AttentionInputError, match="too long"):
            make(t)
    with pytest.raises(AttentionInputError, match="too long"):
        attn_core.padding_mask(1, t)


def test_a_fully_masked_row_is_an_input_error():
    """The pages stop on an AttentionInputError with its sentence; a mask that hides every
    key of a row must be one (FullyMaskedRowError), never NaN weights."""
    no_keys = np.zeros((2, 2), dtype=bool)
    with pytest.raises(AttentionInputError, match="may not look at any key"):
        attn_core.attention(np.ones((2, 3)), np.ones((2, 3)), np.ones((2, 3)), mask=no_keys)


# --- worksheets and pencil ------------------------------------------------------------

grid = st.tuples(st.integers(0, 4), st.integers(0, 4))
small_ints = st.one_of(
    hnp.arrays(np.int64, grid, elements=st.integers(-120, 120)),
    hnp.arrays(np.float64, grid, elements=st.one_of(st.integers(-120, 120), elements)),
)
pencil_in = st.one_of(small_ints, odd_arrays)


def check_hand(t) -> None:
    """Floats finite; Fractions and ints are exact, hence finite; columns of weights sum to 1."""
    for name in ("q", "k", "v", "scores", "scaled", "powers", "col_sums", "weights", "z"):
        for a in np.asarray(getattr(t, name), dtype=object).ravel():
            assert isinstance(a, int | np.integer | Fraction) or math.isfinite(a), (name, a)
    assert all(abs(float(c) - 1) < 1e-9 for c in t.weights.sum(axis=0)), t.weights


@FUZZ
@given(
    x=pencil_in,
    w_q=pencil_in,
    w_k=pencil_in,
    w_v=pencil_in,
    scale_rule=st.sampled_from(["floor", "trunc", "exact", "", "<b>x</b>"]),
    base=st.one_of(st.integers(-2, 12), numbers),
    causal=st.booleans(),
)
def test_hand_attention(x, w_q, w_k, w_v, scale_rule, base, causal):
    def call():
        return by_hand.hand_attention(
            x, w_q, w_k, w_v, scale_rule=scale_rule, base=base, causal=causal
        )

    t = outcome(call)
    if t is not None:
        check_hand(t)


@FUZZ
@given(
    seed=st.one_of(st.integers(-3, 2**63), numbers, st.text(max_size=4)),
    tokens=st.one_of(st.none(), st.integers(-2, 10), numbers),
    features=st.one_of(st.none(), st.integers(-2, 12)),
    d_k=st.one_of(st.none(), st.integers(-2, 6)),
    difficulty=st.sampled_from(["easy", "medium", "hard", "EASY", "<script>"]),
    variant=st.sampled_from(["plain", "causal", "two_heads", "three_heads"]),
    scale_rule=st.sampled_from(["floor", "trunc", "exact"]),
)
def test_make_exercise(seed, tokens, features, d_k, difficulty, variant, scale_rule):
    def call():
        return attn_core.make_exercise(
            seed,
            tokens=tokens,
            features=features,
            d_k=d_k,
            difficulty=difficulty,
            variant=variant,
            scale_rule=scale_rule,
        )

    ex = outcome(call)
    if ex is not None:
        for t in ex.heads:
            check_hand(t)


cell = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["1/3", "-0", "1e309", "nan", "inf", "<b>x</b>", "**1**", "½", "١٢"]),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.none(),
)
TRACE = by_hand.hand_attention(
    [[1, 0, 1], [0, 1, 1]], [[1, 0], [0, 1]], [[1, 1], [0, 1]], [[1, 0], [1, 1]]
)


@FUZZ
@given(
    step=st.sampled_from([*checking.STEPS, "nope"]),
    cells=st.one_of(
        st.lists(st.lists(cell, min_size=0, max_size=4), max_size=4), st.text(max_size=5), st.none()
    ),
)
def test_check_grid(step, cells):
    c = outcome(lambda: checking.check_grid(TRACE, step, cells))
    if c is not None:
        assert set(np.unique(c.status)) <= {"right", "wrong", "blank"}


@pytest.mark.parametrize("step", checking.STEPS)
def test_check_grid_accepts_the_right_answer(step):
    """The fuzzed checker still says right to the exact answer (so the fuzz can fail)."""
    want = checking.expected(TRACE, step)
    cells = [[str(a) for a in row] for row in want]
    assert checking.check_grid(TRACE, step, cells).all_right
