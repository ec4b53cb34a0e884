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

test("a histogram's bin reads its ends and each series' count", () => {
  const h = { chart: "histogram", x: { title: "score", edges: [-1, 0.5, 2] },
              series: [{ name: "q·k", values: [12, 3] }, { name: "q·k / √d", values: [40, 0] }] };
  assert.equal(chartText(h, 0, -1), "score from -1 to 0.5\nq·k: 12\nq·k / √d: 40");
});

test("an error bar reads ±; a series of its own x reads its own x", () => {
  const c = { chart: "lines", x: { title: "d", values: [1, 4] },
              series: [{ name: "var", values: [1, 4.1234], error: [0.1, 0.25] },
                       { name: "at your d", values: [3.5], x: [3] }] };
  assert.equal(chartText(c, 1, 0), "d = 4\nvar: 4.123 ± 0.25");
  assert.equal(chartText(c, 0, 1), "d = 3\nat your d: 3.5");
});

test("a point of a plane reads its series, its label, x and y", () => {
  const p = { chart: "lines", equal: true, pointTitle: "position", x: { title: "q_0", values: [] },
              y: { title: "q_1" }, series: [{ name: "q", values: [-0.25], x: [0.123456], text: ["3"] }] };
  assert.equal(chartText(p, 0, 0), "q\nposition 3\nq_0 = 0.1235\nq_1 = -0.25");
});
