"""What a teacher reads of a class: how its answers are counted (pure Python, no database).

- An item's right share counts each learner's **first** answer to it: a learner who tries
  again until right is counted by what they thought first, which is what a teacher needs.
- A misconception counts the learners who gave at least one answer showing it (any attempt),
  with the latest such answer as an example.
- The concept inventory: the items of the page `PRE` before the lessons and of `POST` after.
  A learner's score on a form is the share of its items they got right at first answer.
  Hake's normalised gain g = (post - pre) / (1 - pre), for a learner and for the class (from
  the class's mean pre and post over the learners who took both forms); no gain when pre is 1.
- Active: an answer in the last `ACTIVE` minutes. Stuck: the learner's latest answers, on one
  item, are two or more wrong in a row and none right yet.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

PRE = "inventory:pre"  # the pages under which the inventory's two forms are recorded
POST = "inventory:post"
ACTIVE = timedelta(minutes=10)


@dataclass(frozen=True)
class NewClass:
    code: str  # for the learners (stored)
    teacher_key: str  # for the teacher, shown once (only its hash is stored)
    name: str


@dataclass(frozen=True)
class AnswerRow:
    nickname: str
    page: str
    item: str
    answer: str
    correct: bool
    misconception: str | None
    at: datetime


@dataclass(frozen=True)
class ItemResult:
    page: str
    item: str  # "" for a whole page
    learners: int  # who answered it (on a page: any of its items)
    answers: int  # first answers: one per learner and item
    right: int  # of them, right

    @property
    def share(self) -> float:
        return self.right / self.answers


@dataclass(frozen=True)
class LearnerResult:
    nickname: str
    joined_at: datetime
    last_at: datetime | None  # their latest answer
    answers: int
    right: int
    pre: float | None
    post: float | None
    gain: float | None
    stuck: tuple[str, str] | None  # (page, item) where they are stuck


@dataclass(frozen=True)
class ClassSummary:
    name: str
    code: str
    learners: int  # joined
    active: int  # answered in the last ten minutes
    answers: int
    items: tuple[ItemResult, ...]  # in the order first answered
    pages: tuple[ItemResult, ...]  # the same, per page (item "")
    misconceptions: tuple[tuple[str, int], ...]  # (name, learners), most learners first
    examples: dict[str, str]  # a misconception's latest wrong answer
    roster: tuple[LearnerResult, ...]  # by nickname
    pre: float | None  # the class's mean score, over the learners who took both forms
    post: float | None
    gain: float | None
    matched: int  # learners who took both forms


def gain(pre: float | None, post: float | None) -> float | None:
    """Hake's normalised gain, None when either score is missing or pre is already 1."""
    if pre is None or post is None or pre >= 1:
        return None
    return (post - pre) / (1 - pre)


def _utc(at: datetime) -> datetime:
    """SQLite gives datetimes back without their zone; they were stored in UTC."""
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def answer_row(a, nickname: str) -> AnswerRow:
    return AnswerRow(nickname, a.page, a.item, a.answer, a.correct, a.misconception, _utc(a.at))


def _firsts(rows: Sequence[AnswerRow]) -> dict[tuple[str, str, str], bool]:
    """(nickname, page, item) -> right at the first answer, in the order first answered."""
    first: dict[tuple[str, str, str], bool] = {}
    for r in rows:
        first.setdefault((r.nickname, r.page, r.item), r.correct)
    return first


def _score(first: dict[tuple[str, str, str], bool], nickname: str, page: str) -> float | None:
    mine = [ok for (who, p, _), ok in first.items() if who == nickname and p == page]
    return sum(mine) / len(mine) if mine else None


def _stuck(rows: Sequence[AnswerRow]) -> tuple[str, str] | None:
    """A learner's (page, item) when their latest answers there are 2+ wrong, none right."""
    if not rows:
        return None
    page, item = rows[-1].page, rows[-1].item
    here = [r.correct for r in rows if (r.page, r.item) == (page, item)]
    return (page, item) if not any(here) and len(here) >= 2 else None


def _shares(first: dict[tuple[str, str, str], bool], by_item: bool) -> tuple[ItemResult, ...]:
    seen: dict[tuple[str, str], list[tuple[str, bool]]] = defaultdict(list)
    for (who, page, item), ok in first.items():
        seen[(page, item if by_item else "")].append((who, ok))
    return tuple(
        ItemResult(p, i, len({w for w, _ in got}), len(got), sum(ok for _, ok in got))
        for (p, i), got in seen.items()
    )


def summarise(cls, learners, answers, *, now: datetime) -> ClassSummary:
    """The summary of a class from its rows: `answers` as (Answer, nickname), oldest first."""
    rows = [answer_row(a, nickname) for a, nickname in answers]
    first = _firsts(rows)
    holders: dict[str, set[str]] = defaultdict(set)
    examples: dict[str, str] = {}
    for r in rows:
        if r.misconception and not r.correct:
            holders[r.misconception].add(r.nickname)
            examples[r.misconception] = r.answer
    by_learner: dict[str, list[AnswerRow]] = defaultdict(list)
    for r in rows:
        by_learner[r.nickname].append(r)
    roster = []
    for learner in sorted(learners, key=lambda x: (x.nickname.casefold(), x.nickname)):
        mine = by_learner.get(learner.nickname, [])
        pre, post = _score(first, learner.nickname, PRE), _score(first, learner.nickname, POST)
        roster.append(
            LearnerResult(
                nickname=learner.nickname,
                joined_at=_utc(learner.joined_at),
                last_at=mine[-1].at if mine else None,
                answers=len(mine),
                right=sum(r.correct for r in mine),
                pre=pre,
                post=post,
                gain=gain(pre, post),
                stuck=_stuck(mine),
            )
        )
    both = [r for r in roster if r.pre is not None and r.post is not None]
    pre = sum(r.pre for r in both) / len(both) if both else None
    post = sum(r.post for r in both) / len(both) if both else None
    return ClassSummary(
        name=cls.name,
        code=cls.code,
        learners=len(learners),
        active=sum(1 for r in roster if r.last_at is not None and now - r.last_at <= ACTIVE),
        answers=len(rows),
        items=_shares(first, by_item=True),
        pages=_shares(first, by_item=False),
        misconceptions=tuple(
            sorted(((m, len(who)) for m, who in holders.items()), key=lambda x: (-x[1], x[0]))
        ),
        examples=examples,
        roster=tuple(roster),
        pre=pre,
        post=post,
        gain=gain(pre, post),
        matched=len(both),
    )
