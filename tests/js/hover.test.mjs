// js/hover.js: what the hover box and the live region say.
import assert from "node:assert/strict";
import test from "node:test";

import { chartText, hoverText, valueText } from "../../attn_ui/figures/js/hover.js";

const f = {
  title: "S = Q Kᵀ   (2 × 2)", rowTitle: "query", colTitle: "key", rows: ["the", "cat"],
  cols: ["the", "cat"], shape: [2, 2], decimals: 2, values: [1.234, -Infinity, -0.001, 2],
};

test("a cell's hover names its row, column and value; a masked one says so", () => {
  assert.equal(hoverText(f, 0, 0), "query 0: the\nkey 0: the\nvalue: 1.23");
  assert.equal(hoverText(f, 0, 1), "query 0: the\nkey 1: cat\nvalue: -∞ (masked)");
  assert.equal(hoverText(f, 1, 0).split("\n")[2], "value: 0.00"); // never -0.00
});

test("a small figure's hover starts with its title; extra hover text comes last", () => {
  const lines = hoverText({ ...f, small: true, hover: [["a", "b"], ["c", "q1·k1 = 2"]] }, 1, 1).split("\n");
  assert.equal(lines[0], "S = Q Kᵀ");
  assert.equal(lines.at(-1), "q1·k1 = 2");
});

const bars = {
  chart: "bars", decimals: 2, stacked: true, x: { title: "token", labels: ["the", "cat"] },
  series: [{ name: "head 0", values: [0.25, null] }, { name: "head 1", values: [0.5, 0.125] },
           { name: "sum", values: [0.75, 0.125] }],
};

test("a stacked bar's share is read with the sum; the sum and all series alone", () => {
  assert.equal(chartText(bars, 0, 0), "token 0: the\nhead 0: 0.25\nsum: 0.75");
  assert.equal(chartText(bars, 1, 2), "token 1: cat\nsum: 0.13");
  assert.equal(chartText(bars, 1, -1).split("\n").length, 4);
  assert.equal(bars.series.length, 3); // reading never adds to the chart's series
});

test("a masked value reads −∞; a line chart's x and values keep their digits", () => {
  assert.equal(valueText(bars, null), "−∞ (masked)");
  const lines = { chart: "lines", x: { title: "d_k", values: [0.1 + 0.2] },
                  series: [{ name: "std", values: [Math.PI] }] };
  assert.equal(chartText(lines, 0, -1), "d_k = 0.3\nstd: 3.142");
});
