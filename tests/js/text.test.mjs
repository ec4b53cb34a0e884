// js/text.js: labels cut to a width, titles in lines, the PNG's file name.
import assert from "node:assert/strict";
import test from "node:test";

import { fileName, fit, wrap } from "../../attn_ui/figures/js/text.js";

const width = (s) => 7 * [...s].length; // 7 px a character

test("fit keeps a label that fits and cuts one that does not to the longest that does", () => {
  assert.equal(fit(width, "cat", 21), "cat");
  assert.equal(fit(width, "attention", 35), "atte…"); // 5 characters, 35 px
  assert.ok(width(fit(width, "a".repeat(100), 200)) <= 200);
  assert.equal(fit(width, "attention", 3), "…"); // nothing fits: the mark alone
});

test("wrap breaks a title at spaces, never inside its shape", () => {
  const lines = wrap(width, "S × 0.354 (+ mask)   (12 × 12)", 100);
  assert.ok(lines.every((line) => width(line) <= 100), lines.join(" | "));
  assert.ok(lines.includes("(12 × 12)"), lines.join(" | "));
  assert.deepEqual(wrap(width, "X   (2 × 3)", 1000), ["X (2 × 3)"]);
  assert.deepEqual(wrap(width, "", 100), [""]);
});

test("fileName drops the shape and keeps only characters a file system takes", () => {
  assert.equal(fileName("A = softmax by row   (5 × 5)"), "A_softmax_by_row.png");
  assert.equal(fileName("Q/K: <b>x</b>"), "Q_K_b_x_b_.png");
  assert.equal(fileName("   (2 × 2)"), "matrix.png");
  assert.equal(fileName("因果注意力，第 26 层，头 6   (38 × 38)"), "因果注意力_第_26_层_头_6.png");
  assert.equal(fileName("Atención: capa 1, cabeza 8"), "Atención_capa_1_cabeza_8.png");
  assert.equal(fileName("x/../../etc: a\\b"), "x_.._.._etc_a_b.png");
});
