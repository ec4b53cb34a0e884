// js/cell_pixels.js: the fast path of drawCells writes the pixels the plain path fills, one
// rectangle per cell, on whole device pixels.
import assert from "node:assert/strict";
import test from "node:test";

import { cellPixels } from "../../attn_ui/figures/js/cell_pixels.js";
import { colour } from "../../attn_ui/figures/js/colour.js";

const SCALE = [[0, [8, 48, 107]], [0.5, [247, 251, 255]], [1, [103, 0, 13]]];
const MASKED = [240, 242, 246];
const colourOf = (v) => (Number.isFinite(v) ? colour(SCALE, (v + 1) / 2) : MASKED);

function plain(values, n, m, xs, ys) {
  // the plain path, as a canvas with no blending draws it: a rectangle of the cell's colour
  // over [xs[j], xs[j+1]) x [ys[i], ys[i+1]), cell after cell
  const width = xs[m] - xs[0], height = ys[n] - ys[0];
  const data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) {
      const c = colourOf(values[i * m + j]);
      for (let y = ys[i]; y < ys[i + 1]; y++) {
        for (let x = xs[j]; x < xs[j + 1]; x++) {
          data.set([...c, 255], ((y - ys[0]) * width + (x - xs[0])) * 4);
        }
      }
    }
  }
  return data;
}

function edges(count, start, px) {
  // snapped edges as drawCells makes them: start + k * px, rounded to whole pixels
  return Array.from({ length: count + 1 }, (_, k) => Math.round(start + k * px));
}

test("the cells' pixels are the plain path's, for uneven cells, masked ones and one pixel", () => {
  let seed = 7;
  const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
  for (const [n, m, cellW, cellH] of [[3, 4, 5.4, 3.3], [17, 17, 1.26, 1.0], [1, 9, 2.5, 12]]) {
    const values = Array.from({ length: n * m }, (_, k) => (k % 5 === 3 ? -Infinity : random()));
    const xs = edges(m, 30, cellW), ys = edges(n, 12, cellH);
    const got = cellPixels(values, n, m, xs, ys, colourOf);
    assert.equal(got.width, xs[m] - xs[0]);
    assert.equal(got.height, ys[n] - ys[0]);
    assert.deepEqual(got.data, plain(values, n, m, xs, ys), `${n} x ${m}`);
  }
});

test("every pixel of the region is a cell's: opaque, none left blank", () => {
  const xs = edges(6, 0, 1.7), ys = edges(6, 0, 1.7);
  const { data } = cellPixels(Array(36).fill(0), 6, 6, xs, ys, colourOf);
  for (let p = 3; p < data.length; p += 4) assert.equal(data[p], 255);
  assert.deepEqual([...data.subarray(0, 3)], colour(SCALE, 0.5)); // 0 is the scale's middle
});

test("colour interpolates each channel between the scale's stops and clamps t", () => {
  assert.deepEqual(colour(SCALE, 0.25), [128, 150, 181]); // halfway from the blue to white
  assert.deepEqual(colour(SCALE, -3), SCALE[0][1]);
  assert.deepEqual(colour(SCALE, 7), SCALE[2][1]);
});
