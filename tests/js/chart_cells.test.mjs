// js/chart_cells.js: which value the pointer or a key is on, in every kind of chart.
import assert from "node:assert/strict";
import test from "node:test";

import { cellAt, cellRing, clampCell, moveCell, nearest, startCell }
  from "../../attn_ui/figures/js/chart_cells.js";

const line = (name, values, fields = {}) => ({ name, style: "line", values, ...fields });
// a sweep of three x shared by two lines, a fit over the last two and a mark at x = 3
const fitted = {
  chart: "lines", y: {}, x: { title: "T", values: [1, 2, 4] },
  series: [line("a", [1, 2, 4]), line("b", [2, 2, 2]), line("fit", [2, 4], { x: [2, 4] }),
           line("yours", [3], { x: [3], style: "diamond" })],
};
const shared = { ...fitted, series: fitted.series.slice(0, 2) };

test("nearest finds the closest value, after a log if asked, skipping nulls", () => {
  assert.equal(nearest([1, 10, 100], 40), 1);
  assert.equal(nearest([1, 10, 100], 40, Math.log10), 2); // 40 is nearer 100 in decades
  assert.equal(nearest([null, 5, 9], 0), 1);
});

test("shared positions start with every series; series of their own x one by one", () => {
  assert.deepEqual(startCell(shared), [0, -1]);
  assert.deepEqual(startCell(fitted), [0, 0]);
  assert.deepEqual(startCell({ ...shared, chart: "bars", stacked: true }), [0, 1]); // the sum
});

test("the keys walk along a series and to the next series' nearest x", () => {
  assert.deepEqual(moveCell(fitted, [2, 0], "ArrowDown"), [2, 1]);
  assert.deepEqual(moveCell(fitted, [2, 1], "ArrowDown"), [1, 2]); // x = 4 is the fit's 2nd point
  assert.deepEqual(moveCell(fitted, [1, 2], "ArrowDown"), [0, 3]); // its only point
  assert.deepEqual(moveCell(fitted, [0, 3], "ArrowDown"), [0, 3]); // the last series stays
  assert.deepEqual(moveCell(fitted, [0, 2], "ArrowRight"), [1, 2]);
  assert.deepEqual(moveCell(fitted, [1, 2], "ArrowRight"), [1, 2]); // the fit has two points
  assert.deepEqual(moveCell(fitted, [0, 0], "End"), [2, 0]);
  assert.deepEqual(moveCell(fitted, [0, 0], "ArrowUp"), [0, 0]); // no "all" to go up to
  assert.equal(moveCell(fitted, [0, 0], "a"), null);
});

test("where series share positions, Up from the first goes to all of them", () => {
  assert.deepEqual(moveCell(shared, [1, 0], "ArrowUp"), [1, -1]);
  assert.deepEqual(moveCell(shared, [1, -1], "ArrowUp"), [1, -1]);
  assert.deepEqual(clampCell(shared, [9, 7]), [2, 1]);
});

const L = { left: 0, top: 0, plotW: 100, plotH: 100, ylo: 0, yhi: 5,
            xa: { lo: 0, hi: 5, t: (v) => v } }; // 20 px per unit both ways

test("the pointer finds the nearest point of any series, or the nearest shared x", () => {
  assert.deepEqual(cellAt(fitted, L, 60, 40), [0, 3]); // the mark at (3, 3): (60, 40)
  assert.deepEqual(cellAt(fitted, L, 80, 20), [2, 0]); // (4, 4): "a" and the fit meet; the first
  assert.deepEqual(cellAt(shared, L, 70, 90), [2, -1]); // x = 3.5 is nearest 4
  assert.equal(cellAt(shared, L, 150, 50), null); // outside the plot
});

const hist = { chart: "histogram", y: {}, x: { title: "score", edges: [0, 1, 2, 4] },
               series: [{ name: "a", values: [3, 0, 1] }] };

test("a histogram's pointer finds the bin it is over; its ring spans the bin", () => {
  assert.deepEqual(cellAt(hist, L, 30, 50), [1, -1]); // 1.5 in [1, 2)
  assert.deepEqual(cellAt(hist, L, 79, 50), [2, -1]); // 3.95 in [2, 4)
  assert.deepEqual(cellAt(hist, L, -5, 50), [0, -1]); // just left of the first edge
  assert.deepEqual(cellRing(hist, L, [2, -1]), { x: 40, y: 0, w: 40, h: 100 });
  assert.deepEqual(clampCell(hist, [5, 0]), [2, 0]);
});

test("a point read on its own is ringed by a small square around it", () => {
  assert.deepEqual(cellRing(fitted, L, [0, 3]), { x: 52, y: 32, w: 16, h: 16 });
});
