// js/grid_layout.js: where a heatmap's cells, labels and numbers go, measured with a
// stand-in for the canvas (every character 0.6 of the type size wide).
import assert from "node:assert/strict";
import test from "node:test";

import { cellNumbers, cellText, layout, MAX_CELL_W, MAX_LABEL_PX, MIN_COL_PX, rowHeight }
  from "../../attn_ui/figures/js/grid_layout.js";
import { FONT_PX, TITLE_PX } from "../../attn_ui/figures/js/sizes.js";

const measure = (text, px) => [...text].length * px * 0.6;
const heatmap = (n, m, fields = {}) => ({
  shape: [n, m], title: `X   (${n} × ${m})`, prefix: null, small: false,
  rows: Array.from({ length: n }, (_, i) => `t${i}`),
  cols: Array.from({ length: m }, (_, j) => `k${j}`), ...fields,
});

test("rows are 24 px down to 12 px, all labelled; a longer axis shares 600 px", () => {
  assert.equal(rowHeight(5), 24);
  assert.equal(rowHeight(40), 15);
  assert.equal(rowHeight(66), 12); // 64 tokens, [CLS], [SEP]: still 12 px, labelled
  assert.equal(rowHeight(384), 600 / 384); // 384 features: 600 px in all
});

test("columns are at most 80 px wide, and the figure then fits its box", () => {
  const L = layout(measure, heatmap(3, 3), 1400);
  assert.equal(L.cellW, MAX_CELL_W);
  assert.equal(L.width, 1400);
  assert.ok(!L.titleLines.some((line) => line.startsWith("scroll")));
});

test("384 features in 600 px keep 2 px columns: the figure grows, scrolls and says so", () => {
  const f = heatmap(5, 384, { prefix: "f", cols: Array.from({ length: 384 }, (_, j) => `f${j}`) });
  const L = layout(measure, f, 600);
  assert.equal(L.cellW, MIN_COL_PX);
  assert.equal(L.width, Math.ceil(L.left + 384 * MIN_COL_PX + 12));
  assert.ok(L.width > 600);
  assert.equal(L.titleLines.at(-1), "scroll sideways: all 384 columns");
  assert.ok(L.ruler && L.upright); // numbered features: a ruler of upright labels
});

test("labels wider than their columns are turned, with room below for the longest", () => {
  const words = ["attention", "is", "all", "you", "need", "tonight"];
  const L = layout(measure, heatmap(6, 6, { cols: words }), 300);
  assert.equal(L.upright, false);
  assert.ok(Math.abs(L.axisY - L.colLabelY - (measure("attention", FONT_PX) + 8)) < 1e-9);
  const upright = layout(measure, heatmap(6, 6, { cols: words }), 1400);
  assert.equal(upright.upright, true);
});

test("a turned label longer than 200 px gets 200 px (it is cut to fit)", () => {
  const long = "x".repeat(60);
  const L = layout(measure, heatmap(2, 2, { cols: [long, long] }), 300);
  assert.equal(L.axisY - L.colLabelY, MAX_LABEL_PX + 8);
});

test("on a phone the row labels take at most 35% of the width", () => {
  const f = heatmap(2, 4, { rows: ["a".repeat(40), "b"] });
  const L = layout(measure, f, 390);
  assert.equal(L.rowLabelMax, 390 * 0.35);
  assert.equal(L.left, 390 * 0.35 + 10 + FONT_PX + 8);
});

test("the title wraps to the width less the PNG link's room", () => {
  const f = heatmap(4, 4, { title: "A = softmax(S × 0.354) by row, the weights   (4 × 4)" });
  const L = layout(measure, f, 300);
  assert.ok(L.titleLines.length > 1);
  for (const line of L.titleLines) assert.ok(measure(line, TITLE_PX) <= 260, line);
  assert.equal(L.top, L.titleLines.length * 19 + 12);
});

test("a small figure of a grid is square cells and nothing else", () => {
  const L = layout(measure, heatmap(4, 8, { small: true }), 80);
  assert.deepEqual([L.left, L.top, L.cellW, L.cellH, L.height], [0, 0, 10, 10, 40]);
});

const width7 = (s) => 7 * [...s].length;
const numbered = (values, fields = {}) => ({ numbers: true, unit: false, decimals: 2,
                                             values: Float64Array.from(values), ...fields });

test("cell numbers are written as drawn: weights as .08 and 1, masked as -∞", () => {
  const text = cellText({ unit: true, decimals: 2 });
  assert.deepEqual([0.08, 1, -Infinity].map(text), [".08", "1", "-∞"]);
  assert.equal(cellText({ unit: false, decimals: 1 })(-0.01), "0.0");
});

test("numbers go on every cell or none: the widest must fit, in a cell 14 px high", () => {
  const f = numbered([0.5, -123.456, -Infinity]); // "-123.46" is the widest: 49 px
  assert.deepEqual(cellNumbers(width7, f, { cellW: 53, cellH: 24 }), { numbers: true, widest: 49 });
  assert.equal(cellNumbers(width7, f, { cellW: 52, cellH: 24 }).numbers, false);
  assert.equal(cellNumbers(width7, f, { cellW: 80, cellH: 13 }).numbers, false);
  assert.deepEqual(cellNumbers(width7, numbered([1], { numbers: false }), { cellW: 80, cellH: 24 }),
                   { numbers: false, widest: 0 });
});
