// Every heatmap of the app, drawn on <canvas> (canvas_grid.py sends them,
// heatmap.py decides what each shows). Each figure reads like the maths: row 0 on
// top, one row per token, a diverging scale centred at 0 for signed values and 0..1 for
// weights, numbers on cells when they fit, masked cells empty, hover text naming the cell,
// a colour bar and a PNG download.
// Labels are drawn with fillText and the hover is set with textContent: nothing a
// learner types is ever read as HTML.
//
// The pixel rules, which depend on the width the page gives a figure:
// - rows are 12 to 24 px, all of them labelled, up to 66 rows (64 tokens, [CLS], [SEP]);
//   a longer axis (384 model features) gets 600 px in all and a label every few rows;
// - columns are at least 2 px wide: a figure whose columns need more than its box scrolls
//   sideways, and its title says so (never a blur that looks like fewer columns);
// - columns are at most 80 px wide; their labels stand upright when they fit, else are
//   turned, 11 px apart at least, in 11 px type (every k-th when the cells are narrower),
//   so that turned labels never overlap;
// - numbered features ("f0", "f1", ...) are labelled like a ruler: every 1, 2, 5, 10, ...
// - numbers go on cells at least 14 px high and as wide as the number, in 12 px type (no
//   text of a figure is smaller than 11 px: a phone gets fewer numbers, never smaller
//   ones), and in white or ink, whichever reads at WCAG AA (4.5:1) on the cell's colour;
// - a keyboard reaches every cell: a figure takes the focus (Tab), the arrow keys move a
//   focused cell, and its hover text is read out through a live region.
// Each canvas records what it drew for the tests: data-min-font-px (the smallest text),
// data-number-px (the numbers on cells, 0 when none), data-number-room (the cell's width
// less the widest number's, when numbers are drawn), data-min-contrast (the lowest
// contrast of a number against its cell), data-label-pitch (the least distance between
// two labels of an axis, over their font size: 1 or more, they do not overlap).
// The arithmetic of these rules has no canvas in it: js/grid_layout.js, js/ticks.js,
// js/colour.js and js/numbers.js, unit-tested in tests/js (canvas_grid.py joins the modules
// into the one script the component loads).

import { chartBox, drawChartBox } from "./canvas_chart.js";
import { drawLinksBox, linksBox } from "./canvas_links.js";
import { blank, drawTitle, measurer, setFont } from "./js/canvas.js";
import { cellPixels } from "./js/cell_pixels.js";
import { colour, contrast, hex, INK, MASKED, MUTED, numberColour, rgb } from "./js/colour.js";
import { figureBox, pngLink } from "./js/figure_box.js";
import { cellNumbers, cellText, layout, MAX_LABEL_PX, MAX_LABELLED, MIN_ROW_PX,
         RULER_GAP_PX } from "./js/grid_layout.js";
import { hoverText } from "./js/hover.js";
import { decode, short } from "./js/numbers.js";
import { BAR_PX, FONT_PX, TURNED_FONT_PX, TURNED_GAP_PX } from "./js/sizes.js";
import { fileName, fit } from "./js/text.js";
import { rulerStep } from "./js/ticks.js";

const MASKED_RGB = hex(MASKED);

function drawCells(g, f, L, dpr) {
  // Cell edges on whole device pixels: edges in between blur into light seams between
  // cells a few pixels wide.
  // a white line between cells, unless they are too small to spare it (or a small figure)
  const z = f.values, gap = !f.small && L.cellW > 4 && L.cellH > 4 ? 1 : 0;
  // (Cells narrower than a pixel stay where they are, blended, rather than snap onto
  // each other and vanish.)
  const snap = (px) => (px * dpr >= 1 ? (v) => Math.round(v * dpr) / dpr : (v) => v);
  const [sx, sy] = [snap(L.cellW), snap(L.cellH)];
  const xs = Array.from({ length: L.m + 1 }, (_, j) => sx(L.left + j * L.cellW));
  const ys = Array.from({ length: L.n + 1 }, (_, i) => sy(L.top + i * L.cellH));
  const span = f.zmax - f.zmin || 1;
  g.font = `${FONT_PX}px ${f.font}`;
  g.textAlign = "center";
  const text = cellText(f);
  const { numbers, widest } = cellNumbers((t) => g.measureText(t).width, f, L);
  if (numbers) setFont(g, FONT_PX, f.font);
  L.numberPx = numbers ? FONT_PX : 0;
  L.numberRoom = numbers ? L.cellW - widest : null; // for the tests: at least 0
  L.minContrast = Infinity;
  if (!numbers && !gap && L.cellW * dpr >= 1 && L.cellH * dpr >= 1) {
    // the fast path (js/cell_pixels.js): the same pixels, written at once
    const device = (v) => Math.round(v * dpr);
    const cells = cellPixels(z, L.n, L.m, xs.map(device), ys.map(device), (v) =>
      Number.isFinite(v) ? colour(f.scale, (v - f.zmin) / span) : MASKED_RGB);
    if (cells.width && cells.height) {
      g.putImageData(new ImageData(cells.data, cells.width, cells.height), device(xs[0]),
                     device(ys[0]));
    }
    return;
  }
  for (let i = 0; i < L.n; i++) {
    for (let j = 0; j < L.m; j++) {
      const v = z[i * L.m + j], x = xs[j], y = ys[i];
      const masked = !Number.isFinite(v); // -inf has no colour: an empty cell
      const c = masked ? null : colour(f.scale, (v - f.zmin) / span);
      g.fillStyle = masked ? MASKED : rgb(c);
      g.fillRect(x, y, xs[j + 1] - x - gap, ys[i + 1] - y - gap);
      if (!numbers) continue;
      const [ink, ratio] = masked ? [hex(MUTED), contrast(hex(MUTED), hex(MASKED))]
                                  : numberColour(c);
      L.minContrast = Math.min(L.minContrast, ratio);
      g.fillStyle = rgb(ink);
      g.fillText(text(v), x + L.cellW / 2, y + L.cellH / 2);
    }
  }
}

function drawBand(g, f, L) {
  // the outline of the cells |i - j| <= w: down the left edges, up the right ones
  const w = f.band.width, pts = [];
  for (let i = 0; i < L.n; i++) pts.push([Math.max(0, i - w), i], [Math.max(0, i - w), i + 1]);
  for (let i = L.n - 1; i >= 0; i--) {
    const right = Math.min(L.m - 1, i + w) + 1;
    pts.push([right, i + 1], [right, i]);
  }
  g.beginPath();
  pts.forEach(([j, i], k) => {
    const x = L.left + j * L.cellW, y = L.top + i * L.cellH;
    if (k) g.lineTo(x, y); else g.moveTo(x, y);
  });
  g.closePath();
  g.strokeStyle = f.band.colour;
  g.lineWidth = 3;
  g.stroke();
}

function drawLabels(g, f, L) {
  const textWidth = (s) => g.measureText(s).width; // in the type in use
  g.fillStyle = INK;
  setFont(g, FONT_PX, f.font);
  g.textAlign = "right";
  const rs = f.rowPrefix !== null && L.n > MAX_LABELLED ? rulerStep(L.cellH, RULER_GAP_PX.rows)
                                                         : Math.ceil(MIN_ROW_PX / L.cellH);
  const pitch = [(rs * L.cellH) / FONT_PX];
  for (let i = 0; i < L.n; i += rs) {
    const y = L.top + (i + 0.5) * L.cellH;
    g.fillText(fit(textWidth, f.rows[i], L.rowLabelMax), L.left - 4, y);
  }
  const x = (j) => L.left + (j + 0.5) * L.cellW;
  if (L.upright) {
    const cs = L.ruler ? rulerStep(L.cellW, RULER_GAP_PX.cols) : 1;
    g.textAlign = "center";
    // upright labels side by side: the free space between two, over the font size
    const w = Math.max(...f.cols.filter((_, j) => j % cs === 0).map((c) => g.measureText(c).width));
    pitch.push(Math.max(0, cs * L.cellW - w) / FONT_PX + 1);
    for (let j = 0; j < L.m; j += cs) g.fillText(f.cols[j], x(j), L.colLabelY + FONT_PX / 2);
  } else {
    const px = L.cellW < 12 ? TURNED_FONT_PX : FONT_PX;
    const cs = Math.max(1, Math.ceil(Math.max(TURNED_GAP_PX, px) / L.cellW));
    setFont(g, px, f.font);
    pitch.push((cs * L.cellW) / px);
    g.textAlign = "right";
    for (let j = 0; j < L.m; j += cs) {
      g.save();
      g.translate(x(j), L.colLabelY);
      g.rotate(-Math.PI / 2);
      g.fillText(fit(textWidth, f.cols[j], MAX_LABEL_PX), 0, 0);
      g.restore();
    }
  }
  L.labelPitch = Math.min(...pitch);
  setFont(g, FONT_PX, f.font);
  g.textAlign = "center";
  g.fillText(f.colTitle, L.left + (L.m * L.cellW) / 2, L.axisY + FONT_PX / 2);
  g.save();
  g.translate(FONT_PX / 2 + 2, L.top + L.plotH / 2);
  g.rotate(-Math.PI / 2);
  g.fillText(f.rowTitle, 0, 0);
  g.restore();
}

function drawBar(g, bar, x, y, w, font) {
  // a horizontal colour bar with its two ends and middle
  for (let k = 0; k < w; k++) {
    g.fillStyle = rgb(colour(bar.scale, k / Math.max(1, w - 1)));
    g.fillRect(x + k, y, 1, BAR_PX);
  }
  g.fillStyle = INK;
  setFont(g, FONT_PX, font);
  const ticks = [[bar.zmin, "left"], [(bar.zmin + bar.zmax) / 2, "center"], [bar.zmax, "right"]];
  ticks.forEach(([v, align], k) => {
    g.textAlign = align;
    g.fillText(short(v), x + (k * w) / 2, y + BAR_PX + FONT_PX / 2 + 3);
  });
}

function drawLegend(g, items, x, y, font) {
  // a few values that are not a range (a mask's 0 and -inf): a swatch and its text each
  g.font = `${FONT_PX}px ${font}`;
  g.textAlign = "left";
  for (const item of items) {
    g.fillStyle = item.colour ? rgb(item.colour) : MASKED;
    g.fillRect(x, y - 1, 2 * BAR_PX, BAR_PX + 2);
    g.strokeStyle = MUTED;
    g.lineWidth = 1;
    g.strokeRect(x + 0.5, y - 0.5, 2 * BAR_PX - 1, BAR_PX + 1);
    g.fillStyle = INK;
    g.fillText(item.text, x + 2 * BAR_PX + 6, y + BAR_PX / 2);
    x += 2 * BAR_PX + 6 + g.measureText(item.text).width + 18;
  }
}

function draw(canvas, f, width) {
  const g = canvas.getContext("2d");
  const L = layout(measurer(g, f.font), f, width);
  width = L.width || width; // wider than its box when its columns need the room
  const dpr = blank(canvas, g, width, L.height);
  drawCells(g, f, L, dpr);
  if (f.band) drawBand(g, f, L);
  if (f.small) return L;
  drawTitle(g, L.titleLines, f.font);
  drawLabels(g, f, L);
  const barW = Math.min(width - L.left - 12, Math.max(120, Math.min(L.m * L.cellW, 240)));
  if (f.legend) drawLegend(g, f.legend, L.left, L.barY, f.font);
  else drawBar(g, f, L.left, L.barY, barW, f.font);
  return L;
}

// How a heatmap answers the pointer and the keys: a cell is [row, column].
const HEATMAP = {
  role: "heatmap",
  start: () => [0, 0],
  at(box, x, y) {
    const L = box.layout;
    const j = Math.floor((x - L.left) / L.cellW), i = Math.floor((y - L.top) / L.cellH);
    return i < 0 || j < 0 || i >= L.n || j >= L.m ? null : [i, j];
  },
  clamp(box, [i, j]) {
    const L = box.layout;
    return [Math.min(L.n - 1, Math.max(0, i)), Math.min(L.m - 1, Math.max(0, j))];
  },
  ring(box, [i, j]) {
    const L = box.layout;
    return { x: L.left + j * L.cellW, y: L.top + i * L.cellH,
             w: Math.max(2, L.cellW), h: Math.max(2, L.cellH) };
  },
  text: (box, [i, j]) => hoverText(box.figure, i, j),
  key(box, [i, j], key, ctrl) {
    const L = box.layout;
    const step = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (step[key]) return [i + step[key][0], j + step[key][1]];
    if (key === "Home") return [ctrl ? 0 : i, 0];
    if (key === "End") return [ctrl ? L.n - 1 : i, L.m - 1];
    return null;
  },
};

function arrowBox(root, text) {
  const a = document.createElement("div");
  a.className = "cg-arrow";
  a.textContent = text;
  Object.assign(a.style, { display: "flex", alignItems: "center", justifyContent: "center",
                           fontSize: "28px", color: MUTED });
  root.appendChild(a);
  return a;
}

function label(root, text, style) {
  const d = document.createElement("div");
  d.className = "cg-label";
  d.textContent = text;
  Object.assign(d.style, { fontSize: "11px", color: INK, textAlign: "center",
                           alignSelf: "center", whiteSpace: "nowrap", ...style });
  root.appendChild(d);
  return d;
}

function gridImage(grid, bar) {
  // the whole grid of small figures, its labels and colour bar, as one canvas
  const r = grid.getBoundingClientRect(), dpr = window.devicePixelRatio || 1;
  const out = document.createElement("canvas");
  out.width = Math.round(r.width * dpr);
  out.height = Math.round((r.height + 40) * dpr);
  const g = out.getContext("2d");
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.fillStyle = "#fff";
  g.fillRect(0, 0, r.width, r.height + 40);
  g.textBaseline = "middle";
  g.textAlign = "center";
  g.font = `11px ${grid.font}`;
  for (const el of grid.querySelectorAll("canvas, .cg-label")) {
    const b = el.getBoundingClientRect(), x = b.left - r.left, y = b.top - r.top;
    if (el.tagName === "CANVAS") g.drawImage(el, x, y, b.width, b.height);
    else { g.fillStyle = INK; g.fillText(el.textContent, x + b.width / 2, y + b.height / 2); }
    const frame = el.tagName === "CANVAS" && el.parentElement.figure.frame;
    if (frame) {
      g.strokeStyle = frame;
      g.lineWidth = 3;
      g.strokeRect(x - 2, y - 2, b.width + 4, b.height + 4);
    }
  }
  drawBar(g, bar, 0, r.height + 8, Math.min(240, r.width), grid.font);
  return out;
}

function headings(root, sec) {
  if (sec.heading) {
    const h = document.createElement("h3");
    h.textContent = sec.heading;
    Object.assign(h.style, { fontSize: "1.5rem", fontWeight: "600", margin: "1.25rem 0 0.5rem",
                             color: "#31333f", lineHeight: "1.2" });
    root.appendChild(h);
  }
  if (sec.caption) {
    const p = document.createElement("p");
    p.textContent = sec.caption;
    Object.assign(p.style, { fontSize: "14px", color: MUTED, margin: "0 0 0.5rem" });
    root.appendChild(p);
  }
}

function sharedBar(wrapper, grid, sec, font) {
  // a grid of small figures: its colour bar, titled, and a PNG link for the whole grid
  const w = 240, h = BAR_PX + FONT_PX + 24, dpr = window.devicePixelRatio || 1;
  const bar = document.createElement("canvas");
  bar.className = "cg-bar";
  Object.assign(bar, { width: w * dpr, height: h * dpr });
  Object.assign(bar.style, { width: `${w}px`, height: `${h}px`, display: "block",
                             marginTop: "6px" });
  const g = bar.getContext("2d");
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.textBaseline = "middle";
  g.fillStyle = INK;
  g.font = `${FONT_PX}px ${font}`;
  g.fillText(sec.bar.title, 0, FONT_PX / 2);
  drawBar(g, sec.bar, 0, FONT_PX + 4, w - 4, font);
  const png = pngLink(() => gridImage(grid, sec.bar), () => `${sec.name || "grid"}.png`, grid.words);
  Object.assign(png.style, { top: "", bottom: "0" }); // the top right holds a column label
  wrapper.append(bar, png);
}

function section(root, sec, narrow) {
  headings(root, sec);
  const small = Boolean(sec.labels); // a grid of small figures, labelled at its left and top
  const wrapper = document.createElement("div");
  wrapper.style.position = "relative";
  const grid = document.createElement("div");
  grid.className = "cg-grid";
  grid.font = root.font;
  grid.words = root.words;
  const cols = sec.widths.map((w) => `minmax(0, ${w}fr)`).join(" ");
  Object.assign(grid.style, {
    display: "grid", gap: small ? "4px" : "16px 24px", alignItems: "start",
    // a phone: one figure per line, arrows pointing down; a grid of small ones stays a grid
    gridTemplateColumns: small ? `max-content ${cols}` : narrow ? "minmax(0, 1fr)" : cols,
  });
  wrapper.appendChild(grid);
  root.appendChild(wrapper);
  if (small) [" ", ...sec.labels.cols].forEach((c) => label(grid, c));
  const boxes = [];
  sec.items.forEach((it, k) => {
    if (small && k % sec.widths.length === 0) {
      label(grid, sec.labels.rows[k / sec.widths.length], { textAlign: "right" });
    }
    if (it.arrow) { arrowBox(grid, narrow ? "↓" : it.arrow); return; }
    const words = root.words; // the page's, for the hover and the PNG link (js/words.js)
    if (it.chart === "links") { boxes.push(linksBox(grid, it, root.font, words)); return; } // canvas_links.js
    if (it.chart) { boxes.push(chartBox(grid, it, root.font, words)); return; } // canvas_chart.js
    const box = figureBox(grid, HEATMAP, "cg-figure");
    box.figure = { ...it, values: decode(it.z, it.shape[0] * it.shape[1]), font: root.font, words };
    if (it.frame) Object.assign(box.style, { outline: `3px solid ${it.frame}`, outlineOffset: "1px" });
    if (!it.small) {
      box.append(pngLink(() => box.querySelector("canvas"), () => fileName(it.title), words));
    }
    boxes.push(box);
  });
  if (small && sec.bar) sharedBar(wrapper, grid, sec, root.font);
  // All widths first (one layout of the page), then all drawing: reading a width after
  // each drawing made the browser lay the page out again for every figure.
  const widths = boxes.map((box) => box.clientWidth || 300);
  boxes.forEach((box, k) => {
    if (box.chart) {
      if (box.chart.chart === "links") drawLinksBox(box, widths[k]); else drawChartBox(box, widths[k]);
      return;
    }
    const f = box.figure, canvas = box.querySelector("canvas");
    // in the page's language when it sent them (heatmap.py `spoken`), else in English
    if (f.role) canvas.setAttribute("aria-roledescription", f.role);
    canvas.setAttribute("aria-label", f.title);
    canvas.setAttribute("aria-description", f.description || `${f.shape[0]} ${f.rowTitle}s by `
      + `${f.shape[1]} ${f.colTitle}s. The arrow keys move from cell to cell and read each one; `
      + "the numbers are also in a table on this page.");
    box.layout = draw(canvas, f, widths[k]);
    canvas.dataset.firstRow = f.rows[0]; // for the tests and bench/bench_app.py
    canvas.dataset.rows = JSON.stringify(f.rows);
    canvas.dataset.shape = f.shape.join("x");
    const g = canvas.getContext("2d"), L = box.layout;
    canvas.dataset.minFontPx = Number.isFinite(g.minFontPx) ? g.minFontPx : 0; // 0: no text
    canvas.dataset.numberPx = L.numberPx;
    canvas.dataset.numberRoom = L.numberRoom === null ? "" : L.numberRoom.toFixed(1);
    canvas.dataset.minContrast = Number.isFinite(L.minContrast) ? L.minContrast.toFixed(2) : "";
    canvas.dataset.labelPitch = L.labelPitch === undefined ? "" : L.labelPitch.toFixed(2);
  });
}

function render(root, sections) {
  const narrow = root.clientWidth < 640; // a phone: one figure per line, arrows point down
  root.replaceChildren();
  for (const sec of sections) section(root, sec, narrow);
  root.dataset.width = String(root.clientWidth); // the width drawn for (tests wait on it)
  root.dataset.drawn = String((Number(root.dataset.drawn) || 0) + 1);
}

export default function ({ parentElement, data }) {
  let root = parentElement.querySelector(".cg-root");
  if (!root) {
    root = document.createElement("div");
    root.className = "cg-root";
    parentElement.appendChild(root);
    root.font = `${getComputedStyle(parentElement).fontFamily || "sans-serif"}`;
  }
  if (!root.observer) { // redraw when the page's width changes (window resize, sidebar)
    let lastWidth = root.clientWidth;
    root.observer = new ResizeObserver(() => {
      if (Math.abs(root.clientWidth - lastWidth) > 1 && root.sections) {
        lastWidth = root.clientWidth;
        render(root, root.sections);
      }
    });
    root.observer.observe(root);
  }
  root.sections = data.sections;
  root.words = data.words || {}; // what the figures say, in the page's language (js/words.js)
  render(root, data.sections);
  return () => {
    root.observer.disconnect();
    root.observer = null;
  };
}
