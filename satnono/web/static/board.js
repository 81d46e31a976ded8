// The board: clues above and left of the grid, placement counts right and below,
// all in one CSS grid so that every clue lines up with its row or column.

import { BACKGROUND, BLOT, clueText, clues, height, isColor, palette, width } from "./doc.js";

const INK = "#1d1d22"; // black in black and white: the page's ink, a little softer than #000

/** The WCAG 2.x relative luminance of ``rgb`` (#rrggbb or #rgb): its sRGB channels linearised, then weighted. */
export function luminance(rgb) {
  const hex = rgb.length === 4 ? [...rgb.slice(1)].map((d) => d + d).join("") : rgb.slice(1, 7);
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((x) => (x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The WCAG 2.x contrast ratio of two colours (#rrggbb), from 1 to 21. */
export function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Black or white text on ``rgb`` (#rrggbb), whichever has the higher contrast ratio: at least
 * 4.58:1 on any colour (the worst case, luminance 0.179, reads the same both ways). */
export function textOn(rgb) {
  return contrast(rgb, "#000000") >= contrast(rgb, "#ffffff") ? "#000000" : "#ffffff";
}

/** The smallest clue number font (CSS px): the cells grow to hold it on big boards (the page scrolls). */
export const MIN_CLUE_FONT = 11;

/** A big count in a few characters (the exact value is in the tooltip). */
export function shortCount(text) {
  if (text.length <= 4) return text;
  return `${text[0]}.${text[1]}e${text.length - 1}`;
}

export class Board {
  constructor(root) {
    this.root = root;
    this.w = 0;
    this.h = 0;
    this.cells = [];
    this.rowClues = [];
    this.colClues = [];
    this.rowCounts = [];
    this.colCounts = [];
    this.marks = new Map(); // "r,c" -> Set of overlay classes
    this.colors = {}; // char -> CSS colour of the current palette
    this.paletteKey = "";
  }

  fill(ch) { return ch === BACKGROUND ? "" : this.colors[ch] || "#888"; }

  /** Forget what is drawn: the next draw builds the grid again (a triddler's board had the root). */
  reset() { this.w = 0; this.h = 0; this.paletteKey = ""; }

  build(w, h) {
    this.w = w;
    this.h = h;
    const root = this.root;
    root.replaceChildren();
    this.base = Math.max(10, Math.min(28, Math.floor(620 / Math.max(w, h)))); // the cell size fitting ~620 px
    this.fitKey = ""; // _fit sets --cell: at least base, and enough for the clue numbers
    root.style.setProperty("--cell", `${this.base}px`);
    root.style.setProperty("--clue-font", `${Math.max(MIN_CLUE_FONT, Math.round(this.base * 0.58))}px`);
    // clue space is reserved and never shrinks while the size stays: the grid does not jump under the pen
    root.style.setProperty("--row-clues", `${Math.min(Math.ceil(w / 2), 8) * 1.5}em`);
    root.style.setProperty("--col-clues", `${Math.min(Math.ceil(h / 2), 8) * 1.2}em`);
    root.style.gridTemplateColumns = `minmax(var(--row-clues), auto) repeat(${w}, var(--cell)) auto`;
    root.style.gridTemplateRows = `minmax(var(--col-clues), auto) repeat(${h}, var(--cell)) auto`;
    const at = (el, row, col) => {
      el.style.gridRow = String(row);
      el.style.gridColumn = String(col);
      root.appendChild(el);
      return el;
    };
    const div = (cls, attrs = {}) => {
      const el = document.createElement("div");
      el.className = cls;
      for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
      return el;
    };
    this.corner = at(div("corner"), 1, 1);
    this.colClues = [];
    this.colCounts = [];
    for (let c = 0; c < w; c++) {
      this.colClues.push(at(div("clue col-clue", { "data-testid": `col-clue-${c}`, "data-col": c, title: `column ${c + 1}: click to type its clue` }), 1, c + 2));
      this.colCounts.push(at(div("count col-count", { "data-testid": `col-count-${c}` }), h + 2, c + 2));
    }
    this.rowClues = [];
    this.rowCounts = [];
    this.cells = [];
    for (let r = 0; r < h; r++) {
      this.rowClues.push(at(div("clue row-clue", { "data-testid": `row-clue-${r}`, "data-row": r, title: `row ${r + 1}: click to type its clue` }), r + 2, 1));
      const row = [];
      for (let c = 0; c < w; c++) {
        let cls = "cell";
        if ((c + 1) % 5 === 0 && c < w - 1) cls += " rule-right";
        if ((r + 1) % 5 === 0 && r < h - 1) cls += " rule-bottom";
        if (c === 0) cls += " edge-left";
        if (r === 0) cls += " edge-top";
        row.push(at(div(cls, { "data-row": r, "data-col": c }), r + 2, c + 2));
      }
      this.cells.push(row);
      this.rowCounts.push(at(div("count row-count", { "data-testid": `row-count-${r}` }), r + 2, w + 2));
    }
    this.marks = new Map();
  }

  /** Draw the picture and the clues of ``doc`` (rebuilding the grid when its size changed). */
  draw(doc) {
    const w = width(doc);
    const h = height(doc);
    if (w !== this.w || h !== this.h) this.build(w, h);
    const pal = palette(doc);
    const color = isColor(doc);
    const key = JSON.stringify(pal);
    if (key !== this.paletteKey) { // a colour changed: repaint every cell and clue
      this.paletteKey = key;
      this.colors = Object.fromEntries(pal.slice(1).map((p) => [p.char, color || p.rgb !== "#000000" ? p.rgb : INK]));
      this.names = Object.fromEntries(pal.map((p) => [p.char, p.name]));
      for (const row of this.cells) for (const el of row) delete el.dataset.v;
      for (const el of [...this.rowClues, ...this.colClues]) delete el.dataset.text;
    }
    for (let r = 0; r < h; r++) {
      const row = doc.grid[r];
      for (let c = 0; c < w; c++) {
        const el = this.cells[r][c];
        const ch = row[c];
        if (el.dataset.v !== ch) {
          el.dataset.v = ch;
          el.style.backgroundColor = this.fill(ch);
          el.classList.toggle("ink", ch !== BACKGROUND);
        }
      }
    }
    this.mark("given", doc.givens || []); // cells revealed to the player
    const { rows, cols } = clues(doc);
    // a column clue number has at most the height's digits (a typed one longer is refused):
    // painting never changes the cell size
    const blots = [...rows, ...cols].some((clue) => clue.some(([n]) => n === BLOT));
    this._fit(String(h).length, color || blots);
    rows.forEach((clue, r) => this._clue(this.rowClues[r], clue, doc.row_clues[r] != null, doc, color));
    cols.forEach((clue, c) => this._clue(this.colClues[c], clue, doc.column_clues[c] != null, doc, color));
    const box = this.corner.getBoundingClientRect(); // the clue areas' current size: keep at least that
    this.root.style.setProperty("--row-clues", `${box.width}px`);
    this.root.style.setProperty("--col-clues", `${box.height}px`);
  }

  /** Make the cells big enough that a column clue number of ``digits`` digits (a chip when
   * ``chips``, else plain, bold as in a conflict) fits its column and a clue fits its row's
   * height, as drawn at the board's clue font (measured on a hidden probe). */
  _fit(digits, chips) {
    const key = `${digits} ${chips}`;
    if (key === this.fitKey) return;
    this.fitKey = key;
    const probe = document.createElement("div");
    probe.className = `clue col-clue typed conflict${chips ? " chips" : ""}`;
    probe.style.cssText = "position: absolute; visibility: hidden; left: 0; top: 0;";
    const number = document.createElement("span");
    number.textContent = "8".repeat(digits);
    probe.appendChild(number);
    if (chips) {
      number.className = "chip";
      const blot = document.createElement("span");
      blot.className = "blot chip";
      blot.textContent = BLOT;
      probe.appendChild(blot);
    }
    this.root.appendChild(probe);
    let need = this.base;
    for (const s of probe.children) {
      const box = s.getBoundingClientRect();
      need = Math.max(need, Math.ceil(box.width) + 1, Math.ceil(box.height) + 1);
    }
    probe.remove();
    this.root.style.setProperty("--cell", `${need}px`);
  }

  /** One clue: plain numbers in black and white; in colour each block is a chip of its colour;
   * a blotted block (any puzzle) is a chip of its colour showing "?". */
  _clue(el, blocks, typed, doc, color) {
    const text = clueText(doc, blocks);
    if (el.dataset.text !== text) {
      el.dataset.text = text;
      el.classList.toggle("chips", color);
      el.replaceChildren(...(blocks.length ? blocks : [[0, null]]).map(([n, ch]) => {
        const s = document.createElement("span");
        s.textContent = String(n);
        if (n === BLOT) s.className = "blot"; // a blot of its colour: a filled rounded box with "?"
        if ((color || n === BLOT) && ch) {
          const rgb = this.colors[ch] || "#888888";
          s.classList.add("chip");
          s.style.backgroundColor = rgb;
          s.style.color = textOn(rgb);
          s.dataset.char = ch;
          s.title = n === BLOT ? `a blotted ${this.names[ch] || ch} block (${ch}): its length is hidden, at least 1`
            : `${n} ${this.names[ch] || ch} (${ch})`;
        }
        return s;
      }));
    }
    el.classList.toggle("typed", typed);
  }

  /** Show colour ``ch`` as ``rgb`` for now (while the colour picker moves; the next draw settles it). */
  recolor(ch, rgb) {
    for (const row of this.cells) for (const el of row) if (el.dataset.v === ch) el.style.backgroundColor = rgb;
    for (const s of this.root.querySelectorAll(`.chip[data-char="${CSS.escape(ch)}"]`)) {
      s.style.backgroundColor = rgb;
      s.style.color = textOn(rgb);
    }
  }

  /** Set one overlay class on exactly the given cells (``[[r, c], ...]``). */
  mark(cls, cells) {
    for (const row of this.cells) for (const el of row) el.classList.remove(cls);
    for (const [r, c] of cells) {
      if (r < this.h && c < this.w) this.cells[r][c].classList.add(cls);
    }
  }

  /** Placement counts beside rows and below columns (strings, or null for one placement). */
  counts(rows, cols) {
    const put = (el, v) => {
      const text = v == null ? "" : shortCount(v);
      if (el.textContent !== text) el.textContent = text;
      if (v == null) el.removeAttribute("title");
      else el.title = `${v} placements left after line logic`;
    };
    this.rowCounts.forEach((el, r) => put(el, rows ? rows[r] : null));
    this.colCounts.forEach((el, c) => {
      put(el, cols ? cols[c] : null);
      el.classList.toggle("long", el.textContent.length > 2); // turned to read downwards under a narrow column
    });
  }

  /** Mark the clues of conflicting lines (``[["row"|"column", i], ...]``). */
  conflict(lines) {
    for (const el of [...this.rowClues, ...this.colClues]) el.classList.remove("conflict");
    for (const [axis, i] of lines) {
      const el = axis === "row" ? this.rowClues[i] : this.colClues[i];
      if (el) el.classList.add("conflict");
    }
  }

  /** Show what a fix would change: cells to flip (``[[r, c, ch]]``) or cells to reveal. */
  preview(flips, reveals) {
    this.clearPreview();
    for (const [r, c, ch] of flips) {
      const el = this.cells[r]?.[c];
      if (!el) continue;
      el.classList.add("preview");
      el.style.backgroundColor = ch === BACKGROUND ? "#ffffff" : this.fill(ch);
    }
    for (const [r, c] of reveals) this.cells[r]?.[c]?.classList.add("reveal");
  }

  clearPreview() {
    for (const row of this.cells) {
      for (const el of row) {
        if (el.classList.contains("preview")) {
          el.classList.remove("preview");
          const ch = el.dataset.v;
          el.style.backgroundColor = this.fill(ch);
        }
        el.classList.remove("reveal");
      }
    }
  }
}
