// js/chart_layout.js: where a chart's axes, labels and legend go, and where a value lands,
// measured with a stand-in for the canvas (every character 0.6 of the type size wide).
import assert from "node:assert/strict";
import test from "node:test";

import { chartLayout, legendRows, numberedBars, segmentAt, spacedLabels, xPx, yPx }
  from "../../attn_ui/figures/js/chart_layout.js";
import { FONT_PX, TURNED_FONT_PX, TURNED_GAP_PX } from "../../attn_ui/figures/js/sizes.js";
import { tickText } from "../../attn_ui/figures/js/numbers.js";

const measure = (text, px) => [...text].length * px * 0.6;
const bars = (labels, fields = {}) => ({
  chart: "bars", title: "Weights of the query", height: 200, y: {}, legend: false,
  x: { title: "key", labels }, series: [{ style: "bar", name: "w", values: labels.map(() => 0.5) }],
  ...fields,
});

test("the legend's items go in rows that fit the width", () => {
  const items = ["softmax", "exp", "weights"].map((name) => ({ name }));
  const rows = legendRows((s) => 6 * s.length, items, 200); // 82, 58 and 82 px wide
  assert.deepEqual(rows.map((row) => row.map(([s, x]) => [s.name, x])),
                   [[["softmax", 0], ["exp", 82]], [["weights", 0]]]);
  assert.deepEqual(legendRows((s) => 6 * s.length, [], 200), []);
});

test("short bar labels stand upright under their bars, in 12 px type", () => {
  const L = chartLayout(measure, bars(["the", "cat", "sat"]), 600);
  assert.equal(L.upright, true);
  assert.equal(L.labelPx, FONT_PX);
  assert.equal(L.every, 1);
});

test("crowded bar labels are turned, in 11 px type, every k-th, at least 11 px apart", () => {
  const labels = Array.from({ length: 40 }, (_, i) => `token_${i}`);
  const L = chartLayout(measure, bars(labels), 300);
  assert.equal(L.upright, false);
  assert.equal(L.labelPx, TURNED_FONT_PX);
  assert.ok(L.every * L.band >= TURNED_GAP_PX);
  assert.ok((L.every - 1) * L.band < TURNED_GAP_PX); // and no sparser than that needs
});

test("the value axis leaves room for its widest tick label", () => {
  const c = bars(["a", "b"], { series: [{ style: "bar", name: "w", values: [-1234.5, 20] }] });
  const L = chartLayout(measure, c, 600);
  const widest = Math.max(...L.yticks.map((v) => measure(tickText(v), FONT_PX)));
  assert.equal(L.left, FONT_PX + 8 + widest + 8);
});

test("a legend adds a row of height for each row of items", () => {
  const series = Array.from({ length: 6 }, (_, k) => ({ style: "line", name: `head ${k} weights`,
                                                        values: [1, 2] }));
  const c = { chart: "lines", title: "t", height: 150, y: {}, legend: true,
              x: { title: "x", values: [1, 2] }, series };
  const wide = chartLayout(measure, c, 1400), narrow = chartLayout(measure, c, 300);
  assert.equal(wide.legend.length, 1);
  assert.ok(narrow.legend.length > 1);
  assert.equal(narrow.height - wide.height, (narrow.legend.length - 1) * 20);
});

test("values land where the axis says: the top is high, a log axis spaces decades evenly", () => {
  const c = { chart: "lines", y: {} }, L = { top: 10, plotH: 100, ylo: -1, yhi: 1 };
  assert.equal(yPx(c, L, 1), 10);
  assert.equal(yPx(c, L, -1), 110);
  assert.equal(yPx(c, L, 0), 60);
  const log = { chart: "lines", y: { log: true } }, LL = { top: 0, plotH: 90, ylo: 1, yhi: 1000 };
  assert.ok(Math.abs(yPx(log, LL, 10) - 60) < 1e-9);
  assert.ok(Math.abs(yPx(log, LL, 100) - 30) < 1e-9);
});

test("a bar sits at the centre of its band; a line's point at its x value", () => {
  assert.equal(xPx({ chart: "bars" }, { left: 40, band: 20 }, 2), 90);
  const L = { left: 0, plotW: 100, xa: { lo: 0, hi: 10, t: (v) => v } };
  assert.equal(xPx({ chart: "lines", x: { values: [0, 2.5, 10] } }, L, 1), 25);
});

test("a series' numbers go on all its bars or none, and never on stacked bars", () => {
  const width = (s) => 7 * s.length;
  const series = [{ style: "bar", text: ["0.25", "1.5"] }, { style: "bar", text: ["0.125", "1"] },
                  { style: "bar" }];
  assert.deepEqual(numberedBars(width, {}, series, 32), [true, false, false]); // 28, 35 px
  assert.deepEqual(numberedBars(width, {}, series, 33), [true, true, false]); // 2 px to spare
  assert.deepEqual(numberedBars(width, { stacked: true }, series, 100), [false, false, false]);
});

test("the pointer's height picks a stacked share, up for positive and down for negative", () => {
  const c = { y: {}, series: [{ style: "bar", values: [0.25, -0.5] }, { style: "bar", values: [0.5, 0.5] },
                              { style: "diamond", name: "sum", values: [0.75, 0] }] };
  const L = { top: 0, plotH: 100, ylo: -1, yhi: 1 }; // y = 50 is 0, 1 px is 0.02
  assert.equal(segmentAt(c, L, 0, 45), 0); // 0.1: the first share (0 .. 0.25)
  assert.equal(segmentAt(c, L, 0, 25), 1); // 0.5: the second (0.25 .. 0.75)
  assert.equal(segmentAt(c, L, 0, 5), 2); // above the stack: the sum
  assert.equal(segmentAt(c, L, 1, 60), 0); // -0.2: the negative share, below 0
  assert.equal(segmentAt(c, L, 1, 40), 1);
});

test("a plane keeps a unit as long across as up; a series kept out of the legend is", () => {
  const c = { chart: "lines", title: "Pair 0", height: 300, equal: true, legend: true,
              y: { range: [-1, 1] }, x: { title: "q_0", values: [], range: [-1, 1] },
              series: [{ style: "curve", name: "circle", legend: false, values: [0], x: [1] },
                       { style: "points", name: "q", values: [0.5], x: [0.5] }] };
  const wide = chartLayout(measure, c, 1400), narrow = chartLayout(measure, c, 250);
  assert.equal(wide.plotW, 300);
  assert.equal(wide.plotH, 300);
  assert.equal(narrow.plotW, narrow.plotH);
  assert.ok(narrow.plotW < 250);
  assert.deepEqual(wide.legend.flat().map(([s]) => s.name), ["q"]);
});

test("a series of its own x lands at its x; a histogram's bin at its middle", () => {
  const c = { chart: "lines", x: { values: [0, 10] }, series: [{ values: [1, 2] }, { values: [3], x: [5] }] };
  const L = { left: 0, plotW: 100, xa: { lo: 0, hi: 10, t: (v) => v } };
  assert.equal(xPx(c, L, 1), 100);
  assert.equal(xPx(c, L, 0, 1), 50);
  assert.equal(xPx({ chart: "histogram", x: { edges: [0, 2, 10] } }, L, 1), 60);
});

test("point labels are drawn only where they overlap none drawn before them", () => {
  const box = (x, y) => ({ x, y, w: 10, h: 12 });
  assert.deepEqual(spacedLabels([box(0, 0), box(5, 5), box(10, 0), box(12, 30), box(0, 11)]),
                   [true, false, true, true, false]);
});
