// Which value of a chart the pointer or the keyboard is on. A cell is [i, s]: position i of
// series s, or of every series at once (s = -1) where they share their positions: the bars
// of a position, the bins of a histogram, the lines of one x. In a line chart whose series
// have x values of their own (a fit over some of the x, a mark at one point, a path in a
// plane) each series is read on its own, and Up and Down go to the next series' nearest x.

import { alone, count, segmentAt, seriesX, xPx, xValuePx, yPx } from "./chart_layout.js";

export const MARGIN_PX = 8; // the pointer finds a value this far outside the plot area

export function nearest(values, v, t = (x) => x) {
  // the index of the value nearest v (nulls skipped), measured after t (log10 on a log axis)
  let best = -1, gap = Infinity;
  values.forEach((x, k) => {
    if (x === null) return;
    const d = Math.abs(t(x) - t(v));
    if (d < gap) { gap = d; best = k; }
  });
  return best;
}

export function startCell(c) {
  // where the keyboard starts: a stacked bar's sum, every series at the first x, or the
  // first series' first point
  if (c.stacked) return [0, c.series.length - 1];
  return [0, alone(c) ? 0 : -1];
}

export function clampCell(c, [i, s]) {
  const first = c.stacked || alone(c) ? 0 : -1;
  s = Math.min(c.series.length - 1, Math.max(first, s));
  return [Math.min(count(c, s) - 1, Math.max(0, i)), s];
}

export function moveCell(c, [i, s], key) {
  // Left and Right move along the x axis, Up and Down from one series to the next (in a
  // chart read series by series, to the new series' point nearest the same x), Home and
  // End to the ends; any other key: null
  if (key === "ArrowLeft") return clampCell(c, [i - 1, s]);
  if (key === "ArrowRight") return clampCell(c, [i + 1, s]);
  if (key === "Home") return clampCell(c, [0, s]);
  if (key === "End") return clampCell(c, [count(c, s) - 1, s]);
  if (key !== "ArrowUp" && key !== "ArrowDown") return null;
  const [, next] = clampCell(c, [0, s + (key === "ArrowDown" ? 1 : -1)]);
  if (!alone(c) || next === s) return clampCell(c, [i, next]);
  const t = c.x.log ? Math.log10 : (x) => x;
  return [nearest(seriesX(c, next), seriesX(c, s)[i], t), next];
}

export function cellAt(c, L, x, y) {
  // the cell under the pointer at (x, y) on the canvas, or null outside the plot area
  if (x < L.left - MARGIN_PX || x > L.left + L.plotW + MARGIN_PX
      || y < L.top - MARGIN_PX || y > L.top + L.plotH + MARGIN_PX) return null;
  if (c.chart === "bars") {
    const i = Math.min(L.n - 1, Math.max(0, Math.floor((x - L.left) / L.band)));
    return [i, c.stacked ? segmentAt(c, L, i, y) : -1];
  }
  if (c.chart === "histogram") {
    const ends = c.x.edges.map((e) => xValuePx(L, e)), n = count(c, -1);
    const i = ends.findIndex((e) => e > x) - 1; // -1: left of the first edge, -2: right of all
    return [i === -2 ? n - 1 : Math.max(0, i), -1];
  }
  if (!alone(c)) return [nearest(c.x.values.map((_, k) => xPx(c, L, k)), x), -1];
  let best = null, gap = Infinity; // the nearest point of any series
  c.series.forEach((s, k) => s.values.forEach((v, i) => {
    if (v === null) return;
    const d = Math.hypot(xPx(c, L, i, k) - x, yPx(c, L, v) - y);
    if (d < gap) { gap = d; best = [i, k]; }
  }));
  return best;
}

export function cellRing(c, L, [i, s]) {
  // the outline of a focused cell: a bar's band, a bin, an x's strip, or a point's square
  if (c.chart === "bars") {
    const w = Math.max(4, L.band);
    return { x: xPx(c, L, i) - w / 2, y: L.top, w, h: L.plotH };
  }
  if (c.chart === "histogram") {
    const a = xValuePx(L, c.x.edges[i]), b = xValuePx(L, c.x.edges[i + 1]);
    const w = Math.max(4, b - a);
    return { x: (a + b) / 2 - w / 2, y: L.top, w, h: L.plotH };
  }
  if (!alone(c)) return { x: xPx(c, L, i) - 6, y: L.top, w: 12, h: L.plotH };
  const v = c.series[s].values[i], y = v === null ? L.top + L.plotH / 2 : yPx(c, L, v);
  return { x: xPx(c, L, i, s) - 8, y: y - 8, w: 16, h: 16 };
}
