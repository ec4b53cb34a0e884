"""One attention head trained by gradient descent, with ``attention_backward``, on toy tasks.

The data: random sequences of letters a..p (token ids 0..15). The task says which earlier
key each query should attend to:

    previous_token   query i attends to key i - 1 (query 0 to itself)
    same_token       query i attends to the earlier occurrence of its own letter, if there is
                     one (each letter occurs at most twice), else to itself

The head: token i's input is x_i = [one-hot(letter) ; one-hot(position)], fixed, not learned
(d_model = 16 + 16; with ``positions=False`` the position half is all 0). The head learns its
w_q and w_k only:

    q = x w_q,  k = x w_k,  weights = softmax(q k^T / sqrt(d_k) + causal mask)
    v = one-hot(position of the key), so row i of the output Z is where query i looked
    loss = mean over queries of -log Z[i, target_i]   (cross-entropy on the weights)
    w <- w - lr * dL/dw,   dL/dw from ``attention_backward``

The values are fixed position markers so that the output can be read as "where did you
look": the head is trained on its attention pattern and nothing else. A batch of sequences
is one long sequence whose mask keeps each sequence in its own causal block, so one call of
``attention`` and one of ``attention_backward`` do the whole batch.

What the head can learn depends on what x carries: previous_token needs the position half
(it is about places, not letters); same_token needs the letters to match and the positions
to tell the earlier copy from the query itself. Without positions neither can be learned.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attn_core.attention import Trace, attention
from attn_core.backward import attention_backward
from attn_core.errors import AttentionInputError, whole_number

TASKS = {
    "previous_token": "each query attends to the token just before it",
    "same_token": "each query attends to the earlier occurrence of its own letter",
}
LETTERS = "abcdefghijklmnop"  # the vocabulary: token id = index in this string
VOCAB = len(LETTERS)
MAX_POSITIONS = 16  # one-hot position slots; training uses the first `length` of them
D_MODEL = VOCAB + MAX_POSITIONS
INIT_STD = 0.1  # small weights: the scores start near 0, the attention near uniform
LIMITS = {  # setting: (lowest, highest)
    "steps": (1, 2000),
    "batch": (1, 256),
    "length": (2, MAX_POSITIONS),
    "d_k": (1, 64),
}


@dataclass(frozen=True)
class TrainSettings:
    """What a run is trained with; the same settings and seed give the same run."""

    task: str = "previous_token"
    steps: int = 200
    lr: float = 10.0
    batch: int = 32
    length: int = 8
    d_k: int = 8
    positions: bool = True


@dataclass(frozen=True, eq=False)
class TrainingRun:
    """Every step of one training run.

    Attributes
    ----------
    settings : TrainSettings    seed : int
    losses : (steps,)                   the batch's loss before each step's update
    right_weight : (steps,)             the batch's mean weight on the right key, same time
    w_q, w_k : (steps + 1, D_MODEL, d_k)   the weights before step 0 .. after the last step
    sample : (length,) int              one fixed sequence, shown at every step
    sample_weights : (steps + 1, length, length)   its attention at every step
    """

    settings: TrainSettings
    seed: int
    losses: np.ndarray
    right_weight: np.ndarray
    w_q: np.ndarray
    w_k: np.ndarray
    sample: np.ndarray
    sample_weights: np.ndarray

    @property
    def task(self) -> str:
        return self.settings.task

    @property
    def steps(self) -> int:
        return len(self.losses)

    def attend(self, tokens, step: int | None = None) -> Trace:
        """The trained head (or the head after `step` updates) on one sequence of token ids."""
        step = self.steps if step is None else step
        tokens = check_tokens(tokens)
        x = inputs(tokens, positions=self.settings.positions)  # (T, D_MODEL)
        return head(x, self.w_q[step], self.w_k[step], causal_blocks(1, len(tokens)), len(tokens))

    def evaluate(self, seed: int, n: int = 256) -> float:
        """Mean weight the trained head puts on the right key, on `n` fresh sequences.

        Only queries that have a right key other than themselves count (for same_token, the
        queries whose letter occurred before). The sequences go through in batches of the
        training size: one block-masked batch of n would be an (n T, n T) matrix.
        """
        s = self.settings
        tokens, targets = make_batch(s.task, np.random.default_rng((seed, 1)), n, s.length)
        found = []  # (weight on the right key, counted) per query, batch by batch
        for start in range(0, n, s.batch):
            part, goal = tokens[start : start + s.batch], targets[start : start + s.batch]
            found.append(right_key_weights(self.attend_batch(part).weights, part, goal))
        weights, counted = (np.concatenate(a) for a in zip(*found, strict=True))
        return float(weights[counted].mean()) if counted.any() else math.nan

    def attend_batch(self, tokens: np.ndarray) -> Trace:
        """The trained head on a batch (n, T) of sequences, as one block-masked sequence."""
        x = inputs(tokens.reshape(-1), positions=self.settings.positions, length=tokens.shape[1])
        return head(x, self.w_q[-1], self.w_k[-1], causal_blocks(*tokens.shape), tokens.shape[1])


def check_tokens(tokens) -> np.ndarray:
    """Token ids as a 1-D int array of 1 .. MAX_POSITIONS ids in 0 .. VOCAB - 1."""
    t = np.asarray(tokens)
    if t.ndim != 1 or t.dtype.kind not in "iu" or not 1 <= len(t) <= MAX_POSITIONS:
        raise AttentionInputError.said(
            "A sequence is 1 to {max_positions} token ids (whole numbers); got shape {shape}.",
            max_positions=MAX_POSITIONS,
            shape=t.shape,
        )
    if t.min() < 0 or t.max() >= VOCAB:
        raise AttentionInputError.said(
            "Token ids run from 0 to {last}; got {low}..{high}.",
            last=VOCAB - 1,
            low=t.min(),
            high=t.max(),
        )
    return t


def parse_letters(text: str) -> np.ndarray:
    """'a b c a' or 'abca' -> token ids [0, 1, 2, 0]. Raises a sentence for anything else."""
    letters = "".join(str(text).split()).lower()
    if not letters:
        raise AttentionInputError.said(
            "The sequence is empty: type a few letters, such as a b c a."
        )
    bad = sorted({c for c in letters if c not in LETTERS})
    if bad:
        shown = " ".join(repr(c) for c in bad[:5])
        raise AttentionInputError.said(
            "Use only the letters a to p (the head's vocabulary); {shown} is not one of them.",
            shown=shown,
        )
    if len(letters) > MAX_POSITIONS:
        raise AttentionInputError.said(
            "The head has {max_positions} positions: type at most {max_positions} letters, "
            "not {typed}.",
            max_positions=MAX_POSITIONS,
            typed=len(letters),
        )
    return np.array([LETTERS.index(c) for c in letters])


def right_keys(task: str, tokens) -> np.ndarray:
    """The key each query of one sequence should attend to under `task`: (T,) int.

    previous_token: i - 1 (0 for query 0). same_token: the latest earlier position with the
    same letter, or i itself when the letter is new.
    """
    check_task(task)
    tokens = check_tokens(tokens)
    if task == "previous_token":
        return np.maximum(np.arange(len(tokens)) - 1, 0)
    earlier = [np.flatnonzero(tokens[:i] == tok) for i, tok in enumerate(tokens)]
    return np.array([e[-1] if len(e) else i for i, e in enumerate(earlier)])


def inputs(tokens: np.ndarray, *, positions: bool = True, length: int | None = None) -> np.ndarray:
    """x (T, D_MODEL): one-hot letter, then one-hot position (all 0 if not `positions`).

    `length` restarts the positions every `length` tokens (a batch laid end to end).
    """
    n = len(tokens)
    pos = np.arange(n) % (length or n)  # (T,): the place of each token in its own sequence
    x = np.zeros((n, D_MODEL))
    x[np.arange(n), tokens] = 1.0  # the letter
    if positions:
        x[np.arange(n), VOCAB + pos] = 1.0  # the place
    return x


def causal_blocks(n_seq: int, length: int) -> np.ndarray:
    """(n_seq length, n_seq length) bool: each sequence sees itself causally, nothing else."""
    return np.kron(np.eye(n_seq, dtype=bool), np.tril(np.ones((length, length), dtype=bool)))


def head(x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, mask: np.ndarray, length: int) -> Trace:
    """The head: q = x w_q, k = x w_k, v = one-hot place of each key in its sequence.

    x : (T, D_MODEL), sequences of `length` tokens laid end to end; mask : (T, T).
    Row i of the output is where query i looked: (T, length).
    """
    v = np.eye(length)[np.arange(x.shape[0]) % length]  # (T, length)
    return attention(x @ w_q, x @ w_k, v, mask=mask)  # (T, D_MODEL) x (D_MODEL, d_k)


def make_batch(task: str, rng: np.random.Generator, n: int, length: int):
    """n random sequences and their targets: tokens, targets (n, length) int.

    targets[s, i] is the key query i of sequence s should attend to (i itself if none).
    """
    check_task(task)
    if task == "previous_token":
        tokens = rng.integers(0, VOCAB, size=(n, length))
        targets = np.maximum(np.arange(length) - 1, 0)[None].repeat(n, axis=0)
        return tokens, targets
    tokens = np.stack([rng.permutation(VOCAB)[:length] for _ in range(n)])  # distinct letters
    targets = np.tile(np.arange(length), (n, 1))
    for s in range(n):
        for i in range(1, length):
            if rng.random() < 0.5:  # copy a letter from earlier that occurs only once so far
                once = [
                    j
                    for j in range(i)
                    if targets[s, j] == j and (tokens[s, :i] == tokens[s, j]).sum() == 1
                ]
                if once:
                    j = once[rng.integers(len(once))]
                    tokens[s, i], targets[s, i] = tokens[s, j], j
    return tokens, targets


def right_key_weights(weights: np.ndarray, tokens: np.ndarray, targets: np.ndarray):
    """Each query's weight on its right key, and whether it counts (its right key is not
    itself): two (n length,) arrays, for a batch laid end to end."""
    n, length = tokens.shape
    rows = np.arange(n * length)
    cols = (rows // length) * length + targets.reshape(-1)  # the target's row in the batch
    return weights[rows, cols], targets.reshape(-1) != rows % length


def right_key_weight(weights: np.ndarray, tokens: np.ndarray, targets: np.ndarray) -> float:
    """Mean weight on the right key over the queries whose right key is not themselves."""
    found, counted = right_key_weights(weights, tokens, targets)
    return float(found[counted].mean()) if counted.any() else math.nan


def check_task(task) -> str:
    if task not in TASKS:
        raise AttentionInputError.said(
            "Unknown task {task}; the tasks are {tasks}.", task=repr(task), tasks=", ".join(TASKS)
        )
    return task


def check_settings(s: TrainSettings) -> TrainSettings:
    check_task(s.task)
    for name, (low, high) in LIMITS.items():
        value = getattr(s, name)
        if not low <= whole_number(value, name) <= high:
            raise AttentionInputError.said(
                "{name} must be between {low} and {high}, got {value}.",
                name=name,
                low=low,
                high=high,
                value=value,
            )
    if isinstance(s.lr, bool) or not isinstance(s.lr, int | float) or not 0 < s.lr <= 100:
        raise AttentionInputError.said(
            "lr (the learning rate) must be in (0, 100], got {lr}.", lr=repr(s.lr)
        )
    if not isinstance(s.positions, bool):
        raise AttentionInputError.said(
            "positions must be True or False, got {positions}.", positions=repr(s.positions)
        )
    return s


def train_head(task: str = "previous_token", *, seed: int = 0, **settings) -> TrainingRun:
    """Train one head's w_q and w_k by gradient descent on `task` (see the module docstring).

    Parameters
    ----------
    task : "previous_token" or "same_token"
    seed : int >= 0; the same seed and settings give the same run, to the last bit
    **settings : steps (200), lr (10.0), batch (32 sequences), length (8 tokens), d_k (8),
        positions (True: x carries the one-hot position)

    Returns
    -------
    TrainingRun
    """
    whole_number(seed, "seed", 0)
    unknown = sorted(set(settings) - set(TrainSettings.__dataclass_fields__) - {"task"})
    if unknown:
        raise AttentionInputError.said(
            "Unknown setting {names} for train_head.", names=", ".join(unknown)
        )
    s = check_settings(TrainSettings(task=task, **settings))
    rng = np.random.default_rng((seed, 0))
    w_q = rng.normal(0.0, INIT_STD, (D_MODEL, s.d_k))
    w_k = rng.normal(0.0, INIT_STD, (D_MODEL, s.d_k))
    sample = make_batch(s.task, np.random.default_rng((seed, 2)), 1, s.length)[0][0]
    x_sample = inputs(sample, positions=s.positions)
    mask, one = causal_blocks(s.batch, s.length), causal_blocks(1, s.length)
    losses, right, ws_q, ws_k, shown = (
        [],
        [],
        [w_q],
        [w_k],
        [head(x_sample, w_q, w_k, one, s.length).weights],
    )
    for _ in range(s.steps):
        tokens, targets = make_batch(s.task, rng, s.batch, s.length)
        x = inputs(tokens.reshape(-1), positions=s.positions, length=s.length)  # (B T, D_MODEL)
        t = head(x, w_q, w_k, mask, s.length)
        loss, d_z = cross_entropy(t.output, targets.reshape(-1))
        g = attention_backward(t, d_z)
        w_q = w_q - s.lr * (x.T @ g.dq)  # dL/dw_q = x^T dq: (D_MODEL, B T) x (B T, d_k)
        w_k = w_k - s.lr * (x.T @ g.dk)
        losses.append(loss)
        right.append(right_key_weight(t.weights, tokens, targets))
        ws_q.append(w_q)
        ws_k.append(w_k)
        shown.append(head(x_sample, w_q, w_k, one, s.length).weights)
    return TrainingRun(
        s,
        int(seed),
        np.array(losses),
        np.array(right),
        np.stack(ws_q),
        np.stack(ws_k),
        sample,
        np.stack(shown),
    )


def cross_entropy(z: np.ndarray, targets: np.ndarray) -> tuple[float, np.ndarray]:
    """L = mean_i -log z[i, target_i] and dL/dz (n, length): -1 / (n z[i, t]) at the targets."""
    rows = np.arange(len(targets))
    p = z[rows, targets]  # (n,): the weight each query put on its right key
    if not (p > 0).all():  # a weight that underflowed to 0: the scores have blown up
        raise AttentionInputError.said(
            "Training diverged: some scores grew so large that a right key's weight became 0. "
            "Use a smaller learning rate."
        )
    d_z = np.zeros_like(z)
    d_z[rows, targets] = -1.0 / (len(targets) * p)
    return float(-np.log(p).mean()), d_z
