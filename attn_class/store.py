"""The store: classes, learners and their answers, in SQLite or PostgreSQL.

    store = open_store()                      # SQLite under the app's data folder
    new = store.create_class("Period 3")      # new.code for the learners, new.teacher_key once
    token = store.join(new.code, "ada")       # kept in the learner's browser
    store.record(token, "Softmax", "row-sum", "1", correct=True)
    store.summary(new.code, new.teacher_key)  # what the class understood

Every call is one transaction: when it returns, what it wrote is committed, and only then
may a page tell a learner "saved". A database that cannot be reached raises
`StoreUnavailable` (nothing was written); the page says so and sends the answer again with
the same `answer_id`, which stores it once however often it is sent.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine, delete, func, select
from sqlalchemy.exc import IntegrityError, InterfaceError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from attn_class import migrate, results
from attn_class.engine import default_url, make_engine
from attn_class.results import AnswerRow, ClassSummary, NewClass
from attn_class.schema import (
    ANSWER_ID_MAX,
    ANSWER_MAX,
    CLIENT_MAX,
    CODE_LENGTH,
    ITEM_MAX,
    MISCONCEPTION_MAX,
    NAME_MAX,
    NICKNAME_MAX,
    PAGE_MAX,
    Answer,
    Class,
    JoinMiss,
    Learner,
)

# Codes: 8 characters of 31 (no 0/O, 1/I/L, which read alike): 31**8 = 8.5e11 codes
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
KEY_BYTES = 24  # teacher keys and learner tokens: 192 random bits
MISSES_ALLOWED = 10  # wrong codes one client may try ...
MISS_WINDOW = timedelta(minutes=10)  # ... in this long, before every join from it is refused


class StoreUnavailable(ConnectionError):
    """The database could not be reached: nothing was written."""


class Refused(ValueError):
    """A request refused in words a learner or teacher can act on. `template` and `fills`: a
    page in another language fills its translation of the words with the same values."""

    template: str
    fills: dict[str, str]

    @classmethod
    def said(cls, template: str, **fills) -> Refused:
        error = cls(template.format(**fills))
        error.template, error.fills = template, {k: str(v) for k, v in fills.items()}
        return error


class NotInClass(ValueError):
    """A learner token that is no one's: they left, or their class was deleted."""


def open_store(url: str | None = None) -> Store:
    """The store at `url` (None: `default_url()`), its tables migrated to the current schema.

    `sqlite:///path` is an embedded file in WAL mode (its folder is created);
    `postgresql+psycopg://user@host:port/db` is a PostgreSQL server."""
    engine = make_engine(url or default_url())
    try:
        migrate.upgrade(engine)
    except (OperationalError, InterfaceError) as exc:
        engine.dispose()
        raise StoreUnavailable(
            f"The class's database cannot be reached ({engine.url.render_as_string()})."
        ) from exc
    return Store(engine)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def read_code(code: str) -> str:
    """A code as a learner may type it ("k7qm-3xrp", " K7QM 3XRP ") in its stored form."""
    cleaned = "".join(ch for ch in str(code).upper() if ch not in " -\t")
    if len(cleaned) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in cleaned):
        raise Refused.said(
            "A class code has {n} letters and digits, like K7QM-3XRP: check it with your teacher.",
            n=CODE_LENGTH,
        )
    return cleaned


def show_code(code: str) -> str:
    """A code as people read it aloud: two groups of four."""
    return f"{code[:4]}-{code[4:]}"


def read_nickname(nickname: str) -> str:
    """A nickname as stored: trimmed, in one Unicode form; 1 to 40 printable characters."""
    name = unicodedata.normalize("NFC", str(nickname)).strip()
    if not name:
        raise Refused.said(
            "Type a nickname: any name your teacher will recognise (not your e-mail)."
        )
    if len(name) > NICKNAME_MAX:
        raise Refused.said("A nickname is at most {n} characters: shorten it.", n=NICKNAME_MAX)
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in name):
        raise Refused.said("A nickname cannot hold control or invisible characters: retype it.")
    return name


def _text(value: str, limit: int, what: str) -> str:
    value = str(value)
    if not value or len(value) > limit:
        raise ValueError(f"{what} must be 1 to {limit} characters")
    return value


def _clip(value: str, limit: int) -> str:
    value = str(value)
    return value if len(value) <= limit else value[: limit - 1] + "…"


class Store:
    """Classes, learners and answers in one database (see the module's docstring)."""

    def __init__(self, engine: Engine, clock: Callable[[], datetime] | None = None) -> None:
        self.engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        self.clock = clock or (lambda: datetime.now(UTC))

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def _transaction(self) -> Iterator[Session]:
        """One committed transaction, or StoreUnavailable when the database cannot be
        reached (IntegrityError and the store's own ValueErrors pass through)."""
        try:
            with self._sessions() as session, session.begin():
                yield session
        except IntegrityError:
            raise
        except (OperationalError, InterfaceError) as exc:  # not reached, or the link broke
            raise StoreUnavailable(
                "The class's database cannot be reached just now: nothing was saved."
            ) from exc

    # --- the teacher ------------------------------------------------------------------------

    def create_class(self, name: str) -> NewClass:
        """A new class called `name`: its code (for the learners) and its teacher key (shown
        once: only its hash is kept)."""
        name = unicodedata.normalize("NFC", str(name)).strip()
        if not name:
            raise Refused.said("Give the class a name, such as 'Period 3' or 'NLP seminar'.")
        if len(name) > NAME_MAX:
            raise Refused.said("A class name is at most {n} characters: shorten it.", n=NAME_MAX)
        key = secrets.token_urlsafe(KEY_BYTES)
        for _ in range(5):  # a code already taken (one chance in 10^11 per class) is redrawn
            code = new_code()
            try:
                with self._transaction() as s:
                    s.add(
                        Class(code=code, name=name, key_hash=digest(key), created_at=self.clock())
                    )
            except IntegrityError:
                continue
            return NewClass(code=code, teacher_key=key, name=name)
        raise RuntimeError("could not draw a free class code")  # pragma: no cover

    def _class_for_teacher(self, s: Session, code: str, teacher_key: str) -> Class:
        found = s.scalar(select(Class).where(Class.code == read_code(code)))
        if found is None:
            raise Refused.said("No class has this code: it may have been deleted.")
        if not hmac.compare_digest(found.key_hash, digest(str(teacher_key))):
            raise PermissionError("This teacher key does not open this class.")
        return found

    def summary(self, code: str, teacher_key: str) -> ClassSummary:
        """What the class did and understood (attn_class.results says how it is counted)."""
        with self._transaction() as s:
            cls = self._class_for_teacher(s, code, teacher_key)
            learners = s.scalars(select(Learner).where(Learner.class_id == cls.id)).all()
            answers = _answers_of(s, cls)
        return results.summarise(cls, learners, answers, now=self.clock())

    def answers(self, code: str, teacher_key: str) -> list[AnswerRow]:
        """Every answer of the class, oldest first (the CSV export)."""
        with self._transaction() as s:
            rows = _answers_of(s, self._class_for_teacher(s, code, teacher_key))
        return [results.answer_row(a, nickname) for a, nickname in rows]

    def delete_class(self, code: str, teacher_key: str) -> None:
        """The class, its learners and every answer they sent: gone, no row left."""
        with self._transaction() as s:
            cls = self._class_for_teacher(s, code, teacher_key)
            ids = select(Learner.id).where(Learner.class_id == cls.id).scalar_subquery()
            s.execute(delete(Answer).where(Answer.learner_id.in_(ids)))
            s.execute(delete(Learner).where(Learner.class_id == cls.id))
            s.execute(delete(Class).where(Class.id == cls.id))

    # --- the learner ------------------------------------------------------------------------

    def join(self, code: str, nickname: str, *, client: str = "") -> str:
        """Join the class with `code` as `nickname`; returns the learner's token (kept by
        their browser; only its hash is stored). `client` names where the attempt comes from
        (the page passes the browser's address): after 10 wrong codes from one client in 10
        minutes, every join from it is refused until the window has passed."""
        code, name = read_code(code), read_nickname(nickname)
        client = _clip(client, CLIENT_MAX)
        now = self.clock()
        token = secrets.token_urlsafe(KEY_BYTES)
        refusal = None  # raised after the transaction: a wrong code's miss is committed first
        try:
            with self._transaction() as s:
                misses = s.scalar(
                    select(func.count())
                    .select_from(JoinMiss)
                    .where(JoinMiss.client == client, JoinMiss.at > now - MISS_WINDOW)
                )
                cls = (
                    None
                    if misses >= MISSES_ALLOWED
                    else s.scalar(select(Class).where(Class.code == code))
                )
                if misses >= MISSES_ALLOWED:
                    refusal = Refused.said(
                        "Too many wrong class codes from here in the last ten minutes: "
                        "check the code with your teacher, then try again in a few minutes."
                    )
                elif cls is None:
                    s.execute(delete(JoinMiss).where(JoinMiss.at <= now - MISS_WINDOW))
                    s.add(JoinMiss(client=client, at=now))
                    refusal = Refused.said(
                        "No class has the code {code}: check it with your teacher.",
                        code=show_code(code),
                    )
                else:
                    s.add(
                        Learner(
                            class_id=cls.id,
                            token_hash=digest(token),
                            nickname=name,
                            nickname_key=name.casefold(),
                            joined_at=now,
                        )
                    )
        except IntegrityError:
            raise Refused.said(
                "Someone in this class is already called {name}: pick another nickname.",
                name=name,
            ) from None
        if refusal:
            raise refusal
        return token

    def whoami(self, token: str) -> tuple[str, str, str] | None:
        """(nickname, class name, class code) of the learner holding `token`, or None when
        the token is no one's (they left, or the class was deleted)."""
        with self._transaction() as s:
            row = s.execute(
                select(Learner.nickname, Class.name, Class.code)
                .join(Class, Learner.class_id == Class.id)
                .where(Learner.token_hash == digest(str(token)))
            ).first()
        return None if row is None else (row[0], row[1], row[2])

    def record(
        self,
        token: str,
        page: str,
        item: str,
        answer: str,
        correct: bool,
        misconception: str | None = None,
        *,
        answer_id: str | None = None,
    ) -> bool:
        """Store one answer of the learner holding `token`; True once it is committed, False
        when this `answer_id` was stored before (a retry). Raises ValueError when the token
        is no one's, StoreUnavailable when the database cannot be reached."""
        page, item = _text(page, PAGE_MAX, "page"), _text(item, ITEM_MAX, "item")
        answer_id = _text(answer_id or uuid.uuid4().hex, ANSWER_ID_MAX, "answer_id")
        if misconception is not None:
            misconception = _text(misconception, MISCONCEPTION_MAX, "misconception")
        try:
            with self._transaction() as s:
                learner_id = s.scalar(
                    select(Learner.id).where(Learner.token_hash == digest(str(token)))
                )
                if learner_id is None:
                    raise NotInClass(
                        "This browser is no longer in a class (you left it, or your teacher "
                        "deleted it): join again with the class code to keep recording."
                    )
                seen = s.scalar(
                    select(Answer.id).where(
                        Answer.learner_id == learner_id, Answer.answer_id == answer_id
                    )
                )
                if seen is not None:
                    return False
                s.add(
                    Answer(
                        learner_id=learner_id,
                        answer_id=answer_id,
                        page=page,
                        item=item,
                        answer=_clip(answer, ANSWER_MAX),
                        correct=bool(correct),
                        misconception=misconception,
                        at=self.clock(),
                    )
                )
        except IntegrityError:
            # the same answer_id committed by a concurrent retry, or the learner deleted
            # (left, or the class deleted) in between: only the first is "stored"
            if self._stored(token, answer_id):
                return False
            raise NotInClass("This browser is no longer in a class: nothing was saved.") from None
        return True

    def _stored(self, token: str, answer_id: str) -> bool:
        with self._transaction() as s:
            return (
                s.scalar(
                    select(Answer.id)
                    .join(Learner, Answer.learner_id == Learner.id)
                    .where(Learner.token_hash == digest(str(token)), Answer.answer_id == answer_id)
                )
                is not None
            )

    def leave(self, token: str) -> None:
        """The learner leaves their class: their nickname and answers are deleted."""
        with self._transaction() as s:
            learner_id = s.scalar(
                select(Learner.id).where(Learner.token_hash == digest(str(token)))
            )
            if learner_id is not None:
                s.execute(delete(Answer).where(Answer.learner_id == learner_id))
                s.execute(delete(Learner).where(Learner.id == learner_id))


def _answers_of(s: Session, cls: Class) -> list:
    """(Answer, nickname) of every answer of the class, oldest first."""
    return s.execute(
        select(Answer, Learner.nickname)
        .join(Learner, Answer.learner_id == Learner.id)
        .where(Learner.class_id == cls.id)
        .order_by(Answer.at, Answer.id)
    ).all()
