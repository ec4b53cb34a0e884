"""Every page with a sentence box answers each bad sentence with a message, never a traceback.

One page load per page; the learner then types each of BAD_SENTENCES in turn (a subtest
each), and after each: no traceback, the expected message, no raw HTML, and where the page
goes on, tables of numbers without a NaN (tests/support/bad_input.py).
"""

from dataclasses import dataclass

import pytest

from tests.support.apptest import (
    frame,
    heatmap,
    load,
)
from tests.support.bad_input import BAD_SENTENCES, check_bad_sentence


def tokens_page(at, expect) -> None:
    """Where the page goes on: the token table lists the tokens, and the labels of X go to
    the canvas as typed (drawn as text, never markup)."""
    if expect is not None and expect[0] == "error":
        return
    tokens = list(frame(at, "kind")["token"])  # the token table (the repeats table has "token")
    assert tokens and all(isinstance(t, str) for t in tokens)
    if expect is None:
        assert heatmap(at, "X ")["rows"] == tokens


def similarity_page(at, expect) -> None:
    """The search does not depend on the sentence: its eight results stay."""
    assert len(frame(at, "score: cosine")) == 8


def word_order_page(at, expect) -> None:
    """Where the page stops, it stops before the reordering: no gap is measured."""
    if expect is not None and expect[0] == "error":
        assert not at.metric


@dataclass(frozen=True)
class Page:
    path: str
    query: dict | None = None  # a link's settings, before the sentences are typed
    may_be_empty: tuple = ()  # tables whose masked cells are empty on purpose
    min_tables: int = 3  # tables of numbers the page shows at least
    warns: bool = True  # the page shows the tokenizer's warnings (one token, [UNK])
    extra: object = None  # more checks after each sentence: f(at, expect)
    own: tuple = ()  # (name, expect) pairs: where this page's model answers differently

    def expected(self, expect, name: str = ""):
        if name in dict(self.own):
            return dict(self.own)[name]
        if expect is not None and expect[0] == "warning" and not self.warns:
            return None  # no warning, but the page goes on with finite numbers
        return expect


# The decoder pages read the sentence with SmolLM2: its own message for an empty prompt, and
# room for 96 of its tokens (70 words fit). Too long, control characters and special tokens
# only: tests/app/test_decoder_prompts.py.
DECODER = (
    ("empty", ("error", "nothing to continue")),
    ("blank", ("error", "nothing to continue")),
    ("65+ tokens", None),
)

# The step pages open on MiniLM's head, which reads one word as [CLS] cat [SEP]: three tokens,
# so no "single token" warning (the random weights' pages below still give it).
REAL_HEAD = (("one token", None),)


PAGES = [
    Page("pages/01_Tokens.py", min_tables=2, extra=tokens_page, own=REAL_HEAD),  # X and its cosines
    Page("pages/02_Projection.py", own=REAL_HEAD),
    Page("pages/03_Scores.py", own=REAL_HEAD),
    Page("pages/04_Scaling.py", own=REAL_HEAD),
    Page("pages/05_Softmax.py", may_be_empty=("S / √d_k + M",), own=REAL_HEAD),
    Page("pages/06_Weighted_sum.py", own=REAL_HEAD),
    Page(
        "pages/07_Masking.py",
        query={"mask": "causal"},
        may_be_empty=("M (0 = may attend", "S/√d_k + M ("),
        own=REAL_HEAD,
    ),
    Page("pages/08_Multi-head.py"),
    Page("pages/42_Similarity.py", extra=similarity_page),
    Page("pages/44_Cross_attention.py", warns=False),
    Page("pages/45_Local_attention.py", own=REAL_HEAD),
    Page("pages/47_Transformer_block.py", warns=False),
    Page("pages/48_Word_order.py", extra=word_order_page),
    Page("pages/50_Tiled_attention.py", own=REAL_HEAD),
    Page("pages/51_Gradients.py"),
    Page("pages/61_Causal_decoder.py", min_tables=2, own=DECODER),  # MiniLM warns of [UNK]
    Page("pages/63_Grouped_query.py", warns=False, own=DECODER),  # SmolLM2 only: no [UNK]
    Page("pages/64_RoPE.py", min_tables=1, own=DECODER),
]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.path.split("/")[-1].removesuffix(".py"))
def test_bad_sentences_get_a_message_never_a_traceback(page, subtests):
    at = load(page.path, query=page.query)
    for name, (sentence, expect) in BAD_SENTENCES.items():
        with subtests.test(name):
            check_bad_sentence(
                at,
                sentence,
                page.expected(expect, name),
                may_be_empty=page.may_be_empty,
                min_tables=page.min_tables,
            )
            if page.extra:
                page.extra(at, page.expected(expect, name))
