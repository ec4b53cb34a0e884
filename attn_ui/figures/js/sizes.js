// The type and colour bar sizes every figure shares. No text of a figure is smaller than
// 11 px: a phone gets fewer numbers and labels, never smaller ones.

export const FONT_PX = 12;
export const TITLE_PX = 15;
export const TITLE_LINE_PX = 19;
export const BAR_PX = 10; // a colour bar's height
export const TURNED_FONT_PX = 11;
export const TURNED_GAP_PX = TURNED_FONT_PX; // turned labels at least this far apart
