// Every heatmap of the app, drawn on <canvas> (canvas_grid.py sends them,
// heatmap.py decides what each shows). Each figure reads like the maths: row 0 on
// top, one row per token, a diverging scale centred at 0 for signed values and 0..1 for
// weights, numbers on cells when they fit, masked cells empty, hover text naming the cell,
// a colour bar and a PNG download.
// Labels are drawn with fillText and the hover is set with textContent: nothing a
// learner types is ever read as HTML.
//
// The pixel rules live here, as they depend on the width the page gives a figure:
// - rows are 12 to 24 px, all of them labelled, up to 66 rows (64 tokens, [CLS], [SEP]);
//   a longer axis (384 model features) gets 600 px in all and a label every few rows;
// - columns are at least 2 px wide: a figure whose columns need more than its box scrolls
//   sideways, and its title says so (never a blur that looks like fewer columns);
// - columns are at most 80 px wide; their labels stand upright when they fit, else are
//   turned, 11 px apart at least, in 11 px type (every k-th when the cells are narrower),
//   so that turned labels never overlap;
// - numbered features ("f0", "f1", ...) are labelled like a ruler: every 1, 2, 5, 10, ...
// - numbers go on cells at least 14 px high and as wide as the number, in 12 px type (no
//   text of a figure is smaller than 11 px: a phone gets fewer numbers, never smaller
//   ones), and in white or ink, whichever reads at WCAG AA (4.5:1) on the cell's colour;
// - a keyboard reaches every cell: a figure takes the focus (Tab), the arrow keys move a
//   focused cell, and its hover text is read out through a live region.
// Each canvas records what it drew for the tests: data-min-font-px (the smallest text),
// data-number-px (the numbers on cells, 0 when none), data-number-room (the cell's width
// less the widest number's, when numbers are drawn), data-min-contrast (the lowest
// contrast of a number against its cell), data-label-pitch (the least distance between
// two labels of an axis, over their font size: 1 or more, they do not overlap).

const ROW_PX = 24, MAX_CELLS_PX = 600, MIN_ROW_PX = 12, MAX_LABELLED = 66;
const MAX_CELL_W = 80, MIN_COL_PX = 2, RULER_GAP_PX = { cols: 48, rows: 16 };
const FONT_PX = 12, TITLE_PX = 15, TITLE_LINE_PX = 19, BAR_PX = 10, MAX_LABEL_PX = 200;
const TURNED_FONT_PX = 11, TURNED_GAP_PX = TURNED_FONT_PX;
// MUTED reads at 5.7:1 on MASKED (WCAG AA); Streamlit's grey (#808495) did not (3.3:1)
const INK = "#262730", MUTED = "#5c5f6b", MASKED = "#f0f2f6", AA = 4.5;

function setFont(g, px, family) {
  // every font of a drawing goes through here, so the canvas can say its smallest
  g.font = `${px}px ${family}`;
  g.minFontPx = Math.min(g.minFontPx || Infinity, px);
}

function luminance(c) {
  // WCAG 2 relative luminance of [r, g, b] in 0..255
  const lin = c.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
}

function contrast(a, b) {
  const [la, lb] = [luminance(a), luminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

function hex(h) {
  return [1, 3, 5].map((k) => parseInt(h.slice(k, k + 2), 16));
}

const INK_RGB = hex(INK), WHITE = [255, 255, 255], BLACK = [0, 0, 0];

function numberColour(c) {
  // white or ink, whichever contrasts more with the cell; black when neither reaches AA
  // (black always does: a colour white fails on is light enough for it)
  const [w, k] = [contrast(c, WHITE), contrast(c, INK_RGB)];
  if (Math.max(w, k) >= AA) return w >= k ? [WHITE, w] : [INK_RGB, k];
  return [BLACK, contrast(c, BLACK)];
}

function decode(b64) {
  // base64 of little-endian float64 (heatmap.py `encode`); -inf stays -inf
  const text = atob(b64), bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return new Float64Array(bytes.buffer);
}

function colour(scale, t) {
  // scale: [[position 0..1, [r, g, b]], ...]; t in [0, 1]
  t = Math.min(1, Math.max(0, t));
  for (let k = 1; k < scale.length; k++) {
    const [p1, c1] = scale[k];
    if (t <= p1) {
      const [p0, c0] = scale[k - 1];
      const u = p1 > p0 ? (t - p0) / (p1 - p0) : 0;
      return c0.map((v, i) => Math.round(v + u * (c1[i] - v)));
    }
  }
  return scale[scale.length - 1][1];
}

function rgb(c) {
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}

function fixed(v, decimals) {
  const s = v.toFixed(decimals);
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s; // never "-0.00"
}

function unit(v, decimals) {
  // a weight (0..1) on a cell: ".08", "1"; the hover keeps "0.08"
  const s = fixed(v, decimals);
  return Number(s) === 1 ? "1" : s.replace(/^0\./, ".");
}

function short(v) {
  return Number(v.toPrecision(2)).toString();
}

function rulerStep(cellPx, gapPx) {
  // the smallest of 1, 2, 5, 10, 20, 50, ... that puts labels gapPx apart
  for (let p = 1; ; p *= 10) {
    for (const s of [1, 2, 5]) if (s * p * cellPx >= gapPx) return s * p;
  }
}

function fit(g, text, px) {
  // the text, cut with "…" to at most px wide (the hover keeps all of it)
  if (g.measureText(text).width <= px) return text;
  let lo = 0, hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (g.measureText(text.slice(0, mid) + "…").width <= px) lo = mid; else hi = mid - 1;
  }
  return text.slice(0, lo) + "…";
}

function wrap(g, text, px) {
  // the title in lines at most px wide, broken at spaces but never inside its shape
  const lines = [];
  let line = "";
  for (const word of text.match(/\(\d+ × \d+\)|\S+/g) || [""]) {
    const next = line ? `${line} ${word}` : word;
    if (line && g.measureText(next).width > px) { lines.push(line); line = word; } else line = next;
  }
  return [...lines, line];
}

function rowHeight(n) {
  return n <= MAX_LABELLED ? Math.max(MIN_ROW_PX, Math.min(ROW_PX, MAX_CELLS_PX / n))
                           : MAX_CELLS_PX / n;
}

function layout(g, f, width) {
  // Where everything goes, from the labels' measured widths (no second pass needed).
  const [n, m] = f.shape;
  if (f.small) { // a figure of a grid: cells only, square
    const cellW = width / m;
    return { n, m, left: 0, top: 0, cellW, cellH: cellW, plotH: cellW * n, height: cellW * n,
             titleLines: [] };
  }
  g.font = `${TITLE_PX}px ${f.font}`;
  const titleLines = wrap(g, f.title, Math.max(60, width - 40)); // the PNG link on the right
  g.font = `${FONT_PX}px ${f.font}`;
  const widest = (labels) => Math.max(...labels.map((s) => g.measureText(s).width), 10);
  const rowLabelMax = Math.min(MAX_LABEL_PX, width * 0.35); // the cells keep most of a phone
  const rowLabel = Math.min(widest(f.rows), rowLabelMax);
  const colLabel = Math.min(widest(f.cols), MAX_LABEL_PX);
  const left = rowLabel + 10 + FONT_PX + 8;
  // Never narrower than MIN_COL_PX: 384 features in a third of a screen would blend into
  // a blur of about half as many columns. The figure grows wider and its box scrolls.
  const cellW = Math.min(MAX_CELL_W, Math.max(MIN_COL_PX, (width - left - 12) / m));
  const scrolls = left + m * cellW + 12 > width + 0.5;
  if (scrolls) titleLines.push(`scroll sideways: all ${m} columns`);
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

function drawCells(g, f, L, dpr) {
  // Cell edges on whole device pixels: edges in between blur into light seams between
  // cells a few pixels wide.
  // a white line between cells, unless they are too small to spare it (or a small figure)
  const z = f.values, gap = !f.small && L.cellW > 4 && L.cellH > 4 ? 1 : 0;
  // (Cells narrower than a pixel stay where they are, blended, rather than snap onto
  // each other and vanish.)
  const snap = (px) => (px * dpr >= 1 ? (v) => Math.round(v * dpr) / dpr : (v) => v);
  const [sx, sy] = [snap(L.cellW), snap(L.cellH)];
  const xs = Array.from({ length: L.m + 1 }, (_, j) => sx(L.left + j * L.cellW));
  const ys = Array.from({ length: L.n + 1 }, (_, i) => sy(L.top + i * L.cellH));
  const span = f.zmax - f.zmin || 1;
  g.font = `${FONT_PX}px ${f.font}`;
  g.textAlign = "center";
  const text = (v) => (f.unit ? unit(v, f.decimals) : fixed(v, f.decimals));
  // numbers on every cell or on none: the widest one drawn must fit its cell (a 3-digit
  // similarity spilled into its neighbours when only "-0.00" was measured)
  let widest = 0;
  if (f.numbers) {
    const drawn = new Set(Array.from(z, (v) => (Number.isFinite(v) ? text(v) : "-∞")));
    for (const t of drawn) widest = Math.max(widest, g.measureText(t).width);
  }
  const numbers = f.numbers && L.cellH >= 14 && L.cellW >= widest + 4;
  if (numbers) setFont(g, FONT_PX, f.font);
  L.numberPx = numbers ? FONT_PX : 0;
  L.numberRoom = numbers ? L.cellW - widest : null; // for the tests: at least 0
  L.minContrast = Infinity;
  for (let i = 0; i < L.n; i++) {
    for (let j = 0; j < L.m; j++) {
      const v = z[i * L.m + j], x = xs[j], y = ys[i];
      const masked = !Number.isFinite(v); // -inf has no colour: an empty cell
      const c = masked ? null : colour(f.scale, (v - f.zmin) / span);
      g.fillStyle = masked ? MASKED : rgb(c);
      g.fillRect(x, y, xs[j + 1] - x - gap, ys[i + 1] - y - gap);
      if (!numbers) continue;
      const [ink, ratio] = masked ? [hex(MUTED), contrast(hex(MUTED), hex(MASKED))]
                                  : numberColour(c);
      L.minContrast = Math.min(L.minContrast, ratio);
      g.fillStyle = rgb(ink);
      g.fillText(masked ? "-∞" : text(v), x + L.cellW / 2, y + L.cellH / 2);
    }
  }
}

function drawBand(g, f, L) {
  // the outline of the cells |i - j| <= w: down the left edges, up the right ones
  const w = f.band.width, pts = [];
  for (let i = 0; i < L.n; i++) pts.push([Math.max(0, i - w), i], [Math.max(0, i - w), i + 1]);
  for (let i = L.n - 1; i >= 0; i--) {
    const right = Math.min(L.m - 1, i + w) + 1;
    pts.push([right, i + 1], [right, i]);
  }
  g.beginPath();
  pts.forEach(([j, i], k) => {
    const x = L.left + j * L.cellW, y = L.top + i * L.cellH;
    if (k) g.lineTo(x, y); else g.moveTo(x, y);
  });
  g.closePath();
  g.strokeStyle = f.band.colour;
  g.lineWidth = 3;
  g.stroke();
}

function drawLabels(g, f, L) {
  g.fillStyle = INK;
  setFont(g, FONT_PX, f.font);
  g.textAlign = "right";
  const rs = f.rowPrefix !== null && L.n > MAX_LABELLED ? rulerStep(L.cellH, RULER_GAP_PX.rows)
                                                         : Math.ceil(MIN_ROW_PX / L.cellH);
  const pitch = [(rs * L.cellH) / FONT_PX];
  for (let i = 0; i < L.n; i += rs) {
    g.fillText(fit(g, f.rows[i], L.rowLabelMax), L.left - 4, L.top + (i + 0.5) * L.cellH);
  }
  const x = (j) => L.left + (j + 0.5) * L.cellW;
  if (L.upright) {
    const cs = L.ruler ? rulerStep(L.cellW, RULER_GAP_PX.cols) : 1;
    g.textAlign = "center";
    // upright labels side by side: the free space between two, over the font size
    const w = Math.max(...f.cols.filter((_, j) => j % cs === 0).map((c) => g.measureText(c).width));
    pitch.push(Math.max(0, cs * L.cellW - w) / FONT_PX + 1);
    for (let j = 0; j < L.m; j += cs) g.fillText(f.cols[j], x(j), L.colLabelY + FONT_PX / 2);
  } else {
    const px = L.cellW < 12 ? TURNED_FONT_PX : FONT_PX;
    const cs = Math.max(1, Math.ceil(Math.max(TURNED_GAP_PX, px) / L.cellW));
    setFont(g, px, f.font);
    pitch.push((cs * L.cellW) / px);
    g.textAlign = "right";
    for (let j = 0; j < L.m; j += cs) {
      g.save();
      g.translate(x(j), L.colLabelY);
      g.rotate(-Math.PI / 2);
      g.fillText(fit(g, f.cols[j], MAX_LABEL_PX), 0, 0);
      g.restore();
    }
  }
  L.labelPitch = Math.min(...pitch);
  setFont(g, FONT_PX, f.font);
  g.textAlign = "center";
  g.fillText(f.colTitle, L.left + (L.m * L.cellW) / 2, L.axisY + FONT_PX / 2);
  g.save();
  g.translate(FONT_PX / 2 + 2, L.top + L.plotH / 2);
  g.rotate(-Math.PI / 2);
  g.fillText(f.rowTitle, 0, 0);
  g.restore();
}

function drawBar(g, bar, x, y, w, font) {
  // a horizontal colour bar with its two ends and middle
  for (let k = 0; k < w; k++) {
    g.fillStyle = rgb(colour(bar.scale, k / Math.max(1, w - 1)));
    g.fillRect(x + k, y, 1, BAR_PX);
  }
  g.fillStyle = INK;
  setFont(g, FONT_PX, font);
  const ticks = [[bar.zmin, "left"], [(bar.zmin + bar.zmax) / 2, "center"], [bar.zmax, "right"]];
  ticks.forEach(([v, align], k) => {
    g.textAlign = align;
    g.fillText(short(v), x + (k * w) / 2, y + BAR_PX + FONT_PX / 2 + 3);
  });
}

function drawLegend(g, items, x, y, font) {
  // a few values that are not a range (a mask's 0 and -inf): a swatch and its text each
  g.font = `${FONT_PX}px ${font}`;
  g.textAlign = "left";
  for (const item of items) {
    g.fillStyle = item.colour ? rgb(item.colour) : MASKED;
    g.fillRect(x, y - 1, 2 * BAR_PX, BAR_PX + 2);
    g.strokeStyle = MUTED;
    g.lineWidth = 1;
    g.strokeRect(x + 0.5, y - 0.5, 2 * BAR_PX - 1, BAR_PX + 1);
    g.fillStyle = INK;
    g.fillText(item.text, x + 2 * BAR_PX + 6, y + BAR_PX / 2);
    x += 2 * BAR_PX + 6 + g.measureText(item.text).width + 18;
  }
}

function blank(canvas, g, width, height) {
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

function drawTitle(g, lines, font) {
  g.fillStyle = INK;
  setFont(g, TITLE_PX, font);
  g.textAlign = "left";
  lines.forEach((line, k) => g.fillText(line, 0, TITLE_LINE_PX * (k + 0.5) + 4));
}

function draw(canvas, f, width) {
  const g = canvas.getContext("2d");
  const L = layout(g, f, width);
  width = L.width || width; // wider than its box when its columns need the room
  const dpr = blank(canvas, g, width, L.height);
  drawCells(g, f, L, dpr);
  if (f.band) drawBand(g, f, L);
  if (f.small) return L;
  drawTitle(g, L.titleLines, f.font);
  drawLabels(g, f, L);
  const barW = Math.min(width - L.left - 12, Math.max(120, Math.min(L.m * L.cellW, 240)));
  if (f.legend) drawLegend(g, f.legend, L.left, L.barY, f.font);
  else drawBar(g, f, L.left, L.barY, barW, f.font);
  return L;
}

function hoverText(f, i, j) {
  const v = f.values[i * f.shape[1] + j];
  const value = Number.isFinite(v) ? fixed(v, f.decimals) : "-∞ (masked)";
  const lines = [`${f.rowTitle} ${i}: ${f.rows[i]}`, `${f.colTitle} ${j}: ${f.cols[j]}`,
                 `value: ${value}`];
  if (f.small) lines.unshift(f.title.split("   (")[0]);
  if (f.hover) lines.push(f.hover[i][j]);
  return lines.join("\n");
}

function fileName(title) {
  return `${(title.split("   (")[0].trim() || "matrix").replace(/[^\w.-]+/g, "_")}.png`;
}

function pngLink(canvasOf, name) {
  // a link that saves a canvas (made when clicked) as a PNG file
  const png = document.createElement("a");
  png.textContent = "PNG";
  png.title = "Download this figure as a PNG image";
  png.href = "#";
  Object.assign(png.style, { position: "absolute", top: "0", right: "0", fontSize: "12px" });
  png.addEventListener("click", (e) => {
    png.href = canvasOf().toDataURL("image/png");
    png.download = name();
    e.stopPropagation();
  });
  return png;
}

const HIDDEN = { position: "absolute", width: "1px", height: "1px", overflow: "hidden",
                 clip: "rect(0 0 0 0)", whiteSpace: "nowrap" }; // read out, not shown

// How a heatmap answers the pointer and the keys: a cell is [row, column].
const HEATMAP = {
  role: "heatmap",
  start: () => [0, 0],
  at(box, x, y) {
    const L = box.layout;
    const j = Math.floor((x - L.left) / L.cellW), i = Math.floor((y - L.top) / L.cellH);
    return i < 0 || j < 0 || i >= L.n || j >= L.m ? null : [i, j];
  },
  clamp(box, [i, j]) {
    const L = box.layout;
    return [Math.min(L.n - 1, Math.max(0, i)), Math.min(L.m - 1, Math.max(0, j))];
  },
  ring(box, [i, j]) {
    const L = box.layout;
    return { x: L.left + j * L.cellW, y: L.top + i * L.cellH,
             w: Math.max(2, L.cellW), h: Math.max(2, L.cellH) };
  },
  text: (box, [i, j]) => hoverText(box.figure, i, j),
  key(box, [i, j], key, ctrl) {
    const L = box.layout;
    const step = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (step[key]) return [i + step[key][0], j + step[key][1]];
    if (key === "Home") return [ctrl ? 0 : i, 0];
    if (key === "End") return [ctrl ? L.n - 1 : i, L.m - 1];
    return null;
  },
};

function figureBox(root, ops = HEATMAP, className = "cg-figure") {
  // A figure's box: its canvas, the hover box, the focused cell's outline and a live region.
  // `ops` says what a cell is for this kind of figure (HEATMAP; CHART in canvas_chart.js).
  const box = document.createElement("div");
  box.className = className;
  box.style.position = "relative";
  box.style.minWidth = "0";
  box.style.overflowX = "auto"; // a figure wider than its box (384 features) scrolls
  const canvas = document.createElement("canvas");
  // A widget of its own: the arrow keys move a focused cell (a screen reader hands them
  // over to an "application"; an "img" would keep them for its own reading).
  canvas.setAttribute("role", "application");
  canvas.setAttribute("aria-roledescription", ops.role);
  canvas.tabIndex = 0;
  canvas.style.display = "block";
  const tip = document.createElement("div");
  tip.className = "cg-hover";
  Object.assign(tip.style, {
    position: "absolute", display: "none", pointerEvents: "none", whiteSpace: "pre",
    background: INK, color: "#fff", font: `${FONT_PX}px sans-serif`,
    padding: "4px 6px", borderRadius: "4px", zIndex: 2,
  });
  const ring = document.createElement("div"); // the focused cell's outline
  ring.className = "cg-focus";
  Object.assign(ring.style, { position: "absolute", display: "none", pointerEvents: "none",
                              outline: `2px solid ${INK}`, boxShadow: "0 0 0 2px #fff inset" });
  const said = document.createElement("div"); // the live region: the focused cell, in words
  said.className = "cg-said";
  said.setAttribute("aria-live", "polite");
  Object.assign(said.style, HIDDEN);
  const show = (cell, x, y, flip) => {
    tip.textContent = ops.text(box, cell);
    tip.style.display = "block";
    tip.style.left = flip ? "" : `${x + 12}px`;
    tip.style.right = flip ? `${canvas.clientWidth - x + 12}px` : "";
    tip.style.top = `${y + 12}px`;
  };
  const hover = (e) => {
    const r = canvas.getBoundingClientRect();
    const x = e.clientX - r.left, y = e.clientY - r.top, cell = ops.at(box, x, y);
    if (!cell) { tip.style.display = "none"; return; }
    show(cell, x, y, e.clientX > window.innerWidth * 0.55); // keep the box on the screen
  };
  const focusCell = (cell) => {
    cell = ops.clamp(box, cell);
    box.cell = cell;
    const q = ops.ring(box, cell);
    Object.assign(ring.style, { display: "block", left: `${q.x}px`, top: `${q.y}px`,
                                width: `${q.w}px`, height: `${q.h}px` });
    const r = canvas.getBoundingClientRect();
    show(cell, q.x + q.w, q.y + Math.min(q.h, 24), r.left + q.x > window.innerWidth * 0.55);
    said.textContent = ops.text(box, cell).split("\n").join(", ");
  };
  canvas.addEventListener("keydown", (e) => {
    const next = ops.key(box, box.cell || ops.start(box), e.key, e.ctrlKey);
    if (!next) return;
    focusCell(next);
    e.preventDefault(); // the arrows move the cell, not the page
  });
  canvas.addEventListener("focus", () => focusCell(box.cell || ops.start(box)));
  canvas.addEventListener("blur", () => { tip.style.display = "none"; ring.style.display = "none"; });
  canvas.addEventListener("pointermove", hover); // a mouse
  canvas.addEventListener("pointerdown", hover); // a tap on a phone
  canvas.addEventListener("pointerleave", () => {
    if (document.activeElement !== canvas) tip.style.display = "none";
  });
  box.append(canvas, ring, tip, said);
  root.appendChild(box);
  return box;
}

function arrowBox(root, text) {
  const a = document.createElement("div");
  a.className = "cg-arrow";
  a.textContent = text;
  Object.assign(a.style, { display: "flex", alignItems: "center", justifyContent: "center",
                           fontSize: "28px", color: MUTED });
  root.appendChild(a);
  return a;
}

function label(root, text, style) {
  const d = document.createElement("div");
  d.className = "cg-label";
  d.textContent = text;
  Object.assign(d.style, { fontSize: "11px", color: INK, textAlign: "center",
                           alignSelf: "center", whiteSpace: "nowrap", ...style });
  root.appendChild(d);
  return d;
}

function gridImage(grid, bar) {
  // the whole grid of small figures, its labels and colour bar, as one canvas
  const r = grid.getBoundingClientRect(), dpr = window.devicePixelRatio || 1;
  const out = document.createElement("canvas");
  out.width = Math.round(r.width * dpr);
  out.height = Math.round((r.height + 40) * dpr);
  const g = out.getContext("2d");
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.fillStyle = "#fff";
  g.fillRect(0, 0, r.width, r.height + 40);
  g.textBaseline = "middle";
  g.textAlign = "center";
  g.font = `11px ${grid.font}`;
  for (const el of grid.querySelectorAll("canvas, .cg-label")) {
    const b = el.getBoundingClientRect(), x = b.left - r.left, y = b.top - r.top;
    if (el.tagName === "CANVAS") g.drawImage(el, x, y, b.width, b.height);
    else { g.fillStyle = INK; g.fillText(el.textContent, x + b.width / 2, y + b.height / 2); }
    const frame = el.tagName === "CANVAS" && el.parentElement.figure.frame;
    if (frame) {
      g.strokeStyle = frame;
      g.lineWidth = 3;
      g.strokeRect(x - 2, y - 2, b.width + 4, b.height + 4);
    }
  }
  drawBar(g, bar, 0, r.height + 8, Math.min(240, r.width), grid.font);
  return out;
}

function headings(root, sec) {
  if (sec.heading) {
    const h = document.createElement("h3");
    h.textContent = sec.heading;
    Object.assign(h.style, { fontSize: "1.5rem", fontWeight: "600", margin: "1.25rem 0 0.5rem",
                             color: "#31333f", lineHeight: "1.2" });
    root.appendChild(h);
  }
  if (sec.caption) {
    const p = document.createElement("p");
    p.textContent = sec.caption;
    Object.assign(p.style, { fontSize: "14px", color: MUTED, margin: "0 0 0.5rem" });
    root.appendChild(p);
  }
}

function sharedBar(wrapper, grid, sec, font) {
  // a grid of small figures: its colour bar, titled, and a PNG link for the whole grid
  const w = 240, h = BAR_PX + FONT_PX + 24, dpr = window.devicePixelRatio || 1;
  const bar = document.createElement("canvas");
  bar.className = "cg-bar";
  Object.assign(bar, { width: w * dpr, height: h * dpr });
  Object.assign(bar.style, { width: `${w}px`, height: `${h}px`, display: "block",
                             marginTop: "6px" });
  const g = bar.getContext("2d");
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.textBaseline = "middle";
  g.fillStyle = INK;
  g.font = `${FONT_PX}px ${font}`;
  g.fillText(sec.bar.title, 0, FONT_PX / 2);
  drawBar(g, sec.bar, 0, FONT_PX + 4, w - 4, font);
  const png = pngLink(() => gridImage(grid, sec.bar), () => `${sec.name || "grid"}.png`);
  Object.assign(png.style, { top: "", bottom: "0" }); // the top right holds a column label
  wrapper.append(bar, png);
}

function section(root, sec, narrow) {
  headings(root, sec);
  const small = Boolean(sec.labels); // a grid of small figures, labelled at its left and top
  const wrapper = document.createElement("div");
  wrapper.style.position = "relative";
  const grid = document.createElement("div");
  grid.className = "cg-grid";
  grid.font = root.font;
  const cols = sec.widths.map((w) => `minmax(0, ${w}fr)`).join(" ");
  Object.assign(grid.style, {
    display: "grid", gap: small ? "4px" : "16px 24px", alignItems: "start",
    // a phone: one figure per line, arrows pointing down; a grid of small ones stays a grid
    gridTemplateColumns: small ? `max-content ${cols}` : narrow ? "minmax(0, 1fr)" : cols,
  });
  wrapper.appendChild(grid);
  root.appendChild(wrapper);
  if (small) [" ", ...sec.labels.cols].forEach((c) => label(grid, c));
  const boxes = [];
  sec.items.forEach((it, k) => {
    if (small && k % sec.widths.length === 0) {
      label(grid, sec.labels.rows[k / sec.widths.length], { textAlign: "right" });
    }
    if (it.arrow) { arrowBox(grid, narrow ? "↓" : it.arrow); return; }
    if (it.chart) { boxes.push(chartBox(grid, it, root.font)); return; } // canvas_chart.js
    const box = figureBox(grid);
    box.figure = { ...it, values: decode(it.z), font: root.font };
    if (it.frame) Object.assign(box.style, { outline: `3px solid ${it.frame}`, outlineOffset: "1px" });
    if (!it.small) box.append(pngLink(() => box.querySelector("canvas"), () => fileName(it.title)));
    boxes.push(box);
  });
  if (small && sec.bar) sharedBar(wrapper, grid, sec, root.font);
  // All widths first (one layout of the page), then all drawing: reading a width after
  // each drawing made the browser lay the page out again for every figure.
  const widths = boxes.map((box) => box.clientWidth || 300);
  boxes.forEach((box, k) => {
    if (box.chart) { drawChartBox(box, widths[k]); return; }
    const f = box.figure, canvas = box.querySelector("canvas");
    canvas.setAttribute("aria-label", f.title);
    canvas.setAttribute("aria-description", `${f.shape[0]} ${f.rowTitle}s by ${f.shape[1]} `
      + `${f.colTitle}s. The arrow keys move from cell to cell and read each one; `
      + "the numbers are also in a table on this page.");
    box.layout = draw(canvas, f, widths[k]);
    canvas.dataset.firstRow = f.rows[0]; // for the tests and bench/bench_app.py
    canvas.dataset.rows = JSON.stringify(f.rows);
    canvas.dataset.shape = f.shape.join("x");
    const g = canvas.getContext("2d"), L = box.layout;
    canvas.dataset.minFontPx = Number.isFinite(g.minFontPx) ? g.minFontPx : 0; // 0: no text
    canvas.dataset.numberPx = L.numberPx;
    canvas.dataset.numberRoom = L.numberRoom === null ? "" : L.numberRoom.toFixed(1);
    canvas.dataset.minContrast = Number.isFinite(L.minContrast) ? L.minContrast.toFixed(2) : "";
    canvas.dataset.labelPitch = L.labelPitch === undefined ? "" : L.labelPitch.toFixed(2);
  });
}

function render(root, sections) {
  const narrow = root.clientWidth < 640; // a phone: one figure per line, arrows point down
  root.replaceChildren();
  for (const sec of sections) section(root, sec, narrow);
  root.dataset.drawn = String((Number(root.dataset.drawn) || 0) + 1);
}

export default function ({ parentElement, data }) {
  let root = parentElement.querySelector(".cg-root");
  if (!root) {
    root = document.createElement("div");
    root.className = "cg-root";
    parentElement.appendChild(root);
    root.font = `${getComputedStyle(parentElement).fontFamily || "sans-serif"}`;
  }
  if (!root.observer) { // redraw when the page's width changes (window resize, sidebar)
    let lastWidth = root.clientWidth;
    root.observer = new ResizeObserver(() => {
      if (Math.abs(root.clientWidth - lastWidth) > 1 && root.sections) {
        lastWidth = root.clientWidth;
        render(root, root.sections);
      }
    });
    root.observer.observe(root);
  }
  root.sections = data.sections;
  render(root, data.sections);
  return () => {
    root.observer.disconnect();
    root.observer = null;
  };
}
