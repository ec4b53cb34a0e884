// What the heatmaps and the charts share on a canvas: its size in the screen's pixels, the
// fonts (each recorded, so the canvas can say its smallest), the title, and the measure
// that the layouts (grid_layout.js, chart_layout.js) take.

import { INK } from "./colour.js";
import { TITLE_LINE_PX, TITLE_PX } from "./sizes.js";

export function setFont(g, px, family) {
  // every font of a drawing goes through here, so the canvas can say its smallest
  g.font = `${px}px ${family}`;
  g.minFontPx = Math.min(g.minFontPx || Infinity, px);
}

export function measurer(g, family) {
  // (text, px) -> the width of text in px-sized `family`: a layout's measure. It sets the
  // font only when the size changes, so it serves one layout, before anything is drawn
  // (drawing sets fonts of its own, and `blank` resets them all).
  let size = null;
  return (text, px) => {
    if (px !== size) { g.font = `${px}px ${family}`; size = px; }
    return g.measureText(text).width;
  };
}

export function blank(canvas, g, width, height) {
  // the canvas sized for the screen's pixels, white, ready for text centred on its y
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * dpr);
  canvas.height = Math.round(height * dpr);
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.minFontPx = Infinity;
  g.fillStyle = "#fff";
  g.fillRect(0, 0, width, height);
  g.textBaseline = "middle";
  return dpr;
}

export function drawTitle(g, lines, font) {
  g.fillStyle = INK;
  setFont(g, TITLE_PX, font);
  g.textAlign = "left";
  lines.forEach((line, k) => g.fillText(line, 0, TITLE_LINE_PX * (k + 0.5) + 4));
}
