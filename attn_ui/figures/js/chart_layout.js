// Where everything of a bar, line or histogram chart goes (the pixel rules: canvas_chart.js),
// and where a value lands on it. `measure(text, px)` is the width of text in px-sized type of
// the chart's font (canvas.js `measurer`; the tests give their own), so nothing here needs a
// canvas.

import { axisText } from "./numbers.js";
import { FONT_PX, TITLE_LINE_PX, TITLE_PX, TURNED_FONT_PX, TURNED_GAP_PX } from "./sizes.js";
import { wrap } from "./text.js";
import { valueAxis, xAxis } from "./ticks.js";

export const LEGEND_ROW_PX = 20;
export const SWATCH_PX = 18; // a series' sign in the legend
export const MAX_X_LABEL_PX = 120; // a longer bar label is cut, with "…"

export function legendRows(textWidth, items, width) {
  // the legend's items in rows that fit `width`: [[item, x], ...] per row
  const rows = [[]];
  let x = 0;
  for (const s of items) {
    const w = SWATCH_PX + 6 + textWidth(s.name) + 16;
    if (x > 0 && x + w > width) { rows.push([]); x = 0; }
    rows[rows.length - 1].push([s, x]);
    x += w;
  }
  return items.length ? rows : [];
}

export function chartLayout(measure, c, width) {
  // the PNG link on the right
  const titleLines = wrap((s) => measure(s, TITLE_PX), c.title, Math.max(60, width - 40));
  const textWidth = (s) => measure(s, FONT_PX);
  const [ylo, yhi, yticks] = valueAxis(c);
  const tickW = Math.max(...yticks.map((v) => textWidth(axisText(v, c.y.log))), 10);
  const left = FONT_PX + 8 + tickW + 8, right = 12;
  let plotW = Math.max(40, width - left - right), plotH = c.height;
  if (c.equal) plotW = plotH = Math.min(plotW, plotH); // an x-y plane: a unit is as long both ways
  const top = titleLines.length * TITLE_LINE_PX + 12;
  const L = { titleLines, left, top, plotW, plotH, ylo, yhi, yticks, width };
  if (c.chart === "bars") {
    const n = c.x.labels.length, band = plotW / n;
    const widest = Math.min(MAX_X_LABEL_PX, Math.max(...c.x.labels.map(textWidth), 1));
    const upright = widest <= band - 4;
    const px = upright || band >= 12 ? FONT_PX : TURNED_FONT_PX;
    Object.assign(L, { n, band, upright, labelPx: px,
                       every: upright ? 1 : Math.max(1, Math.ceil(Math.max(TURNED_GAP_PX, px) / band)),
                       labelH: upright ? FONT_PX + 8 : widest + 10 });
  } else {
    const n = c.chart === "histogram" ? c.x.edges.length - 1 : c.x.values.length;
    Object.assign(L, { n, xa: xAxis(c), upright: true, labelH: FONT_PX + 8 });
  }
  const named = c.legend ? c.series.filter((s) => s.legend !== false) : [];
  L.legend = legendRows(textWidth, named, width - left);
  L.xTitleY = top + plotH + L.labelH + FONT_PX / 2 + 2;
  L.legendY = L.xTitleY + FONT_PX / 2 + 10;
  L.height = L.legendY + L.legend.length * LEGEND_ROW_PX + 4;
  return L;
}

export function yPx(c, L, v) {
  const f = c.y.log ? (Math.log10(v) - Math.log10(L.ylo)) / (Math.log10(L.yhi) - Math.log10(L.ylo))
                    : (v - L.ylo) / (L.yhi - L.ylo);
  return L.top + L.plotH * (1 - f);
}

export function alone(c) {
  // whether each series is read on its own: a line chart whose series have their own x
  return c.chart === "lines" && c.series.some((s) => s.x);
}

export function count(c, s) {
  // how many positions series s has (s = -1: the positions the series share)
  if (c.chart === "bars") return c.x.labels.length;
  if (c.chart === "histogram") return c.x.edges.length - 1;
  return seriesX(c, s).length;
}

export function seriesX(c, s) {
  // the x values of series s: its own (a line chart's fit, mark or path), else the chart's
  return (s >= 0 && c.series[s].x) || c.x.values;
}

export function xValuePx(L, v) {
  // where the number v lands on a numeric x axis (lines, histograms)
  const a = L.xa;
  return L.left + (L.plotW * (a.t(v) - a.lo)) / (a.hi - a.lo);
}

export function xPx(c, L, i, s = -1) {
  // the centre of position i: a bar's band, a bin's middle, or series s's x value
  if (c.chart === "bars") return L.left + (i + 0.5) * L.band;
  if (c.chart === "histogram") return (xValuePx(L, c.x.edges[i]) + xValuePx(L, c.x.edges[i + 1])) / 2;
  return xValuePx(L, seriesX(c, s)[i]);
}

export function numberedBars(textWidth, c, bars, w) {
  // for each of the `bars` (series), whether its numbers are drawn: on all its bars or on
  // none (a missing number would read as a gap), and only on side by side bars at least as
  // wide as every number, less 2 px. `textWidth`: a number's width in the bars' type.
  return bars.map((s) => Boolean(s.text) && !c.stacked
    && Math.max(...s.text.map((t) => textWidth(t))) <= w + 2);
}

export function segmentAt(c, L, i, y) {
  // the stacked share of position i under the pointer's height y, or the sum (last series)
  let up = 0, down = 0;
  for (let k = 0; k < c.series.length; k++) {
    const s = c.series[k], v = s.values[i];
    if (s.style !== "bar" || v === null) continue;
    const base = v >= 0 ? up : down;
    if (v >= 0) up += v; else down += v;
    const [a, b] = [yPx(c, L, base), yPx(c, L, base + v)].sort((p, q) => p - q);
    if (y >= a && y <= b) return k;
  }
  return c.series.length - 1;
}

export function spacedLabels(boxes) {
  // which of the point labels (boxes {x, y, w, h}, in drawing order) to draw: each one that
  // overlaps none drawn before it (the hover and the keys still name every point)
  const drawn = [];
  return boxes.map((b) => {
    const free = drawn.every((d) => b.x >= d.x + d.w || d.x >= b.x + b.w
                                    || b.y >= d.y + d.h || d.y >= b.y + b.h);
    if (free) drawn.push(b);
    return free;
  });
}
