"""Real-browser tests: a Streamlit server on a free loopback port, driven by headless Chromium."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from bench.stclient import serving

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
LOGS = ROOT / "artifacts" / "logs"
LOGS.mkdir(parents=True, exist_ok=True)
# Flags for a closed network (see the README): no background fetches, no sandbox as root.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def app_url():
    with serving(log_dir=LOGS) as (url, _):  # the log is kept for a look
        yield url


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: run `apt-get install -y chromium`.")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    """A fresh browser context (no cookies, no session) per test, desktop size."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = ctx.new_page()
    yield pg
    ctx.close()
