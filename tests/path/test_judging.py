"""Judging a learner's answer never misjudges: counts are exact, every key tied for the
largest value (as the figure shows it) is right, and every explanation is written for its
question with its blanks filled (attn_lessons/questions.py, lessons/checks.md)."""

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attn_lessons.questions import (
    STEP_PAGES,
    NoQuestions,
    Verdict,
    explanation,
    judge,
    shown_decimals,
    top_keys,
)
from attn_ui.compute import lesson_run
from attn_ui.figures.heatmap import _decimals
from attn_ui.frame import lesson
from attn_ui.settings import LessonSettings
from tests.path.test_questions import IDS, SETTINGS, asked, by_key, query_of

TEXT = lesson("checks")
REPEATED = "The cat sat on the mat because the cat was tired."  # "cat" at 1 and 8


def test_a_count_is_right_only_when_exact():
    """/Tokens on the real head: X's rows hold 384 numbers; 386 and 382 are wrong."""
    q = by_key(asked("tokens", LessonSettings())[1])["token_width"]
    assert q.kind == "count" and q.answer == 384
    assert judge(q, 384) == judge(q, 384.0) == Verdict(True)
    for near in (382, 383, 383.9, 384.5, 385, 386):
        assert not judge(q, near).correct, near


def test_the_number_of_context_vectors_is_exact():
    s = LessonSettings(weights="random")
    q = by_key(asked("multihead", s)[1])["context_vectors"]
    t = len(lesson_run(s).tokens)
    assert q.answer == t * 2  # two heads by default
    assert judge(q, t * 2).correct
    for near in range(t * 2 - 3, t * 2 + 4):
        assert judge(q, near).correct == (near == t * 2), near


def test_both_copies_of_a_repeated_word_are_right_on_scores():
    """/Scores, random weights, seed 0: both "cat" keys have the same vector, so their
    scores tie exactly; either one is right, and the verdict says they tie."""
    s = LessonSettings(sentence=REPEATED, weights="random", seed=0)
    t = lesson_run(s).trace
    q = by_key(asked("scores", s)[1])["top_score"]
    i = query_of(q)
    assert t.scores[i, 1] == t.scores[i, 8]
    assert q.right == {1, 8}
    assert judge(q, 1) == judge(q, 8) == Verdict(True)
    words = explanation(q, Verdict(True), TEXT)
    assert "“1 cat” and “8 cat” tie" in words


def test_a_row_with_only_tied_tops_still_accepts_every_tied_key():
    """/Overview, random weights, "the cat the cat": every key has a twin, so the question
    cannot avoid a tie; both twins are right."""
    s = LessonSettings(sentence="the cat the cat", weights="random", seed=0)
    t = lesson_run(s).trace
    q = by_key(asked("overview", s)[1])["most_attended"]
    i = query_of(q)
    top = int(np.argmax(t.weights[i]))
    twin = (top + 2) % 4
    assert t.weights[i, top] == t.weights[i, twin]
    assert q.right == {top, twin}
    assert judge(q, twin) == Verdict(True)
    assert not any(a in q.right for _, a in q.wrong)  # no misconception names a right key


def test_the_overview_avoids_a_tied_row_when_it_can():
    """Seed 0 on the issue's sentence: the asked query's top key stands alone."""
    s = LessonSettings(sentence=REPEATED, weights="random", seed=0)
    q = by_key(asked("overview", s)[1])["most_attended"]
    assert q.ties == frozenset()


WORDS = ["the", "cat", "sat", "on", "mat", "it", "was", "tired", "dog", "ran", "."]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    words=st.lists(st.sampled_from(WORDS), min_size=2, max_size=9),
    seed=st.integers(0, 50),
    weights=st.sampled_from(["random", "similarity"]),
)
def test_whatever_key_has_the_largest_value_as_shown_is_right(words, seed, weights):
    """For any sentence: on /Overview (A) and /Scores (S), a key is judged right exactly
    when its value, rounded as the heatmap shows it, is the row's largest."""
    s = LessonSettings(sentence=" ".join(words), weights=weights, seed=seed)
    t = lesson_run(s).trace
    n = t.weights.shape[0]
    for page, key, m, kind in (
        ("overview", "most_attended", t.weights, "weights"),
        ("scores", "top_score", t.scores, "scores"),
    ):
        q = by_key(asked(page, s)[1])[key]
        row = m[query_of(q)]
        shown = np.round(row, _decimals(kind, n, 2))
        for j in range(n):
            assert judge(q, j).correct == (shown[j] == shown.max()), (page, j, row)


@pytest.mark.parametrize("n", range(1, 40))
def test_ties_are_counted_at_the_heatmaps_own_precision(n):
    assert shown_decimals("weights", n) == _decimals("weights", n, 2)
    assert shown_decimals("scores", n) == _decimals("scores", n, 2)


def test_a_masked_key_never_ties():
    assert top_keys(np.array([-np.inf, 0.2, 0.2]), 2) == (1, 2)
    assert top_keys(np.array([0.5, -np.inf, 0.25]), 2) == (0,)


def _verdicts(q):
    """Every verdict the form can show for `q`, with a learner's answer for each."""
    yield Verdict(True), q.answer
    yield Verdict(False, answered=False), None
    for name, a in q.wrong:
        yield Verdict(False, name), a
    other = {"number": 123.0, "count": 123, "choice": 0, "cells": frozenset({0})}[q.kind]
    yield Verdict(False), other


@pytest.mark.parametrize("s", SETTINGS, ids=IDS)
@pytest.mark.parametrize("page", STEP_PAGES)
def test_every_explanation_is_filled(page, s):
    """Every verdict's text, for every question on every page, has no unfilled {blank}."""
    _, qs = asked(page, s)
    if isinstance(qs, NoQuestions):
        return
    tied = replace(qs[0], ties=frozenset({1}), answer=0) if qs[0].kind == "choice" else qs[0]
    for q in (*qs, tied):
        for verdict, answer in _verdicts(q):
            words = explanation(q, verdict, TEXT, answer)
            assert "{" not in words and "}" not in words, (q.key, verdict, words)


def test_explanations_speak_about_the_question_asked():
    """X's width read as its row count speaks of X, not of queries and keys; Z's shape
    turned on its side speaks of Z; a wrong divisor speaks of the divisor."""
    real = LessonSettings()
    q = by_key(asked("tokens", real)[1])["token_width"]
    t = len(lesson_run(real).tokens)
    words = explanation(q, judge(q, t), TEXT, t)
    assert f"{t} is the number of tokens" in words and "quer" not in words
    q = by_key(asked("weighted_sum", real)[1])["z_shape"]
    words = explanation(q, judge(q, dict(q.wrong)["rows_vs_columns"]), TEXT)
    assert "Z turned on its side" in words and "quer" not in words
    q = by_key(asked("scaling", real)[1])["divisor"]
    assert "which matrix" not in explanation(q, judge(q, 7.0), TEXT, 7.0)


def test_dividing_by_d_k_quotes_the_numbers():
    """The real head: d_k = 32, so the scores are divided by √32 ≈ 5.66, not by 32."""
    q = by_key(asked("scaling", LessonSettings())[1])["divisor"]
    verdict = judge(q, 32)
    assert verdict == Verdict(False, "divided_by_d_k")
    words = explanation(q, verdict, TEXT, 32)
    assert "d_k = 32" in words and "√32 ≈ 5.66" in words


def test_the_projection_offers_more_than_two_shapes_for_w_q():
    """W_Q's shape against one that grows with the sentence, its transpose, and one that
    keeps the width: four options, each wrong one named."""
    s = LessonSettings()
    q = by_key(asked("projection", s)[1])["w_q_shape"]
    grown = f"{len(lesson_run(s).tokens) + 1} × 32"
    assert q.options[q.answer] == "384 × 32"
    assert set(q.options) == {"384 × 32", "32 × 384", "384 × 384", grown}
    assert {q.options[a] for _, a in q.wrong} == {"32 × 384", "384 × 384", grown}
