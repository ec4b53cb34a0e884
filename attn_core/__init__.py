"""attn_core: scaled dot-product attention in NumPy, every intermediate kept.

Tokens are rows (the paper's and PyTorch's layout); see ``attn_core.pencil`` for
the by-hand layout where tokens are columns. No Streamlit, no plotting here.

>>> import numpy as np, attn_core
>>> t = attn_core.attention(np.eye(2), np.eye(2), np.eye(2))
>>> t.weights.sum(axis=-1)
array([1., 1.])
"""

from attn_core import pencil, text
from attn_core.additive import AdditiveTrace, additive_attention
from attn_core.attention import Trace, attention, self_attention
from attn_core.errors import (
    AttentionInputError,
    FullyMaskedRowError,
    NonFiniteError,
    ShapeError,
)
from attn_core.exercises import Exercise, make_exercise
from attn_core.masks import causal_mask, padding_mask, window_mask
from attn_core.multihead import MultiHeadTrace, multi_head_attention, split_heads
from attn_core.pencil import HandTrace, hand_attention, hand_heads, to_rows
from attn_core.pencil_rules import NotWholeNumberError
from attn_core.softmax import softmax
from attn_core.weights import Weights, lesson_weights

__all__ = [
    "AdditiveTrace",
    "Exercise",
    "HandTrace",
    "NotWholeNumberError",
    "AttentionInputError",
    "FullyMaskedRowError",
    "MultiHeadTrace",
    "NonFiniteError",
    "ShapeError",
    "Trace",
    "Weights",
    "additive_attention",
    "attention",
    "causal_mask",
    "hand_attention",
    "hand_heads",
    "make_exercise",
    "lesson_weights",
    "multi_head_attention",
    "padding_mask",
    "pencil",
    "self_attention",
    "softmax",
    "split_heads",
    "text",
    "to_rows",
    "window_mask",
]
