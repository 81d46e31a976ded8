// The editor's document model: a picture as row strings (one character per cell,
// '.' background, the palette's characters for colours), the palette, typed clues,
// and an undo history.
// Pure functions and one small class; no DOM here.

export const BACKGROUND = ".";
/** The black-and-white palette: the background, then black drawing with '#'. */
export const BW_PALETTE = [
  { name: "white", char: BACKGROUND, rgb: "#ffffff" },
  { name: "black", char: "#", rgb: "#000000" },
];

// The library's limits and defaults, as api/state sends them (configure): the largest side,
// the most block colours, what a new colour is called and drawn with (in order), and the
// characters new colours get (ones a typed clue can name).
export let MAX_SIDE = 0;
export let MAX_COLORS = 0;
let DEFAULT_COLORS = [];
let SPARE_CHARS = "";

/** Take the limits and defaults of api/state: {max_side, max_colors, default_colors, spare_chars}. */
export function configure(limits) {
  MAX_SIDE = limits.max_side;
  MAX_COLORS = limits.max_colors;
  DEFAULT_COLORS = limits.default_colors;
  SPARE_CHARS = limits.spare_chars;
}

/** The palette of a document: the background first, then the block colours. */
export function palette(doc) { return doc.palette || BW_PALETTE; }

/** True for a triddler's document (a triangle grid: ``geometry``, ``lane_clues``, ``polygons``, ``lanes``). */
export function isTriddler(doc) { return doc.geometry != null; }

/** Every typed clue slot of a document (rows and columns, or a triddler's lanes). */
function typedClues(doc) { return isTriddler(doc) ? doc.lane_clues : [...doc.row_clues, ...doc.column_clues]; }

/** True for a document with more than one block colour. */
export function isColor(doc) { return palette(doc).length > 2; }

/** A blotted block's length in a clue: hidden, at least 1 (the library's "?"). */
export const BLOT = "?";

/** The clue of one line (a string of cell characters): its blocks, [length, char] each. */
export function lineClue(cells) {
  const out = [];
  let prev = BACKGROUND;
  for (const ch of cells) {
    if (ch !== BACKGROUND) {
      if (ch === prev) out[out.length - 1][0] += 1;
      else out.push([1, ch]);
    }
    prev = ch;
  }
  return out;
}

/** A typed clue as [length, char] blocks (a plain length is a block of the first colour). */
export function typedBlocks(doc, clue) {
  const first = palette(doc)[1].char;
  return clue.map((b) => (Array.isArray(b) ? b : [b, first]));
}

/** A clue as a person types it: "3 1" in black and white, "3a 1b" in colour ("?", "?a" for a blot), "0" when empty. */
export function clueText(doc, blocks) {
  if (!blocks.length) return "0";
  const color = isColor(doc);
  return blocks.map(([n, ch]) => (color ? `${n}${ch}` : String(n))).join(" ");
}

export function column(grid, c) {
  let s = "";
  for (const row of grid) s += row[c];
  return s;
}

/** Row and column clues a player sees, as [length, char] blocks: the typed clue where there is one, else the picture's. */
export function clues(doc) {
  const typed = (t, cells) => (t == null ? lineClue(cells) : typedBlocks(doc, t));
  const rows = doc.grid.map((row, r) => typed(doc.row_clues[r], row));
  const cols = [];
  for (let c = 0; c < doc.grid[0].length; c++) cols.push(typed(doc.column_clues[c], column(doc.grid, c)));
  return { rows, cols };
}

export function width(doc) { return doc.grid[0].length; }
export function height(doc) { return doc.grid.length; }

export function blank(w, h) {
  return {
    grid: Array.from({ length: h }, () => BACKGROUND.repeat(w)),
    row_clues: Array(h).fill(null), column_clues: Array(w).fill(null),
    palette: null, name: null, meta: [], level: null, format: null, givens: [],
  };
}

/** Add cells (``[[r, c], ...]``) to the cells revealed to the player; true when any is new. */
export function reveal(doc, cells) {
  const have = new Set((doc.givens || []).map(([r, c]) => `${r},${c}`));
  const add = cells.filter(([r, c]) => !have.has(`${r},${c}`));
  if (!add.length) return false;
  doc.givens = [...(doc.givens || []), ...add.map(([r, c]) => [r, c])].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return true;
}

/** Mark cell (r, c) (a triddler's: the k-th triangle of row r) revealed to the player, or unmark it when it is. */
export function toggleGiven(doc, r, c) {
  const had = (doc.givens || []).some(([gr, gc]) => gr === r && gc === c);
  if (had) doc.givens = doc.givens.filter(([gr, gc]) => gr !== r || gc !== c);
  else reveal(doc, [[r, c]]);
}

/** The cell number of a triddler's cell [r, k] (its rows' cells are numbered in turn). */
export function cellNumber(doc, r, k) {
  let n = k;
  for (let i = 0; i < r; i++) n += doc.grid[i].length;
  return n;
}

/** Forget the typed clues of the lanes through a cell (an edit recomputes them from the picture). */
export function untypeLanesAt(doc, r, c) {
  if (!isTriddler(doc)) {
    doc.row_clues[r] = null;
    doc.column_clues[c] = null;
    return;
  }
  const cell = cellNumber(doc, r, c);
  doc.lanes.forEach((lane, i) => { if (lane.cells.includes(cell)) doc.lane_clues[i] = null; });
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
  d.givens = (doc.givens || []).filter(([r, c]) => r < h && c < w); // revealed cells still in the picture
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

export function inverted(doc, ink = "#") {
  const d = clone(doc);
  d.grid = doc.grid.map((row) => Array.from(row, (ch) => (ch === BACKGROUND ? ink : BACKGROUND)).join(""));
  return d;
}

export function cleared(doc) {
  const d = clone(doc);
  d.grid = doc.grid.map((row) => BACKGROUND.repeat(row.length));
  if (isTriddler(d)) {
    d.lane_clues = d.lane_clues.map(() => null);
    return d;
  }
  d.row_clues = d.row_clues.map(() => null);
  d.column_clues = d.column_clues.map(() => null);
  return d;
}

/**
 * Parse a typed clue for a document: "3 1 2" (or "3,1,2"), in colour "3a 1b" with the
 * palette's characters (a bare length is the first colour); "?" (in colour "?a") is a
 * blotted block, its length hidden (at least 1); "0" is an empty line;
 * null for empty text (use the picture's own clue).  Blocks come back as [length, char].
 */
export function parseClue(text, max, doc = null) {
  const t = text.trim();
  if (!t) return null;
  const pal = doc ? palette(doc) : BW_PALETTE;
  const chars = new Set(pal.slice(1).map((p) => p.char));
  const out = [];
  for (const p of t.split(/[\s,]+/)) {
    const m = /^(\d+|\?)(.?)$/u.exec(p);
    if (!m) throw new Error(`"${p}" is not a block (a length or ?, then a colour character in colour: 3a, ?a)`);
    const n = m[1] === BLOT ? BLOT : Number(m[1]);
    const ch = m[2] || pal[1].char;
    if (!chars.has(ch)) throw new Error(`"${p}": no colour uses the character "${ch}" (the palette has ${[...chars].join(" ")})`);
    if (n !== BLOT && n > max) throw new Error(`a block of ${n} does not fit in ${max} cells`);
    if (n) out.push([n, ch]);
  }
  return out;
}

/** True when a clue (blocks) is the same as another. */
export function sameClue(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

// ---------------------------------------------------------------------------
// palette edits (each returns a new document, or throws with a message for the page)

/** True when colour ``i`` (1..K) is painted somewhere or named by a typed clue. */
export function colorUsed(doc, i) {
  const ch = palette(doc)[i].char;
  if (doc.grid.some((row) => row.includes(ch))) return true;
  const first = i === 1;
  const inClue = (clue) => clue != null && clue.some((b) => (Array.isArray(b) ? b[1] === ch : first));
  return typedClues(doc).some(inClue);
}

/** A copy with one more colour (the next default, or ``name``/``rgb``); the new char comes back too. */
export function addColor(doc, name = "", rgb = "") {
  const pal = palette(doc);
  if (pal.length - 1 >= MAX_COLORS) throw new Error(`at most ${MAX_COLORS} colours`);
  const names = new Set(pal.map((p) => p.name));
  const rgbs = new Set(pal.map((p) => p.rgb.toLowerCase()));
  const fresh = DEFAULT_COLORS.find(([nm, hex]) => !names.has(nm) && !rgbs.has(hex));
  let nm = name.trim() || (fresh ? fresh[0] : `color${pal.length}`);
  for (let k = 2; names.has(nm); k++) nm = `${name.trim() || (fresh ? fresh[0] : "color")}-${k}`;
  const hex = checkRgb(rgb || (fresh ? fresh[1] : "#808080"));
  const taken = new Set(pal.map((p) => p.char));
  const ch = [...SPARE_CHARS].find((c) => !taken.has(c));
  const d = clone(doc);
  d.palette = [...pal.map((p) => ({ ...p })), { name: nm, char: ch, rgb: hex }];
  return { doc: d, char: ch };
}

function checkRgb(rgb) {
  if (!/^#[0-9a-fA-F]{6}$/.test(rgb)) throw new Error(`"${rgb}" is not a colour like #ff8000`);
  return rgb.toLowerCase();
}

/** A copy with colour ``i``'s name and RGB changed. */
export function editColor(doc, i, name, rgb) {
  const pal = palette(doc);
  const nm = name.trim();
  if (!nm) throw new Error("a colour needs a name");
  if (nm.length > 40) throw new Error("a colour's name is at most 40 characters");
  if (pal.some((p, j) => j !== i && p.name === nm)) throw new Error(`another colour is named "${nm}"`);
  const d = clone(doc);
  d.palette = pal.map((p, j) => (j === i ? { ...p, name: nm, rgb: checkRgb(rgb) } : { ...p }));
  return d;
}

/** A copy without colour ``i`` (unused); the colours left keep their characters. */
export function removeColor(doc, i) {
  const pal = palette(doc);
  if (pal.length <= 2) throw new Error("a picture needs at least one colour");
  if (colorUsed(doc, i)) throw new Error(`${pal[i].name} is used: erase its cells (and typed clues) first`);
  const d = clone(doc);
  const first = pal[1].char;
  // a plain length in a typed clue means the first colour: name it before the first colour changes
  const named = (clue) => (clue == null ? null : clue.map((b) => (Array.isArray(b) ? b : [b, first])));
  if (isTriddler(d)) d.lane_clues = d.lane_clues.map(named);
  else {
    d.row_clues = d.row_clues.map(named);
    d.column_clues = d.column_clues.map(named);
  }
  const rest = pal.filter((_, j) => j !== i).map((p) => ({ ...p }));  // one colour left keeps its character
  d.palette = rest;
  return d;
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

// ---------------------------------------------------------------------------
// rules (the server checks them; the page only spells and mirrors)

const AXES = ["left-right", "top-bottom", "rotate180", "transpose"];

// what a rule with no meaning on a triangle grid is refused with (the library refuses them too)
const NOT_ON_TRIANGLES = {
  symmetric: "symmetry has no meaning on a triangle grid",
  "no-square": "2x2 squares have no meaning on a triangle grid",
  line: "a line rule's cells are (row, column) pairs, which a triangle grid has not",
};

/** A rule's JSON object from its command-line spelling (symmetric:AXIS, count:=N[:c],
 * count:>=N, count:<=N, no-square[:c], connected[:c]); throws an Error with the reason.
 * For a triddler's document, only the rules with a meaning on triangles (count, connected). */
export function ruleFromSpec(text, doc = null) {
  const [name, ...parts] = text.trim().split(":");
  if (doc && isTriddler(doc) && NOT_ON_TRIANGLES[name]) {
    throw new Error(`${name}: ${NOT_ON_TRIANGLES[name]} (a triddler takes count:=N, count:>=N, count:<=N, connected)`);
  }
  if (name === "symmetric") {
    if (parts.length !== 1 || !AXES.includes(parts[0])) throw new Error(`write symmetric:AXIS with AXIS one of ${AXES.join(", ")}`);
    return { rule: "symmetric", axis: parts[0] };
  }
  if (name === "count") {
    const m = parts.length >= 1 && parts.length <= 2 ? /^(=|>=|<=)(\d+)$/.exec(parts[0]) : null;
    if (!m) throw new Error("write count:=N, count:>=N or count:<=N (then :COLOUR for one colour)");
    const out = { rule: "count", op: m[1], n: Number(m[2]) };
    if (parts.length === 2) out.color = parts[1];
    return out;
  }
  if (name === "no-square" || name === "connected") {
    if (parts.length > 1) throw new Error(`write ${name} or ${name}:COLOUR`);
    return parts.length ? { rule: name, color: parts[0] } : { rule: name };
  }
  throw new Error(`unknown rule '${name}' (symmetric:AXIS, count:=N, no-square, connected)`);
}

/** A rule as the command line spells it (a line rule, which only files give, as JSON). */
export function ruleText(rule) {
  if (rule.rule === "symmetric") return `symmetric:${rule.axis}`;
  if (rule.rule === "count") return `count:${rule.op}${rule.n}${rule.color ? ":" + rule.color : ""}`;
  if (rule.rule === "no-square" || rule.rule === "connected") return rule.color ? `${rule.rule}:${rule.color}` : rule.rule;
  return JSON.stringify(rule);
}

function mirror(axis, h, w, r, c) {
  if (axis === "left-right") return [r, w - 1 - c];
  if (axis === "top-bottom") return [h - 1 - r, c];
  if (axis === "rotate180") return [h - 1 - r, w - 1 - c];
  return [c, r];
}

/** Cell (r, c) and every cell the document's symmetric rules tie to it (drawn together). */
export function mirrored(doc, r, c) {
  if (isTriddler(doc)) return [[r, c]];
  const h = height(doc), w = width(doc);
  const axes = (doc.rules || []).filter((x) => x.rule === "symmetric" && (x.axis !== "transpose" || h === w))
    .map((x) => x.axis);
  const seen = new Map([[`${r},${c}`, [r, c]]]);
  const todo = [[r, c]];
  while (todo.length) {
    const [rr, cc] = todo.pop();
    for (const a of axes) {
      const m = mirror(a, h, w, rr, cc);
      const key = `${m[0]},${m[1]}`;
      if (!seen.has(key)) { seen.set(key, m); todo.push(m); }
    }
  }
  return [...seen.values()];
}
