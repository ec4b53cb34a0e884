// Where everything of a heatmap goes, from the width the page gives it and the widths of its
// labels and numbers (the pixel rules: canvas_grid.js). `measure(text, px)` is the width of
// text in px-sized type of the figure's font (canvas.js `measurer`; the tests give their
// own), so nothing here needs a canvas.

import { fixed, unit } from "./numbers.js";
import { BAR_PX, FONT_PX, TITLE_LINE_PX, TITLE_PX } from "./sizes.js";
import { wrap } from "./text.js";

// rows 12 to 24 px, all labelled up to MAX_LABELLED rows; a longer axis gets MAX_CELLS_PX
const ROW_PX = 24, MAX_CELLS_PX = 600;
export const MIN_ROW_PX = 12;
export const MAX_LABELLED = 66; // 64 tokens, [CLS] and [SEP]
export const MAX_CELL_W = 80; // columns 2 to 80 px wide
export const MIN_COL_PX = 2;
export const RULER_GAP_PX = { cols: 48, rows: 16 }; // numbered features: labels this far apart
export const MAX_LABEL_PX = 200;

export function rowHeight(n) {
  return n <= MAX_LABELLED ? Math.max(MIN_ROW_PX, Math.min(ROW_PX, MAX_CELLS_PX / n))
                           : MAX_CELLS_PX / n;
}

export function layout(measure, f, width) {
  // Where everything goes, from the labels' measured widths (no second pass needed).
  const [n, m] = f.shape;
  if (f.small) { // a figure of a grid: cells only, square
    const cellW = width / m;
    return { n, m, left: 0, top: 0, cellW, cellH: cellW, plotH: cellW * n, height: cellW * n,
             titleLines: [] };
  }
  // the PNG link on the right
  const titleLines = wrap((s) => measure(s, TITLE_PX), f.title, Math.max(60, width - 40));
  const widest = (labels) => Math.max(...labels.map((s) => measure(s, FONT_PX)), 10);
  const rowLabelMax = Math.min(MAX_LABEL_PX, width * 0.35); // the cells keep most of a phone
  const rowLabel = Math.min(widest(f.rows), rowLabelMax);
  const colLabel = Math.min(widest(f.cols), MAX_LABEL_PX);
  const left = rowLabel + 10 + FONT_PX + 8;
  // Never narrower than MIN_COL_PX: 384 features in a third of a screen would blend into
  // a blur of about half as many columns. The figure grows wider and its box scrolls.
  const cellW = Math.min(MAX_CELL_W, Math.max(MIN_COL_PX, (width - left - 12) / m));
  const scrolls = left + m * cellW + 12 > width + 0.5;
  // the page's words for it (heatmap.py `spoken`), else English
  if (scrolls) titleLines.push(f.scroll || `scroll sideways: all ${m} columns`);
  const ruler = f.prefix !== null && m > 8; // numbered features: level labels, upright
  const upright = ruler || colLabel <= cellW - 4; // else turned, to fit
  const bottomLabels = upright ? FONT_PX + 6 : colLabel + 8;
  const top = titleLines.length * TITLE_LINE_PX + 12;
  const cellH = rowHeight(n), plotH = cellH * n;
  const bottom = bottomLabels + FONT_PX + 10 + BAR_PX + FONT_PX + 14;
  return { n, m, left, top, cellW, cellH, plotH, upright, ruler, titleLines, rowLabelMax,
           width: scrolls ? Math.ceil(left + m * cellW + 12) : width,
           height: top + plotH + bottom, colLabelY: top + plotH + 4,
           axisY: top + plotH + bottomLabels + 4,
           barY: top + plotH + bottomLabels + FONT_PX + 12 };
}

export function cellText(f) {
  // a cell's number as drawn: a weight as ".08", other values with f.decimals, masked "-∞"
  return (v) => (!Number.isFinite(v) ? "-∞" : f.unit ? unit(v, f.decimals) : fixed(v, f.decimals));
}

export function cellNumbers(textWidth, f, L) {
  // { numbers: whether the cells get their numbers, widest: the widest number's width }.
  // Numbers on every cell or on none: the widest one drawn must fit its cell (a 3-digit
  // similarity spilled into its neighbours when only "-0.00" was measured), and a cell
  // under 14 px high gets none. `textWidth`: the width of a number in the cells' type.
  let widest = 0;
  if (f.numbers) {
    for (const t of new Set(Array.from(f.values, cellText(f)))) {
      widest = Math.max(widest, textWidth(t));
    }
  }
  return { numbers: Boolean(f.numbers) && L.cellH >= 14 && L.cellW >= widest + 4, widest };
}
