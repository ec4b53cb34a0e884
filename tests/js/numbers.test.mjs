// js/numbers.js: what Python sends, and numbers as text.
import assert from "node:assert/strict";
import test from "node:test";

import { axisText, decode, fixed, short, sig, tickText, unit } from "../../attn_ui/figures/js/numbers.js";

test("decode reads heatmap.py's base64 float64 (little-endian), -inf included", () => {
  // heatmap.encode(np.array([[1.5, -np.inf], [0.0, -2.25]]))
  const v = decode("AAAAAAAA+D8AAAAAAADw/wAAAAAAAAAAAAAAAAAAAsA=");
  assert.deepEqual(Array.from(v), [1.5, -Infinity, 0, -2.25]);
  assert.equal(decode("mpmZmZmZuT8=")[0], 0.1); // every bit: encode(np.array([0.1]))
});

test("decode reads a float32 matrix (4 bytes a value, given the count) as its exact values", () => {
  // heatmap.encode(np.array([[1.5, -np.inf], [0.1, -2.25]], dtype=np.float32))
  const v = decode("AADAPwAAgP/NzMw9AAAQwA==", 4);
  assert.ok(v instanceof Float32Array);
  assert.deepEqual(Array.from(v), [1.5, -Infinity, 0.10000000149011612, -2.25]);
  // the same 16 bytes as two float64 values: a count of 2 is 8 bytes a value
  assert.ok(decode("AADAPwAAgP/NzMw9AAAQwA==", 2) instanceof Float64Array);
});

test("fixed never writes a negative zero", () => {
  assert.equal(fixed(-0.001, 2), "0.00");
  assert.equal(fixed(-0.4, 0), "0");
  assert.equal(fixed(-0, 1), "0.0");
  assert.equal(fixed(-0.5, 2), "-0.50");
  assert.equal(fixed(-0.006, 2), "-0.01");
  assert.equal(fixed(12.345678, 3), "12.346");
});

test("unit writes a weight without its leading zero, and a whole weight as 1", () => {
  assert.equal(unit(0.08, 2), ".08");
  assert.equal(unit(0.5, 2), ".50");
  assert.equal(unit(1, 2), "1");
  assert.equal(unit(0.999, 2), "1"); // rounds to 1.00
  assert.equal(unit(-0.001, 2), ".00");
});

test("short, sig and tickText keep 2, 4 and 6 significant digits, no float noise", () => {
  assert.equal(short(0.123456), "0.12");
  assert.equal(short(-1234), "-1200");
  assert.equal(short(1), "1");
  assert.equal(sig(Math.PI), "3.142");
  assert.equal(sig(0.000123456), "0.0001235");
  assert.equal(tickText(0.1 + 0.2), "0.3");
  assert.equal(tickText(1e6), "1000000");
});

test("a log axis writes 10⁴ and beyond as a power of 10; other ticks as they are", () => {
  assert.equal(axisText(10000000, true), "10⁷");
  assert.equal(axisText(1e-16, true), "10⁻¹⁶");
  assert.equal(axisText(1000, true), "1000");
  assert.equal(axisText(4096, true), "4096"); // not a power of 10
  assert.equal(axisText(10000000, false), "10000000"); // a linear axis: as tickText
});
