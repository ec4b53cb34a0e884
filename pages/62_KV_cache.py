"""Decoder: the KV cache. What is kept (K and V, not Q), what one new token costs with it and
without it (counted and measured), its memory against the context, and the same numbers."""

import pandas as pd
import streamlit as st

from attn_core.labs import kv_cache as kv
from attn_lessons.i18n import _, ngettext
from attn_ui import decoder_views, formats, frame, state
from attn_ui.compute import kv_cache as compute
from attn_ui.compute.decoder import PROMPT_TOKENS, generation_worker, smollm
from attn_ui.figures import decoder_charts, panels
from attn_ui.settings import MAX_PROMPT_CHARS, prompt_link

size = formats.size
KV = state.Group("kv", link=prompt_link(compute.DEFAULT_PROMPT))  # the prompt, kept and in the URL

text = frame.page(__file__)
decoder_views.language_note()  # SmolLM2's Spanish and Chinese are weak: said
model = smollm()
st.markdown(text["Your prompt"])
typed = st.text_input(
    _("Your prompt"),
    help=ngettext("At most {n} token.", "At most {n} tokens.", PROMPT_TOKENS).format(
        n=PROMPT_TOKENS
    ),
    **state.bind(KV, "prompt"),
)
prompt = state.keep(KV, "prompt", typed[:MAX_PROMPT_CHARS])
if len(typed) > MAX_PROMPT_CHARS:
    st.warning(
        ngettext(  # more than MAX_PROMPT_CHARS here: never one
            "Your prompt has {n} character; the first {kept} are used.",
            "Your prompt has {n} characters; the first {kept} are used.",
            len(typed),
        ).format(n=f"{len(typed):,}", kept=f"{MAX_PROMPT_CHARS:,}")
    )
state.to_url(KV)  # a shareable link (only a prompt that is not the default)
with frame.stop_on_error():
    check = compute.check(prompt)
t = len(check.ids)  # the prompt's tokens and the model's one, at positions 0 .. t - 1
s = compute.sizes()
memory = compute.memory(s)
yours = ngettext("{n} token", "{n} tokens", t - 1).format(n=t - 1)

# the cache's price and what it saves, as the text grows: the figures, with the formula beside
curves = compute.curves()
weights_mb = kv.weight_bytes(s) / formats.MB
with frame.beside(text):
    st.subheader(_("1. Memory against the context"))
    fig = decoder_charts.kv_memory(curves, weights_mb, t, check.cache_bytes / formats.MB, yours)
    panels.chart(fig, "kv_memory")
    panels.chart(decoder_charts.kv_flops(curves), "kv_flops")
    st.markdown(frame.fill(text["Memory"], **memory))

st.subheader(_("2. What is stored"))
st.markdown(frame.fill(text["What is stored"], yours=yours, t=t))
shapes = pd.DataFrame(
    {
        _("kept?"): [_("yes"), _("yes"), _("no: used once")],
        _("shape (layers, heads, T, head dim)"): [
            " × ".join(map(str, check.keys_shape)),
            " × ".join(map(str, check.keys_shape)),
            " × ".join(map(str, (s.n_layers, s.n_heads, t, s.head_dim))),
        ],
        "float32": [
            size(check.cache_bytes / 2),
            size(check.cache_bytes / 2),
            size(s.n_layers * s.n_heads * t * s.head_dim * 4),
        ],
    },
    index=pd.Index(
        [_("K (keys, after RoPE)"), _("V (values)"), _("Q (queries)")], name=_("matrix")
    ),
)
st.dataframe(shapes, key="kv_shapes")
st.caption(_(formats.SIZE_NOTE))

st.subheader(_("3. One new token: position {position}").format(position=t - 1))
st.markdown(
    frame.fill(text["One new token"], position=t - 1, last=t - 2, weights=memory["weights"])
)
cost = compute.costs(t)
rows = {
    _("FLOPs (matrix products)"): lambda c: f"{c.flops:,}",
    _("of which scores and weighted sums"): lambda c: f"{c.attention_flops:,}",
    _("attention weights built, per layer"): lambda c: size(c.scores_bytes),
    _("K and V kept after the step"): lambda c: size(c.cache_bytes) if c.cache_bytes else _("none"),
    _("weights read"): lambda c: size(c.weight_bytes),
}
table = pd.DataFrame(
    {
        _("with the cache"): [f(cost["with"]) for f in rows.values()],
        ngettext("without (all {t} token again)", "without (all {t} tokens again)", t).format(
            t=t
        ): [f(cost["without"]) for f in rows.values()],
    },
    index=pd.Index(list(rows), name=_("per step")),
)
st.dataframe(table, key="kv_costs")
ratio = cost["without"].flops / cost["with"].flops
st.caption(
    _("Without the cache the step computes {ratio} times the FLOPs.").format(ratio=f"{ratio:.1f}")
)

st.markdown(text["Measured"])
wait_place = st.empty()
timings = st.session_state.setdefault("kv_timings", {})
if st.button(_("Time one step both ways"), key="kv_measure", type="primary"):

    def show(ahead: int) -> None:
        # English says "learner(s)" of any number: both forms the same, as before
        wait = ngettext(
            "Waiting for the model: {n} learner(s) ahead of you",
            "Waiting for the model: {n} learner(s) ahead of you",
            ahead,
        )
        wait_place.info(wait.format(n=ahead))

    timings[prompt] = compute.measure(check.ids, show)
    wait_place.empty()
if prompt in timings:
    m = timings[prompt]
    c = st.columns(3)
    c[0].metric(_("With the cache"), f"{m.cached_seconds * 1e3:.1f} ms")
    again = ngettext("All {t} token again", "All {t} tokens again", m.t).format(t=m.t)
    c[1].metric(again, f"{m.full_seconds * 1e3:.1f} ms")
    c[2].metric(_("Faster with the cache"), f"{m.speedup:.1f}×")

st.subheader(_("4. The same numbers"))
st.markdown(text["The same numbers"])
cached_next, full_next = check.next_ids
c = st.columns(2)
c[0].metric(_("Largest |logit difference|"), f"{check.max_difference:.1e}")
c[1].metric(
    _("Next token, cached / full"),
    f"“{formats.token(model.token_text(cached_next))}” / "
    f"“{formats.token(model.token_text(full_next))}”",
)
read = frame.quoted(formats.token(model.token_text(int(check.ids[-1]))))
st.caption(
    ngettext(
        "Over the {n} logit of the token after “{read}” (position {position}); both ways "
        "choose the same next token.",
        "Over the {n} logits of the token after “{read}” (position {position}); both ways "
        "choose the same next token.",
        s.vocab_size,
    ).format(n=f"{s.vocab_size:,}", read=read, position=t - 1)
    if cached_next == full_next
    else _("The two ways choose different next tokens: the cache would be wrong.")
)
st.caption(_(formats.TOKEN_NOTE))

st.subheader(_("5. Writing together"))
st.markdown(text["Writing together"])
worker = generation_worker()
last, alone = worker.last, worker.alone
if last is None:
    st.info(
        _(
            "No text has been written on this server since it started: press Write on the "
            "Generate page (or ask your class to), then look again."
        ),
        icon=":material/info:",
    )
else:
    c = st.columns(3)
    c[0].metric(_("Generations sharing the latest step"), f"{last.together}")
    c[1].metric(_("That step took"), f"{last.ms:.0f} ms")
    c[2].metric(_("A step for one alone (latest)"), f"{alone.ms:.0f} ms" if alone else _("not yet"))
st.button(_("Look again"), key="kv_look_again", help=_("Read the server's latest step again."))

frame.footer(__file__)
