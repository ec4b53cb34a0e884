// What the hover box and the live region say of a heatmap's cell or a chart's value.

import { fixed, sig, tickText } from "./numbers.js";

export function hoverText(f, i, j) {
  const v = f.values[i * f.shape[1] + j];
  const value = Number.isFinite(v) ? fixed(v, f.decimals) : "-∞ (masked)";
  const lines = [`${f.rowTitle} ${i}: ${f.rows[i]}`, `${f.colTitle} ${j}: ${f.cols[j]}`,
                 `value: ${value}`];
  if (f.small) lines.unshift(f.title.split("   (")[0]);
  if (f.hover) lines.push(f.hover[i][j]);
  return lines.join("\n");
}

export function valueText(c, v) {
  if (v === null) return "−∞ (masked)";
  return c.chart === "lines" ? sig(v) : fixed(v, c.decimals);
}

export function chartText(c, i, s) {
  // what the hover box and the live region say of position i: series s, or all (s = -1)
  const head = c.chart === "bars" ? `${c.x.title} ${i}: ${c.x.labels[i]}`
                                  : `${c.x.title} = ${tickText(c.x.values[i])}`;
  const which = s >= 0 ? [c.series[s]] : c.series;
  const last = c.series.length - 1;
  if (c.stacked && s >= 0 && s !== last) which.push(c.series[last]); // a share, and the sum
  return [head, ...which.map((se) => `${se.name}: ${valueText(c, se.values[i])}`)].join("\n");
}
