"""serve.py: the app's connections get TCP_NODELAY, which Streamlit alone leaves off.

Each test binds a socket as Streamlit's server does (starlette_server._bind_socket), serves it
with asyncio as uvicorn does, connects once and reads TCP_NODELAY on the accepted socket.
"""

from __future__ import annotations

import asyncio
import socket
from concurrent.futures import ThreadPoolExecutor

import pytest
from streamlit.commands import navigation as st_navigation
from streamlit.runtime.scriptrunner import script_runner
from streamlit.testing.v1 import AppTest
from streamlit.web.server.starlette import starlette_server

import serve


def accepted_nodelay(listening: socket.socket) -> int:
    """TCP_NODELAY of the server side of one loopback connection to `listening`."""

    async def serve_once() -> int:
        got = asyncio.get_running_loop().create_future()

        def on_connect(_reader, writer) -> None:
            sock = writer.get_extra_info("socket")
            got.set_result(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        server = await asyncio.start_server(on_connect, sock=listening)
        _, writer = await asyncio.open_connection(*listening.getsockname()[:2])
        try:
            return await asyncio.wait_for(got, 10)
        finally:
            writer.close()
            server.close()
            await server.wait_closed()

    # its own thread: the browser tests leave an event loop on the main thread
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, serve_once()).result(timeout=30)


@pytest.fixture
def streamlit_bind(monkeypatch):
    """Streamlit's own bind function; restored after the test, whatever serve.py did."""
    monkeypatch.setattr(starlette_server, "_bind_socket", starlette_server._bind_socket)
    return starlette_server._bind_socket


def test_streamlit_alone_leaves_nagle_on(streamlit_bind):
    """Why serve.py exists. If this fails, Streamlit sets TCP_NODELAY itself: drop the patch."""
    sock = streamlit_bind("127.0.0.1", 0, 8)
    assert sock.proto == 0
    assert accepted_nodelay(sock) == 0


def test_serve_turns_nagle_off_on_every_connection(streamlit_bind):
    assert serve.patch_streamlit()
    assert serve.patch_streamlit()  # a second call does not wrap twice
    assert starlette_server._bind_socket.sets_nodelay
    sock = starlette_server._bind_socket("127.0.0.1", 0, 8)
    assert sock.proto == socket.IPPROTO_TCP
    assert not sock.getblocking()
    assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR)  # Streamlit's options kept
    assert accepted_nodelay(sock) == 1


def test_serve_runs_streamlit_on_the_given_script(monkeypatch, streamlit_bind):
    monkeypatch.setattr(script_runner, "_mpa_v1", script_runner._mpa_v1)  # main() patches it
    seen = {}
    monkeypatch.setattr(serve.cli, "main", lambda: seen.setdefault("argv", list(serve.sys.argv)))
    monkeypatch.setattr(serve.sys, "argv", ["serve.py"])
    serve.main(["bench/bare_page.py", "--server.port", "9"])
    assert seen["argv"] == ["streamlit", "run", "bench/bare_page.py", "--server.port", "9"]
    seen.clear()
    serve.main(["--server.port", "9"])
    assert seen["argv"] == ["streamlit", "run", "app.py", "--server.port", "9"]


def test_serve_holds_blas_to_one_thread_unless_told_otherwise():
    """A generation's products on every core starved the other learners (bench_load); the
    server runs one BLAS thread per computation, and an operator's setting still wins."""
    import os
    import subprocess
    import sys

    code = "import os, serve; print(os.environ['OPENBLAS_NUM_THREADS'])"
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert run.stdout.strip() == "1"
    env["OPENBLAS_NUM_THREADS"] = "2"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert run.stdout.strip() == "2"


@pytest.mark.parametrize("warm", ["1", None])
def test_with_attn_warm_models_the_models_load_before_the_server_listens(
    monkeypatch, streamlit_bind, warm
):
    """ATTN_WARM_MODELS=1 (the image, make class): both models are in the app's caches, and
    Generate's default text written, before the socket exists, so /_stcore/health (a
    readiness probe) waits for them."""
    from attn_ui.compute.decoder import smollm
    from attn_ui.compute.model import minilm

    smollm.clear()
    minilm.clear()
    loaded = []
    monkeypatch.setattr("attn_core.pretrained.load_minilm", lambda: loaded.append("minilm"))
    monkeypatch.setattr("attn_core.pretrained.load_smollm", lambda: loaded.append("smollm"))
    monkeypatch.setattr(
        "attn_ui.compute.generate.warm_default", lambda: loaded.append("default text")
    )
    if warm:
        monkeypatch.setenv("ATTN_WARM_MODELS", warm)
    else:
        monkeypatch.delenv("ATTN_WARM_MODELS", raising=False)
    assert serve.patch_streamlit()
    sock = starlette_server._bind_socket("127.0.0.1", 0, 8)
    sock.close()
    try:
        assert loaded == (["minilm", "smollm", "default text"] if warm else [])
    finally:
        smollm.clear()  # the fakes must not stay in the caches
        minilm.clear()


def _pages_made(tmp_path, monkeypatch, calls) -> list[list]:
    """What each of `calls` (a function of the main script's path) gave st.navigation, for
    an app in `tmp_path` whose pages/ folder gets a third page after the third call."""
    given = []

    class Chosen:
        def run(self) -> None:  # the page asked for would run here
            given[-1].append("run")

    def navigation(pages, *, position, expanded):
        given.append([pages, position, expanded])
        return Chosen()

    monkeypatch.setattr(st_navigation, "_navigation", navigation)
    main = tmp_path / "app.py"
    main.write_text("")
    (tmp_path / "pages").mkdir()
    for name in ("01_One.py", "02_Two.py", "__init__.py", ".hidden.py"):
        (tmp_path / "pages" / name).write_text("")

    def script(main: str, calls) -> None:
        from pathlib import Path

        for i, call in enumerate(calls):
            if i == 3:
                (Path(main).parent / "pages" / "03_Three.py").write_text("")
            call(main)

    at = AppTest.from_function(script, args=(str(main), calls))
    at.run()
    assert not at.exception, at.exception
    return given


def test_the_pages_made_once_are_the_ones_streamlit_makes_on_every_rerun(tmp_path, monkeypatch):
    """serve.py's `_mpa_v1` gives st.navigation the pages Streamlit's own gives it (the same
    files, titles, addresses, default page, order and menu position), made once while the
    pages/ folder stays as it is, and made again when a page is added; each run gets its own
    copies (st.navigation marks the page it may run on the object, and sessions run at
    once), and the page chosen runs."""
    calls = [serve.STREAMLIT_MPA_V1, serve.mpa_v1_once, serve.mpa_v1_once]
    given = _pages_made(tmp_path, monkeypatch, [*calls, serve.STREAMLIT_MPA_V1, serve.mpa_v1_once])

    def seen(pages) -> list:
        return [(str(p._page), p.title, p.url_path, p._script_hash, p._default) for p in pages]

    theirs, once, again, theirs_3, once_3 = given
    assert [len(g[0]) for g in given] == [3, 3, 3, 4, 4]  # app.py and pages/0N_*.py
    assert seen(theirs[0])[0][-1] is True and seen(theirs[0])[1][1:3] == ("One", "One")
    for mine, streamlits in ((once, theirs), (again, theirs), (once_3, theirs_3)):
        assert seen(mine[0]) == seen(streamlits[0])
        assert mine[1:] == streamlits[1:] == ["hidden", False, "run"]
    assert all(a is not b for a, b in zip(once[0], again[0], strict=True))  # copies per run
    assert [p.__dict__ for p in once[0]] == [p.__dict__ for p in again[0]]  # of the same pages


def test_serve_makes_the_pages_once_in_streamlits_script_runner(monkeypatch):
    monkeypatch.setattr(script_runner, "_mpa_v1", script_runner._mpa_v1)  # restored after
    assert serve.pages_once()
    assert script_runner._mpa_v1 is serve.mpa_v1_once
