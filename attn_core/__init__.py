"""attn_core: scaled dot-product attention in NumPy, every intermediate kept.

Tokens are rows (the paper's and PyTorch's layout). No Streamlit, no plotting here, and
``import attn_core`` needs NumPy alone. The map:

errors.py      what a learner can get wrong, and the checks that say so
softmax.py     a row of scores becomes a distribution
attention.py   softmax(q k^T / sqrt(d_k) + M) v, step by step; ``self_attention``
backward.py    the gradients of every step, backwards: ``attention_backward`` -> ``Grads``
training.py    one head trained by gradient descent on toy tasks: ``train_head``
masks.py       causal, padding and window masks
multihead.py   n_heads heads side by side, concatenated, mixed by w_o
weights.py     the seeded weight matrices of the lessons
text.py        a sentence becomes X, one row per token (MiniLM's tokenizer and embeddings)
tiled.py       the same attention a block of keys at a time (the online softmax of
               FlashAttention): ``tiled_attention``
fast.py        the fast path: the two functions not written as their formula, and why
by_hand/       the paper-and-pencil convention (tokens as columns, 3^x, exact fractions):
               traces, worksheets, checking a learner's grid (``attn_core.pencil`` is
               ``by_hand.trace``, its name in older notebooks)
pretrained/    a real model in NumPy: MiniLM, one BERT layer (``load_minilm``)
labs/          the maths of the labs and of the close-ups beside the steps

>>> import numpy as np, attn_core
>>> t = attn_core.attention(np.eye(2), np.eye(2), np.eye(2))
>>> t.weights.sum(axis=-1)
array([1., 1.])
"""

import sys

from attn_core import by_hand, pretrained, text
from attn_core.attention import Trace, attention, self_attention
from attn_core.backward import Grads, attention_backward
from attn_core.by_hand import (
    Exercise,
    HandTrace,
    NotWholeNumberError,
    hand_attention,
    hand_heads,
    make_exercise,
    to_rows,
)
from attn_core.by_hand import trace as pencil
from attn_core.errors import (
    AttentionInputError,
    FullyMaskedRowError,
    NonFiniteError,
    ShapeError,
)
from attn_core.labs.additive import AdditiveTrace, additive_attention
from attn_core.masks import causal_mask, padding_mask, window_mask
from attn_core.multihead import MultiHeadTrace, merge_heads, multi_head_attention, split_heads
from attn_core.softmax import softmax
from attn_core.tiled import TiledTrace, tiled_attention
from attn_core.training import TrainingRun, train_head
from attn_core.weights import Weights, lesson_weights

# The by-hand trace was the module attn_core.pencil before the subpackages: notebooks that
# `import attn_core.pencil` or `from attn_core.pencil import ...` keep working.
sys.modules.setdefault("attn_core.pencil", pencil)

__all__ = [
    "AdditiveTrace",
    "Exercise",
    "HandTrace",
    "NotWholeNumberError",
    "AttentionInputError",
    "FullyMaskedRowError",
    "Grads",
    "MultiHeadTrace",
    "NonFiniteError",
    "ShapeError",
    "TiledTrace",
    "Trace",
    "TrainingRun",
    "Weights",
    "additive_attention",
    "attention",
    "attention_backward",
    "by_hand",
    "causal_mask",
    "hand_attention",
    "hand_heads",
    "make_exercise",
    "lesson_weights",
    "merge_heads",
    "multi_head_attention",
    "padding_mask",
    "pencil",
    "pretrained",
    "self_attention",
    "softmax",
    "split_heads",
    "text",
    "tiled_attention",
    "to_rows",
    "train_head",
    "window_mask",
]
