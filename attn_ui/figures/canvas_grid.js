// Sections of labelled heatmaps drawn on <canvas>, for the overview page (attn_ui/canvas_grid.py).
// Each figure reads like the maths: row 0 on top, one row per token, a diverging scale
// centred at 0 for signed values and 0..1 for weights, numbers on cells when they fit,
// masked cells empty, hover text naming the cell, and a PNG download.
// Labels are drawn with fillText and the hover is set with textContent: nothing a
// learner types is ever read as HTML.

// Rows are at least 12 px, so every row keeps its label; turned column labels need 9 px
// each (11 px type below 12 px), so up to about 40 tokens fit in a half-page figure.
const ROW_PX = 24, MAX_CELLS_PX = 600, MIN_ROW_PX = 12, LABEL_GAP_PX = 12, TURNED_GAP_PX = 9;
const FONT_PX = 12, TITLE_PX = 15, BAR_PX = 10;

function decode(b64) {
  // base64 of little-endian float64 (attn_ui/canvas_grid.py `encode`); -inf stays -inf
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

function fixed(v, decimals) {
  const s = v.toFixed(decimals);
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s; // never "-0.00"
}

function short(v) {
  return Number(v.toPrecision(2)).toString();
}

function layout(g, f, width) {
  // Where everything goes, from the labels' measured widths (no second pass needed).
  const [n, m] = f.shape;
  g.font = `${FONT_PX}px ${f.font}`;
  const rowLabel = Math.max(...f.rows.map((r) => g.measureText(r).width), 10);
  const colLabel = Math.max(...f.cols.map((c) => g.measureText(c).width), 10);
  const left = Math.min(rowLabel, 200) + 10 + FONT_PX + 8;
  const cellW = Math.min(80, Math.max(1, (width - left - 12) / m)); // a few columns stay a matrix
  const upright = f.prefix !== null || (colLabel <= cellW - 2 && m <= 8);
  const bottomLabels = upright ? FONT_PX + 6 : Math.min(colLabel, 200) + 8;
  const top = TITLE_PX + 16;
  const cellH = Math.max(MIN_ROW_PX, Math.min(ROW_PX, MAX_CELLS_PX / n));
  const plotH = cellH * n;
  const bottom = bottomLabels + FONT_PX + 10 + BAR_PX + FONT_PX + 14;
  return { n, m, left, top, cellW, cellH, plotH, upright, height: top + plotH + bottom,
           colLabelY: top + plotH + 4, axisY: top + plotH + bottomLabels + 4,
           barY: top + plotH + bottomLabels + FONT_PX + 12 };
}

function every(cellPx, gap = LABEL_GAP_PX) {
  return Math.max(1, Math.ceil(gap / cellPx)); // label every k-th row or column
}

function draw(canvas, f, width) {
  const g = canvas.getContext("2d");
  const L = layout(g, f, width);
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * dpr);
  canvas.height = Math.round(L.height * dpr);
  canvas.style.width = `${width}px`;
  canvas.style.height = `${L.height}px`;
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.fillStyle = "#fff";
  g.fillRect(0, 0, width, L.height);
  g.textBaseline = "middle";
  g.fillStyle = "#262730";
  g.font = `${TITLE_PX}px ${f.font}`;
  g.textAlign = "left";
  g.fillText(f.title, 0, TITLE_PX / 2 + 4);
  g.font = `${FONT_PX}px ${f.font}`;
  const z = f.values, gap = L.cellW > 4 && L.cellH > 4 ? 1 : 0;
  const span = f.zmax - f.zmin || 1;
  const widest = g.measureText(`-${fixed(0, f.decimals)}`).width;
  const showNumbers = f.numbers && L.cellH >= 14 && L.cellW >= widest + 4;
  for (let i = 0; i < L.n; i++) {
    for (let j = 0; j < L.m; j++) {
      const v = z[i * L.m + j], x = L.left + j * L.cellW, y = L.top + i * L.cellH;
      if (!Number.isFinite(v)) {
        g.fillStyle = "#f0f2f6"; // masked: an empty cell, as -inf has no colour
        g.fillRect(x, y, L.cellW - gap, L.cellH - gap);
        if (showNumbers) {
          g.fillStyle = "#808495";
          g.textAlign = "center";
          g.fillText("-∞", x + L.cellW / 2, y + L.cellH / 2);
        }
        continue;
      }
      const c = colour(f.scale, (v - f.zmin) / span);
      g.fillStyle = `rgb(${c[0]},${c[1]},${c[2]})`;
      g.fillRect(x, y, L.cellW - gap, L.cellH - gap);
      if (showNumbers) {
        const dark = 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2] < 140;
        g.fillStyle = dark ? "#fff" : "#262730";
        g.textAlign = "center";
        g.fillText(fixed(v, f.decimals), x + L.cellW / 2, y + L.cellH / 2);
      }
    }
  }
  g.fillStyle = "#262730";
  g.textAlign = "right";
  const rs = every(L.cellH);
  for (let i = 0; i < L.n; i += rs) g.fillText(f.rows[i], L.left - 4, L.top + (i + 0.5) * L.cellH);
  if (f.prefix !== null) { // numbered features: a few level numbers, like an axis
    const cs = Math.max(1, Math.ceil(48 / L.cellW));
    g.textAlign = "center";
    for (let j = 0; j < L.m; j += cs) g.fillText(f.cols[j], L.left + (j + 0.5) * L.cellW, L.colLabelY + FONT_PX / 2);
  } else if (L.upright) {
    g.textAlign = "center";
    for (let j = 0; j < L.m; j++) g.fillText(f.cols[j], L.left + (j + 0.5) * L.cellW, L.colLabelY + FONT_PX / 2);
  } else {
    const cs = every(L.cellW, TURNED_GAP_PX);
    if (L.cellW < 12) g.font = `${FONT_PX - 1}px ${f.font}`;
    g.textAlign = "right";
    for (let j = 0; j < L.m; j += cs) {
      g.save();
      g.translate(L.left + (j + 0.5) * L.cellW, L.colLabelY);
      g.rotate(-Math.PI / 2);
      g.fillText(f.cols[j], 0, 0);
      g.restore();
    }
  }
  g.font = `${FONT_PX}px ${f.font}`;
  g.textAlign = "center";
  g.fillText(f.colTitle, L.left + (L.m * L.cellW) / 2, L.axisY + FONT_PX / 2);
  g.save();
  g.translate(FONT_PX / 2 + 2, L.top + L.plotH / 2);
  g.rotate(-Math.PI / 2);
  g.fillText(f.rowTitle, 0, 0);
  g.restore();
  const barW = Math.min(width - L.left - 12, Math.max(120, Math.min(L.m * L.cellW, 240)));
  for (let k = 0; k < barW; k++) {
    const c = colour(f.scale, k / Math.max(1, barW - 1));
    g.fillStyle = `rgb(${c[0]},${c[1]},${c[2]})`;
    g.fillRect(L.left + k, L.barY, 1, BAR_PX);
  }
  g.fillStyle = "#262730";
  const ticks = [[f.zmin, "left"], [(f.zmin + f.zmax) / 2, "center"], [f.zmax, "right"]];
  ticks.forEach(([v, align], k) => {
    g.textAlign = align;
    g.fillText(short(v), L.left + (k * barW) / 2, L.barY + BAR_PX + FONT_PX / 2 + 3);
  });
  return L;
}

function hoverText(f, i, j) {
  const v = f.values[i * f.shape[1] + j];
  const value = Number.isFinite(v) ? fixed(v, f.decimals) : "-∞ (masked)";
  return `${f.rowTitle} ${i}: ${f.rows[i]}\n${f.colTitle} ${j}: ${f.cols[j]}\nvalue: ${value}`;
}

function figureBox(root) {
  const box = document.createElement("div");
  box.className = "cg-figure";
  box.style.position = "relative";
  box.style.minWidth = "0";
  const canvas = document.createElement("canvas");
  canvas.setAttribute("role", "img");
  const tip = document.createElement("div");
  tip.className = "cg-hover";
  Object.assign(tip.style, {
    position: "absolute", display: "none", pointerEvents: "none", whiteSpace: "pre",
    background: "#262730", color: "#fff", font: `${FONT_PX}px sans-serif`,
    padding: "4px 6px", borderRadius: "4px", zIndex: 2,
  });
  const png = document.createElement("a");
  png.textContent = "PNG";
  png.title = "Download this figure as a PNG image";
  png.href = "#";
  Object.assign(png.style, { position: "absolute", top: "0", right: "0", fontSize: "12px" });
  png.addEventListener("click", (e) => {
    png.href = canvas.toDataURL("image/png");
    png.download = `${(box.figure.title.split("(")[0].trim() || "matrix").replace(/[^\w.-]+/g, "_")}.png`;
    e.stopPropagation();
  });
  const hover = (e) => {
    const L = box.layout, r = canvas.getBoundingClientRect();
    const x = e.clientX - r.left, y = e.clientY - r.top;
    const j = Math.floor((x - L.left) / L.cellW), i = Math.floor((y - L.top) / L.cellH);
    if (i < 0 || j < 0 || i >= L.n || j >= L.m) { tip.style.display = "none"; return; }
    tip.textContent = hoverText(box.figure, i, j);
    tip.style.display = "block";
    const flip = x > r.width * 0.6;
    tip.style.left = flip ? "" : `${x + 12}px`;
    tip.style.right = flip ? `${r.width - x + 12}px` : "";
    tip.style.top = `${y + 12}px`;
  };
  canvas.addEventListener("pointermove", hover); // a mouse
  canvas.addEventListener("pointerdown", hover); // a tap on a phone
  canvas.addEventListener("pointerleave", () => { tip.style.display = "none"; });
  box.append(canvas, tip, png);
  root.appendChild(box);
  return box;
}

function arrowBox(root, text) {
  const a = document.createElement("div");
  a.className = "cg-arrow";
  a.textContent = text;
  Object.assign(a.style, { display: "flex", alignItems: "center", justifyContent: "center",
                           fontSize: "28px", color: "#808495" });
  root.appendChild(a);
  return a;
}

function section(root, sec, narrow) {
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
    Object.assign(p.style, { fontSize: "14px", color: "#808495", margin: "0 0 0.5rem" });
    root.appendChild(p);
  }
  const grid = document.createElement("div");
  grid.className = "cg-grid";
  Object.assign(grid.style, { display: "grid", gap: "16px 24px", alignItems: "start" });
  grid.style.gridTemplateColumns = narrow
    ? "minmax(0, 1fr)"
    : sec.widths.map((w) => `minmax(0, ${w}fr)`).join(" ");
  root.appendChild(grid);
  const boxes = [];
  for (const it of sec.items) {
    if (it.arrow) { arrowBox(grid, narrow ? "↓" : it.arrow); continue; }
    const box = figureBox(grid);
    box.figure = { ...it, values: decode(it.z), font: root.font };
    boxes.push(box);
  }
  // All widths first (one layout of the page), then all drawing: reading a width after
  // each drawing made the browser lay the page out again for every figure.
  const widths = boxes.map((box) => box.clientWidth || 300);
  boxes.forEach((box, k) => {
    const f = box.figure, canvas = box.querySelector("canvas");
    canvas.setAttribute("aria-label", f.title);
    box.layout = draw(canvas, f, widths[k]);
    canvas.dataset.firstRow = f.rows[0]; // for the tests and bench/bench_app.py
    canvas.dataset.rows = JSON.stringify(f.rows);
    canvas.dataset.shape = f.shape.join("x");
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
