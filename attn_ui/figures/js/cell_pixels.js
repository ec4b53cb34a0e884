// A heatmap's cells written straight into the canvas's pixels: the fast path of
// canvas_grid.js's drawCells, for cells with no numbers and no white line between them,
// each a device pixel or more (the explorer's 72 small heads, X's 384 features). The plain
// path sets a fillStyle and fills a rectangle per cell. Here each cell's colour is
// computed once and its pixels set. Cells under a device pixel (a head of 128 tokens in a
// 39 px square) blend into their neighbours on the plain path, and keep it.
//
// The same pixels as the plain path: its cells are snapped to whole device pixels, so a
// cell's rectangle covers exactly the pixels [xs[j], xs[j+1]) x [ys[i], ys[i+1]), and its
// colour is opaque (tests/js/cell_pixels.test.mjs fills both ways and compares).

export function cellPixels(values, n, m, xs, ys, colourOf) {
  // values: n x m, row by row; xs (m + 1) and ys (n + 1): the cells' edges in device
  // pixels from the region's corner (whole numbers, increasing); colourOf(v) -> [r, g, b].
  // Returns { width, height, data }: the region's RGBA pixels, every one a cell's.
  const width = xs[m] - xs[0], height = ys[n] - ys[0];
  const data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < n; i++) {
    const top = ys[i] - ys[0], bottom = ys[i + 1] - ys[0];
    if (bottom <= top) continue;
    const start = top * width * 4; // the cells' first pixel row, drawn then copied down
    for (let j = 0; j < m; j++) {
      const c = colourOf(values[i * m + j]);
      for (let x = xs[j] - xs[0]; x < xs[j + 1] - xs[0]; x++) {
        const p = start + x * 4;
        data[p] = c[0];
        data[p + 1] = c[1];
        data[p + 2] = c[2];
        data[p + 3] = 255;
      }
    }
    const row = data.subarray(start, start + width * 4);
    for (let y = top + 1; y < bottom; y++) data.set(row, y * width * 4);
  }
  return { width, height, data };
}
