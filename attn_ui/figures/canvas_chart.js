// Bar, line and histogram charts, and x-y planes, on <canvas> (chart.py decides what each
// shows; canvas_links.js draws a head's weights as lines). They are drawn by the
// heatmaps' component: canvas_grid.js's grid places a chart wherever an item has a "chart"
// field (`chartBox`, then `drawChartBox` once the page's widths are known). The charts share
// the heatmaps' fonts, colours, PNG link, hover box and live region (js/canvas.js,
// js/figure_box.js).
//
// The pixel rules:
// - all text is 12 px, turned labels 11 px; never smaller (a phone gets fewer labels);
// - an x label stands upright under its bar when it fits, else it is turned, and only
//   every k-th is drawn so that turned labels are at least 11 px apart (the hover names
//   every bar);
// - a bar's own number goes above it (below, when negative) only when the bar is wider
//   than the number; a masked value is a flat grey bar marked −∞;
// - the value axis gets about 5 ticks at 1, 2 or 5 times a power of 10 (powers of 10 on
//   a log axis, 10⁴ and beyond written as powers), and light grid lines; a numeric x axis
//   labels each tick that leaves 8 px to the label before it;
// - a line's points may carry error bars (a cap at each end) and labels, drawn where they
//   overlap no label drawn before; a plane keeps a unit as long across as up;
// - a histogram's series are overlaid, each bin a bar from edge to edge, see-through;
// - a keyboard reaches every value: Tab focuses the chart, Left and Right move along the x
//   axis, Up and Down from one series to the next (all of them first, where the series share
//   their positions), and the hover box and live region read the value out
//   (js/chart_cells.js).
// Each canvas records what it drew for the tests, as a heatmap's does: data-min-font-px,
// data-number-px (the bars' numbers, 0 when none), data-min-contrast and data-label-pitch.
// The arithmetic (axes, ticks, where a value lands, which value the pointer or a key is on,
// the hover's words) has no canvas in it: js/chart_layout.js, js/chart_cells.js, js/ticks.js
// and js/hover.js, unit-tested in tests/js.

import { blank, drawTitle, measurer, setFont } from "./js/canvas.js";
import { contrast, INK, INK_RGB, MUTED, WHITE } from "./js/colour.js";
import { cellAt, cellRing, clampCell, moveCell, startCell } from "./js/chart_cells.js";
import { alone, chartLayout, LEGEND_ROW_PX, MAX_X_LABEL_PX, numberedBars, spacedLabels, SWATCH_PX,
         xPx, xValuePx, yPx } from "./js/chart_layout.js";
import { figureBox, pngLink } from "./js/figure_box.js";
import { chartText } from "./js/hover.js";
import { axisText } from "./js/numbers.js";
import { FONT_PX } from "./js/sizes.js";
import { fileName, fit } from "./js/text.js";

const CHART_GRID = "#e6e8ef", CHART_AXIS = "#8a8d99", MARK = "#555555", MASKED_BAR = "#a0aec0";

const DASHES = { dash: [6, 4], dot: [2, 3] }; // a line's pattern by style; others are solid
const LINES = new Set(["line", "curve", "dash", "dot", "step"]); // styles drawn as a line
const HISTOGRAM_ALPHA = 0.6; // overlaid bins show through each other
const TICK_GAP_PX = 8; // the least room between two labels of a numeric axis

function swatch(g, s, x, y) {
  // a series' sign: a square (bars), a line (with a point, or dashed), a point, a diamond
  g.fillStyle = g.strokeStyle = s.colour;
  if (s.style === "bar") { g.fillRect(x, y - 6, SWATCH_PX, 12); return; }
  if (s.style === "diamond") { diamond(g, x + SWATCH_PX / 2, y, 6, s.colour); return; }
  if (s.style === "points") { dot(g, x + SWATCH_PX / 2, y, 4); return; }
  g.lineWidth = 2;
  g.setLineDash(DASHES[s.style] || []);
  g.beginPath();
  g.moveTo(x, y);
  g.lineTo(x + SWATCH_PX, y);
  g.stroke();
  g.setLineDash([]);
  if (s.style === "line") dot(g, x + SWATCH_PX / 2, y, 3);
}

function dot(g, x, y, r) {
  g.beginPath();
  g.arc(x, y, r, 0, 2 * Math.PI);
  g.fill();
}

function diamond(g, x, y, r, colour) {
  g.beginPath();
  g.moveTo(x, y - r); g.lineTo(x + r, y); g.lineTo(x, y + r); g.lineTo(x - r, y);
  g.closePath();
  g.fillStyle = colour;
  g.fill();
  g.strokeStyle = "#fff";
  g.lineWidth = 1.5;
  g.stroke();
}

function drawAxes(g, c, L) {
  setFont(g, FONT_PX, c.font);
  g.textAlign = "right";
  for (const v of L.yticks) {
    const y = yPx(c, L, v);
    g.fillStyle = CHART_GRID;
    g.fillRect(L.left, Math.round(y), L.plotW, 1);
    g.fillStyle = INK;
    g.fillText(axisText(v, c.y.log), L.left - 6, y);
  }
  if (!c.y.log && L.ylo < 0 && L.yhi > 0) { // the zero line
    g.fillStyle = CHART_AXIS;
    g.fillRect(L.left, Math.round(yPx(c, L, 0)), L.plotW, 1);
  }
  g.fillStyle = CHART_AXIS;
  g.fillRect(L.left, L.top + L.plotH, L.plotW, 1);
  g.fillStyle = INK;
  g.save();
  g.translate(FONT_PX / 2 + 2, L.top + L.plotH / 2);
  g.rotate(-Math.PI / 2);
  g.textAlign = "center";
  g.fillText(c.y.title, 0, 0);
  g.restore();
  g.textAlign = "center";
  g.fillText(c.x.title, L.left + L.plotW / 2, L.xTitleY);
}

function drawXLabels(g, c, L) {
  const y = L.top + L.plotH + 4;
  g.fillStyle = INK;
  if (c.chart !== "bars") { // a numeric axis
    setFont(g, FONT_PX, c.font);
    g.textAlign = "center";
    // the ticks' labels, each one that leaves TICK_GAP_PX to the one before (a phone gets fewer)
    const labels = L.xa.ticks.map((v) => {
      const x = xValuePx(L, v), t = axisText(v, c.x.log), w = g.measureText(t).width;
      return { x, t, w, box: { x: x - w / 2 - TICK_GAP_PX / 2, y: 0, w: w + TICK_GAP_PX, h: 1 } };
    });
    const kept = spacedLabels(labels.map((l) => l.box));
    const shown = labels.filter((_, k) => kept[k]);
    L.labelPitch = Math.min(...shown.slice(1).map((l, k) => (l.x - shown[k].x
      - (l.w + shown[k].w) / 2) / FONT_PX + 1), Infinity);
    shown.forEach((l) => g.fillText(l.t, l.x, y + FONT_PX / 2 + 2));
    return;
  }
  setFont(g, L.labelPx, c.font);
  if (L.upright) {
    g.textAlign = "center";
    const w = Math.max(...c.x.labels.map((s) => g.measureText(s).width));
    L.labelPitch = Math.max(0, L.band - w) / FONT_PX + 1;
    c.x.labels.forEach((s, i) => g.fillText(s, xPx(c, L, i), y + FONT_PX / 2 + 2));
    return;
  }
  L.labelPitch = (L.every * L.band) / L.labelPx;
  g.textAlign = "right";
  for (let i = 0; i < L.n; i += L.every) {
    g.save();
    g.translate(xPx(c, L, i), y);
    g.rotate(-Math.PI / 2);
    g.fillText(fit((s) => g.measureText(s).width, c.x.labels[i], MAX_X_LABEL_PX), 0, 0);
    g.restore();
  }
}

function drawBars(g, c, L) {
  const bars = c.series.filter((s) => s.style === "bar");
  const k = c.stacked ? 1 : bars.length, w = (L.band * 0.8) / k;
  const zero = yPx(c, L, c.y.log ? L.ylo : Math.max(L.ylo, Math.min(L.yhi, 0)));
  setFont(g, FONT_PX, c.font);
  g.textAlign = "center";
  L.numberPx = 0;
  const numbered = numberedBars((t) => g.measureText(t).width, c, bars, w);
  for (let i = 0; i < L.n; i++) {
    let up = 0, down = 0;
    bars.forEach((s, b) => {
      const v = s.values[i], x = xPx(c, L, i) - (L.band * 0.8) / 2 + (c.stacked ? 0 : b * w);
      if (v === null) { // masked: a flat grey bar and −∞
        g.fillStyle = MASKED_BAR;
        g.fillRect(x, zero - 2, w, 2);
        if (g.measureText("−∞").width <= w + 2) {
          g.fillStyle = MUTED;
          g.fillText("−∞", x + w / 2, zero - FONT_PX / 2 - 4);
        }
        return;
      }
      const base = c.stacked ? (v >= 0 ? up : down) : 0;
      if (c.stacked) { if (v >= 0) up += v; else down += v; }
      const y0 = yPx(c, L, c.y.log ? L.ylo : base), y1 = yPx(c, L, base + v); // log: no 0
      g.fillStyle = s.colour;
      g.fillRect(x, Math.min(y0, y1), w, Math.max(1, Math.abs(y1 - y0)));
      if (numbered[b]) {
        g.fillStyle = INK;
        g.fillText(s.text[i], x + w / 2, v >= 0 ? y1 - FONT_PX / 2 - 3 : y1 + FONT_PX / 2 + 3);
        L.numberPx = FONT_PX;
      }
    });
  }
}

function drawHistogram(g, c, L) {
  // each series' bins, overlaid and see-through, from edge to edge
  const zero = yPx(c, L, Math.max(L.ylo, 0)), ends = c.x.edges.map((e) => xValuePx(L, e));
  g.globalAlpha = HISTOGRAM_ALPHA;
  for (const s of c.series) {
    g.fillStyle = s.colour;
    s.values.forEach((v, i) => {
      if (!v) return;
      const y = yPx(c, L, v);
      g.fillRect(ends[i], y, Math.max(1, ends[i + 1] - ends[i] - 0.5), zero - y);
    });
  }
  g.globalAlpha = 1;
}

function drawErrors(g, c, L, s, k) {
  // a vertical bar from v - e to v + e with a cap at each end (cut at a log axis's floor)
  g.strokeStyle = s.colour;
  g.lineWidth = 1;
  s.values.forEach((v, i) => {
    if (v === null || !s.error[i]) return;
    const x = xPx(c, L, i, k), lo = v - s.error[i];
    const y0 = yPx(c, L, c.y.log && lo <= 0 ? L.ylo : lo), y1 = yPx(c, L, v + s.error[i]);
    g.beginPath();
    g.moveTo(x, y0); g.lineTo(x, y1);
    g.moveTo(x - 3, y0); g.lineTo(x + 3, y0);
    g.moveTo(x - 3, y1); g.lineTo(x + 3, y1);
    g.stroke();
  });
}

function drawLines(g, c, L) {
  const at = (s, k) => s.values.map((v, i) => (v === null ? null : [xPx(c, L, i, k), yPx(c, L, v)]));
  c.series.forEach((s, k) => {
    if (s.style === "bar" || s.style === "diamond") return;
    const pts = at(s, k);
    g.strokeStyle = g.fillStyle = s.colour;
    if (s.error) drawErrors(g, c, L, s, k);
    if (LINES.has(s.style)) {
      g.lineWidth = 2;
      g.setLineDash(DASHES[s.style] || []);
      g.beginPath();
      let pen = null;
      for (const p of pts) {
        if (!p) { pen = null; continue; }
        if (!pen) g.moveTo(...p);
        else if (s.style === "step") { g.lineTo(p[0], pen[1]); g.lineTo(...p); } // across, then up
        else g.lineTo(...p);
        pen = p;
      }
      g.stroke();
      g.setLineDash([]);
    }
    if (s.style === "line" || s.style === "points") {
      for (const p of pts) if (p) dot(g, p[0], p[1], s.style === "points" ? 4 : 3);
    }
  });
  c.series.forEach((s, k) => {
    if (s.style !== "diamond") return;
    for (const p of at(s, k)) if (p) diamond(g, p[0], p[1], 6, s.colour);
  });
}

function drawPointLabels(g, c, L) {
  // a line chart's point labels (a series' text) above their points, none on another
  setFont(g, FONT_PX, c.font);
  g.textAlign = "center";
  g.fillStyle = INK;
  const labels = [];
  c.series.forEach((s, k) => {
    if (!s.text || s.style === "bar") return;
    s.values.forEach((v, i) => {
      if (v === null) return;
      const x = xPx(c, L, i, k), y = yPx(c, L, v) - FONT_PX / 2 - 5, w = g.measureText(s.text[i]).width;
      labels.push({ text: s.text[i], x, y, box: { x: x - w / 2 - 1, y: y - FONT_PX / 2, w: w + 2, h: FONT_PX } });
    });
  });
  const drawn = spacedLabels(labels.map((l) => l.box));
  labels.forEach((l, k) => { if (drawn[k]) g.fillText(l.text, l.x, l.y); });
}

function drawMark(g, c, L) {
  // a dotted vertical line at the learner's own x, and its text at the top
  const x = xValuePx(L, c.mark.x);
  g.strokeStyle = MARK;
  g.lineWidth = 1.5;
  g.setLineDash([2, 3]);
  g.beginPath();
  g.moveTo(x, L.top);
  g.lineTo(x, L.top + L.plotH);
  g.stroke();
  g.setLineDash([]);
  setFont(g, FONT_PX, c.font);
  const w = g.measureText(c.mark.text).width, right = x + 4 + w > L.left + L.plotW;
  g.fillStyle = "rgba(255,255,255,0.85)";
  g.fillRect(right ? x - 6 - w : x + 2, L.top + 1, w + 4, FONT_PX + 4);
  g.fillStyle = INK;
  g.textAlign = right ? "right" : "left";
  g.fillText(c.mark.text, right ? x - 4 : x + 4, L.top + FONT_PX / 2 + 3);
}

function drawChartLegend(g, c, L) {
  setFont(g, FONT_PX, c.font);
  g.textAlign = "left";
  L.legend.forEach((row, r) => {
    const y = L.legendY + (r + 0.5) * LEGEND_ROW_PX;
    for (const [s, x] of row) {
      swatch(g, s, L.left + x, y);
      g.fillStyle = INK;
      g.fillText(s.name, L.left + x + SWATCH_PX + 6, y);
    }
  });
}

function drawChart(canvas, c, width) {
  const g = canvas.getContext("2d");
  const L = chartLayout(measurer(g, c.font), c, width);
  blank(canvas, g, width, L.height);
  drawTitle(g, L.titleLines, c.font);
  drawAxes(g, c, L);
  drawXLabels(g, c, L);
  g.save();
  g.beginPath();
  g.rect(L.left, L.top - 8, L.plotW, L.plotH + 16); // a point on the edge keeps its marker
  g.clip();
  if (c.chart === "bars") drawBars(g, c, L);
  if (c.chart === "histogram") drawHistogram(g, c, L);
  drawLines(g, c, L);
  g.restore();
  if (c.chart === "lines") drawPointLabels(g, c, L);
  if (c.mark) drawMark(g, c, L);
  drawChartLegend(g, c, L);
  return L;
}

// How a chart answers the pointer and the keys (js/chart_cells.js): a cell is [position,
// series, or -1 for all].
const CHART = {
  role: "chart",
  start: (box) => startCell(box.chart),
  at: (box, x, y) => cellAt(box.chart, box.layout, x, y),
  clamp: (box, cell) => clampCell(box.chart, cell),
  ring: (box, cell) => cellRing(box.chart, box.layout, cell),
  text: (box, [i, s]) => chartText(box.chart, i, s),
  key: (box, cell, key) => moveCell(box.chart, cell, key),
};

export function kindOf(c) {
  // what a screen reader calls the chart
  if (c.chart === "histogram") return "histogram";
  if (c.equal) return "x-y plane";
  return c.series.some((s) => s.style === "bar") ? "bar chart" : "line chart";
}

export function chartBox(root, c, font, words) {
  // `words`: the page's (js/words.js)
  const box = figureBox(root, CHART, "cg-chart");
  box.chart = { ...c, font, words };
  box.append(pngLink(() => box.querySelector("canvas"), () => fileName(c.title), words));
  return box;
}

export function drawChartBox(box, width) {
  const c = box.chart, canvas = box.querySelector("canvas");
  // in the page's language when it sent them (chart.py `spoken`), else in English
  const kind = kindOf(c);
  canvas.setAttribute("aria-roledescription", c.role || kind);
  canvas.setAttribute("aria-label", c.title);
  canvas.setAttribute("aria-description", c.description || `A ${kind} of ${c.series.length} `
    + `series over ${c.x.title}. The left and right arrow keys move along `
    + `${alone(c) ? "a series" : "it"} and the up and down keys from one series to the next, `
    + "reading each value; the numbers are also in a table on this page.");
  box.layout = drawChart(canvas, c, width);
  const g = canvas.getContext("2d"), L = box.layout;
  canvas.dataset.chart = c.chart;
  canvas.dataset.minFontPx = Number.isFinite(g.minFontPx) ? g.minFontPx : 0;
  canvas.dataset.numberPx = L.numberPx || 0;
  canvas.dataset.minContrast = L.numberPx ? contrast(INK_RGB, WHITE).toFixed(2) : "";
  canvas.dataset.labelPitch = Number.isFinite(L.labelPitch) ? L.labelPitch.toFixed(2) : "";
}
