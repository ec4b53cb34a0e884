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
  // down) or side by side, and the other series' points
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
    const values = c.series.flatMap((s) => s.values.filter((v) => v !== null && v > 0));
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
    if (c.chart === "bars") { lo = Math.min(lo, 0); hi = Math.max(hi, 0); } // bars start at 0
    if (hi - lo < 1e-12) { lo -= 0.5; hi += 0.5; }
    const room = (hi - lo) * (c.series.some((s) => s.text) ? 0.15 : 0.05); // for bar numbers
    if (hi > 0 || c.chart === "lines") hi += room;
    if (lo < 0 || c.chart === "lines") lo -= room;
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
  // lines: [low, high] of the x values (log10 on a log axis) with a little room, and ticks
  const t = (v) => (c.x.log ? Math.log10(v) : v);
  const xs = c.x.values.map(t), a = Math.min(...xs), b = Math.max(...xs);
  const room = (b - a || 1) * 0.03;
  let ticks = c.x.ticks;
  if (!ticks) {
    const step = niceStep(b - a || 1, CHART_TICKS); // a linear axis (chart.py ticks a log one)
    ticks = [];
    for (let v = Math.ceil(a / step) * step; v <= b + 1e-9; v += step) ticks.push(v);
  }
  return { lo: a - room, hi: b + room, t, ticks };
}
