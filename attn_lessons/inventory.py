"""The concept inventory: fifteen questions over the whole pipeline, in two parallel forms (the
same concepts, other numbers), taken before the lessons ("pre") and after ("post").

The questions live in lessons/inventory.md, one section per form and concept:

    ## pre: score_shape
    X is 7 × 16; Q and K are both 7 × 4. What shape is the score matrix S = Q Kᵀ?
    - [x] 7 × 7
    - [ ] 7 × 4 <!-- shape_of_q -->

`[x]` marks the right option; every wrong option names, in a comment a reader does not see,
the misconception it shows (a section of lessons/checks.md). A learner's answers are judged
here and recorded for their class under the pages `attn_class.PRE` and `attn_class.POST`.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from attn_lessons.text import lesson

FORMS = ("pre", "post")
_OPTION = re.compile(r"^- \[( |x)\] (.+?)(?: <!-- (\w+) -->)?$")


@dataclass(frozen=True)
class Item:
    form: str  # "pre" or "post"
    concept: str  # the same concept in both forms: how answers are recorded
    prompt: str
    options: tuple[str, ...]  # in the order shown
    answer: int  # the right option's index
    wrong: dict[int, str]  # a wrong option's index -> the misconception it shows
    options_written: tuple[str, ...] = ()  # in the lesson's order (the right one first)

    def judge(self, given: int) -> tuple[bool, str | None]:
        """(right, the misconception a wrong answer shows)."""
        return given == self.answer, self.wrong.get(given)


def _shown_order(concept: str, options: list[str]) -> list[int]:
    """A fixed order that does not put the right option (written first) first every time."""
    return sorted(
        range(len(options)),
        key=lambda i: hashlib.sha1(f"{concept}|{options[i]}".encode()).hexdigest(),
    )


def parse(form: str, concept: str, text: str, english: str | None = None) -> Item:
    """One section's question (ValueError when it is not written as the module says). A
    translation (`english`: the English section) shows its options in the English order, so an
    answer's index means the same option in every language."""
    prompt: list[str] = []
    options: list[tuple[str, bool, str | None]] = []
    for line in text.splitlines():
        found = _OPTION.match(line)
        if found:
            options.append((found.group(2), found.group(1) == "x", found.group(3)))
        elif options:
            raise ValueError(f"{form}: {concept}: text after the options: {line!r}")
        else:
            prompt.append(line)
    if sum(right for _, right, _ in options) != 1 or len(options) < 3:
        raise ValueError(f"{form}: {concept}: one right option and two wrong ones at least")
    order = _shown_order(concept, [o for o, _, _ in options])
    if english is not None:
        order = _shown_order(concept, list(parse(form, concept, english).options_written))
    shown = [options[i] for i in order]
    return Item(
        form=form,
        concept=concept,
        prompt=" ".join(" ".join(prompt).split()),
        options=tuple(o for o, _, _ in shown),
        answer=next(i for i, (_, right, _) in enumerate(shown) if right),
        wrong={i: m for i, (_, right, m) in enumerate(shown) if not right and m},
        options_written=tuple(o for o, _, _ in options),
    )


def items(form: str, lang: str | None = None) -> tuple[Item, ...]:
    """The form's questions, in the lessons' order, in `lang` (default: the current one)."""
    if form not in FORMS:
        raise ValueError(f"a form is one of {FORMS}, not {form!r}")
    own, english = lesson("inventory", lang), lesson("inventory", "en")
    return tuple(
        parse(form, heading.split(": ", 1)[1], text, None if own.lang == "en" else english[heading])
        for heading, text in own.items()
        if heading.startswith(f"{form}: ")
    )


def score(given: dict[str, int | None], form: str) -> tuple[int, int]:
    """(right answers, questions) for answers by concept."""
    qs = items(form)
    return sum(given.get(q.concept) == q.answer for q in qs), len(qs)
