"""A class's stored data: classes with a code, learners with a nickname, their answers, and
what the teacher reads of them. No Streamlit here: the pages (/Teach, /Join) use it.

    from attn_class import open_store
    store = open_store()            # SQLite under data/, or $DATABASE_URL (PostgreSQL)

store.py: the API and its guarantees; results.py: how answers are counted; schema.py: the
tables; migrate.py and migrations/: the schema's history (Alembic).
"""

from attn_class.results import POST, PRE, AnswerRow, ClassSummary, NewClass, gain
from attn_class.store import (
    NotInClass,
    Store,
    StoreUnavailable,
    open_store,
    read_code,
    show_code,
)

__all__ = [
    "POST",
    "PRE",
    "AnswerRow",
    "ClassSummary",
    "NewClass",
    "NotInClass",
    "Store",
    "StoreUnavailable",
    "gain",
    "open_store",
    "read_code",
    "show_code",
]
