"""The one URL codec (attn_ui/settings.py), below the pages: every setting a link may carry
comes back as it was written, a value the app does not offer is ignored and named, only
what differs from the defaults is written, and layer and head are checked against the sizes
the model gives."""

from __future__ import annotations

import pytest

from attn_ui.settings import (
    MAX_PROMPT_CHARS,
    MAX_SENTENCE_CHARS,
    LessonSettings,
    from_query,
    generation_link,
    lesson_link,
    prompt_link,
    to_query,
)


def no_model():
    raise AssertionError("the model's sizes were read for a link without a layer or head")


SIZES = lambda: (6, 12)  # noqa: E731  a model with 6 layers of 12 heads
LINKS = {
    "lesson": lesson_link(SIZES),
    "generation": generation_link(SIZES),
    "kv_cache": prompt_link("The default prompt"),
}
# a value other than the default for every setting (the last layer and head: the bounds)
CHOSEN = {
    "lesson": {
        "sentence": "the dog chased the ball",
        "d_model": 16,
        "d_k": 8,
        "weights": "random",
        "seed": 7,
        "mask": "causal",
        "n_pad": 2,
        "window": 3,
        "n_heads": 4,
        "temperature": 0.5,
        "show_numbers": False,
        "columns": True,
        "layer": 5,
        "head": 11,
    },
    "generation": {
        "prompt": 'She said: "',
        "chat": True,
        "temperature": 1.2,
        "seed": 3,
        "max_new_tokens": 64,
        "layer": 5,
        "head": 11,
    },
    "kv_cache": {"prompt": "Once upon a time"},
}
TEXTS = ("sentence", "prompt")  # any text is a sentence or a prompt (cut, never refused)
BAD = ("", "x", "nan", "-1", "9.9", "10001", "true")


@pytest.mark.parametrize("link", LINKS)
def test_every_setting_comes_back_as_it_was_written(link):
    spec = LINKS[link]
    assert {p.field for p in spec.params} == set(CHOSEN[link])  # a new setting needs a case
    for p in spec.params:
        query: dict[str, str] = {}
        to_query(spec.defaults | {p.field: CHOSEN[link][p.field]}, query, spec)
        assert list(query) == [p.name]  # only what differs from the defaults
        found, ignored = from_query(query, spec)
        assert found[p.field] == CHOSEN[link][p.field] and ignored == [], p.name


@pytest.mark.parametrize("link", LINKS)
def test_a_value_the_app_does_not_offer_is_ignored_and_named(link):
    spec = LINKS[link]
    for p in spec.params:
        if p.field in TEXTS:
            continue
        for bad in BAD:
            found, ignored = from_query({p.name: bad}, spec)
            assert ignored == [p.name] and p.field not in found, (p.name, bad)


def test_a_long_text_is_cut_and_a_sentence_kept_on_one_line():
    found, _ = from_query({"sentence": "a\r\nb\n" + "c" * 9000}, LINKS["lesson"])
    assert found["sentence"].startswith("a b ") and len(found["sentence"]) == MAX_SENTENCE_CHARS
    for link in ("generation", "kv_cache"):
        found, _ = from_query({"prompt": "p" * 9000}, LINKS[link])
        assert found["prompt"] == "p" * MAX_PROMPT_CHARS


def test_layer_and_head_are_checked_against_the_model_and_read_only_when_named():
    small = lesson_link(lambda: (2, 3))
    assert from_query({"layer": "1", "head": "2"}, small) == ({"layer": 1, "head": 2}, [])
    assert from_query({"layer": "2", "head": "3"}, small) == ({}, ["layer", "head"])
    for link in (lesson_link, generation_link):
        assert from_query({"seed": "3"}, link(no_model))[1] == []


def test_an_old_link_keeps_its_meaning():
    """A link made before the lessons opened on a real head: the toy settings alone meant the
    random weights, weights=pretrained meant layer 0, head 0."""
    spec = LINKS["lesson"]
    assert from_query({"d_k": "8"}, spec)[0] == {"d_k": 8, "weights": "random"}
    found = from_query({"weights": "pretrained"}, spec)[0]
    assert found == {"weights": "pretrained", "layer": 0, "head": 0}


class CountingParams(dict):
    """st.query_params as a dict that counts writes (each one is a message to the browser)."""

    writes = 0

    def __setitem__(self, key, value):
        self.writes += 1
        super().__setitem__(key, value)


def test_the_url_mirror_writes_only_what_changed():
    spec, params = LINKS["lesson"], CountingParams()

    def mirror(**changes) -> None:
        to_query(vars(LessonSettings(sentence="a b c", d_model=16, **changes)), params, spec)

    mirror(n_heads=4)
    assert params == {"sentence": "a b c", "n_heads": "4", "d_model": "16"}
    assert params.writes == 3
    mirror(n_heads=4)  # the next rerun, nothing moved
    assert params.writes == 3
    mirror(n_heads=3)
    assert params.writes == 4 and params["n_heads"] == "3"
    mirror()  # back to the default
    assert "n_heads" not in params and params.writes == 4


def test_a_page_default_is_written_once_the_learner_leaves_it():
    """Masking opens on the causal mask: its link says mask=causal, and mask=none once the
    learner chooses none (the app's default, which a link would otherwise leave out)."""
    spec, page = LINKS["lesson"], {"mask": "causal"}
    params: dict[str, str] = {}
    to_query(vars(LessonSettings(mask="causal")), params, spec, page)
    assert params == {"mask": "causal"}
    to_query(vars(LessonSettings(mask="none")), params, spec, page)
    assert params == {"mask": "none"}
