"""classes, learners, answers and join misses: the store's first schema

Revision ID: 0001
Revises:
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "classes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("code", sa.String(8), nullable=False, unique=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "learners",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "class_id",
            sa.Integer(),
            sa.ForeignKey("classes.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("nickname", sa.String(40), nullable=False),
        sa.Column("nickname_key", sa.String(120), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("class_id", "nickname_key", name="uq_learner_nickname"),
    )
    op.create_table(
        "answers",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "learner_id",
            sa.Integer(),
            sa.ForeignKey("learners.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("answer_id", sa.String(64), nullable=False),
        sa.Column("page", sa.String(80), nullable=False),
        sa.Column("item", sa.String(120), nullable=False),
        sa.Column("answer", sa.String(400), nullable=False),
        sa.Column("correct", sa.Boolean(), nullable=False),
        sa.Column("misconception", sa.String(120), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("learner_id", "answer_id", name="uq_answer_once"),
    )
    op.create_table(
        "join_misses",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("client", sa.String(128), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False, index=True),
    )
    op.create_index("ix_join_misses_client_at", "join_misses", ["client", "at"])


def downgrade() -> None:
    op.drop_table("join_misses")
    op.drop_table("answers")
    op.drop_table("learners")
    op.drop_table("classes")
