// The words a figure says in the hover box, the live region and to screen readers. The page
// sends them in its language with the figures (canvas_grid.py `WORDS`); these are the same
// messages in English, for a figure sent without them (the tests').

export const ENGLISH = {
  masked: "{value} (masked)",
  value: "value: {value}",
  bin: "{title} from {low} to {high}",
  point: "point",
  queries: "queries",
  keys: "keys",
  query: "query {index}: {token}",
  key: "key {index}: {token}",
  weight: "weight: {value}",
  download: "Download this figure as a PNG image",
};

export function say(words, name, fields = {}) {
  // the message `name` in the figure's words (else in English), its {fields} filled in one
  // pass: a token that reads "{value}" stays as it is
  const message = (words && words[name]) || ENGLISH[name];
  return message.replace(/\{(\w+)\}/g, (whole, field) => (field in fields ? String(fields[field]) : whole));
}
