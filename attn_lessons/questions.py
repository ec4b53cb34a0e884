"""Check-yourself questions computed from the learner's own sentence and settings. Pure:
NumPy and attn_core only, no Streamlit (tests/path/test_questions.py ties it to the core).

A question holds its right answer and the answers that known misconceptions give (the
argmax of the column instead of the row, the unscaled score, a softmax over the wrong axis,
the mask applied after the softmax, ...), so a wrong answer can be explained by name. The
wording lives in lessons/checks.md: a question's `key` names its section, a misconception's
name names another, and `fills` fill their blanks.

Answers: "choice" an option's index (and every index in `ties`, equally right: keys that tie
for the largest value as the figure shows it), "cells" a frozenset of option indices,
"count" a whole number, exact, "number" a float within `tolerance`. A misconception whose
answer is a right one is left out: it could not be told apart.

A wrong answer is explained by the section "<question key>: <misconception>" of
lessons/checks.md when the question has its own words for it, else by the misconception's
general section (`explanation`); every blank is filled for every question.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace

import numpy as np

from attn_core import Trace
from attn_core.labs.masking import mask_after_softmax
from attn_core.multihead import MultiHeadTrace
from attn_core.softmax import softmax
from attn_lessons.i18n import _
from attn_lessons.text import fill

STEP_PAGES = (
    "overview",
    "tokens",
    "projection",
    "scores",
    "scaling",
    "softmax",
    "weighted_sum",
    "masking",
    "multihead",
)


@dataclass(frozen=True)
class Question:
    key: str  # lessons/checks.md "## <key>" holds the wording
    kind: str  # "choice" | "cells" | "count" | "number"
    answer: object  # option index, frozenset of option indices, int, or float
    options: tuple[str, ...] = ()
    tolerance: float = 0.0
    wrong: tuple[tuple[str, object], ...] = ()  # (misconception, the answer it gives)
    fills: dict[str, str] = field(default_factory=dict)
    ties: frozenset[int] = frozenset()  # "choice": other options as right as `answer`

    @property
    def right(self) -> frozenset:
        """Every answer judged right: `answer`, and for a choice the options tied with it."""
        return frozenset({self.answer}) | self.ties

    @property
    def ident(self) -> str:
        """Short and stable for the same question: names its widget, so a new sentence
        (a new question) starts with an empty answer."""
        text = repr((self.key, self.kind, self.options, sorted(self.fills.items())))
        return hashlib.sha1(text.encode()).hexdigest()[:10]


@dataclass(frozen=True)
class Verdict:
    correct: bool
    misconception: str | None = None  # the name of the misconception the answer matches
    answered: bool = True


@dataclass(frozen=True)
class NoQuestions:
    """Why a page asks nothing for these settings: `reason` names a lessons/checks.md section."""

    reason: str


def judge(q: Question, given) -> Verdict:
    """The verdict on `given` (None: not answered)."""
    if given is None or (q.kind == "cells" and not given):
        return Verdict(False, answered=False)
    if q.kind == "cells":
        given = frozenset(given)
    if any(_same(q, given, right) for right in q.right):
        return Verdict(True)
    for name, answer in q.wrong:
        if _same(q, given, answer):
            return Verdict(False, name)
    return Verdict(False)


def _same(q: Question, a, b) -> bool:
    if q.kind == "number":
        return bool(abs(float(a) - float(b)) <= q.tolerance)
    if q.kind == "count":
        return float(a) == float(b)  # a count is right only when exact: 386 is not 384
    return a == b


def explanation(q: Question, verdict: Verdict, text: dict[str, str], given=None) -> str:
    """What the app says under a judged answer, its blanks filled: "Right" (naming every
    tied option), or why a wrong answer is wrong, in this question's own words when
    lessons/checks.md has a section "<q.key>: <misconception>" (or "<q.key>: Wrong"), else
    in the misconception's general words. `given` : the learner's answer ({given})."""
    if verdict.correct:
        if not q.ties:
            return text["Right"]
        quoted = [f"“{q.options[i]}”" for i in sorted(q.right)]
        tied = quoted[0]
        for option in quoted[1:]:  # “a” and “b” and “c”
            tied = _("{first} and {second}").format(first=tied, second=option)
        return _filled(text["Right, tied"], {**q.fills, "tied": tied})
    if not verdict.answered:
        return text["Not answered"]
    name = verdict.misconception or "Wrong"
    words = text.get(f"{q.key}: {name}", text[name])
    return _filled(words, {**q.fills, "given": _written(q, given)})


def wording(q: Question, text: dict[str, str]) -> str:
    """The question's own words (lessons/checks.md "## <q.key>"), its blanks filled."""
    return _filled(text[q.key], q.fills)


def _filled(words: str, fills: dict[str, str]) -> str:
    """`words` with the blanks it has filled from `fills` (a question's fills name every
    blank any of its texts may use; a blank left unfilled stays, and a test fails on it)."""
    return fill(words, **{k: v for k, v in fills.items() if "{" + k + "}" in words})


def _written(q: Question, given) -> str:
    """The learner's answer as they gave it, for {given}."""
    if given is None:
        return ""
    if q.kind in ("choice",):
        return q.options[int(given)]
    if q.kind == "cells":
        return ", ".join(q.options[int(i)] for i in sorted(given)) or _("none")
    if q.kind == "count" or float(given).is_integer():
        return f"{float(given):g}"
    return f"{float(given):.3f}"


def tolerance(value: float) -> float:
    """What reading a number off a figure allows: 0.006, or 0.6 % of a large value."""
    return max(0.006, 0.006 * abs(float(value)))


def labels(tokens) -> tuple[str, ...]:
    """'0 the', '1 cat', ...: as the figures and tables label tokens."""
    return tuple(f"{i} {t}" for i, t in enumerate(tokens))


def _number(key: str, value: float, wrong: dict[str, float], **fills) -> Question:
    tol = tolerance(value)
    kept: list[tuple[str, float]] = []
    for name, v in wrong.items():
        others = [value, *(a for _name, a in kept)]
        if np.isfinite(v) and all(abs(v - o) > 2 * max(tol, tolerance(v)) for o in others):
            kept.append((name, float(v)))
    return Question(key, "number", float(value), tolerance=tol, wrong=tuple(kept), fills=fills)


def _count(key: str, value: int, wrong: dict[str, int], **fills) -> Question:
    """A whole number, judged exactly (a token count, a width, a number of vectors)."""
    kept = _distinct(int(value), {n: int(a) for n, a in wrong.items()})
    return Question(key, "count", int(value), wrong=kept, fills=fills)


def _distinct(answer, wrong: dict[str, object]) -> tuple[tuple[str, object], ...]:
    """The misconceptions whose answers differ from the right one and from each other's
    (the first named keeps an answer two share)."""
    kept: dict[object, str] = {}
    for name, a in wrong.items():
        if a != answer and a not in kept:
            kept[a] = name
    return tuple((name, a) for a, name in kept.items())


def _choice(key: str, answer: str, wrong: dict[str, str], **fills) -> Question:
    """A select box of `answer` and the misconceptions' answers, in a fixed order (sorted),
    so the right one's place gives nothing away."""
    options = tuple(sorted({answer, *wrong.values()}))
    kept = tuple((n, options.index(a)) for n, a in _distinct(answer, wrong))
    return Question(key, "choice", options.index(answer), options, wrong=kept, fills=fills)


def _top_key(
    key: str, tokens, values: np.ndarray, decimals: int, wrong: dict[str, int], **fills
) -> Question:
    """Which key has the largest of a query's `values`: every key whose value, rounded as
    the figure shows it (`decimals`), equals the largest is right (a repeated word with the
    same vector ties exactly), and a misconception that lands on one of them is none."""
    right = top_keys(values, decimals)
    answer = int(np.argmax(values))
    kept = tuple((n, a) for n, a in _distinct(answer, wrong) if a not in right)
    ties = frozenset(right) - {answer}
    return Question(key, "choice", answer, labels(tokens), wrong=kept, fills=fills, ties=ties)


def top_keys(row: np.ndarray, decimals: int) -> tuple[int, ...]:
    """The keys whose value is the row's largest as the figure writes it (`decimals` after
    the point); masked keys (-inf) never."""
    shown = np.round(np.where(np.isfinite(row), row, -np.inf), decimals)
    return tuple(int(j) for j in np.flatnonzero(shown == np.max(shown)))


# Digits after the point on a step page's heatmap cells and hover (as
# attn_ui/figures/heatmap.py draws them; a test ties the two): weights keep 2, other values
# lose one beyond 8 columns.
def shown_decimals(kind: str, n_cols: int) -> int:
    return 2 if kind == "weights" or n_cols <= 8 else 1


def shape(rows, cols, columns: bool) -> str:
    """A per-token matrix's shape as the layout shows it: by hand, tokens are columns (the
    "Where it sits" box writes its shapes with it too)."""
    return f"{cols} × {rows}" if columns else f"{rows} × {cols}"


def _layout(columns: bool) -> dict[str, str]:
    """The words for the blanks {row} and {col}: by hand (columns), a query's numbers are a
    column. In the page's language: they are read inside the lesson's sentences."""
    if columns:
        return {"row": _("column"), "col": _("row")}
    return {"row": _("row"), "col": _("column")}


def _axes(columns: bool) -> str:
    """The blank {axis} of "How many {axis} does X have": X's tokens are its columns by hand."""
    return _("columns") if columns else _("rows")


def pick_query(weights: np.ndarray, tokens, decimals: int = 2) -> int:
    """The query a question asks about: one whose top key stands alone as the figure shows
    it (`decimals`; no tie), whose answer differs most from what the misconceptions would
    give (its row's top key is not its column's nor itself), a word before a special token
    ([CLS], [SEP]), then the most decided row, then the first."""
    t = len(tokens)
    best, best_score = 0, None
    top_col = np.argmax(weights, axis=0)
    for i in range(t):
        row = weights[i]
        j = int(np.argmax(row))
        special = str(tokens[i]).startswith("[") and str(tokens[i]).endswith("]")
        score = (
            len(top_keys(row, decimals)) == 1,
            j != int(np.argmax(weights[:, i])),
            j != i,
            not special,
            j != int(top_col[i]),
            round(float(np.max(row)), 6),
        )
        if best_score is None or score > best_score:
            best, best_score = i, score
    return best


def pick_pair(m: np.ndarray, i: int, allowed: np.ndarray | None = None) -> int:
    """A key j for the cell (i, j) that differs most from its transpose (j, i): not the
    query itself, and one the mask allows (`allowed`: (T, T) bool), when there is one."""
    t = m.shape[0]
    ok = np.ones(t, bool) if allowed is None else np.asarray(allowed[i], bool)
    others = [j for j in range(t) if j != i and ok[j]] or [i]
    return max(others, key=lambda j: (round(abs(float(m[i, j] - m[j, i])), 9), -j))


def _query(tokens, i: int) -> str:
    return labels(tokens)[i]


# --- the pages ---------------------------------------------------------------------------


def for_run(page: str, run, s, *, trace: Trace | None = None, unmasked: Trace | None = None):
    """`build` for a step page's run (its tokens, x, trace and multi-head trace) and the
    learner's settings `s` (the layout and the sentence): the one call the form and the tests
    make. trace : the head the page shows, when not run.trace (the masking page's)."""
    return build(
        page,
        run.tokens,
        run.trace if trace is None else trace,
        run.x,
        columns=s.columns,
        sentence=s.sentence,
        multi=run.multi,
        unmasked=unmasked,
    )


def build(
    page: str,
    tokens,
    trace: Trace,
    x: np.ndarray,
    *,
    columns: bool = False,
    sentence: str = "",
    multi: MultiHeadTrace | None = None,
    unmasked: Trace | None = None,
) -> tuple[Question, ...] | NoQuestions:
    """The questions of step page `page` (one of STEP_PAGES) for this run.

    tokens : T labels   trace : the head the page shows   x : (T, d_model)
    columns : the by-hand layout (tokens as columns): "row" wording follows it
    multi : the multi-head trace (page "multihead")
    unmasked : the same head without a mask (page "masking": the wrong way starts there)
    """
    if len(tokens) < 2:
        return NoQuestions("one token")
    make = {
        "overview": _overview,
        "tokens": _tokens,
        "projection": _projection,
        "scores": _scores,
        "scaling": _scaling,
        "softmax": _softmax,
        "weighted_sum": _weighted_sum,
        "masking": _masking,
        "multihead": _multihead,
    }[page]
    asked = make(
        tokens=tokens,
        t=trace,
        x=x,
        columns=columns,
        sentence=sentence,
        multi=multi,
        unmasked=unmasked,
    )
    if isinstance(asked, NoQuestions):
        return asked
    # every explanation may speak of rows and columns in the layout's words
    return tuple(replace(q, fills=_layout(columns) | q.fills) for q in asked)


def _overview(tokens, t, x, columns, **_rest) -> tuple[Question, ...]:
    n, lay = len(tokens), _layout(columns)
    a_shape = _choice(
        "overview_shape",
        f"{n} × {n}",
        {
            "shape_of_x": shape(n, x.shape[1], columns),
            "shape_of_q": shape(n, t.d_k, columns),
            "shape_of_z": shape(n, t.d_v, columns),
        },
        tokens=str(n),
    )
    return a_shape, _most_attended(tokens, t, lay)


def _most_attended(tokens, t, lay, key: str = "most_attended") -> Question:
    w = t.weights  # (T, T): row i is query i's distribution over the keys
    i = pick_query(w, tokens)
    wrong = {
        "rows_vs_columns": int(np.argmax(w[:, i])),
        "itself": i,
    }
    if t.mask is not None:
        wrong["ignored_mask"] = int(np.argmax(softmax(t.scaled[i], temperature=t.temperature)))
    shown = shown_decimals("weights", len(tokens))
    return _top_key(key, tokens, w[i], shown, wrong, query=_query(tokens, i), **lay)


def _tokens(tokens, x, columns, sentence, **_rest) -> tuple[Question, ...]:
    n, d_model = x.shape
    lay = _layout(columns)
    words = len(sentence.split())
    sizes = {"tokens": str(n), "d_model": str(d_model)}
    count = _count(
        "token_count",
        n,
        {"words_not_tokens": words, "rows_vs_columns": d_model},
        axis=_axes(columns),
        words=str(words),
        **sizes,
    )
    width = _count("token_width", d_model, {"rows_vs_columns": n}, axis=lay["row"], **sizes)
    return count, width


def _projection(tokens, t, x, columns, **_rest) -> tuple[Question, ...]:
    n, d_model = x.shape
    sizes = {"tokens": str(n), "d_model": str(d_model), "d_k": str(t.d_k)}
    q_shape = _choice(
        "q_shape",
        shape(n, t.d_k, columns),
        {
            "rows_vs_columns": shape(n, t.d_k, not columns),
            "weights_not_projection": shape(d_model, t.d_k, columns),
            "projection_keeps_width": shape(n, d_model, columns),
        },
        **sizes,
    )
    # W_Q is (d_model, d_k), or d_k x d_model by hand: W_Q X; the wrong shapes are one that
    # grows with the sentence, the transpose, and one that keeps the width
    w_q = f"{t.d_k} × {d_model}" if columns else f"{d_model} × {t.d_k}"
    w_shape = _choice(
        "w_q_shape",
        w_q,
        {
            "weights_grow_with_sentence": shape(n + 1, t.d_k, columns),
            "rows_vs_columns": f"{d_model} × {t.d_k}" if columns else f"{t.d_k} × {d_model}",
            "projection_keeps_width": f"{d_model} × {d_model}",
        },
        w_q=w_q,
        **sizes,
    )
    return q_shape, w_shape


def _scores(tokens, t, columns, **_rest) -> tuple[Question, ...]:
    lay = _layout(columns)
    shown = shown_decimals("scores", len(tokens))
    i = pick_query(t.scores, tokens, shown)
    j = pick_pair(t.scores, i)
    cell = _number(
        "score_cell",
        t.scores[i, j],
        {"rows_vs_columns": t.scores[j, i], "scaled_too_early": t.scaled[i, j]},
        **_cell(tokens, i, j, columns),
    )
    best = _top_key(
        "top_score",
        tokens,
        t.scores[i],
        shown,
        {"rows_vs_columns": int(np.argmax(t.scores[:, i]))},
        query=_query(tokens, i),
        **lay,
    )
    return cell, best


def _cell(tokens, i: int, j: int, columns: bool) -> dict[str, str]:
    """Where cell (query i, key j) sits, in the layout's words."""
    q, k = _query(tokens, i), _query(tokens, j)
    if columns:
        cell = _("column {i} (query “{query}”), row {j} (key “{key}”)")
    else:
        cell = _("row {i} (query “{query}”), column {j} (key “{key}”)")
    return {"cell": cell.format(i=i, j=j, query=q, key=k)}


def _scaling(tokens, t, columns, **_rest) -> tuple[Question, ...]:
    i = pick_query(t.scaled, tokens)
    j = pick_pair(t.scaled, i)
    root = 1.0 / t.scale  # the divisor, √d_k
    sizes = {"d_k": str(t.d_k), "root": f"{root:.2f}"}
    cell = _number(
        "scaled_cell",
        t.scaled[i, j],
        {
            "forgot_sqrt": t.scores[i, j],
            "divided_by_d_k": t.scores[i, j] / t.d_k,
            "rows_vs_columns": t.scaled[j, i],
        },
        **_cell(tokens, i, j, columns),
        **sizes,
    )
    divisor = _number("divisor", root, {"divided_by_d_k": t.d_k, "forgot_sqrt": 1.0}, **sizes)
    return cell, divisor


def _softmax(tokens, t, columns, **_rest) -> tuple[Question, ...]:
    lay = _layout(columns)
    w = t.weights
    i = pick_query(w, tokens)
    j = pick_pair(w, i, t.mask)
    total = _number(
        "row_sum",
        float(np.sum(w[i])),
        {
            "rows_vs_columns": float(np.sum(w[:, i])),
            "scores_not_weights": float(np.sum(t.masked[i][np.isfinite(t.masked[i])])),
        },
        query=_query(tokens, i),
        **lay,
    )
    # the softmax run down key j's column of the scaled (and masked) scores instead of the
    # row; cell (i, j) is allowed, so that column has a finite score (a padded key's
    # column, all -inf, is never asked about)
    by_column = softmax(t.masked[:, j], temperature=t.temperature)
    unscaled = np.where(np.isfinite(t.masked), t.scores, -np.inf)
    weight = _number(
        "weight_cell",
        w[i, j],
        {
            "softmax_wrong_axis": by_column[i],
            "forgot_sqrt": softmax(unscaled[i], temperature=t.temperature)[j],
            "rows_vs_columns": w[j, i],
        },
        **_cell(tokens, i, j, columns),
    )
    return total, weight


def _weighted_sum(tokens, t, columns, **_rest) -> tuple[Question, ...]:
    n, lay = len(tokens), _layout(columns)
    z_shape = _choice(
        "z_shape",
        shape(n, t.d_v, columns),
        {
            "output_is_weights": f"{n} × {n}",
            "rows_vs_columns": shape(n, t.d_v, not columns),
        },
        tokens=str(n),
        d_v=str(t.d_v),
    )
    w, v = t.weights, t.v
    i = pick_query(w, tokens)
    entry = _number(
        "z_cell",
        t.output[i, 0],
        {
            "rows_vs_columns": float(w[:, i] @ v[:, 0]),  # A's column i, not its row
            "unweighted_mean": float(np.mean(v[:, 0])),
        },
        query=_query(tokens, i),
        **lay,
    )
    return z_shape, entry


def _masking(tokens, t, unmasked, columns, **_rest) -> tuple[Question, ...] | NoQuestions:
    if t.mask is None or bool(np.all(t.mask)):
        return NoQuestions("no mask")
    lay = _layout(columns)
    mask = t.mask
    wrong = mask_after_softmax(unmasked.scaled, mask, t.temperature)
    masked_rows = [i for i in range(len(tokens)) if not np.all(mask[i])]
    # a row whose removed cells are not its column's (so reading the column shows), whose
    # wrong-way sum is visibly short of 1, with few cells to tick on a phone
    i = max(
        masked_rows,
        key=lambda r: (
            _removed(mask[r]) != _removed(mask[:, r]),
            1.0 - float(np.sum(wrong[r])) > 0.05,
            -len(_removed(mask[r])),
            round(1.0 - float(np.sum(wrong[r])), 9),
            -r,
        ),
    )
    removed = _removed(mask[i])
    cells = Question(
        "removed_cells",
        "cells",
        removed,
        labels(tokens),
        wrong=tuple(
            (n, a) for n, a in (("rows_vs_columns", _removed(mask[:, i])),) if a != removed
        ),
        fills={"query": _query(tokens, i), **lay},
    )
    # a weight the mask keeps in that row, where renormalising moves it most (the row's sum,
    # always 1, is in the page's table: no question)
    allowed = [j for j in np.flatnonzero(mask[i]) if j != i] or [i]
    j = max(allowed, key=lambda c: (round(abs(t.weights[i, c] - wrong[i, c]), 9), -c))
    weight = _number(
        "masked_weight",
        float(t.weights[i, j]),
        {"mask_after_softmax": float(wrong[i, j]), "rows_vs_columns": float(t.weights[j, i])},
        **_cell(tokens, i, int(j), columns),
    )
    return cells, weight


def _removed(allowed_row: np.ndarray) -> frozenset[int]:
    return frozenset(int(j) for j in np.flatnonzero(~np.asarray(allowed_row, dtype=bool)))


def _multihead(tokens, multi, columns, **_rest) -> tuple[Question, ...]:
    n, h = len(tokens), multi.n_heads
    d_v = multi.heads[0].d_v
    concat = _choice(
        "concat_shape",
        shape(n, h * d_v, columns),
        {
            "heads_stacked_as_rows": shape(h * n, d_v, columns),
            "one_head_only": shape(n, d_v, columns),
        },
        heads=str(h),
    )
    vectors = _count(
        "context_vectors",
        n * h,
        {"one_head_only": n, "heads_not_positions": h},
        heads=str(h),
        tokens=str(n),
    )
    return concat, vectors
