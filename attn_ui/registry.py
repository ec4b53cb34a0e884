"""Every page of the app, in one place: its file, title, menu group, lesson text and order.

A page's URL is its file name: Streamlit serves ``pages/03_Scores.py`` at ``/Scores`` (the
number only sorts Streamlit's own menu, which is switched off). Teachers keep those links, so
the files keep their names; everything else about a page is written here and only here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from attn_lessons.i18n import N_, _

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Page:
    path: str  # pages/NN_Name.py, relative to the app root, as st.page_link wants it
    english: str  # the title in English: its message id in the catalogues
    group: str  # one of GROUPS: the menu section
    name: str  # lessons/<name>.md holds its text; also how code names the page
    params: tuple[str, ...] = ()  # the page's own query parameters (not lesson settings)
    figure: bool = True  # a live figure comes first (the class pages are forms and tables)

    @property
    def title(self) -> str:
        """The title in the page's language."""
        return _(self.english)

    @property
    def url(self) -> str:
        """Streamlit's address for the page: pages/03_Scores.py is /Scores."""
        return "/" + Path(self.path).stem.split("_", 1)[1]


GROUPS = (
    N_("The steps"),
    N_("Labs"),
    N_("By hand"),
    N_("Real model"),
    N_("Decoder"),
    N_("Inside the kernel"),
    N_("Class"),
)

# The order is the menu's, and the previous/next chain within a group.
PAGES: tuple[Page, ...] = (
    Page("pages/00_Overview.py", N_("Overview: the whole pipeline"), "The steps", "overview"),
    Page("pages/01_Tokens.py", N_("1. Tokens and embeddings: X"), "The steps", "tokens"),
    Page("pages/02_Projection.py", N_("2. Projection: Q, K and V"), "The steps", "projection"),
    Page("pages/03_Scores.py", N_("3. Scores: S = Q Kᵀ"), "The steps", "scores"),
    Page("pages/04_Scaling.py", N_("4. Scaling: divide by √d_k"), "The steps", "scaling"),
    Page("pages/05_Softmax.py", N_("5. Softmax: weights sum to 1"), "The steps", "softmax"),
    Page("pages/06_Weighted_sum.py", N_("6. Weighted sum: Z = A V"), "The steps", "weighted_sum"),
    Page("pages/07_Masking.py", N_("7. Masking: who sees whom"), "The steps", "masking"),
    Page("pages/08_Multi-head.py", N_("8. Multi-head attention"), "The steps", "multihead"),
    Page(
        "pages/40_Why_scale.py", N_("Why scale by √d: variance and saturation"), "Labs", "why_scale"
    ),
    Page("pages/41_Softmax_lab.py", N_("Softmax lab: temperature, argmax"), "Labs", "softmax_lab"),
    Page("pages/42_Similarity.py", N_("Similarity: dot, cosine, search"), "Labs", "similarity"),
    Page("pages/43_Additive.py", N_("Additive attention (Bahdanau)"), "Labs", "additive"),
    Page("pages/44_Cross_attention.py", N_("Cross-attention: a second sentence"), "Labs", "cross"),
    Page("pages/45_Local_attention.py", N_("Local attention: a window"), "Labs", "local"),
    Page("pages/46_Cost.py", N_("Cost: time and memory against T"), "Labs", "cost"),
    Page("pages/47_Transformer_block.py", N_("Transformer block: the layer"), "Labs", "block"),
    Page(
        "pages/48_Word_order.py", N_("Word order: what attention cannot see"), "Labs", "word_order"
    ),
    Page("pages/20_By_hand.py", N_("By hand: a worked example"), "By hand", "by_hand"),
    Page("pages/21_Practice.py", N_("Practice: fill in the grids"), "By hand", "practice"),
    Page("pages/22_Worksheets.py", N_("Worksheets: blank templates"), "By hand", "worksheets"),
    Page(
        "pages/30_Model_explorer.py",
        N_("Model explorer: every head"),
        "Real model",
        "model_explorer",
    ),
    Page("pages/60_Generate.py", N_("Generate: a decoder writing"), "Decoder", "generate"),
    Page(
        "pages/61_Causal_decoder.py",
        N_("Causal decoder: the mask in a real model"),
        "Decoder",
        "causal_decoder",
    ),
    Page("pages/62_KV_cache.py", N_("KV cache: keep K and V, not Q"), "Decoder", "kv_cache"),
    Page("pages/63_Grouped_query.py", N_("Grouped-query attention"), "Decoder", "grouped_query"),
    Page("pages/64_RoPE.py", N_("RoPE: rotary positions"), "Decoder", "rope"),
    Page(
        "pages/50_Tiled_attention.py",
        N_("Tiled attention: the online softmax"),
        "Inside the kernel",
        "tiled_attention",
    ),
    Page(
        "pages/51_Gradients.py",
        N_("Gradients: how a head learns"),
        "Inside the kernel",
        "gradients",
    ),
    Page("pages/52_Train_a_head.py", N_("Train a head, live"), "Inside the kernel", "train_a_head"),
    Page("pages/70_Join.py", N_("Join a class"), "Class", "join", ("code",), figure=False),
    Page(
        "pages/72_Concept_inventory.py",
        N_("Concept inventory: before and after"),
        "Class",
        "inventory",
        ("form",),
        figure=False,
    ),
    Page(
        "pages/71_Teach.py",
        N_("Teach: what your class understood"),
        "Class",
        "teach",
        ("code", "key"),
        figure=False,
    ),
)


class UnregisteredPage(LookupError):
    """A page file or name that PAGES does not list."""


def info(file: str) -> Page:
    """The registered page whose file is `file` (a page passes its ``__file__``)."""
    name = Path(file).name
    for p in PAGES:
        if Path(p.path).name == name:
            return p
    raise UnregisteredPage(
        f"pages/{name} is not registered. Add a line for it to PAGES in attn_ui/registry.py: "
        f'Page("pages/{name}", title, group (one of {", ".join(GROUPS)}), lesson name).'
    )


def page(name: str) -> Page:
    """The registered page called `name` (its lesson name, e.g. "overview")."""
    for p in PAGES:
        if p.name == name:
            return p
    raise UnregisteredPage(
        f"No page is called {name!r}. The names are the last field of PAGES in "
        f"attn_ui/registry.py: {', '.join(p.name for p in PAGES)}."
    )


def in_group(group: str) -> list[Page]:
    """The pages of one menu group, in menu order."""
    return [p for p in PAGES if p.group == group]
