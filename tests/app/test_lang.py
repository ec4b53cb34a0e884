"""A change of language drops the settings that only held the language before's own starting
values (its sentence, head, prompt), so the page opens on the new language's; what the
learner chose stays. (The reload itself runs in the browser: tests/e2e/test_languages.py.)"""

from streamlit.testing.v1 import AppTest

from attn_ui.settings import LANGUAGE_LESSON_DEFAULTS, LANGUAGE_PROMPTS


def _dropped() -> None:
    import streamlit as st

    from attn_ui import lang

    for before in ("en", "es", "zh"):
        st.text(f"{before}: {' '.join(lang.own_defaults(before)) or '-'}")


def _run(**query: str) -> dict[str, str]:
    at = AppTest.from_function(_dropped, default_timeout=30)
    for name, value in query.items():
        at.query_params[name] = value
    at.run()
    assert not at.exception
    return dict(t.value.split(": ") for t in at.text)


def test_the_language_befores_own_defaults_are_dropped():
    zh = LANGUAGE_LESSON_DEFAULTS["zh"]
    got = _run(sentence=zh["sentence"], layer=str(zh["layer"]), head=str(zh["head"]), lang="en")
    assert got == {"en": "-", "es": "-", "zh": "head layer sentence"}
    es = LANGUAGE_LESSON_DEFAULTS["es"]["sentence"]
    assert _run(sentence=es, prompt=LANGUAGE_PROMPTS["es"]) == {
        "en": "-",
        "es": "prompt sentence",
        "zh": "-",
    }


def test_what_the_learner_chose_stays():
    """A sentence they typed, and a head other than the language's own (a head is its layer
    and its number: layer 0 is zh's own, but head 3 of it is not)."""
    got = _run(sentence="天上有明月", layer="0", head="3")
    assert got == {"en": "-", "es": "-", "zh": "-"}
