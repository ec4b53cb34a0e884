// js/ticks.js: a ruler's label steps and a chart's value axis.
import assert from "node:assert/strict";
import test from "node:test";

import { niceStep, rulerStep, stackEnds, valueAxis, xAxis } from "../../attn_ui/figures/js/ticks.js";
import { tickText } from "../../attn_ui/figures/js/numbers.js";

const NICE = [1, 2, 5];
const mantissa = (step) => step / 10 ** Math.floor(Math.log10(step) + 1e-9);

test("rulerStep is the least of 1, 2, 5, 10, 20, ... that spaces labels gapPx apart", () => {
  assert.equal(rulerStep(48, 48), 1);
  assert.equal(rulerStep(30, 48), 2);
  assert.equal(rulerStep(10, 48), 5);
  assert.equal(rulerStep(1.5, 16), 20); // 384 rows in 600 px: every 20th labelled
  assert.equal(rulerStep(1.5, 48), 50);
  assert.equal(rulerStep(0.01, 48), 5000);
});

test("niceStep is 1, 2 or 5 times a power of 10, the least that cuts span in at most n", () => {
  assert.equal(niceStep(7, 5), 2);
  assert.equal(niceStep(100, 5), 20);
  assert.ok(Math.abs(niceStep(1, 5) - 0.2) < 1e-12);
  for (const span of [0.003, 0.7, 1, 3.3, 9.99, 10, 42, 1234.5, 8e6]) {
    for (const n of [3, 5, 7]) {
      const step = niceStep(span, n), m = Math.round(mantissa(step) * 1000) / 1000;
      assert.ok(NICE.includes(m) || m === 10, `${span}/${n}: ${step}`);
      assert.ok(span / step <= n + 1e-9, `${span}/${n}: ${step} makes too many steps`);
      const smaller = m === 1 ? step / 2 : m === 2 ? step / 2 : step * 0.4; // the nice step below
      assert.ok(span / smaller > n - 1e-9, `${span}/${n}: ${smaller} would do`);
    }
  }
});

const bar = (values) => ({ style: "bar", values });

test("stackEnds stacks positive shares up and negative ones down", () => {
  const c = { stacked: true, series: [bar([1, -2]), bar([2, -1]), { style: "line", values: [2.5, 0.5] }] };
  assert.deepEqual(stackEnds(c), [-3, 3]);
  assert.deepEqual(stackEnds({ ...c, stacked: false }), [-2, 2.5]); // side by side
});

test("stackEnds counts a masked value (null) as 0", () => {
  assert.deepEqual(stackEnds({ series: [bar([null, 4, 5])] }), [0, 5]);
  assert.deepEqual(stackEnds({ series: [bar([null, -4])] }), [-4, 0]);
});

test("bars start at 0 and the axis ends on ticks 1, 2, 5 times a power of 10", () => {
  const [lo, hi, ticks] = valueAxis({ chart: "bars", y: {}, series: [bar([0.2, 0.7])] });
  assert.equal(lo, 0);
  assert.ok(Math.abs(hi - 0.8) < 1e-12);
  assert.deepEqual(ticks.map(tickText), ["0", "0.2", "0.4", "0.6", "0.8"]);
});

test("an axis across zero has a tick at exactly 0, never float noise", () => {
  const [lo, hi, ticks] = valueAxis({ chart: "bars", y: {}, series: [bar([-0.25, 0.2])] });
  assert.ok(ticks.includes(0), ticks.join(" "));
  assert.deepEqual(ticks.map(tickText), ["-0.3", "-0.2", "-0.1", "0", "0.1", "0.2", "0.3"]);
  assert.ok(lo <= -0.25 && hi >= 0.2);
});

test("bar numbers get room above the bars", () => {
  const plain = valueAxis({ chart: "bars", y: {}, series: [bar([1, 1.9])] });
  const numbered = valueAxis({ chart: "bars", y: {}, series: [{ ...bar([1, 1.9]), text: ["1", "1.9"] }] });
  assert.equal(plain[1], 2);
  assert.ok(numbered[1] > 2, numbered[1]);
});

test("a given range is kept; a flat series gets a range around its value", () => {
  const given = valueAxis({ chart: "lines", y: { range: [0, 1] }, series: [bar([0.5])] });
  assert.deepEqual([given[0], given[1]], [0, 1]);
  const [lo, hi] = valueAxis({ chart: "lines", y: {}, series: [{ style: "line", values: [3, 3] }] });
  assert.ok(lo < 3 && hi > 3);
});

test("a log axis ticks powers of 10 around the values", () => {
  const c = { chart: "lines", y: { log: true }, series: [{ style: "line", values: [0.5, null, 2000] }] };
  const [lo, hi, ticks] = valueAxis(c);
  assert.deepEqual([lo, hi], [0.1, 10000]);
  assert.deepEqual(ticks, [0.1, 1, 10, 100, 1000, 10000]);
});

test("xAxis: a linear axis gets nice ticks inside the values and a little room", () => {
  const a = xAxis({ x: { values: [1, 4, 10] } });
  assert.deepEqual(a.ticks, [2, 4, 6, 8, 10]);
  assert.ok(a.lo < 1 && a.hi > 10);
  const log = xAxis({ x: { values: [10, 1000], log: true, ticks: [10, 100, 1000] } });
  assert.deepEqual(log.ticks, [10, 100, 1000]); // chart.py's own ticks on a log axis
  assert.equal(log.t(1000), 3);
  assert.ok(log.lo < 1 && log.hi > 3);
});

test("a line chart's value axis holds every series, whatever its length, and its error bars", () => {
  const c = { chart: "lines", series: [{ values: [1, 2, 3] }, { values: [5], error: [2] },
                                       { values: [null, -1] }] };
  assert.deepEqual(stackEnds(c), [-1, 7]);
  const log = { chart: "lines", y: { log: true },
                series: [{ values: [1, 50], error: [2, 100] }] }; // 1 - 2 has no place: cut
  const [lo, hi] = valueAxis(log);
  assert.deepEqual([lo, hi], [1, 1000]);
});

test("a histogram's axis starts at 0 and its x axis spans its edges exactly", () => {
  const c = { chart: "histogram", y: {}, x: { edges: [-2, 0, 2] }, series: [{ values: [3, 7] }] };
  assert.equal(valueAxis(c)[0], 0);
  const a = xAxis(c);
  assert.deepEqual([a.lo, a.hi], [-2, 2]);
});

test("xAxis takes in series of their own x and the learner's mark; a range is kept", () => {
  const c = { x: { values: [1, 2] }, series: [{ x: [0, 8] }], mark: { x: 10 } };
  const a = xAxis(c);
  assert.ok(a.lo < 0 && a.hi > 10);
  assert.deepEqual(a.ticks, [0, 2, 4, 6, 8, 10]);
  const r = xAxis({ x: { values: [], range: [-1.3, 1.3] }, series: [{ x: [0.5] }] });
  assert.deepEqual([r.lo, r.hi], [-1.3, 1.3]);
  assert.deepEqual(r.ticks.map(tickText), ["-1", "0", "1"]);
});

test("a line chart counting up from 0 starts its axis at 0 and ends it on a tick", () => {
  const c = { chart: "lines", y: { zero: true }, series: [{ values: [0.31, 0.97] }] };
  const [lo, hi, ticks] = valueAxis(c);
  assert.equal(lo, 0);
  assert.equal(hi, ticks.at(-1));
  assert.ok(hi >= 0.97 * 1.05 - 1e-12);
  assert.ok(valueAxis({ ...c, y: {} })[0] > 0); // else it hugs the values
});

test("a line chart of values that are never negative has no negative ticks", () => {
  const c = { chart: "lines", y: {}, series: [{ values: [0, 100, 380] }] };
  const [lo, , ticks] = valueAxis(c);
  assert.equal(lo, 0);
  assert.ok(ticks.every((v) => v >= 0));
});
