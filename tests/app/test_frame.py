"""The page frame's one error path: a learner's bad input becomes a sentence, never a
traceback; the page stops there, or (section=True) only the rest of that block is skipped."""

import ast
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]


def _page() -> None:
    import streamlit as st

    from attn_core import AttentionInputError
    from attn_ui import frame

    with frame.stop_on_error("Your query", section=True):
        st.write("before the bad input")
        raise AttentionInputError("The query '**x** [a](b)' is empty. Type a word.")
    st.write("the next section")
    with frame.stop_on_error():
        raise AttentionInputError("The sentence is empty: type at least one word.")
    st.write("never drawn")


def test_an_input_error_is_a_sentence_and_the_page_stops():
    at = AppTest.from_function(_page, default_timeout=30).run()
    assert not at.exception
    assert [e.value for e in at.error] == [
        r"Your query: The query '\*\*x\*\* \[a\](b)' is empty. Type a word.",
        "The sentence is empty: type at least one word.",
    ]
    drawn = [m.value for m in at.markdown]
    assert drawn == ["before the bad input", "the next section"]  # nothing after the stop


def _swallows(node: ast.AST) -> bool:
    """An `except ...AttentionInputError...:` block that does not end by raising."""
    return (
        isinstance(node, ast.ExceptHandler)
        and node.type is not None
        and "AttentionInputError" in ast.unparse(node.type)
        and not isinstance(node.body[-1], ast.Raise)
    )


def test_only_the_frame_turns_input_errors_into_messages():
    """Anywhere else, code that catches the core's AttentionInputError re-raises it (e.g. to
    say which input it is about): no page has a second way to stop."""
    files = [*ROOT.glob("pages/*.py"), *ROOT.glob("attn_ui/**/*.py"), ROOT / "app.py"]
    found = []
    for f in files:
        if f.name == "frame.py":
            continue
        tree = ast.parse(f.read_text(encoding="utf-8"))
        found += [f"{f.relative_to(ROOT)}:{n.lineno}" for n in ast.walk(tree) if _swallows(n)]
    assert not found, found
