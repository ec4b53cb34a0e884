// A figure's box in the page, shared by the heatmaps and the charts: its canvas, the hover
// box, the focused cell's outline, a live region that reads the focused cell out, and the
// PNG link. What a "cell" is, and what it says, is the caller's `ops` (canvas_grid.js's
// HEATMAP, canvas_chart.js's CHART).

import { INK } from "./colour.js";
import { FONT_PX } from "./sizes.js";
import { say } from "./words.js";

const HIDDEN = { position: "absolute", width: "1px", height: "1px", overflow: "hidden",
                 clip: "rect(0 0 0 0)", whiteSpace: "nowrap" }; // read out, not shown

export function pngLink(canvasOf, name, words) {
  // a link that saves a canvas (made when clicked) as a PNG file; its tooltip in the page's
  // `words` (js/words.js)
  const png = document.createElement("a");
  png.textContent = "PNG";
  png.title = say(words, "download");
  png.href = "#";
  Object.assign(png.style, { position: "absolute", top: "0", right: "0", fontSize: "12px" });
  png.addEventListener("click", (e) => {
    png.href = canvasOf().toDataURL("image/png");
    png.download = name();
    e.stopPropagation();
  });
  return png;
}

export function figureBox(root, ops, className) {
  // A figure's box, appended to root: its canvas, the hover box, the focused cell's outline
  // and a live region. `ops` says what a cell is for this kind of figure.
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
