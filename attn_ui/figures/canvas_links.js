// A head's weights as lines on <canvas> (chart.py `links` decides what they show): each query
// on the left joined to each key on the right by a line as strong as its weight, weights
// under a floor left out; or only one query's lines. Drawn by the heatmaps' component
// (canvas_grid.js places it where an item's "chart" is "links"), with the same fonts, PNG
// link, hover box and live region.
//
// The pixel rules: tokens in 12 px type, 22 px apart (11 px type, 12 px apart beyond
// DENSE tokens), cut with "…" past a third of the width; ten strengths of line, from thin
// and pale to thick and dark. A keyboard reads every weight: Tab focuses the figure, Up and
// Down move from query to query (when all are shown), Left and Right from key to key.
// Which lines, and where everything goes, is js/links_layout.js, unit-tested in tests/js.

import { blank, drawTitle, measurer, setFont } from "./js/canvas.js";
import { INK, MUTED } from "./js/colour.js";
import { figureBox, pngLink } from "./js/figure_box.js";
import { HEAD_PX, LEVELS, linkLines, linksLayout, linkText, rowY } from "./js/links_layout.js";
import { decode } from "./js/numbers.js";
import { FONT_PX } from "./js/sizes.js";
import { fileName } from "./js/text.js";
import { say } from "./js/words.js";

const LINE_RGB = "8, 48, 107"; // the darkest blue of the weights' scale

function draw(canvas, c, width) {
  const g = canvas.getContext("2d");
  const L = linksLayout(measurer(g, c.font), c, width);
  blank(canvas, g, width, L.height);
  drawTitle(g, L.titleLines, c.font);
  setFont(g, FONT_PX, c.font);
  g.fillStyle = INK;
  g.textAlign = "right";
  g.fillText(say(c.words, "queries"), L.x0, L.top + HEAD_PX / 2);
  g.textAlign = "left";
  g.fillText(say(c.words, "keys"), L.x1, L.top + HEAD_PX / 2);
  L.lines = linkLines(c.weights, L.t, c.query, c.floor);
  for (let level = 1; level <= LEVELS; level++) { // one stroke per strength
    const alpha = level / LEVELS;
    g.strokeStyle = `rgba(${LINE_RGB}, ${alpha})`;
    g.lineWidth = 0.5 + 3.5 * alpha;
    g.beginPath();
    for (const [i, j, k] of L.lines) {
      if (k !== level) continue;
      g.moveTo(L.x0, rowY(L, i));
      g.lineTo(L.x1, rowY(L, j));
    }
    g.stroke();
  }
  setFont(g, L.px, c.font);
  for (let i = 0; i < L.t; i++) {
    const y = rowY(L, i), chosen = c.query === null || c.query === i;
    g.fillStyle = chosen ? INK : MUTED;
    g.beginPath();
    g.arc(L.x0, y, 3, 0, 2 * Math.PI);
    g.arc(L.x1, y, 3, 0, 2 * Math.PI);
    g.fill();
    g.textAlign = "right";
    g.fillText(L.labels[i], L.x0 - 8, y);
    g.fillStyle = INK;
    g.textAlign = "left";
    g.fillText(L.labels[i], L.x1 + 8, y);
  }
  return L;
}

// How the figure answers the pointer and the keys: a cell is [query, key], -1 for neither.
const LINKS = {
  role: "chart",
  start: (box) => [box.chart.query ?? 0, 0],
  at(box, x, y) {
    const L = box.layout, row = Math.floor((y - L.rowsTop) / L.rowH);
    if (row < 0 || row >= L.t) return null;
    return x < (L.x0 + L.x1) / 2 ? [row, -1] : [box.chart.query ?? -1, row];
  },
  clamp(box, [i, j]) {
    const t = box.layout.t, q = box.chart.query;
    return [q ?? Math.min(t - 1, Math.max(0, i)), Math.min(t - 1, Math.max(0, j))];
  },
  ring(box, [i, j]) {
    const L = box.layout, right = j >= 0, y = rowY(L, right ? j : i) - L.rowH / 2;
    return right ? { x: L.x1 - 6, y, w: L.width - L.x1 + 6, h: L.rowH }
                 : { x: 0, y, w: L.x0 + 6, h: L.rowH };
  },
  text: (box, [i, j]) => linkText(box.chart, i, j),
  key(box, [i, j], key) {
    const step = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (step[key]) return [i + step[key][0], j + step[key][1]];
    if (key === "Home") return [i, 0];
    if (key === "End") return [i, box.layout.t - 1];
    return null;
  },
};

export function linksBox(root, c, font, words) {
  // `words`: the page's (js/words.js)
  const box = figureBox(root, LINKS, "cg-chart");
  const weights = decode(c.weights, c.tokens.length ** 2); // base64 in, numbers out
  box.chart = { ...c, font, words, weights };
  box.append(pngLink(() => box.querySelector("canvas"), () => fileName(c.title), words));
  return box;
}

export function drawLinksBox(box, width) {
  const c = box.chart, canvas = box.querySelector("canvas");
  // in the page's language when it sent them (chart.py `spoken`), else in English
  canvas.setAttribute("aria-roledescription", c.role || "lines from queries to keys");
  canvas.setAttribute("aria-label", c.title);
  canvas.setAttribute("aria-description", c.description || `Each of ${c.tokens.length} queries `
    + "joined to the keys it weighs, by lines as strong as the weights. The up and down arrow "
    + "keys move from query to query and the left and right keys from key to key, reading each "
    + "weight.");
  box.layout = draw(canvas, c, width);
  const g = canvas.getContext("2d"), L = box.layout;
  canvas.dataset.chart = c.chart;
  canvas.dataset.minFontPx = Number.isFinite(g.minFontPx) ? g.minFontPx : 0;
  canvas.dataset.numberPx = 0;
  canvas.dataset.minContrast = "";
  canvas.dataset.labelPitch = (L.rowH / L.px).toFixed(2);
}
