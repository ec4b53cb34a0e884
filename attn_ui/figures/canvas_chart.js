// Bar and line charts on <canvas> (chart.py decides what each shows). They are drawn by the
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
//   a log axis), and light grid lines;
// - a keyboard reaches every value: Tab focuses the chart, Left and Right move along the x
//   axis, Up and Down from one series to the next (all of them first, in a line chart), and
//   the hover box and live region read the value out.
// Each canvas records what it drew for the tests, as a heatmap's does: data-min-font-px,
// data-number-px (the bars' numbers, 0 when none), data-min-contrast and data-label-pitch.
// The arithmetic (axes, ticks, where a value lands, the hover's words) has no canvas in it:
// js/chart_layout.js, js/ticks.js and js/hover.js, unit-tested in tests/js.

import { blank, drawTitle, measurer, setFont } from "./js/canvas.js";
import { contrast, INK, INK_RGB, MUTED, WHITE } from "./js/colour.js";
import { chartLayout, LEGEND_ROW_PX, MAX_X_LABEL_PX, numberedBars, segmentAt, SWATCH_PX, xPx,
         yPx } from "./js/chart_layout.js";
import { figureBox, pngLink } from "./js/figure_box.js";
import { chartText } from "./js/hover.js";
import { tickText } from "./js/numbers.js";
import { FONT_PX } from "./js/sizes.js";
import { fileName, fit } from "./js/text.js";

const CHART_GRID = "#e6e8ef", CHART_AXIS = "#8a8d99", MARK = "#555555", MASKED_BAR = "#a0aec0";

function swatch(g, s, x, y) {
  // a series' sign: a square (bars), a line and point, a dashed line, a diamond
  g.fillStyle = g.strokeStyle = s.colour;
  if (s.style === "bar") { g.fillRect(x, y - 6, SWATCH_PX, 12); return; }
  if (s.style === "diamond") { diamond(g, x + SWATCH_PX / 2, y, 6, s.colour); return; }
  g.lineWidth = 2;
  g.setLineDash(s.style === "dash" ? [5, 3] : []);
  g.beginPath();
  g.moveTo(x, y);
  g.lineTo(x + SWATCH_PX, y);
  g.stroke();
  g.setLineDash([]);
  if (s.style === "line") { g.beginPath(); g.arc(x + SWATCH_PX / 2, y, 3, 0, 2 * Math.PI); g.fill(); }
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
    g.fillText(tickText(v), L.left - 6, y);
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
  if (c.chart === "lines") {
    setFont(g, FONT_PX, c.font);
    g.textAlign = "center";
    const xs = L.xa.ticks.map((v) => L.left + (L.plotW * (L.xa.t(v) - L.xa.lo)) / (L.xa.hi - L.xa.lo));
    L.labelPitch = Math.min(...xs.slice(1).map((x, k) => (x - xs[k]
      - (g.measureText(tickText(L.xa.ticks[k])).width + g.measureText(tickText(L.xa.ticks[k + 1])).width) / 2)
      / FONT_PX + 1), Infinity);
    L.xa.ticks.forEach((v, k) => g.fillText(tickText(v), xs[k], y + FONT_PX / 2 + 2));
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
      const y0 = yPx(c, L, base), y1 = yPx(c, L, base + v);
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

function drawLines(g, c, L) {
  for (const s of c.series) {
    if (s.style === "bar" || s.style === "diamond") continue;
    const pts = s.values.map((v, i) => (v === null ? null : [xPx(c, L, i), yPx(c, L, v)]));
    g.strokeStyle = g.fillStyle = s.colour;
    g.lineWidth = 2;
    g.setLineDash(s.style === "dash" ? [6, 4] : []);
    g.beginPath();
    let pen = false;
    for (const p of pts) {
      if (!p) { pen = false; continue; }
      if (pen) g.lineTo(...p); else g.moveTo(...p);
      pen = true;
    }
    g.stroke();
    g.setLineDash([]);
    if (s.style === "line") {
      for (const p of pts) if (p) { g.beginPath(); g.arc(p[0], p[1], 3, 0, 2 * Math.PI); g.fill(); }
    }
  }
  for (const s of c.series) {
    if (s.style !== "diamond") continue;
    s.values.forEach((v, i) => { if (v !== null) diamond(g, xPx(c, L, i), yPx(c, L, v), 6, s.colour); });
  }
}

function drawMark(g, c, L) {
  // a dotted vertical line at the learner's own x, and its text at the top
  const x = L.left + (L.plotW * (L.xa.t(c.mark.x) - L.xa.lo)) / (L.xa.hi - L.xa.lo);
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
  drawLines(g, c, L);
  g.restore();
  if (c.mark) drawMark(g, c, L);
  drawChartLegend(g, c, L);
  return L;
}

// How a chart answers the pointer and the keys: a cell is [position, series or -1 for all].
const CHART = {
  role: "chart",
  start: (box) => [0, box.chart.stacked ? box.chart.series.length - 1 : -1],
  at(box, x, y) {
    const c = box.chart, L = box.layout;
    if (x < L.left || x > L.left + L.plotW || y < L.top - 8 || y > L.top + L.plotH + 8) return null;
    let i;
    if (c.chart === "bars") i = Math.min(L.n - 1, Math.floor((x - L.left) / L.band));
    else { // the nearest point
      const d = c.x.values.map((_, k) => Math.abs(xPx(c, L, k) - x));
      i = d.indexOf(Math.min(...d));
    }
    return [i, c.stacked ? segmentAt(c, L, i, y) : -1];
  },
  clamp(box, [i, s]) {
    const L = box.layout, first = box.chart.stacked ? 0 : -1;
    return [Math.min(L.n - 1, Math.max(0, i)),
            Math.min(box.chart.series.length - 1, Math.max(first, s))];
  },
  ring(box, [i]) {
    const c = box.chart, L = box.layout, x = xPx(c, L, i);
    const w = c.chart === "bars" ? Math.max(4, L.band) : 12;
    return { x: x - w / 2, y: L.top, w, h: L.plotH };
  },
  text: (box, [i, s]) => chartText(box.chart, i, s),
  key(box, [i, s], key) {
    const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (step[key]) return [i + step[key][0], s + step[key][1]];
    if (key === "Home") return [0, s];
    if (key === "End") return [box.layout.n - 1, s];
    return null;
  },
};

export function chartBox(root, c, font) {
  const box = figureBox(root, CHART, "cg-chart");
  box.chart = { ...c, font };
  box.append(pngLink(() => box.querySelector("canvas"), () => fileName(c.title)));
  return box;
}

export function drawChartBox(box, width) {
  const c = box.chart, canvas = box.querySelector("canvas");
  const kind = c.chart === "bars" ? "bar chart" : "line chart";
  canvas.setAttribute("aria-roledescription", kind);
  canvas.setAttribute("aria-label", c.title);
  canvas.setAttribute("aria-description", `A ${kind} of ${c.series.length} series over `
    + `${c.x.title}. The left and right arrow keys move along it and the up and down keys `
    + "from one series to the next, reading each value; the numbers are also in a table "
    + "on this page.");
  box.layout = drawChart(canvas, c, width);
  const g = canvas.getContext("2d"), L = box.layout;
  canvas.dataset.chart = c.chart;
  canvas.dataset.minFontPx = Number.isFinite(g.minFontPx) ? g.minFontPx : 0;
  canvas.dataset.numberPx = L.numberPx || 0;
  canvas.dataset.minContrast = L.numberPx ? contrast(INK_RGB, WHITE).toFixed(2) : "";
  canvas.dataset.labelPitch = Number.isFinite(L.labelPitch) ? L.labelPitch.toFixed(2) : "";
}
