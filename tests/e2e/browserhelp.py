"""Waiting on the app's state, never on sleeps."""

from __future__ import annotations

import json
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
    """Every Plotly chart on the page has drawn its SVG (charts load lazily), and every
    heatmap component its canvases."""
    pg.wait_for_function(
        """() => {
            const boxes = document.querySelectorAll('[data-testid=stPlotlyChart]');
            const drawn = document.querySelectorAll('.js-plotly-plot .main-svg');
            const grids = document.querySelectorAll('[data-testid=stBidiComponentRegular]');
            const canvases = document.querySelectorAll('.cg-root[data-drawn]');
            return drawn.length >= boxes.length && canvases.length >= grids.length;
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


# Every heatmap on the page (attn_ui/figures/canvas_grid.js keeps what it drew on each
# figure's box): title, labels, shape, the matrix (-inf for masked cells), its drawn size, how many
# distinct colours a sample of its pixels has, and whether it is a small one of a grid.
HEATMAPS = """() => [...document.querySelectorAll('.cg-figure')].map(box => {
    const f = box.figure, c = box.querySelector('canvas'), [n, m] = f.shape;
    const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const colours = new Set();
    for (let i = 0; i < px.length; i += 4 * 97) {
        colours.add(px[i] << 16 | px[i + 1] << 8 | px[i + 2]);
    }
    return { title: f.title, rows: f.rows, cols: f.cols, shape: f.shape,
             z: Array.from({ length: n }, (_, i) => Array.from(f.values.slice(i * m, i * m + m))),
             width: c.clientWidth, height: c.clientHeight, colours: colours.size,
             small: Boolean(f.small) };
})"""
FIND = f"""(t) => ({HEATMAPS})().find(f => f.title.startsWith(t)) || null"""


def heatmaps(pg: Page) -> list[dict]:
    """Every heatmap on the page, in page order (see HEATMAPS)."""
    return pg.evaluate(HEATMAPS)


def heatmap(pg: Page, title_start: str) -> dict | None:
    """The first heatmap whose title starts with `title_start`, or None."""
    return pg.evaluate(FIND, title_start)


def wait_heatmap(pg: Page, title_start: str, condition: str = "true", arg=None) -> dict:
    """Wait until the titled heatmap is drawn and `condition` (JS over `f` and `arg`) holds."""
    pg.wait_for_function(
        f"([t, arg]) => {{ const f = ({FIND})(t); return f !== null && ({condition}); }}",
        arg=[title_start, arg],
        timeout=90_000,  # generous: a loaded CI machine redraws a dozen figures slowly
    )
    return heatmap(pg, title_start)


def hover_cell(pg: Page, title_start: str, i: int, j: int, *, tap: bool = False):
    """Point at (or tap) cell (i, j) of the titled heatmap; its hover box."""
    canvas = pg.locator(
        f".cg-figure canvas[aria-label^={json.dumps(title_start, ensure_ascii=False)}]"
    ).first
    canvas.scroll_into_view_if_needed()
    x, y = canvas.evaluate(
        "(c, [i, j]) => { const L = c.parentElement.layout;"
        " return [L.left + (j + 0.5) * L.cellW, L.top + (i + 0.5) * L.cellH]; }",
        [i, j],
    )
    if tap:
        canvas.tap(position={"x": x, "y": y})
    else:
        box = canvas.bounding_box()
        pg.mouse.move(box["x"] + x, box["y"] + y)
    return canvas.locator("xpath=..").locator(".cg-hover")
