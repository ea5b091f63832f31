/**
 * A `LIKE` pattern that finds `q` anywhere, lower-cased, with `%`, `_` and `\` taken literally
 * (so a search for "50%" means the text "50%"). Compare it with a lower-cased column.
 */
export const containsPattern = (q: string) =>
  `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
