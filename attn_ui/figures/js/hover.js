// What the hover box and the live region say of a heatmap's cell or a chart's value, in the
// figure's words (js/words.js: the page's language, else English).

import { alone, seriesX } from "./chart_layout.js";
import { fixed, sig, tickText } from "./numbers.js";
import { say } from "./words.js";

export function hoverText(f, i, j) {
  const v = f.values[i * f.shape[1] + j];
  const value = Number.isFinite(v) ? fixed(v, f.decimals) : say(f.words, "masked", { value: "-∞" });
  const lines = [`${f.rowTitle} ${i}: ${f.rows[i]}`, `${f.colTitle} ${j}: ${f.cols[j]}`,
                 say(f.words, "value", { value })];
  if (f.small) lines.unshift(f.title.split("   (")[0]);
  if (f.hover) lines.push(f.hover[i][j]);
  return lines.join("\n");
}

export function valueText(c, v, error = null) {
  if (v === null) return say(c.words, "masked", { value: "−∞" });
  const text = c.chart === "bars" ? fixed(v, c.decimals) : c.chart === "histogram" ? String(v) : sig(v);
  return error === null ? text : `${text} ± ${sig(error)}`;
}

function head(c, i) {
  // what position i is: a bar's label, a bin's ends, or the x of a line chart
  if (c.chart === "bars") return `${c.x.title} ${i}: ${c.x.labels[i]}`;
  if (c.chart === "histogram") {
    return say(c.words, "bin", { title: c.x.title, low: tickText(c.x.edges[i]),
                                 high: tickText(c.x.edges[i + 1]) });
  }
  return `${c.x.title} = ${tickText(c.x.values[i])}`;
}

function pointText(c, i, s) {
  // one point of a series read on its own: its x and value, or in a plane its x and y
  const se = c.series[s], x = seriesX(c, s)[i];
  const label = se.text ? [`${c.pointTitle || say(c.words, "point")} ${se.text[i]}`] : [];
  if (c.equal) {
    return [se.name, ...label, `${c.x.title} = ${sig(x)}`, `${c.y.title} = ${valueText(c, se.values[i])}`]
      .join("\n");
  }
  const error = se.error ? se.error[i] : null;
  return [`${c.x.title} = ${tickText(x)}`, ...label, `${se.name}: ${valueText(c, se.values[i], error)}`]
    .join("\n");
}

export function chartText(c, i, s) {
  // what the hover box and the live region say of position i: series s, or all (s = -1)
  if (alone(c)) return pointText(c, i, s);
  const which = s >= 0 ? [c.series[s]] : c.series;
  const last = c.series.length - 1;
  if (c.stacked && s >= 0 && s !== last) which.push(c.series[last]); // a share, and the sum
  const said = which.map((se) => `${se.name}: ${valueText(c, se.values[i], se.error ? se.error[i] : null)}`);
  return [head(c, i), ...said].join("\n");
}
