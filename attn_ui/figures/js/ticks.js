// Where the ticks and labels of an axis go: a ruler's every 1, 2, 5, 10, ... (numbered
// features) and a chart's value axis at 1, 2 or 5 times a power of 10 (powers of 10 on a
// log axis), about CHART_TICKS of them.

const CHART_TICKS = 5;

export function rulerStep(cellPx, gapPx) {
  // the smallest of 1, 2, 5, 10, 20, 50, ... that puts labels gapPx apart
  for (let p = 1; ; p *= 10) {
    for (const s of [1, 2, 5]) if (s * p * cellPx >= gapPx) return s * p;
  }
}

export function niceStep(span, n) {
  // the smallest of 1, 2, 5 times a power of 10 that cuts `span` into at most `n` steps
  const p = 10 ** Math.floor(Math.log10(span / n));
  for (const s of [1, 2, 5, 10]) if (s * p * n >= span) return s * p;
  return 10 * p;
}

export function stackEnds(c) {
  // each position's lowest and highest point: bars stacked (positive shares up, negative
  // down) or side by side, and the other series' points with their error bars; a line
  // chart's series may each have an x (and a length) of their own
  if (c.chart === "lines" || c.chart === "histogram") {
    const ends = c.series.flatMap((s) => s.values.flatMap((v, i) => (v === null ? []
      : s.error ? [v - s.error[i], v + s.error[i]] : [v])));
    return ends.length ? [Math.min(...ends), Math.max(...ends)] : [Infinity, -Infinity];
  }
  const n = c.series[0].values.length, lo = Array(n).fill(Infinity), hi = Array(n).fill(-Infinity);
  for (let i = 0; i < n; i++) {
    let up = 0, down = 0;
    for (const s of c.series) {
      const v = s.values[i];
      if (v === null) { lo[i] = Math.min(lo[i], 0); hi[i] = Math.max(hi[i], 0); continue; }
      if (c.stacked && s.style === "bar") { if (v >= 0) up += v; else down += v; continue; }
      lo[i] = Math.min(lo[i], v);
      hi[i] = Math.max(hi[i], v);
    }
    if (c.stacked) { lo[i] = Math.min(lo[i], down); hi[i] = Math.max(hi[i], up); }
  }
  return [Math.min(...lo), Math.max(...hi)];
}

export function valueAxis(c) {
  // [low, high, ticks] of the value axis
  if (c.y.log) {
    // the values and the ends of their error bars; an error bar's end at or below 0 is cut
    const values = c.series.flatMap((s) => s.values.flatMap((v, i) => (v === null ? []
      : s.error ? [v - s.error[i], v, v + s.error[i]] : [v]))).filter((v) => v > 0);
    const [a, b] = c.y.range || [Math.min(...values), Math.max(...values)];
    const lo = Math.floor(Math.log10(a)), hi = Math.max(lo + 1, Math.ceil(Math.log10(b)));
    const every = Math.ceil((hi - lo + 1) / (CHART_TICKS + 2));
    const ticks = [];
    for (let k = lo; k <= hi; k += every) ticks.push(10 ** k);
    return [10 ** lo, 10 ** hi, ticks];
  }
  let lo, hi;
  if (c.y.range) [lo, hi] = c.y.range;
  else {
    [lo, hi] = stackEnds(c);
    if (!Number.isFinite(lo)) [lo, hi] = [0, 1];
    // bars start at 0, and so do lines whose y counts up from 0 (a weight, a norm)
    const fromZero = c.chart !== "lines" || c.y.zero;
    if (fromZero) { lo = Math.min(lo, 0); hi = Math.max(hi, 0); }
    if (hi - lo < 1e-12) { lo -= 0.5; hi += 0.5; }
    const room = (hi - lo) * (c.series.some((s) => s.text) ? 0.15 : 0.05); // for bar numbers
    if (hi > 0 || !fromZero) hi += room;
    // room below too, but never below 0 for values that are never negative
    if (lo < 0 || !fromZero) lo = lo >= 0 ? Math.max(0, lo - room) : lo - room;
  }
  const step = niceStep(hi - lo, CHART_TICKS);
  if (!c.y.range) { lo = Math.floor(lo / step + 1e-9) * step; hi = Math.ceil(hi / step - 1e-9) * step; }
  const ticks = [];
  for (let v = Math.ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) {
    ticks.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  }
  return [lo, hi, ticks];
}

export function xAxis(c) {
  // a numeric x axis (lines, histograms): [low, high] of the x values (log10 on a log axis)
  // with a little room, or the chart's range, and ticks; the learner's mark is inside
  const t = (v) => (c.x.log ? Math.log10(v) : v);
  let a, b, room;
  if (c.x.range) {
    [a, b] = c.x.range.map(t);
    room = 0;
  } else {
    const own = (c.series || []).flatMap((s) => s.x || []);
    const xs = [...(c.x.edges || c.x.values), ...own, ...(c.mark ? [c.mark.x] : [])].map(t);
    a = Math.min(...xs);
    b = Math.max(...xs);
    room = c.x.edges ? 0 : (b - a || 1) * 0.03; // a histogram's bars reach its edges
  }
  let ticks = c.x.ticks;
  if (!ticks) {
    const step = niceStep(b - a || 1, CHART_TICKS); // a linear axis (chart.py ticks a log one)
    ticks = [];
    for (let v = Math.ceil(a / step - 1e-9) * step; v <= b + step * 1e-9; v += step) {
      ticks.push(Math.abs(v) < step * 1e-9 ? 0 : v);
    }
  }
  return { lo: a - room, hi: b + room, t, ticks };
}
