"""Start the app: ``python serve.py [script] [streamlit options]`` is ``streamlit run``, with
TCP_NODELAY on every connection. ``make run`` and the Docker image start the app this way.

Why: Streamlit 1.67 binds its listening socket as ``socket.socket(family)``, protocol 0.
asyncio turns Nagle's algorithm off only for sockets whose ``proto`` is IPPROTO_TCP, and an
accepted socket inherits ``proto`` from the listening one, so every websocket keeps Nagle on.
A rerun sends several small messages at once (new_session, deltas, script_finished): Nagle
holds all but the first until the browser acknowledges it, and a Linux receiver delays that
acknowledgement by 40 ms. Every interaction, even on a page that draws nothing, waited 40 ms
(measured: a two-widget page answered in 48 ms over websocket, the script itself ran 0.6 ms).

The fix keeps Streamlit's own socket (its port retry, SO_REUSEADDR, IPv6 options) and only
relabels it as TCP, so asyncio sets TCP_NODELAY on each connection it accepts.

With ``ATTN_WARM_MODELS=1`` (the Docker image and ``make class`` set it) the two pretrained
models are loaded into the server's caches before it listens, and Generate's default text is
written once for every learner's first visit: ``/_stcore/health`` answers only once they are
in memory, so a load balancer's health check or a Kubernetes readiness
probe sends no learner to a replica that would make them wait for a model (about 1.5 s
here, longer on a cold disk). ``make run`` leaves it off: a developer's server starts at once.

The pages/ folder's menu is also built once per process (`pages_once`), not on every rerun.
"""

from __future__ import annotations

import os

# One BLAS thread per computation: a server runs many learners' scripts at once, and a
# generation's matrix-vector products on every core starved the others' reruns (measured
# with bench/bench_load.py --generators 10: the others' p95 119 ms with two BLAS threads,
# 93 ms with one). Set before NumPy is imported (streamlit imports it).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import copy  # noqa: E402
import socket  # noqa: E402
import sys  # noqa: E402
import warnings  # noqa: E402
from pathlib import Path  # noqa: E402

from streamlit.runtime.scriptrunner import script_runner  # noqa: E402
from streamlit.web import cli  # noqa: E402
from streamlit.web.server.starlette import starlette_server  # noqa: E402


def tcp_socket(sock: socket.socket) -> socket.socket:
    """The same listening socket, labelled IPPROTO_TCP so accepted connections get
    TCP_NODELAY from asyncio. Non-blocking and inheritable, as Streamlit leaves it."""
    tcp = socket.socket(sock.family, sock.type, socket.IPPROTO_TCP, fileno=sock.detach())
    tcp.setblocking(False)
    tcp.set_inheritable(True)
    return tcp


def warm_models() -> None:
    """Load MiniLM and SmolLM2 through the app's own ``st.cache_resource`` functions, so the
    first learner's page finds them loaded. Called once, before the socket is bound."""
    import logging

    from attn_ui.compute.decoder import smollm
    from attn_ui.compute.generate import warm_default
    from attn_ui.compute.model import minilm

    # their spinners have no page to show on here, and Streamlit would warn about it twice
    quiet = logging.getLogger("streamlit.runtime.scriptrunner_utils.script_run_context")
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        minilm()
        smollm()
        warm_default()  # Generate's first visit: its default text, written once
    finally:
        quiet.setLevel(level)


def patch_streamlit() -> bool:
    """Make Streamlit's server bind through `tcp_socket`. False (and a warning) if this
    Streamlit has no ``_bind_socket``: the app still runs, 40 ms slower per interaction."""
    bind = getattr(starlette_server, "_bind_socket", None)
    if bind is None:
        warnings.warn("serve.py: Streamlit has no _bind_socket; TCP_NODELAY not set", stacklevel=2)
        return False
    if getattr(bind, "sets_nodelay", False):
        return True

    def bind_tcp(address: str, port: int, backlog: int) -> socket.socket:
        if os.environ.get("ATTN_WARM_MODELS") == "1":
            warm_models()  # the runtime exists by now: the models go in its caches
        return tcp_socket(bind(address, port, backlog))

    bind_tcp.sets_nodelay = True
    starlette_server._bind_socket = bind_tcp
    return True


STREAMLIT_MPA_V1 = script_runner._mpa_v1  # Streamlit's own (tests compare the pages)
# (main script, pages/ folder's mtime) -> its pages, as Streamlit makes them
_PAGES: dict[tuple[str, int], tuple] = {}


def folder_pages(main_script_path: str) -> tuple:
    """The pages of an app with a pages/ folder, as Streamlit 1.67's `_mpa_v1` makes them on
    every rerun: the main script (the default page), then pages/*.py in Streamlit's order.
    Made once, and again only when the folder changes (a page added, removed or renamed
    changes its mtime)."""
    from streamlit.navigation.page import _create_page
    from streamlit.source_util import page_sort_key

    main = Path(main_script_path)
    folder = main.parent / "pages"
    key = (main_script_path, folder.stat().st_mtime_ns)
    made = _PAGES.get(key)
    if made is None:  # two sessions' first runs may both make them: the same pages
        main = main.resolve()
        folder = main.parent / "pages"
        files = sorted(
            (
                p
                for p in folder.glob("*.py")
                if not p.name.startswith(".") and p.name != "__init__.py"
            ),
            key=page_sort_key,
        )
        made = (_create_page(main, default=True), *(_create_page(f) for f in files))
        _PAGES.clear()  # an older folder's
        _PAGES[key] = made
    return made


def mpa_v1_once(main_script_path: str) -> None:
    """Streamlit's `_mpa_v1` (run the page a pages/-folder app was asked for) with the pages
    made once (`folder_pages`). Streamlit made all 35 on every rerun, each with a
    ``Path.resolve`` and an ``is_file``: 9% of a server's samples under 50 learners
    (bench/profile_server.py). Each run gets its own copies: ``st.navigation`` marks the
    page it may run on the page object, and sessions run at once."""
    from streamlit import config
    from streamlit.commands.navigation import _navigation

    pages = [copy.copy(p) for p in folder_pages(main_script_path)]
    hidden = config.get_option("client.showSidebarNavigation") is False
    _navigation(pages, position="hidden" if hidden else "sidebar", expanded=False).run()


def pages_once() -> bool:
    """Install `mpa_v1_once` in Streamlit's script runner. False (and a warning) if this
    Streamlit has no ``_mpa_v1``: the app still runs, making its pages on every rerun."""
    if getattr(script_runner, "_mpa_v1", None) is None:
        warnings.warn("serve.py: Streamlit has no _mpa_v1; pages made on every rerun", stacklevel=2)
        return False
    script_runner._mpa_v1 = mpa_v1_once
    return True


def main(argv: list[str]) -> int:
    script = argv[0] if argv and not argv[0].startswith("-") else None
    options = argv[1:] if script else argv
    patch_streamlit()
    pages_once()
    sys.argv = ["streamlit", "run", script or "app.py", *options]
    return cli.main()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
