"""Waiting on the app's state, never on sleeps."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


def shot(pg: Page, name: str) -> Path:
    """Save a full-page screenshot for a person to look at."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    # Streamlit scrolls inside its main block, so grow the window to the content first.
    height = pg.evaluate(
        "() => Math.max(...[...document.querySelectorAll('[data-testid=stMain],"
        " [data-testid=stSidebarContent]')].map(e => e.scrollHeight), 600)"
    )
    size = pg.viewport_size
    pg.set_viewport_size({"width": size["width"], "height": min(height + 40, 12000)})
    wait_plots_drawn(pg)
    pg.screenshot(path=str(path), full_page=True)
    pg.set_viewport_size(size)
    return path


def wait_plots_drawn(pg: Page, timeout_ms: int = 30_000) -> None:
    """Every Plotly chart on the page has drawn its SVG (charts load lazily)."""
    pg.wait_for_function(
        """() => {
            const boxes = document.querySelectorAll('[data-testid=stPlotlyChart]');
            const drawn = document.querySelectorAll('.js-plotly-plot .main-svg');
            return drawn.length >= boxes.length;
        }""",
        timeout=timeout_ms,
    )
    pg.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def wait_idle(pg: Page, timeout_ms: int = 30_000) -> None:
    """Wait until the script run has finished (Streamlit shows a 'running' widget meanwhile)."""
    pg.wait_for_selector("[data-testid='stApp']", timeout=timeout_ms)
    pg.wait_for_function(
        """() => {
            const app = document.querySelector('[data-testid=stApp]');
            return app && app.dataset.testScriptState === 'notRunning'
                && !document.querySelector('[data-testid=stSkeleton]');
        }""",
        timeout=timeout_ms,
    )
    wait_plots_drawn(pg, timeout_ms)
    expect(pg.locator("[data-testid='stException']")).to_have_count(0)


def open_page(pg: Page, base: str, path: str = "") -> None:
    pg.goto(f"{base}/{path}")
    pg.wait_for_selector("[data-testid='stMainBlockContainer']", timeout=30_000)
    pg.wait_for_selector("h1", timeout=30_000)
    wait_idle(pg)


def heatmap_rows(pg: Page, index: int = 0) -> list[str]:
    """The y tick labels of the index-th Plotly heatmap, top to bottom as shown."""
    return pg.evaluate(
        """(i) => {
            const plots = document.querySelectorAll('.js-plotly-plot');
            const gd = plots[i];
            return gd.layout.yaxis.ticktext;
        }""",
        index,
    )


def heatmap_z(pg: Page, index: int = 0) -> list[list[float]]:
    """The z values of the index-th heatmap as Plotly drew them (decoded from typed arrays)."""
    return pg.evaluate(
        """(i) => {
            const gd = document.querySelectorAll('.js-plotly-plot')[i];
            return Array.from(gd._fullData[0].z, (row) => Array.from(row));
        }""",
        index,
    )
