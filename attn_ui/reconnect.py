"""Pages whose buttons hold files in the server's memory ask the browser to run them again when
it reconnects, so a replica's loss (docs/class.md) leaves no dead button.

Streamlit's browser, reconnected (to a new server, after a replica died), runs the page again
only if a run was under way, or if the page has a fragment that reruns on a timer (its
App.tsx, handleConnectionStateChanged: ``autoRerunIntervals.size > 0``). Otherwise it keeps
showing the old page until the learner's next click. Most pages lose nothing by that: the
next click runs the page on the new server from the URL and the widget values the browser
sends. A download button does: its file lived in the dead server's memory, and a click on it
fetches nothing. `rerun_on_reconnect` is such a fragment: it draws nothing and its timer
(an hour) costs nothing; its presence makes the reconnected browser run the page at once.
"""

from __future__ import annotations

from datetime import timedelta

import streamlit as st


@st.fragment(run_every=timedelta(hours=1))
def rerun_on_reconnect() -> None:
    """Call once on a page with download buttons; shows nothing."""
