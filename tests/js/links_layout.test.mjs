// js/links_layout.js: a head's weights as lines from queries to keys.
import assert from "node:assert/strict";
import test from "node:test";

import { DENSE, HEAD_PX, linkLines, linksLayout, linkText, rowY }
  from "../../attn_ui/figures/js/links_layout.js";
import { FONT_PX, TURNED_FONT_PX } from "../../attn_ui/figures/js/sizes.js";

const measure = (text, px) => [...text].length * px * 0.6;
const w = [0.5, 0.45, 0.05, 0.001, 0.999, 0, 1 / 3, 1 / 3, 1 / 3];

test("lines go from each query to each key it weighs at least the floor, in tenths", () => {
  assert.deepEqual(linkLines(w, 3, null, 0.01),
                   [[0, 0, 5], [0, 1, 5], [0, 2, 1], [1, 1, 10], [2, 0, 4], [2, 1, 4], [2, 2, 4]]);
  assert.deepEqual(linkLines(w, 3, 2, 0.1), [[2, 0, 4], [2, 1, 4], [2, 2, 4]]); // one query
  assert.deepEqual(linkLines(w, 3, null, 0.9), [[1, 1, 10]]);
});

test("tokens sit in rows under the headings; a long sentence is packed in 11 px type", () => {
  const c = { title: "Lines", tokens: ["the", "cat", "sat"] };
  const L = linksLayout(measure, c, 400);
  assert.equal(L.px, FONT_PX);
  assert.equal(rowY(L, 1) - rowY(L, 0), L.rowH);
  assert.equal(L.rowsTop, L.top + HEAD_PX);
  assert.ok(L.x0 < L.x1 && L.x1 + measure("queries", FONT_PX) <= 400);
  const long = linksLayout(measure, { ...c, tokens: Array(DENSE + 1).fill("tok") }, 400);
  assert.equal(long.px, TURNED_FONT_PX);
  assert.ok(long.rowH >= long.px && long.rowH < L.rowH);
});

test("a long token is cut to a third of the width; the hover keeps it", () => {
  const c = { title: "L", tokens: ["x".repeat(80), "b"], weights: [0.25, 0.75, 1, 0] };
  const L = linksLayout(measure, c, 300);
  assert.ok(L.labels[0].endsWith("…") && measure(L.labels[0], FONT_PX) <= 100);
  assert.equal(linkText(c, 0, 1), `query 0: ${"x".repeat(80)}\nkey 1: b\nweight: 0.750`);
  assert.equal(linkText(c, -1, 1), "key 1: b");
  assert.equal(linkText(c, 1, -1), "query 1: b");
});
