// Where a head's weights go when drawn as lines from each query (a column of tokens on the
// left) to each key (the same tokens on the right): which lines, in which strength, and
// where the tokens sit. `measure(text, px)` is the width of text in px-sized type
// (canvas.js `measurer`; the tests give their own), so nothing here needs a canvas.

import { fixed } from "./numbers.js";
import { FONT_PX, TITLE_LINE_PX, TITLE_PX, TURNED_FONT_PX } from "./sizes.js";
import { fit, wrap } from "./text.js";
import { say } from "./words.js";

export const LEVELS = 10; // lines come in this many strengths
export const DENSE = 40; // beyond this many tokens the rows are packed closer
const ROW_PX = { roomy: 22, dense: 12 };
export const HEAD_PX = FONT_PX + 10; // the "queries" and "keys" headings
export const MAX_TOKEN_PX = 160; // a longer token is cut, with "…" (the hover keeps it)

export function linkLines(w, t, query, floor) {
  // [i, j, level] for every weight w[i][j] (row-major, t × t) of at least `floor`, from every
  // query or only `query` (null: all); level 1..LEVELS, the weight's tenth rounded up
  const out = [];
  for (let i = 0; i < t; i++) {
    if (query !== null && i !== query) continue;
    for (let j = 0; j < t; j++) {
      const v = w[i * t + j];
      if (v >= floor) out.push([i, j, Math.min(LEVELS, Math.max(1, Math.ceil(v * LEVELS)))]);
    }
  }
  return out;
}

export function linksLayout(measure, c, width) {
  // the title, the two columns of tokens (each as wide as its widest token, at most a third
  // of the width), the x where the lines start and end, and each row's height
  const titleLines = wrap((s) => measure(s, TITLE_PX), c.title, Math.max(60, width - 40));
  const t = c.tokens.length, dense = t > DENSE;
  const px = dense ? TURNED_FONT_PX : FONT_PX, rowH = dense ? ROW_PX.dense : ROW_PX.roomy;
  const room = Math.min(MAX_TOKEN_PX, width / 3);
  const labels = c.tokens.map((s) => fit((x) => measure(x, px), s, room));
  const heads = [say(c.words, "queries"), say(c.words, "keys")]; // the columns' headings
  const labelW = Math.max(...labels.map((s) => measure(s, px)), ...heads.map((s) => measure(s, FONT_PX)));
  const top = titleLines.length * TITLE_LINE_PX + 12;
  const x0 = labelW + 10, x1 = Math.max(x0 + 40, width - labelW - 10);
  return { titleLines, t, px, rowH, labels, labelW, top, x0, x1, width,
           rowsTop: top + HEAD_PX, height: top + HEAD_PX + t * rowH + 8 };
}

export function rowY(L, i) {
  return L.rowsTop + (i + 0.5) * L.rowH;
}

export function linkText(c, i, j) {
  // what the hover box and the live region say: a query, a key, or a query's weight on a key
  const said = [];
  if (i >= 0) said.push(say(c.words, "query", { index: i, token: c.tokens[i] }));
  if (j >= 0) said.push(say(c.words, "key", { index: j, token: c.tokens[j] }));
  if (i >= 0 && j >= 0) {
    said.push(say(c.words, "weight", { value: fixed(c.weights[i * c.tokens.length + j], 3) }));
  }
  return said.join("\n");
}
