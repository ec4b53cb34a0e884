"""Generate page: SmolLM2 writes what `generate` writes, streamed through the shared queue; a
layer, head or token change never writes again; bad prompts get a sentence."""

from __future__ import annotations

import contextlib
import threading

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import parse_tree_from_messages
from streamlit.testing.v1.local_script_runner import LocalScriptRunner

from attn_ui import formats
from attn_ui.compute import generate as gen
from attn_ui.compute.decoder import GENERATION_SLOTS, decoder_run, generation_queue, smollm
from attn_ui.settings import DEFAULT_NEW_TOKENS, DEFAULT_PROMPT
from tests.support.apptest import heatmap, load, rerun

PAGE = "pages/60_Generate.py"


def write(at, prompt: str, **settings):
    """Type `prompt`, set the form's other widgets, press the button (Enter does the same)."""
    at.text_input(key="gen_prompt").input(prompt)
    for name, value in settings.items():
        widget = {"chat": at.toggle, "seed": at.number_input}.get(name, at.slider)
        widget(key=f"gen_{name}").set_value(value)
    at.button(key="gen_go").click()
    return rerun(at)


def test_defaults_show_the_quote_head_on_what_generate_writes(loaded):
    at = loaded(PAGE)
    model = smollm()
    g = model.generate(DEFAULT_PROMPT, DEFAULT_NEW_TOKENS)
    assert at.code[0].value == DEFAULT_PROMPT + g.text
    w = at.session_state["gen_written"]
    np.testing.assert_array_equal(w.ids, g.ids)
    p = len(g.prompt_ids)
    tri = heatmap(at, "Causal attention, layer 26, head 6")
    t = len(g.ids) - 1  # the last token's row chose nothing yet
    assert tri["m"].shape == (t, t) and tri["rows"][p] == formats.token(g.tokens[p])
    np.testing.assert_allclose(np.triu(tri["m"], 1), 0)  # the causal mask
    np.testing.assert_allclose(tri["m"].sum(axis=1), 1, atol=1e-5)
    prompt_run = model.run(DEFAULT_PROMPT)
    np.testing.assert_allclose(tri["m"][: p - 1, : p - 1], prompt_run.attentions[26, 6, :-1, :-1])
    # the picked token is the closing quote; its row looks at the opening one
    k = at.pills(key="gen_pick").value
    assert '"' in g.new_tokens[k]
    step = g.steps[k]
    row = heatmap(at, "Row of")
    np.testing.assert_allclose(row["m"][0], step.attention[26, 6], atol=1e-7)
    opening = max(i for i in range(p) if '"' in g.tokens[i])
    assert int(np.argmax(step.attention[26, 6])) == opening
    assert step.attention[26, 6, opening] > 0.9
    top = [d.value for d in at.dataframe if "token" in d.value.columns][-1]  # the top 5
    assert list(top["token"]) == [formats.token(model.token_text(i)) for i in step.top_ids]
    np.testing.assert_allclose(top["probability"], step.top_probs)
    assert formats.TOKEN_NOTE in [c.value for c in at.caption]


def walk(node):
    """The page's elements in the order they are drawn, top to bottom."""
    yield node
    for child in getattr(node, "children", {}).values():
        yield from walk(child)


def test_a_warm_server_has_the_default_text_written_before_any_visit():
    """serve.py's warm start (ATTN_WARM_MODELS=1) writes the default text once into the
    store every first visit reads: what `generate` writes, and kept (a second call is it)."""
    gen.finished.clear()
    try:
        w = gen.warm_default()
        g = smollm().generate(DEFAULT_PROMPT, DEFAULT_NEW_TOKENS)
        np.testing.assert_array_equal(w.ids, g.ids)
        assert gen.finished().get(w.settings) is w and gen.warm_default() is w
    finally:
        gen.finished.clear()


def test_the_text_written_comes_right_under_the_form(loaded):
    """The text being written (and once written) is the first thing under the Write button,
    before the head picker, the triangle and the lesson's idea: on a 1400 x 900 screen it
    shows without scrolling."""
    at = loaded(PAGE)
    drawn = list(walk(at.main))

    def first(found) -> int:
        return next(i for i, e in enumerate(drawn) if found(e))

    write = first(lambda e: getattr(e, "key", None) == "gen_go")
    text = first(lambda e: e.type == "code")
    layer = first(lambda e: getattr(e, "key", None) == "gen_layer")
    idea = first(lambda e: e.type == "markdown" and e.value == "## The idea")
    assert write < text < layer < idea


def test_enter_writes_the_tokens_generate_writes_and_a_seed_repeats():
    at = load(PAGE, timeout=300)
    model = smollm()
    write(at, "The cat sat on the", max_new=5)
    np.testing.assert_array_equal(
        at.session_state["gen_written"].ids, model.generate("The cat sat on the", 5).ids
    )
    write(at, "Once upon a time", max_new=4, temperature=1.2, seed=7)
    sampled = model.generate("Once upon a time", 4, temperature=1.2, seed=7)
    np.testing.assert_array_equal(at.session_state["gen_written"].ids, sampled.ids)
    assert at.code[0].value == "Once upon a time" + sampled.text
    assert "temperature 1.2, seed 7" in at.caption[0].value or any(
        "temperature 1.2, seed 7" in c.value for c in at.caption
    )


def test_chat_mode_wraps_the_question():
    at = load(PAGE, timeout=300)
    write(at, "What is 2 + 2?", chat=True, max_new=3)
    model = smollm()
    g = model.generate(model.chat_prompt("What is 2 + 2?"), 3)
    w = at.session_state["gen_written"]
    np.testing.assert_array_equal(w.ids, g.ids)
    assert w.text.startswith("<|im_start|>system") and "<|im_start|>assistant\n" in w.text


def test_layer_head_and_token_changes_do_not_write_again():
    at = load(PAGE, timeout=300)
    w = at.session_state["gen_written"]
    at.selectbox(key="gen_layer").set_value(0)
    at.selectbox(key="gen_head").set_value(4)
    rerun(at)
    assert at.session_state["gen_written"] is w  # the same object: nothing was written
    tri = heatmap(at, "Causal attention, layer 0, head 4")
    p = w.n_prompt
    np.testing.assert_allclose(tri["m"][p - 1 :, :], w.rows[0, 4])
    at.pills(key="gen_pick").set_value(2)
    rerun(at)
    assert at.session_state["gen_written"] is w
    row = heatmap(at, "Row of")
    np.testing.assert_allclose(row["m"][0], w.rows[0, 4, 2, : p + 2])
    assert at.query_params["layer"] == "0" and at.query_params["head"] == "4"


BAD = {
    "empty": ("", "Type a prompt"),
    "blank": ("   ", "Type a prompt"),
    "control": ("a bell \x07 rings", "control characters"),
    "specials": ("<|im_start|><|im_end|>", "only special tokens"),
    "too long": (" ".join(["word"] * 300), "at most 256"),
}


def test_bad_prompts_get_a_sentence_and_keep_the_last_text(subtests):
    at = load(PAGE, timeout=300)
    before = at.session_state["gen_written"]
    for name, (prompt, words) in BAD.items():
        with subtests.test(name):
            write(at, prompt)
            assert any(words in e.value for e in at.error), [e.value for e in at.error]
            assert at.session_state["gen_written"] is before
    with subtests.test("empty chat question"):
        write(at, " ", chat=True)
        assert any("Type a prompt" in e.value for e in at.error)


def test_a_huge_paste_is_cut_with_a_notice():
    at = load(PAGE, timeout=300)
    write(at, "ab" * 2100)
    assert any("4,200 characters; the first 4,000 are used" in w.value for w in at.warning)
    assert any("at most 256" in e.value for e in at.error)  # 4,000 characters: still too long


def test_a_link_sets_the_prompt_and_the_head():
    at = load(
        PAGE,
        timeout=300,
        query={"prompt": "Hello there", "max_new": "3", "layer": "2", "head": "8", "seed": "x"},
    )
    assert any("seed" in w.value for w in at.warning)  # a bad value is ignored, said so
    np.testing.assert_array_equal(
        at.session_state["gen_written"].ids, smollm().generate("Hello there", 3).ids
    )
    heatmap(at, "Causal attention, layer 2, head 8")


@pytest.fixture
def runners(monkeypatch):
    """Every script runner AppTest starts, to read a page's messages while it still runs."""
    started = []
    init = LocalScriptRunner.__init__

    def keep(self, *args, **kwargs):
        init(self, *args, **kwargs)
        started.append(self)

    monkeypatch.setattr(LocalScriptRunner, "__init__", keep)
    return started


def shown_while_running(runner) -> list[str]:
    """The info boxes of the messages the page has sent so far."""
    return [i.value for i in parse_tree_from_messages(list(runner.forward_msgs())).info]


def test_a_learner_behind_another_sees_their_place(runners):
    at = load(PAGE, timeout=300)
    at.text_input(key="gen_prompt").input("Two learners")
    at.slider(key="gen_max_new").set_value(2)
    at.button(key="gen_go").click()
    q = generation_queue()
    seen: list[str] = []
    with contextlib.ExitStack() as others:  # as many learners as the steps take are writing
        for _ in range(GENERATION_SLOTS):
            others.enter_context(q.turn())(lambda ahead: None)
        page = threading.Thread(target=at.run)
        page.start()
        for _ in range(100_000):
            if runners and any("learner" in m for m in shown_while_running(runners[-1])):
                seen = shown_while_running(runners[-1])
                break
            page.join(0.01)
    page.join(300)
    assert "Waiting for the model: 1 learner(s) ahead of you" in seen
    assert not at.exception and not at.info  # the message went when the turn came
    np.testing.assert_array_equal(
        at.session_state["gen_written"].ids, smollm().generate("Two learners", 2).ids
    )


def test_the_live_triangle_has_its_numbers_in_a_table():
    """While the model writes, the growing triangle's numbers are in a table under it (every
    figure's numbers reachable as a table), the same matrix the figure draws."""

    def writing():
        import streamlit as st

        from attn_ui import generate_view as view
        from attn_ui.compute.decoder import decoder_run, smollm

        model = smollm()
        text = "The cat sat"
        g = model.generate(text, 3)
        places = st.empty(), st.empty(), st.empty()
        before = decoder_run(text).attentions[:, :, :-1, :-1]
        view.live(places, text, g.prompt_ids, g.steps, 26, 6, before)

    at = AppTest.from_function(writing, default_timeout=300).run()
    assert not at.exception, at.exception
    model = smollm()
    g = model.generate("The cat sat", 3)
    n = len(g.prompt_ids)
    want, first = gen.stack_rows(
        decoder_run("The cat sat").attentions[26, 6, :-1, :-1],
        [s.attention[26, 6] for s in g.steps],
        n,
    )
    drawn = heatmap(at, "Causal attention, layer 26, head 6 (writing)")
    np.testing.assert_array_equal(drawn["m"], want)
    label = "Numbers of Causal attention, layer 26, head 6 (writing)"
    assert [e.label for e in at.expander] == [f"{label} (table)"]
    shown = at.expander[0].dataframe[0].value
    np.testing.assert_array_equal(shown.to_numpy(), want)
    assert list(shown.index)[-1].endswith(formats.token(g.tokens[first + len(want) - 1]))


def test_the_live_table_goes_with_the_writing(loaded):
    """Once written, the page shows the finished triangle's numbers, not the live ones: the
    live figure's table shares its slot with the finished view and is replaced with it."""
    at = loaded(PAGE)
    labels = [e.label for e in at.expander]
    assert not any("(writing)" in label for label in labels), labels
    assert any(label.startswith("Numbers of Causal attention, layer 26") for label in labels)


def test_the_url_marks_a_generation_only_while_it_is_written(runners):
    """While the model writes, the URL carries `writing=1` (a reconnection elsewhere then
    knows the text was cut off); once written, the mark is gone."""
    at = load(PAGE, timeout=300)
    at.text_input(key="gen_prompt").input("Once upon a time")
    at.slider(key="gen_max_new").set_value(8)
    at.button(key="gen_go").click()
    rerun(at)
    sent = [m.page_info_changed.query_string for m in runners[-1].forward_msgs()]
    sent = [q for q in sent if q is not None]
    assert any("writing=1" in q for q in sent), sent  # set while writing
    assert "writing" not in at.query_params  # and removed at the end
    assert at.session_state["gen_written"].n_new == 8


def test_a_generation_cut_off_by_its_server_is_reported_with_one_click_to_write_again():
    """A page that opens with the mark (the browser reconnected to another replica while the
    dead one was writing): it says the text was cut off and writes nothing by itself; one
    click on "Write it again" writes the kept prompt."""
    at = load(PAGE, timeout=300, query={"prompt": "Hello there", "max_new": "3", "writing": "1"})
    assert any("cut off" in w.value for w in at.warning), [w.value for w in at.warning]
    assert "gen_written" not in at.session_state  # nothing written behind the learner's back
    assert at.text_input(key="gen_prompt").value == "Hello there"  # the prompt kept
    assert "writing" not in at.query_params
    at.button(key="gen_write_again").click()
    rerun(at)
    assert not any("cut off" in w.value for w in at.warning)
    np.testing.assert_array_equal(
        at.session_state["gen_written"].ids, smollm().generate("Hello there", 3).ids
    )
    assert "writing" not in at.query_params
