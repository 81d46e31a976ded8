// The editor's document model: a picture as row strings (one character per cell,
// '.' background, palette characters for ink), typed clues, and an undo history.
// Pure functions and one small class; no DOM here.

export const BACKGROUND = ".";
export const MAX_SIDE = 100;

// The palette: a list, so that colour puzzles add entries instead of code.
export const PALETTE = [{ char: "#", name: "black", color: "#1d1d22" }];

/** The clue of one line (a string of cell characters): its block lengths. */
export function lineClue(cells) {
  const out = [];
  let run = 0;
  let prev = BACKGROUND;
  for (const ch of cells) {
    if (ch !== BACKGROUND && ch === prev) run += 1;
    else {
      if (run) out.push(run);
      run = ch === BACKGROUND ? 0 : 1;
    }
    prev = ch;
  }
  if (run) out.push(run);
  return out;
}

export function column(grid, c) {
  let s = "";
  for (const row of grid) s += row[c];
  return s;
}

/** Row and column clues a player sees: the typed clue where there is one, else the picture's. */
export function clues(doc) {
  const rows = doc.grid.map((row, r) => doc.row_clues[r] ?? lineClue(row));
  const cols = [];
  for (let c = 0; c < doc.grid[0].length; c++) cols.push(doc.column_clues[c] ?? lineClue(column(doc.grid, c)));
  return { rows, cols };
}

export function width(doc) { return doc.grid[0].length; }
export function height(doc) { return doc.grid.length; }

export function blank(w, h) {
  return {
    grid: Array.from({ length: h }, () => BACKGROUND.repeat(w)),
    row_clues: Array(h).fill(null), column_clues: Array(w).fill(null),
    name: null, meta: [], level: null, format: null,
  };
}

/** A deep copy, except a level's file contents (long immutable strings), which copies share. */
export function clone(doc) {
  const { level, ...rest } = doc;
  const out = JSON.parse(JSON.stringify(rest));
  out.level = level ? { ...level } : null;
  return out;
}

/** A copy resized to w x h: the top-left part of the picture is kept, new cells are background. */
export function resized(doc, w, h) {
  const d = clone(doc);
  w = Math.max(1, Math.min(MAX_SIDE, w | 0));
  h = Math.max(1, Math.min(MAX_SIDE, h | 0));
  const grid = [];
  for (let r = 0; r < h; r++) {
    const old = r < doc.grid.length ? doc.grid[r] : "";
    grid.push((old + BACKGROUND.repeat(w)).slice(0, w));
  }
  d.grid = grid;
  d.row_clues = Array.from({ length: h }, (_, r) => (r < doc.row_clues.length ? doc.row_clues[r] : null));
  d.column_clues = Array.from({ length: w }, (_, c) => (c < doc.column_clues.length ? doc.column_clues[c] : null));
  return d;
}

export function setCell(doc, r, c, ch) {
  const row = doc.grid[r];
  if (row[c] === ch) return false;
  doc.grid[r] = row.slice(0, c) + ch + row.slice(c + 1);
  return true;
}

export function inverted(doc, ink = PALETTE[0].char) {
  const d = clone(doc);
  d.grid = doc.grid.map((row) => Array.from(row, (ch) => (ch === BACKGROUND ? ink : BACKGROUND)).join(""));
  return d;
}

export function cleared(doc) {
  const d = clone(doc);
  d.grid = doc.grid.map((row) => BACKGROUND.repeat(row.length));
  d.row_clues = d.row_clues.map(() => null);
  d.column_clues = d.column_clues.map(() => null);
  return d;
}

/** Parse a typed clue ("3 1 2", "3,1,2", "0" or ""); null for empty (use the picture's). */
export function parseClue(text, max) {
  const t = text.trim();
  if (!t) return null;
  const parts = t.split(/[\s,]+/);
  const out = [];
  for (const p of parts) {
    if (!/^\d+$/.test(p)) throw new Error(`"${p}" is not a block length`);
    const n = Number(p);
    if (n > max) throw new Error(`a block of ${n} does not fit in ${max} cells`);
    if (n) out.push(n);
  }
  return out;
}

/** Undo/redo of whole documents (small: at most 100 x 100 characters each). */
export class History {
  constructor(limit = 200) { this.limit = limit; this.past = []; this.future = []; }
  push(doc) {
    this.past.push(clone(doc));
    if (this.past.length > this.limit) this.past.shift();
    this.future = [];
  }
  drop() { this.past.pop(); }
  undo(current) {
    if (!this.past.length) return null;
    this.future.push(clone(current));
    return this.past.pop();
  }
  redo(current) {
    if (!this.future.length) return null;
    this.past.push(clone(current));
    return this.future.pop();
  }
}
