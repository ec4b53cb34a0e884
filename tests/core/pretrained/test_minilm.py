"""MiniLM in NumPy against stored transformers / sentence-transformers numbers (no torch here).

The reference file is written by tests/fixtures/make_minilm_reference.py (see its docstring).
"""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from attn_core import AttentionInputError
from attn_core.pretrained import ModelTrace, load_minilm
from attn_core.pretrained.bert_layer import feed_forward, layer_norm

ROOT = Path(__file__).resolve().parents[3]
REF = np.load(ROOT / "tests" / "fixtures" / "minilm_reference.npz")
NAMES = [str(n) for n in REF["names"]]
SENTENCE = dict(zip(NAMES, (str(s) for s in REF["sentences"]), strict=True))
ATOL_STATES = 1e-5  # attentions and hidden states, max abs, float32 against float32
ATOL_EMBED = 1e-6


@pytest.fixture(scope="module")
def model():
    return load_minilm()


@pytest.fixture(scope="module")
def runs(model) -> dict[str, ModelTrace]:
    return {name: model.run(SENTENCE[name]) for name in NAMES}


@pytest.mark.parametrize("name", NAMES)
def test_tokens_and_ids_match_the_reference_tokenizer(runs, name):
    assert runs[name].tokens == tuple(REF[f"{name}/tokens"])
    np.testing.assert_array_equal(runs[name].ids, REF[f"{name}/ids"])


@pytest.mark.parametrize("name", NAMES)
def test_attentions_match_transformers(runs, name):
    ours = runs[name].attentions
    if name == "long":  # only some layers are stored for the long sentence
        ours = ours[REF["long/attention_layers"]]
    ref = REF[f"{name}/attentions"]
    assert ours.shape == ref.shape
    assert np.abs(ours - ref).max() <= ATOL_STATES


@pytest.mark.parametrize("name", NAMES)
def test_hidden_states_match_transformers(runs, name):
    ref = REF[f"{name}/hidden_states"]
    assert runs[name].hidden_states.shape == ref.shape == (7, len(runs[name].tokens), 384)
    assert np.abs(runs[name].hidden_states - ref).max() <= ATOL_STATES


@pytest.mark.parametrize("name", [*NAMES, "very_long"])
def test_embed_matches_sentence_transformers(model, name):
    sentence = str(REF["very_long/sentence"]) if name == "very_long" else SENTENCE[name]
    e = model.embed(sentence)
    assert e.shape == (384,)
    assert np.linalg.norm(e) == pytest.approx(1.0, abs=1e-6)
    assert np.abs(e - REF[f"{name}/embedding"]).max() <= ATOL_EMBED


def test_trace_shapes_dtypes_and_distributions(runs):
    run = runs["driver"]
    t = run.n_tokens
    assert run.attentions.shape == (6, 12, t, t)
    assert run.hidden_states.dtype == run.attentions.dtype == np.float32
    np.testing.assert_allclose(run.attentions.sum(axis=-1), 1.0, atol=1e-5)
    assert (run.attentions >= 0).all()
    assert not run.truncated and run.n_tokens_original == t


def test_repeated_words_keep_their_own_rows(runs):
    run = runs["repeated"]  # "the cat saw the cat"
    assert run.tokens == ("[CLS]", "the", "cat", "saw", "the", "cat", "[SEP]")
    # same word, different position: different embeddings (positions are added)
    assert not np.allclose(run.hidden_states[0, 1], run.hidden_states[0, 4])


def test_unknown_characters_show_as_unk_and_non_english_runs(runs):
    assert "[UNK]" in runs["unknown"].tokens
    assert "##raße" in runs["non_english"].tokens and "我" in runs["non_english"].tokens
    assert np.isfinite(runs["non_english"].hidden_states).all()


def test_offsets_point_into_the_sentence(runs):
    run = runs["driver"]
    assert run.offsets[0] == run.offsets[-1] == (0, 0)
    start, end = run.offsets[run.tokens.index("driver")]
    assert run.sentence[start:end] == "driver"


def test_long_sentence_is_truncated_visibly(model):
    sentence = str(REF["very_long/sentence"])
    run = model.run(sentence)  # default max_tokens=128
    assert run.truncated
    assert run.n_tokens == 128 and run.attentions.shape[-1] == 128
    assert run.n_tokens_original == int(REF["very_long/n_tokens"]) > 128
    assert run.tokens[0] == "[CLS]" and run.tokens[-1] == "[SEP]"
    np.testing.assert_array_equal(run.ids, REF["very_long/ids_128"])  # transformers' truncation


def test_max_tokens_sets_the_cut(model):
    run = model.run("the cat saw the cat", max_tokens=5)
    assert run.tokens == ("[CLS]", "the", "cat", "saw", "[SEP]")
    assert run.truncated and run.n_tokens_original == 7
    assert not model.run("the cat", max_tokens=4).truncated  # exactly fits


@pytest.mark.parametrize("max_tokens", [2, 513, 0, -1, 1.5, True, "128"])
def test_bad_max_tokens_is_refused(model, max_tokens):
    with pytest.raises(AttentionInputError, match="max_tokens"):
        model.run("hello", max_tokens=max_tokens)


@pytest.mark.parametrize("sentence", ["", "   ", "\n\t", "\u200b"])
def test_empty_sentence_is_refused(model, sentence):
    with pytest.raises(AttentionInputError, match="empty"):
        model.run(sentence)
    with pytest.raises(AttentionInputError, match="empty"):
        model.embed(sentence)


def test_non_text_is_refused(model):
    with pytest.raises(AttentionInputError, match="text"):
        model.run(["the", "cat"])


@pytest.mark.parametrize(("layer", "head"), [(0, 0), (2, 7), (5, 11)])
def test_head_trace_is_the_runs_head(model, runs, layer, head):
    run = runs["driver"]
    tr = model.head_trace(run, layer, head)
    np.testing.assert_array_equal(tr.weights, run.attentions[layer, head])  # bit for bit
    assert tr.q.shape == tr.k.shape == tr.v.shape == (run.n_tokens, 32) and tr.d_k == 32
    assert tr.w_q.shape == tr.w_k.shape == tr.w_v.shape == (384, 32)
    np.testing.assert_array_equal(tr.x, run.hidden_states[layer])
    b_q, b_k, b_v = model.head_bias(layer, head)
    np.testing.assert_allclose(tr.q, tr.x @ tr.w_q + b_q, atol=1e-5)
    np.testing.assert_allclose(tr.k, tr.x @ tr.w_k + b_k, atol=1e-5)
    np.testing.assert_allclose(tr.v, tr.x @ tr.w_v + b_v, atol=1e-5)
    np.testing.assert_allclose(tr.scores, tr.q @ tr.k.T, rtol=1e-5, atol=1e-5)
    assert tr.scale == pytest.approx(1 / np.sqrt(32))
    np.testing.assert_allclose(tr.output, tr.weights @ tr.v, atol=1e-5)


def test_head_traces_rebuild_the_next_hidden_state(model, runs):
    """Concatenating a layer's 12 head outputs and finishing the layer gives its output."""
    run, layer = runs["movie"], 3
    p = model.layers[layer]
    z = np.concatenate([model.head_trace(run, layer, h).output for h in range(12)], axis=1)
    x = run.hidden_states[layer]
    x = layer_norm(x + z @ p.w_o + p.b_o, *p.ln_1, model.eps)
    x = layer_norm(x + feed_forward(x, p.w_1, p.b_1, p.w_2, p.b_2), *p.ln_2, model.eps)
    np.testing.assert_allclose(x, run.hidden_states[layer + 1], atol=1e-5)


@pytest.mark.parametrize("layers", [0, 1, 4, 6])
def test_a_run_to_a_layer_is_the_whole_runs_start(model, runs, layers):
    """`layers=n` computes the first n layers only, bit for bit the whole run's; a head of
    layer n reads from it exactly what it reads from the whole run."""
    whole = runs["driver"]
    part = model.run(whole.sentence, layers=layers)
    assert part.hidden_states.shape == (layers + 1, whole.n_tokens, 384)
    assert part.attentions.shape == (layers, 12, whole.n_tokens, whole.n_tokens)
    np.testing.assert_array_equal(part.hidden_states, whole.hidden_states[: layers + 1])
    np.testing.assert_array_equal(part.attentions, whole.attentions[:layers])
    assert part.tokens == whole.tokens
    if layers < 6:
        np.testing.assert_array_equal(
            model.head_trace(part, layers, 8).weights, whole.attentions[layers, 8]
        )


def test_a_head_beyond_a_short_run_is_refused_and_so_are_bad_layers(model):
    run = model.run("the cat sat", layers=1)
    with pytest.raises(AttentionInputError, match="stopped after 1 layer"):
        model.head_trace(run, 2, 0)
    for bad in (-1, 7, 1.0, True):
        with pytest.raises(AttentionInputError, match="layers must be a whole number"):
            model.run("the cat sat", layers=bad)


@pytest.mark.parametrize(("layer", "head"), [(6, 0), (0, 12), (-1, 0), (0, 1.0), (True, 0)])
def test_head_trace_refuses_a_missing_head(model, runs, layer, head):
    with pytest.raises(AttentionInputError, match="whole number from 0 to"):
        model.head_trace(runs["single"], layer, head)


def test_model_and_traces_are_read_only(model, runs):
    assert model.word_embeddings.shape == (30522, 384)
    for a in (model.word_embeddings, model.layers[0].w_qkv, runs["single"].attentions):
        with pytest.raises(ValueError, match="read-only"):
            a[0] = 0


def test_tokenizer_pads_and_truncates_nothing(model):
    assert model.tokenizer.padding is None and model.tokenizer.truncation is None
    assert model.run("Hello").tokens == ("[CLS]", "hello", "[SEP]")


def test_load_minilm_is_cached(model):
    assert load_minilm() is model


def test_attn_core_never_imports_torch():
    code = (
        "import sys, attn_core, attn_core.text, attn_core.pretrained.bert_layer\n"
        "m = attn_core.pretrained.load_minilm(); m.embed('hi'); attn_core.text.embed('hi', 4)\n"
        "bad = {'torch', 'transformers', 'sentence_transformers', 'streamlit', 'plotly'}\n"
        "print(sorted(n for n in sys.modules if n.split('.')[0] in bad))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
    sources = "\n".join(p.read_text() for p in (ROOT / "attn_core").rglob("*.py"))
    assert "import torch" not in sources and "from torch" not in sources


def test_what_the_tokenizer_does_with_spanish_and_chinese(model):
    """The facts docs/glossary.md gives translators: MiniLM is uncased (accents dropped,
    Spanish split into WordPiece pieces) and knows 244 CJK characters, so much Chinese text
    reads as [UNK] and a lesson's Chinese sentence must use the characters it has."""

    def words(sentence: str) -> tuple[str, ...]:  # the tokens without [CLS] and [SEP]
        return model.tokenize(sentence)[0][1:-1]

    assert words("sentó niña alfombra") == ("sent", "##o", "nina", "alf", "##om", "##bra")
    vocab = model.tokenizer.get_vocab()
    assert sum(len(t) == 1 and "\u4e00" <= t <= "\u9fff" for t in vocab) == 244
    cat = words("猫坐在垫子上，因为猫累了。")
    assert (len(cat), cat.count("[UNK]")) == (13, 9)
    assert "[UNK]" not in words("天上有明月，山下有小花。")
