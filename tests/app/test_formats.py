"""attn_ui.formats: one unit for sizes on every page (the KV cache and grouped-query pages agree
on the same cache), tokens with their spaces visible, three significant digits."""

import math

import pytest

from attn_core.labs import kv_cache as kv
from attn_ui import decoder_views, formats
from attn_ui.compute import kv_cache

# SmolLM2-135M's sizes, as in its config (no model needed for the counts)
SMOLLM2 = {
    "n_layers": 30,
    "d_model": 576,
    "n_heads": 9,
    "n_kv_heads": 3,
    "head_dim": 64,
    "d_ff": 1536,
    "vocab_size": 49152,
}


@pytest.mark.parametrize(
    ("n_bytes", "shown"),
    [
        (0, "0 bytes"),
        (512, "512 bytes"),
        (46_080, "46.1 kB"),  # SmolLM2's cache per token
        (999_960, "1.0 MB"),  # not "1,000.0 kB"
        (377_487_360, "377.5 MB"),  # its cache at 8,192 tokens: 10^6 bytes a MB, not 1024^2
        (1_132_462_080, "1,132.5 MB"),  # MHA's: still MB, so a column compares at a glance
    ],
)
def test_sizes_are_decimal_units(n_bytes, shown):
    assert formats.size(n_bytes) == shown


@pytest.mark.parametrize("bad", [-1, math.nan])
def test_a_size_that_is_no_size_is_refused(bad):
    with pytest.raises(ValueError, match="bytes"):
        formats.size(bad)


def test_the_kv_cache_and_grouped_query_pages_give_the_same_cache_the_same_size():
    """The KV cache page's "at 8,192 tokens it holds ..." and the grouped-query table's GQA
    cell at 8,192 tokens are one number in one unit (they read 377.5 MB and 360.0 MB)."""
    on_kv_page = kv_cache.memory(kv.DecoderSizes.from_config(SMOLLM2))
    table = decoder_views.cache_table(SMOLLM2, 22, kv_cache.FULL_CONTEXT)
    gqa = table.set_index("sharing").loc["GQA (SmolLM2)"]
    assert on_kv_page["full"] == gqa[f"{kv_cache.FULL_CONTEXT} tokens"] == "377.5 MB"
    assert on_kv_page["per_token"] == formats.size(gqa["bytes per token"]) == "46.1 kB"
    assert gqa["your 22 tokens"] == formats.size(22 * 46_080) == "1.0 MB"


def test_tokens_show_their_spaces_and_line_breaks():
    assert formats.token(" Paris") == "␣Paris"
    assert formats.token(" Paris") != formats.token("Paris") == "Paris"
    assert formats.token("\n") == "↵" and formats.token("\n\n") == "↵↵"
    assert formats.token("\t") == "⇥" and formats.token("") == "∅"
    for sign in ("␣", "↵", "⇥"):
        assert sign in formats.TOKEN_NOTE  # the caption explains each sign


def test_three_significant_digits_keep_a_falling_distance_apart():
    shown = [formats.significant(x) for x in (1.5, 1.42, 1.02, 2.4e-7, 0.0)]
    assert shown == ["1.50", "1.42", "1.02", "2.40e-07", "0.00"]
    assert formats.significant(0.000613) == "0.000613"
