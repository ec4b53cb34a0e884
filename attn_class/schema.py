"""The tables of a class's stored data (SQLAlchemy 2, the same for SQLite and PostgreSQL).

    classes       one row per class: its name, its code, the hash of its teacher key
    learners      one row per learner who joined: their class, nickname, the hash of their token
    answers       one row per answer a learner sent: page, item, the answer, right or not,
                  the misconception a wrong answer shows (if the app knows one)
    join_misses   one row per join attempt with a code no class has (kept ten minutes):
                  what limits guessing codes by trying

Secrets are never stored: a teacher key and a learner token are random strings handed out
once; the tables keep their SHA-256 (the keys carry 192 random bits, so a slow password hash
adds nothing). Deleting a class deletes its learners and their answers (the store deletes
them explicitly, and the foreign keys cascade as well). The migrations in
`attn_class/migrations/` create exactly these tables; a test compares the two.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

CODE_LENGTH = 8
NAME_MAX = 80
NICKNAME_MAX = 40
PAGE_MAX = 80
ITEM_MAX = 120
ANSWER_MAX = 400
MISCONCEPTION_MAX = 120
ANSWER_ID_MAX = 64
CLIENT_MAX = 128
HASH_LENGTH = 64  # SHA-256 in hex


class Base(DeclarativeBase):
    pass


class Class(Base):
    __tablename__ = "classes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(CODE_LENGTH), unique=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX))
    key_hash: Mapped[str] = mapped_column(String(HASH_LENGTH))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Learner(Base):
    __tablename__ = "learners"
    __table_args__ = (UniqueConstraint("class_id", "nickname_key", name="uq_learner_nickname"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    class_id: Mapped[int] = mapped_column(ForeignKey("classes.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(HASH_LENGTH), unique=True)
    nickname: Mapped[str] = mapped_column(String(NICKNAME_MAX))
    nickname_key: Mapped[str] = mapped_column(String(NICKNAME_MAX * 3))  # casefolded
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Answer(Base):
    __tablename__ = "answers"
    __table_args__ = (UniqueConstraint("learner_id", "answer_id", name="uq_answer_once"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    learner_id: Mapped[int] = mapped_column(
        ForeignKey("learners.id", ondelete="CASCADE"), index=True
    )
    answer_id: Mapped[str] = mapped_column(String(ANSWER_ID_MAX))  # the sender's, for retries
    page: Mapped[str] = mapped_column(String(PAGE_MAX))
    item: Mapped[str] = mapped_column(String(ITEM_MAX))
    answer: Mapped[str] = mapped_column(String(ANSWER_MAX))
    correct: Mapped[bool] = mapped_column(Boolean)
    misconception: Mapped[str | None] = mapped_column(String(MISCONCEPTION_MAX), nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class JoinMiss(Base):
    __tablename__ = "join_misses"
    __table_args__ = (Index("ix_join_misses_client_at", "client", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    client: Mapped[str] = mapped_column(String(CLIENT_MAX))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
