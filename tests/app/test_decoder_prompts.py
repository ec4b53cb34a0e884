"""The decoder pages (causal mask, grouped-query attention, RoPE) answer every prompt SmolLM2
cannot read with the core's sentence, and stop before drawing anything of the model."""

import pytest

from tests.support.apptest import heatmaps, load, type_sentence

PAGES = ["pages/61_Causal_decoder.py", "pages/63_Grouped_query.py", "pages/64_RoPE.py"]
BAD = {
    "empty": ("", "nothing to continue"),
    "control characters": ("the cat\x07 sat", "control characters (U+0007)"),
    "too long": ("word " * 98, "at most 96 are allowed"),  # 490 characters, 98 tokens
    "special tokens only": ("<|im_start|><|im_end|>", "only special tokens"),
}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.split("_", 1)[1].removesuffix(".py"))
def test_a_prompt_the_model_cannot_read_gets_its_sentence(page, subtests):
    at = load(page)
    assert heatmaps(at)
    for name, (prompt, words) in BAD.items():
        with subtests.test(name):
            type_sentence(at, prompt)  # fails on a traceback
            errors = [e.value for e in at.error]
            assert any(words in e for e in errors), errors
            assert not heatmaps(at) and not at.metric and not at.dataframe
    type_sentence(at, "The dog ran home.")  # and the page works again
    assert heatmaps(at) and not at.error
