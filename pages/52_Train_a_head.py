"""Train a head, live: gradient descent on previous_token or same_token; scrub the steps;
test the trained head on a sequence the learner types."""

import numpy as np
import streamlit as st

from attn_core import AttentionInputError
from attn_core.training import LETTERS, TASKS, parse_letters, right_keys
from attn_lessons.i18n import N_, _, ngettext
from attn_ui import formats, frame, kernel_tables
from attn_ui.compute import kernel
from attn_ui.figures import kernel_charts as charts
from attn_ui.figures import panels
from attn_ui.figures.matrix import matrix

TASK_NAMES = {"previous_token": N_("Previous token"), "same_token": N_("Same token")}
TRAINING = {  # the status line while a task trains, one whole sentence per task
    "previous_token": N_("Training previous token: {steps} steps of gradient descent…"),
    "same_token": N_("Training same token: {steps} steps of gradient descent…"),
}
STEPS = (50, 100, 200, 400)
LRS = (1.0, 2.0, 5.0, 10.0, 20.0)
EVAL_SEQUENCES = 256


def want(key: tuple) -> None:
    st.session_state["train_for"] = key


def letters(tokens) -> list[str]:
    return [LETTERS[t] for t in tokens]


text = frame.page(__file__)
c = st.columns([2, 1, 1, 1, 1])
task = c[0].radio(
    _("Task"),
    tuple(TASKS),
    format_func=lambda v: _(TASK_NAMES[v]),
    horizontal=True,
    key="train_task",
)
seed = int(c[1].number_input(_("Seed"), 0, 9_999, 0, step=1, key="train_seed"))
steps = c[2].select_slider(_("Steps"), STEPS, 200, key="train_steps")
lr = c[3].select_slider(_("Learning rate"), LRS, 10.0, key="train_lr")
positions = c[4].toggle(_("Position features"), True, key="train_positions")
key = (task, seed, steps, lr, positions)
# a first visit trains at the defaults (cached per server: one run for every learner), so the
# page opens on a figure; new settings wait for Train
st.session_state.setdefault("train_for", key)
st.button(
    _("Train"),
    type="primary",
    icon=":material/play_arrow:",
    on_click=want,
    args=(key,),
    key="train_go",
)
# the words, the tasks among them, beside the training (or the call to train)
words = (*frame.WORDS[:2], "Tasks", *frame.WORDS[2:])
if st.session_state.get("train_for") != key:
    with frame.beside(text, words, ratio=(2, 1)):
        st.info(_("Press **Train** to train the head with these settings (about a second)."))
    frame.footer(__file__)
    st.stop()

status = st.status(_(TRAINING[task]).format(steps=steps))
with frame.stop_on_error():
    try:
        run = kernel.training_run(*key)
    except AttentionInputError:
        status.update(label=_("Training stopped"), state="error")  # then the frame says why
        raise
status.update(
    label=ngettext(
        "Trained: {steps} step, final loss {loss}",
        "Trained: {steps} steps, final loss {loss}",
        steps,
    ).format(steps=steps, loss=formats.significant(run.losses[-1])),
    state="complete",
)
weight = kernel.evaluation(*key)

with frame.beside(text, words, ratio=(2, 1)):
    st.subheader(_("1. Watch it learn"))
    at = st.slider(_("Show the head after step"), 0, steps, steps, key=f"train_step_{steps}")
    sample = letters(run.sample)
    c = st.columns([3, 2])
    with c[0]:
        fig = charts.training(run.losses, run.right_weight, min(at, steps - 1))
        panels.chart(fig, "train_loss_chart")
    with c[1]:
        matrix(
            run.sample_weights[at],
            sample,
            sample,
            # English says "steps" even of one: both forms the same, as before
            name=ngettext("A after {at} steps", "A after {at} steps", at).format(at=at),
            kind="weights",
            key="train_sample",
        )
    st.markdown(text["Watch"])

st.markdown(frame.fill(text["Trained"], steps=steps, n=EVAL_SEQUENCES, weight=f"{weight:.3f}"))
c = st.columns(3)
c[0].metric(_("Loss, first step"), formats.significant(run.losses[0]))
c[1].metric(_("Loss, last step"), formats.significant(run.losses[-1]))
c[2].metric(_("Weight on the right key, fresh sequences"), f"{weight:.3f}")

st.subheader(_("2. Test it on your sequence"))
st.markdown(text["Your sequence"])
typed = st.text_input(
    _("Your sequence (letters a to p)"), "a b c a d b e c", max_chars=100, key="train_typed"
)
with frame.stop_on_error(_("Your sequence"), section=True):
    tokens = parse_letters(typed)
    t = run.attend(tokens)
    right = right_keys(task, tokens)
    yours = letters(tokens)
    name = _("A on your sequence")
    matrix(t.weights, yours, yours, name=name, kind="weights", key="train_yours")
    found = kernel_tables.found(t.weights, yours, right)
    st.dataframe(found, key="train_found", width="stretch")
    rows = np.arange(len(tokens))
    counted = right != rows
    if counted.any():
        st.metric(
            _("Mean weight on the right key (queries with one)"),
            f"{t.weights[rows, right][counted].mean():.3f}",
        )
    else:
        st.caption(_("No query in your sequence has a right key other than itself."))

st.subheader(_("3. What it learned, and what it cannot"))
st.markdown(text["What it learned"])
st.markdown(text["What it cannot learn"])
frame.footer(__file__)
