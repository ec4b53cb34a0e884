"""The Generate page's controls and views: the prompt form and its settings (kept across page
visits and mirrored in the URL by the one state mechanism, ``state``, as the lesson settings
are), the text and triangle while the model writes, and the finished generation with a token
picked.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, fields, replace

import numpy as np
import pandas as pd
import streamlit as st

from attn_lessons import i18n
from attn_lessons.i18n import _
from attn_ui import formats, frame, state
from attn_ui.compute import generate as gen
from attn_ui.compute.decoder import smollm
from attn_ui.figures import canvas_grid, heatmap
from attn_ui.figures.matrix import matrix
from attn_ui.settings import (
    MAX_NEW_TOKENS,
    GenerationSettings,
    generation_defaults,
    generation_link,
)
from attn_ui.tables import table, table_height


def smollm_sizes() -> tuple[int, int]:
    """The decoder's layers and query heads (what a link's layer and head may be)."""
    model = smollm()
    return model.n_layers, model.n_heads


# st.session_state["gen"]: the settings of the last generation, and the layer and head shown
GEN = state.Group("gen", link=generation_link(smollm_sizes))
# In the URL while the model writes for this page, removed when it ends. A session that opens
# with it lost its writer: the server died mid-way (a class's replica killed or restarted,
# docs/class.md) and the browser reconnected to another one.
WRITING = "writing"
LIVE_FIGURE_S = 0.5  # the live triangle is redrawn at most this often (the text every token)


def settings() -> GenerationSettings:
    """The kept settings; on a first visit, the defaults and the link's values."""
    kept = state.values(GEN, generation_defaults(i18n.current()))
    return GenerationSettings(**{f.name: kept[f.name] for f in fields(GenerationSettings)})


def to_url() -> None:
    """Mirror the kept settings and head in the URL (only what differs from the defaults)."""
    state.to_url(GEN, generation_defaults(i18n.current()))


@contextmanager
def writing_mark() -> Iterator[None]:
    """The WRITING mark in the URL for the `with` block, however it ends (finished, an error,
    a rerun or stop); only a server that dies leaves it there."""
    st.query_params[WRITING] = "1"
    try:
        yield
    finally:
        if WRITING in st.query_params:
            del st.query_params[WRITING]


def interrupted() -> bool:
    """Whether this session opened on a page whose last generation its server never finished
    (the WRITING mark in the URL, nothing written in this session yet). Decided on the first
    run of the session and kept until the learner writes again."""
    if "gen_lost" not in st.session_state:
        lost = WRITING in st.query_params and "gen_written" not in st.session_state
        st.session_state["gen_lost"] = lost
        if lost:
            del st.query_params[WRITING]
    return st.session_state["gen_lost"]


def _write_again() -> None:
    st.session_state["gen_lost"] = False
    st.session_state["gen_again"] = True


def report_interrupted() -> bool:
    """Say that the last generation was cut off, with one button to write it again. True
    on the run that button starts (the page then writes the kept settings)."""
    if interrupted():
        st.warning(
            _(
                "Your last text was cut off: the server writing it stopped, and your page moved "
                "to another one. Your prompt and settings are kept."
            ),
            icon=":material/replay:",
        )
        st.button(_("Write it again"), key="gen_write_again", on_click=_write_again, type="primary")
    return st.session_state.pop("gen_again", False)


def prompt_form() -> GenerationSettings | None:
    """The prompt and the sampling settings, applied by Enter or the button. Returns the
    settings when submitted (the prompt cut to MAX_PROMPT_CHARS, with a notice), else None."""
    s = settings()
    with st.form("gen_form", border=False, enter_to_submit=True):
        prompt = st.text_input(
            _("Prompt (press Enter to write)"),
            **state.bind(GEN, "prompt", in_form=True, defaults=generation_defaults(i18n.current())),
            help=_("The model continues this text. In chat mode it answers it as a question."),
        )
        chat = st.toggle(
            _("Chat: answer it as a question"), **state.bind(GEN, "chat", in_form=True)
        )
        # folded: on a phone the three settings stacked pushed the triangle off the first
        # screens; what they are now is in the expander's title
        # i18n: one message for every count ("1 new tokens" included), as the English has it
        title = _(
            "Sampling: temperature {temperature}, seed {seed}, at most {n} new tokens"
        ).format(temperature=f"{s.temperature:g}", seed=s.seed, n=s.max_new_tokens)
        with st.expander(title):
            c = st.columns(3)
            temperature = c[0].slider(
                _("Temperature (0 = greedy)"),
                0.0,
                2.0,
                step=0.1,
                **state.bind(GEN, "temperature", in_form=True),
            )
            seed = c[1].number_input(
                _("Seed"), 0, 10_000, step=1, **state.bind(GEN, "seed", in_form=True)
            )
            max_new = c[2].slider(
                _("New tokens at most"),
                1,
                MAX_NEW_TOKENS,
                **state.bind(GEN, "max_new_tokens", in_form=True),
            )
        go = st.form_submit_button(_("Write"), type="primary", key="gen_go")
    if not go:
        return None
    text, was_cut = gen.cut(prompt)
    if was_cut:
        st.warning(
            _("Your prompt has {n} characters; the first {used} are used.").format(
                n=f"{len(prompt):,}", used=f"{len(text):,}"
            ),
            icon=":material/content_cut:",
        )
    new = replace(
        s,
        prompt=text,
        chat=bool(chat),
        temperature=round(float(temperature), 1),
        seed=int(seed),
        max_new_tokens=int(max_new),
    )
    state.kept(GEN).update(asdict(new))
    return new


def head_picker() -> tuple[int, int]:
    """Layer and query head of the triangle (they never write again), the decoder's own."""
    model = smollm()
    c = st.columns(2)
    layers, heads = range(model.n_layers), range(model.n_heads)
    layer = c[0].selectbox(_("Layer"), layers, **state.bind(GEN, "layer", options=layers))
    head = c[1].selectbox(
        _("Query head"),
        heads,
        format_func=lambda h: _("{head} (reads K/V head {kv})").format(head=h, kv=h // model.group),
        **state.bind(GEN, "head", options=heads),
    )
    return state.keep(GEN, "layer", layer), state.keep(GEN, "head", head)


def waiting(place):
    """The queue's `show`: the learner's place in line, in the placeholder."""

    def show(ahead: int) -> None:
        place.info(
            _("Waiting for the model: {n} learner(s) ahead of you").format(n=ahead),
            icon=":material/hourglass_top:",
        )

    return show


def labels(tokens) -> list[str]:
    return [formats.token(t) for t in tokens]


def triangle_figure(m: np.ndarray, first: int, tokens, layer: int, head: int, title: str):
    rows = labels(tokens[first : first + len(m)])
    return heatmap.figure(
        m,
        rows,
        labels(tokens[: m.shape[1]]),
        title=title,
        kind="weights",
        show_numbers=False,
    )


def live(
    places, text: str, prompt_ids, steps, layer: int, head: int, before, figure: bool = True
) -> None:
    """What the page shows while the model writes: the text so far in `places[0]` (right under
    the form: on the first screen), the growing triangle in `places[1]` (redrawn every
    token while small, every 8th beyond LIVE_CELLS cells; not at all when `figure` is
    False) and its numbers in `places[2]`."""
    model = smollm()
    new = [s.id for s in steps]
    said, place, numbers = places
    with said.container():
        st.code(text + model.decode(new), language=None, wrap_lines=True)
        st.caption(_("Writing: {n} token(s) so far.").format(n=len(steps)))
    k = len(steps)
    if not figure or ((len(prompt_ids) + k) ** 2 > gen.LIVE_CELLS and k % 8 != 1):
        return  # the last triangle drawn stays
    tokens = model.token_labels([*prompt_ids, *new])
    rows = [s.attention[layer, head] for s in steps]
    b = None if before is None else before[layer, head]
    m, first = gen.stack_rows(b, rows, len(prompt_ids))
    title = _("Causal attention, layer {layer}, head {head} (writing)").format(
        layer=layer, head=head
    )
    fig = triangle_figure(m, first, tokens, layer, head, title)
    # the figure alone in its slot (the finished view's columns take it over), its numbers
    # in a slot of their own that the page empties once written. Not a container holding
    # both: replacing, every token, a placeholder's container that held another container
    # made Streamlit 1.67's browser side fail ("Bad delta path index 1") on about one first
    # visit in four and blank the whole page (bench/first_visits.py: 4 of 16 first visits
    # before, 0 of 12 with these slots; the blank Generate page of two fresh-clone CI runs)
    with place:
        canvas_grid.figure(fig, key=f"gen_live_{k}")
    # an expander without a key opens in the browser alone: a rerun would stop the writing
    with numbers.expander(_("Numbers of {title} (table)").format(title=title)):
        rows = labels(tokens[first : first + len(m)])
        cols = labels(tokens[: m.shape[1]])
        st.dataframe(table(m, rows, cols), height=table_height(len(m)))


def written_text(w: gen.Written) -> None:
    """The finished generation's text and how it ended (where `live` wrote the text)."""
    eos = w.stopped == "eos"
    ending = _("it wrote its end token") if eos else _("it reached the length asked")
    st.code(w.text + w.written, language=None, wrap_lines=True)
    s = w.settings
    if s.temperature == 0:
        how = _("greedy")
    else:
        how = _("temperature {temperature}, seed {seed}").format(
            temperature=f"{s.temperature:g}", seed=s.seed
        )
    st.caption(
        _("{n} token(s) written ({how}); it stopped because {ending}.").format(
            n=w.n_new, how=how, ending=ending
        )
    )


def written(w: gen.Written, layer: int, head: int, text: dict[str, str]) -> None:
    """The finished generation's triangle and the picked token's row (where `live` drew the
    growing triangle)."""
    model = smollm()
    n = w.n_new
    left, right = st.columns([3, 2])
    with left:  # the figure first, then how to read it
        m, first = gen.triangle(w, layer, head)
        rows = labels(w.tokens[first : first + len(m)])
        matrix(
            m,
            rows,
            labels(w.tokens[: m.shape[1]]),
            name=_("Causal attention, layer {layer}, head {head}").format(layer=layer, head=head),
            kind="weights",
            show_numbers=False,
            key="gen_triangle",
        )
        if first:
            st.caption(
                _(
                    "Your prompt is {n} tokens: only the rows of the written tokens are "
                    "drawn (their queries are the token before each)."
                ).format(n=w.n_prompt)
            )
        st.markdown(text["The triangle"])
    with right:
        st.markdown(text["Where it looked"])
        if st.session_state.get("gen_pick") not in range(n):
            st.session_state["gen_pick"] = gen.default_token(w)
        new = labels(w.tokens[w.n_prompt :])
        pick = st.pills(
            _("Written tokens: pick one"),
            range(n),
            format_func=lambda k: frame.quoted(new[k]),
            key="gen_pick",
            wrap=True,
        )
        if pick is None:
            st.caption(_("Pick a written token to see where the model looked to choose it."))
            return
        looked(w, model, pick, layer, head)


def looked(w: gen.Written, model, k: int, layer: int, head: int) -> None:
    """The row that chose new token `k`, and the five likeliest choices at that step."""
    position = w.n_prompt + k
    row = w.rows[layer, head, k, :position]
    chosen, query = formats.token(w.tokens[position]), formats.token(w.tokens[position - 1])
    matrix(
        row[None, :],
        [query],
        labels(w.tokens[:position]),
        name=_("Row of “{query}” (position {position}), which chose “{chosen}”").format(
            query=query, position=position - 1, chosen=chosen
        ),
        kind="weights",
        show_numbers=False,
        key="gen_row",
    )
    j = int(np.argmax(row))
    st.caption(
        _(
            "Layer {layer}, head {head} put {weight} of this row's weight on "
            "“{token}” (position {j})."
        ).format(
            layer=layer, head=head, weight=f"{row[j]:.2f}", token=formats.token(w.tokens[j]), j=j
        )
    )
    probability = _("probability")
    top = pd.DataFrame(
        {
            _("token"): labels(model.next_labels(w.ids[:position], w.top_ids[k])),
            probability: w.top_probs[k],
            _("chosen"): ["✓" if i == w.ids[position] else "" for i in w.top_ids[k]],
        }
    )
    st.dataframe(top.style.format({probability: "{:.3f}"}), hide_index=True, key="gen_top")
    st.caption(_(formats.TOKEN_NOTE))


def write(s: GenerationSettings, queue_place, out, layer: int, head: int) -> gen.Written:
    """Write with the shared queue, streaming into `out` (the text's place, the triangle's,
    its numbers') as each token comes; the learner's place in line shows in `queue_place`
    meanwhile. Raises the core's PromptError."""
    model = smollm()
    steps, before, prompt_ids = [], None, []
    prompt_text, n_prompt, drawn = "", 0, 0.0  # the loop's last text and count: collected
    for prompt_text, n_prompt, step in gen.stream(s, waiting(queue_place)):  # noqa: B007
        if not steps:  # our turn came: the line's message goes, the prompt's rows come
            queue_place.empty()
            prompt_ids = model.encode(prompt_text, limit=None)
            before = step.prompt_rows  # the prompt's rows came with its first token
        steps.append(step)
        # the text every token; the triangle at most every LIVE_FIGURE_S: with several
        # learners writing together, each token's figure for each of them was most of the
        # server's time (bench/bench_load.py --generators 10)
        now = time.monotonic()
        figure = len(steps) == 1 or now - drawn >= LIVE_FIGURE_S
        drawn = now if figure else drawn
        live(out, prompt_text, prompt_ids, steps, layer, head, before, figure)
    return gen.collect(s, prompt_text, n_prompt, steps)
