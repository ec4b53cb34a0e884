// Numbers: as they arrive from Python, and as text on a cell, a bar, an axis or a hover box.

export function decode(b64, count) {
  // base64 of little-endian floats (heatmap.py `encode`): `count` values of 4 bytes (a
  // float32 matrix, a pretrained model's) or 8 (float64; also without a count); -inf stays
  const text = atob(b64), bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes.length === 4 * count ? new Float32Array(bytes.buffer) : new Float64Array(bytes.buffer);
}

export function fixed(v, decimals) {
  const s = v.toFixed(decimals);
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s; // never "-0.00"
}

export function unit(v, decimals) {
  // a weight (0..1) on a cell: ".08", "1"; the hover keeps "0.08"
  const s = fixed(v, decimals);
  return Number(s) === 1 ? "1" : s.replace(/^0\./, ".");
}

export function short(v) {
  // a colour bar's end: two significant digits
  return Number(v.toPrecision(2)).toString();
}

export function sig(v) {
  // a line chart's value in the hover box: four significant digits
  return Number(v.toPrecision(4)).toString();
}

export function tickText(v) {
  return Number(v.toPrecision(6)).toString(); // 0.30000000000000004 -> "0.3"
}

const SUPERSCRIPT = "⁰¹²³⁴⁵⁶⁷⁸⁹";

export function axisText(v, log) {
  // an axis tick: on a log axis a power of 10 from 10⁴ up (10⁻⁴ down) is written as one, so
  // that "10000000" does not crowd the axis; anything else as tickText
  const k = Math.round(Math.log10(Math.abs(v)));
  if (!log || Math.abs(k) < 4 || Math.abs(v - 10 ** k) > 1e-9 * 10 ** k) return tickText(v);
  return `10${k < 0 ? "⁻" : ""}${[...String(Math.abs(k))].map((d) => SUPERSCRIPT[d]).join("")}`;
}
