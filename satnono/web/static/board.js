// The board: clues above and left of the grid, placement counts right and below,
// all in one CSS grid so that every clue lines up with its row or column.

import { BACKGROUND, PALETTE, clues, height, width } from "./doc.js";

const COLORS = Object.fromEntries(PALETTE.map((p) => [p.char, p.color]));

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
  }

  build(w, h) {
    this.w = w;
    this.h = h;
    const root = this.root;
    root.replaceChildren();
    const size = Math.max(10, Math.min(28, Math.floor(620 / Math.max(w, h))));
    root.style.setProperty("--cell", `${size}px`);
    root.style.setProperty("--clue-font", `${Math.max(9, Math.round(size * 0.58))}px`);
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
    for (let r = 0; r < h; r++) {
      const row = doc.grid[r];
      for (let c = 0; c < w; c++) {
        const el = this.cells[r][c];
        const ch = row[c];
        if (el.dataset.v !== ch) {
          el.dataset.v = ch;
          el.style.backgroundColor = ch === BACKGROUND ? "" : COLORS[ch] || "#888";
          el.classList.toggle("ink", ch !== BACKGROUND);
        }
      }
    }
    const { rows, cols } = clues(doc);
    rows.forEach((clue, r) => this._clue(this.rowClues[r], clue, doc.row_clues[r] != null));
    cols.forEach((clue, c) => this._clue(this.colClues[c], clue, doc.column_clues[c] != null));
    const box = this.corner.getBoundingClientRect(); // the clue areas' current size: keep at least that
    this.root.style.setProperty("--row-clues", `${box.width}px`);
    this.root.style.setProperty("--col-clues", `${box.height}px`);
  }

  _clue(el, clue, typed) {
    const text = (clue.length ? clue : [0]).join(" ");
    if (el.dataset.text !== text) {
      el.dataset.text = text;
      el.replaceChildren(...(clue.length ? clue : [0]).map((n) => {
        const s = document.createElement("span");
        s.textContent = String(n);
        if (n >= 10) s.className = "wide";
        return s;
      }));
    }
    el.classList.toggle("typed", typed);
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
      el.classList.toggle("long", el.textContent.length > 2); // digits stacked under a narrow column
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
      el.style.backgroundColor = ch === BACKGROUND ? "#ffffff" : COLORS[ch] || "#888";
    }
    for (const [r, c] of reveals) this.cells[r]?.[c]?.classList.add("reveal");
  }

  clearPreview() {
    for (const row of this.cells) {
      for (const el of row) {
        if (el.classList.contains("preview")) {
          el.classList.remove("preview");
          const ch = el.dataset.v;
          el.style.backgroundColor = ch === BACKGROUND ? "" : COLORS[ch] || "#888";
        }
        el.classList.remove("reveal");
      }
    }
  }
}
