// A figure's words in the room they have: a label cut to a width, a title in lines, and the
// name its PNG is saved under. `textWidth(text)` is the width of text in the type in use
// (a canvas's measureText; the tests give their own).

export function fit(textWidth, text, px) {
  // the text, cut with "…" to at most px wide (the hover keeps all of it)
  if (textWidth(text) <= px) return text;
  let lo = 0, hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (textWidth(text.slice(0, mid) + "…") <= px) lo = mid; else hi = mid - 1;
  }
  return text.slice(0, lo) + "…";
}

export function wrap(textWidth, text, px) {
  // the title in lines at most px wide, broken at spaces but never inside its shape
  const lines = [];
  let line = "";
  for (const word of text.match(/\(\d+ × \d+\)|\S+/g) || [""]) {
    const next = line ? `${line} ${word}` : word;
    if (line && textWidth(next) > px) { lines.push(line); line = word; } else line = next;
  }
  return [...lines, line];
}

export function fileName(title) {
  // the PNG's name: the title without its shape, in letters and digits of any language
  // (every file system takes them: a Chinese title keeps its characters), "_" for the rest
  return `${(title.split("   (")[0].trim() || "matrix").replace(/[^\p{L}\p{N}_.-]+/gu, "_")}.png`;
}
