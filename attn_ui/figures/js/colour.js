// Colours: the palette every figure shares, a scale's colour at a point, and WCAG 2
// contrast (the numbers on cells must read at AA, 4.5:1, on whatever colour their cell has).

// MUTED reads at 5.7:1 on MASKED (WCAG AA); Streamlit's grey (#808495) did not (3.3:1)
export const INK = "#262730";
export const MUTED = "#5c5f6b";
export const MASKED = "#f0f2f6"; // a masked cell
export const AA = 4.5; // WCAG AA: the least contrast of a number on its cell

export function hex(h) {
  // "#rrggbb" -> [r, g, b] in 0..255
  return [1, 3, 5].map((k) => parseInt(h.slice(k, k + 2), 16));
}

export const INK_RGB = hex(INK);
export const WHITE = [255, 255, 255];
export const BLACK = [0, 0, 0];

export function rgb(c) {
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}

export function luminance(c) {
  // WCAG 2 relative luminance of [r, g, b] in 0..255
  const lin = c.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
}

export function contrast(a, b) {
  const [la, lb] = [luminance(a), luminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

export function numberColour(c) {
  // [colour, its contrast] of a number on a cell of colour c: white or ink, whichever
  // contrasts more with the cell; black when neither reaches AA (black always does: a
  // colour white fails on is light enough for it)
  const [w, k] = [contrast(c, WHITE), contrast(c, INK_RGB)];
  if (Math.max(w, k) >= AA) return w >= k ? [WHITE, w] : [INK_RGB, k];
  return [BLACK, contrast(c, BLACK)];
}

export function colour(scale, t) {
  // scale: [[position 0..1, [r, g, b]], ...]; t in [0, 1]
  // (indexed, not destructured: a heatmap asks once per cell)
  t = Math.min(1, Math.max(0, t));
  for (let k = 1; k < scale.length; k++) {
    const p1 = scale[k][0], c1 = scale[k][1];
    if (t <= p1) {
      const p0 = scale[k - 1][0], c0 = scale[k - 1][1];
      const u = p1 > p0 ? (t - p0) / (p1 - p0) : 0;
      return [Math.round(c0[0] + u * (c1[0] - c0[0])), Math.round(c0[1] + u * (c1[1] - c0[1])),
              Math.round(c0[2] + u * (c1[2] - c0[2]))];
    }
  }
  return scale[scale.length - 1][1];
}
