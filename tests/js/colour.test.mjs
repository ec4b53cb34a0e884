// js/colour.js: WCAG 2 contrast, the colour of a number on a cell, a scale's colours.
import assert from "node:assert/strict";
import test from "node:test";

import { AA, BLACK, colour, contrast, hex, INK_RGB, luminance, MASKED, MUTED, numberColour, rgb,
         WHITE } from "../../attn_ui/figures/js/colour.js";

const near = (a, b, eps = 0.005) => assert.ok(Math.abs(a - b) <= eps, `${a} is not ${b}`);

test("hex and rgb turn #rrggbb into channels and back into CSS", () => {
  assert.deepEqual(hex("#262730"), [38, 39, 48]);
  assert.equal(rgb(hex("#0a7fff")), "rgb(10,127,255)");
});

test("luminance is WCAG 2's: black 0, white 1, pure red 0.2126, mid grey 0.216", () => {
  assert.equal(luminance(BLACK), 0);
  near(luminance(WHITE), 1, 1e-12);
  near(luminance([255, 0, 0]), 0.2126, 1e-12);
  near(luminance([10, 10, 10]), 10 / 255 / 12.92, 1e-12); // dark channels are linear
  near(luminance([128, 128, 128]), 0.2158605, 1e-6);
});

test("contrast gives WCAG's ratios for known pairs, either way round", () => {
  near(contrast(WHITE, BLACK), 21, 1e-9);
  near(contrast(BLACK, WHITE), 21, 1e-9);
  assert.equal(contrast([90, 40, 200], [90, 40, 200]), 1);
  near(contrast(hex("#767676"), WHITE), 4.54); // the lightest grey that passes AA on white
  assert.ok(contrast(hex("#777777"), WHITE) < AA); // one step lighter fails
});

test("the masked cell's muted text reads at AA, where Streamlit's grey did not", () => {
  near(contrast(hex(MUTED), hex(MASKED)), 5.67); // "5.7:1"
  assert.ok(contrast(hex("#808495"), hex(MASKED)) < AA);
});

test("numberColour writes ink on light cells, white on dark, black when neither passes", () => {
  assert.deepEqual(numberColour(WHITE)[0], INK_RGB);
  assert.deepEqual(numberColour(hex("#08306b"))[0], WHITE); // the weights scale's dark end
  const [ink, ratio] = numberColour([128, 128, 128]); // white 3.9:1, ink 3.8:1
  assert.deepEqual(ink, BLACK);
  near(ratio, 5.32);
});

test("numberColour reaches AA on every colour, and says the contrast it reaches", () => {
  for (let r = 0; r < 256; r += 15) {
    for (let g = 0; g < 256; g += 15) {
      for (let b = 0; b < 256; b += 15) {
        const [ink, ratio] = numberColour([r, g, b]);
        assert.ok(ratio >= AA, `rgb(${r},${g},${b}): ${ratio}`);
        assert.equal(ratio, contrast([r, g, b], ink));
      }
    }
  }
});

test("colour interpolates a scale: its ends, its stops, halfway between, clamped outside", () => {
  const scale = [[0, [0, 0, 255]], [0.5, [255, 255, 255]], [1, [255, 0, 0]]];
  assert.deepEqual(colour(scale, 0), [0, 0, 255]);
  assert.deepEqual(colour(scale, 0.5), [255, 255, 255]);
  assert.deepEqual(colour(scale, 1), [255, 0, 0]);
  assert.deepEqual(colour(scale, 0.25), [128, 128, 255]); // 127.5 rounds up
  assert.deepEqual(colour(scale, 0.75), [255, 128, 128]);
  assert.deepEqual(colour(scale, -3), [0, 0, 255]);
  assert.deepEqual(colour(scale, 7), [255, 0, 0]);
});

test("colour takes a repeated stop (a step in the scale) without dividing by zero", () => {
  const step = [[0, [0, 0, 0]], [0.5, [0, 0, 0]], [0.5, [200, 100, 0]], [1, [200, 100, 0]]];
  assert.deepEqual(colour(step, 0.5), [0, 0, 0]);
  assert.deepEqual(colour(step, 0.6), [200, 100, 0]);
});
