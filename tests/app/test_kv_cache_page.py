"""KV cache page: the shapes of a real cache, the counts of attn_core.labs.kv_cache, the memory
curve, the cached step equal to a full pass, timing through the queue, bad prompts."""

from __future__ import annotations

import numpy as np

from attn_core.labs import kv_cache as kv
from attn_ui import formats
from attn_ui.compute import kv_cache as compute
from attn_ui.compute.decoder import smollm
from tests.support.apptest import canvas_chart, chart_values, chart_x, load, rerun

PAGE = "pages/62_KV_cache.py"


def metric(at, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def test_defaults_show_the_cache_the_counts_and_the_proof(loaded):
    at = loaded(PAGE)
    model = smollm()
    check = kv.check_cache(model, model.encode(compute.DEFAULT_PROMPT))
    t = len(check.ids)
    shapes = at.dataframe[0].value
    assert list(shapes.iloc[:, 1]) == [f"30 × 3 × {t} × 64"] * 2 + [f"30 × 9 × {t} × 64"]
    assert list(shapes.iloc[:, 0]) == ["yes", "yes", "no: used once"]
    sizes = kv.DecoderSizes.from_config(model.config)
    costs = at.dataframe[1].value
    flops = [int(v.replace(",", "")) for v in costs.iloc[0]]
    assert flops == [kv.step_cost(sizes, t, cached=c).flops for c in (True, False)]
    assert metric(at, "Largest |logit difference|") == f"{check.max_difference:.1e}"
    assert check.max_difference < 1e-3
    a, b = check.next_ids
    assert a == b
    # the default prompt's next token is a line break: shown as ↵, as on Generate, not '\n'
    assert metric(at, "Next token, cached / full") == "“↵” / “↵”"
    assert formats.token(model.token_text(a)) == "↵"
    memory = canvas_chart(at, "Memory of the KV cache")
    np.testing.assert_allclose(
        chart_values(memory, "KV cache (float32)"),
        [kv.cache_bytes(sizes, int(n)) / 1e6 for n in compute.CONTEXTS],
    )
    assert chart_x(memory, "KV cache (float32)")[-1] == 8192
    both = canvas_chart(at, "FLOPs to read one more token")
    np.testing.assert_allclose(chart_values(both, "with the cache"), compute.curves()["flops_with"])


def test_the_page_counts_the_prompt_and_the_models_token_apart_from_0(loaded):
    """The cache holds the prompt's 22 tokens and the model's 1 (not "your 23 tokens"); the
    step reads position 22, counted from 0 as on Generate; sizes in the app's one unit."""
    at = loaded(PAGE)
    t = len(smollm().encode(compute.DEFAULT_PROMPT)) + 1
    assert t == 23
    text = " ".join(m.value for m in at.markdown)
    assert "The cache after your 22 tokens and the model's one (23 in all)" in text
    assert "your 23 tokens" not in text
    assert "the model's token at position 22" in text and "positions 0 to 21" in text
    # the figures come first (section 1: memory against the context), then the step's section
    assert [h.value for h in at.subheader][2] == "3. One new token: position 22"
    sizes = compute.sizes()
    full = formats.size(kv.cache_bytes(sizes, 8192))
    assert full == "377.5 MB" and f"{full}, against 538.1 MB of weights" in text
    captions = [c.value for c in at.caption]
    assert formats.SIZE_NOTE in captions and formats.TOKEN_NOTE in captions
    assert any("the token after “↵” (position 22)" in c for c in captions)


def test_timing_both_ways_in_the_queue():
    at = load(PAGE, timeout=300)
    assert not [m for m in at.metric if m.label == "With the cache"]
    at.button(key="kv_measure").click()
    rerun(at)
    for label in ("With the cache", "Faster with the cache"):
        assert float(metric(at, label).split()[0].rstrip("×")) > 0
    assert not [i for i in at.info if "Waiting" in i.value]  # nobody was ahead: none stays


def test_a_new_prompt_changes_the_cache_and_bad_prompts_get_a_sentence(subtests):
    at = load(PAGE, timeout=300)
    at.text_input(key="kv_prompt").input("One two three")
    rerun(at)
    t = len(smollm().encode("One two three")) + 1
    assert at.dataframe[0].value.iloc[0, 1] == f"30 × 3 × {t} × 64"
    assert at.query_params["prompt"] == "One two three"
    bad = {
        "empty": ("", "Type a prompt"),
        "control": ("tab\x0b", "control characters"),
        "specials": ("<|im_end|>", "only special tokens"),
        "too long": ("word " * 300, "at most 256"),
    }
    for name, (prompt, words) in bad.items():
        with subtests.test(name):
            at.text_input(key="kv_prompt").input(prompt)
            rerun(at)
            assert any(words in e.value for e in at.error), [e.value for e in at.error]
            assert not at.metric  # the page stops before any number
    with subtests.test("huge paste"):
        at.text_input(key="kv_prompt").input("ab" * 2500)
        rerun(at)
        assert any("the first 4,000 are used" in w.value for w in at.warning)


def test_a_link_s_prompt_is_the_page_s_prompt():
    """?prompt= opens the page on that prompt, through the one URL codec (settings.py)."""
    at = load(PAGE, timeout=300, query={"prompt": "One two three"})
    assert at.text_input(key="kv_prompt").value == "One two three"
    t = len(smollm().encode("One two three")) + 1
    assert at.dataframe[0].value.iloc[0, 1] == f"30 × 3 × {t} × 64"


class _Worker:
    """A generation worker that has (or has not) run a step: `last` and `alone`."""

    def __init__(self, last, alone):
        self.last, self.alone = last, alone


def test_writing_together_shows_the_servers_latest_step(monkeypatch):
    """Section 5 reads the worker's latest step (how many shared it, its time) and its
    latest step for one; before any generation it says how to see one."""
    from attn_ui.compute.decoder_worker import Shared

    monkeypatch.setattr("attn_ui.compute.decoder.generation_worker", lambda: _Worker(None, None))
    at = load(PAGE)
    assert any("No text has been written on this server" in i.value for i in at.info)
    together = _Worker(Shared(together=3, ms=118.4), Shared(together=1, ms=41.2))
    monkeypatch.setattr("attn_ui.compute.decoder.generation_worker", lambda: together)
    at = rerun(at)
    assert metric(at, "Generations sharing the latest step") == "3"
    assert metric(at, "That step took") == "118 ms"
    assert metric(at, "A step for one alone (latest)") == "41 ms"
