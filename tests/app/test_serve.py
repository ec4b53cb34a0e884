"""serve.py: the app's connections get TCP_NODELAY, which Streamlit alone leaves off.

Each test binds a socket as Streamlit's server does (starlette_server._bind_socket), serves it
with asyncio as uvicorn does, connects once and reads TCP_NODELAY on the accepted socket.
"""

from __future__ import annotations

import asyncio
import socket
from concurrent.futures import ThreadPoolExecutor

import pytest
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
