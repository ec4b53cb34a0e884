// Where everything of a bar or line chart goes (the pixel rules: canvas_chart.js), and where
// a value lands on it. `measure(text, px)` is the width of text in px-sized type of the
// chart's font (canvas.js `measurer`; the tests give their own), so nothing here needs a
// canvas.

import { tickText } from "./numbers.js";
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
  const tickW = Math.max(...yticks.map((v) => textWidth(tickText(v))), 10);
  const left = FONT_PX + 8 + tickW + 8, right = 12;
  const plotW = Math.max(40, width - left - right), plotH = c.height;
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
    Object.assign(L, { n: c.x.values.length, xa: xAxis(c), upright: true, labelH: FONT_PX + 8 });
  }
  L.legend = legendRows(textWidth, c.legend ? c.series : [], width - left);
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

export function xPx(c, L, i) {
  // the centre of position i: a bar's band, or a line's x value
  if (c.chart === "bars") return L.left + (i + 0.5) * L.band;
  const a = L.xa, v = a.t(c.x.values[i]);
  return L.left + (L.plotW * (v - a.lo)) / (a.hi - a.lo);
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
