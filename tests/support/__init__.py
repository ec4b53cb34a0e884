"""What the tests share, by role; the benchmarks import it too (`from tests.support import ...`).

apptest     run a page with Streamlit's AppTest and read its tables and figures
bad_input   the learner's bad sentences, and the checks every page must pass on them
hand_grids  the by-hand pages' keyed grids and data editors
browser     headless Chromium: its flags, waiting on the app's state, screenshots
server      a real app server on a free loopback port; its CPU time and memory
wsclient    a learner's session over Streamlit's websocket protocol, without a browser
dump_pages  a script: every number every page shows, for comparing two versions
"""
