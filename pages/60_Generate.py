"""Decoder: a real model (SmolLM2) writing after the learner's prompt, token by token, its
causal attention growing a row per token."""

import streamlit as st

from attn_lessons.i18n import _
from attn_ui import decoder_views, frame
from attn_ui import generate_view as view
from attn_ui.compute import generate as gen
from attn_ui.compute.decoder import PROMPT_TOKENS, smollm
from attn_ui.compute.decoder_worker import GenerationInterrupted
from attn_ui.settings import MAX_NEW_TOKENS

# the lesson's words come under the text written: on a laptop's first screen the text
# appears right under the Write button
text = frame.page(__file__)
decoder_views.language_note()  # SmolLM2's Spanish and Chinese are weak: said
smollm()  # loaded once per server, before the first widget
asked = view.prompt_form()
if asked is None and view.report_interrupted():  # cut off, and the learner asks again
    asked = view.settings()
# right under the form: a sentence on a bad prompt, the line, then the text being written
alert, queue_place, said = st.empty(), st.empty(), st.empty()
layer, head = view.head_picker()
view.to_url()
out = said, st.empty(), st.empty()  # the text's place, the triangle's, the live numbers

# write when asked; on a first visit, the kept settings' text (shared if already written),
# unless that visit is the reconnection of a page whose writing was cut off (said above)
lost = view.interrupted() and not asked
s = asked or (None if "gen_written" in st.session_state or lost else view.settings())
if s is not None:
    st.session_state["gen_lost"] = False
    done = None if asked else gen.finished().get(s)
    if done is None:
        with alert.container(), frame.stop_on_error(section=True), view.writing_mark():
            try:
                done = view.write(s, queue_place, out, layer, head)
            except GenerationInterrupted as lost:  # its process died: say so, keep the page
                st.warning(str(lost), icon=":material/replay:")
            else:
                if not asked:
                    gen.finished().put(done)
    if done is not None:
        st.session_state["gen_written"] = done
        st.session_state.pop("gen_pick", None)  # a new text: its default token first

if "gen_written" in st.session_state:
    with said.container():
        view.written_text(st.session_state["gen_written"])
    out[2].empty()  # the live triangle's numbers go with the writing
    with out[1].container():
        view.written(st.session_state["gen_written"], layer, head, text)

# how the box is read, after what it wrote: on a phone it pushed the triangle past the goal
st.markdown(frame.fill(text["Your prompt"], tokens=PROMPT_TOKENS, new=MAX_NEW_TOKENS))
st.markdown("## " + _("The idea"))
frame.intro(text, frame.WORDS)

with st.expander(_("Inside each block: RMSNorm and SwiGLU")):
    st.markdown(text["Inside each block"])

frame.footer(__file__)
