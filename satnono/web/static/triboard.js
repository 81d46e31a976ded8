// The board of a triddler: one SVG, each cell a triangle from the outline the server sends
// (doc.polygons), each lane's clue along the outline (doc.lanes).  The same methods as Board
// (draw, mark, counts, conflict, preview, clearPreview, recolor), cells addressed as
// [row, k]: the k-th triangle of a row, left to right (given cells, fix proposals too).

import { BACKGROUND, BLOT, clueText, isColor, lineClue, palette, typedBlocks } from "./doc.js";
import { MIN_CLUE_FONT, textOn } from "./board.js";

const SVG = "http://www.w3.org/2000/svg";
const INK = "#1d1d22";
const ROW_HEIGHT = Math.sqrt(3) / 2;
// Where a family's clue stands and which way a lane reads: rows at their left end, / lines at
// their top end, \ lines at their lower-right end (as webpbn's six clue sets: one family a side
// of the outline); the numbers read along the lane, the first block farthest from its start.
const FAMILIES = {
  row: { atEnd: false, dir: [1, 0], step: 0.62 },
  "/": { atEnd: false, dir: [-0.5, ROW_HEIGHT], step: 0.56 },
  "\\": { atEnd: true, dir: [0.5, ROW_HEIGHT], step: 0.56 },
};
const FONT = 0.4; // clue font, in triangle sides
const GAP = 1.0; // from a lane's end (its first two cells' middle) to its nearest clue number
const S = 100; // SVG user units a triangle side (fonts of a fraction of a unit would be clamped)

function el(tag, attrs = {}) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

function centroid(poly) {
  return [poly.reduce((s, p) => s + p[0], 0) / poly.length, poly.reduce((s, p) => s + p[1], 0) / poly.length];
}

function points(poly) { return poly.map(([x, y]) => `${x * S},${y * S}`).join(" "); }

/** ``poly`` shrunk towards its centre by ``f`` (an outline inside the cell). */
function shrunk(poly, f) {
  const [cx, cy] = centroid(poly);
  return poly.map(([x, y]) => [cx + (x - cx) * f, cy + (y - cy) * f]);
}

export class TriBoard {
  constructor(root) {
    this.root = root;
    this.key = "";
    this.cells = []; // [row][k] -> polygon
    this.colors = {};
    this.paletteKey = "";
  }

  /** Forget what is drawn: the next draw builds the board again (another board had the root). */
  reset() { this.key = ""; this.paletteKey = ""; }

  fill(ch) { return ch === BACKGROUND ? "#ffffff" : this.colors[ch] || "#888"; }

  build(doc) {
    this.key = JSON.stringify(doc.geometry);
    const root = this.root;
    root.replaceChildren();
    root.style.gridTemplateColumns = "";
    root.style.gridTemplateRows = "";
    this.polys = doc.polygons;
    this.lanes = doc.lanes;
    this.where = []; // cell number -> [row, k]
    doc.grid.forEach((row, r) => { for (let k = 0; k < row.length; k++) this.where.push([r, k]); });
    const xs = this.polys.flat().map((p) => p[0]);
    const ys = this.polys.flat().map((p) => p[1]);
    this.box = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
    // a side's length in px: the board fits about 560 px, the clue numbers stay readable
    this.unit = Math.max(Math.ceil(MIN_CLUE_FONT / FONT), Math.min(46, Math.floor(560 / (this.box[2] - this.box[0] + 6))));
    const svg = el("svg", { class: "tri", "data-testid": "tri-board", role: "img", "aria-label": "triddler board" });
    const defs = el("defs");
    const hatch = el("pattern", { id: "tri-hatch", patternUnits: "userSpaceOnUse", width: String(0.14 * S), height: String(0.14 * S),
      patternTransform: "rotate(45)" });
    hatch.appendChild(el("rect", { width: String(0.05 * S), height: String(0.14 * S), class: "hatch" }));
    defs.appendChild(hatch);
    svg.appendChild(defs);
    const cellLayer = el("g", { class: "cells" });
    this.cells = doc.grid.map(() => []);
    this.polys.forEach((poly, i) => {
      const [r, k] = this.where[i];
      const p = el("polygon", { points: points(poly), class: "cell", "data-row": r, "data-col": k, "data-cell": i });
      this.cells[r][k] = p;
      cellLayer.appendChild(p);
    });
    svg.appendChild(cellLayer);
    svg.appendChild(el("path", { class: "outline", d: this._outline() }));
    this.markLayer = el("g", { class: "marks" });
    svg.appendChild(this.markLayer);
    this.clueLayer = el("g", { class: "tri-clues", "font-size": String(FONT * S) });
    svg.appendChild(this.clueLayer);
    this.clueEls = this.lanes.map((lane) => {
      const g = el("g", { class: "tri-clue", "data-testid": `lane-clue-${lane.family}-${lane.index}`,
        "data-family": lane.family, "data-index": lane.index });
      const title = el("title");
      title.textContent = lane.name;
      g.appendChild(title);
      this.clueLayer.appendChild(g);
      return g;
    });
    this.anchors = this.lanes.map((lane) => this._anchor(lane));
    this.extent = [...this.box];
    this.lanes.forEach((lane, i) => this._grow(i, Math.ceil(lane.cells.length / 2)));
    root.appendChild(svg);
    this.svg = svg;
    this.marks = new Map();
    this._size();
  }

  /** The path of the outline: every cell edge that only one cell has. */
  _outline() {
    const seen = new Map();
    const key = ([x, y]) => `${x.toFixed(3)},${y.toFixed(3)}`;
    for (const poly of this.polys) {
      poly.forEach((a, j) => {
        const b = poly[(j + 1) % poly.length];
        const k = [key(a), key(b)].sort().join(" ");
        seen.set(k, seen.has(k) ? null : [a, b]);
      });
    }
    return [...seen.values()].filter(Boolean).map(([a, b]) => `M${a[0] * S},${a[1] * S}L${b[0] * S},${b[1] * S}`).join("");
  }

  /** Where lane ``lane``'s clue starts (the middle of the lane at the end its clue stands) and the way out. */
  _anchor(lane) {
    const fam = FAMILIES[lane.family] || FAMILIES.row;
    const cells = fam.atEnd ? [...lane.cells].reverse() : lane.cells;
    const ends = cells.slice(0, 2).map((c) => centroid(this.polys[c]));
    const at = [ends.reduce((s, p) => s + p[0], 0) / ends.length, ends.reduce((s, p) => s + p[1], 0) / ends.length];
    const out = fam.atEnd ? fam.dir : [-fam.dir[0], -fam.dir[1]];
    return { at, out, step: fam.step, atEnd: fam.atEnd };
  }

  /** Block j of n of lane i: its centre (the first block farthest from where the lane is read from). */
  _place(i, j, n) {
    const { at, out, step, atEnd } = this.anchors[i];
    const d = GAP + (atEnd ? j : n - 1 - j) * step;
    return [at[0] + out[0] * d, at[1] + out[1] * d];
  }

  /** Make room for ``n`` blocks of lane i (the board never shrinks while its outline stays). */
  _grow(i, n) {
    const [x, y] = this._place(i, this.anchors[i].atEnd ? Math.max(n - 1, 0) : 0, Math.max(n, 1));
    const m = 0.45;
    const e = this.extent;
    const next = [Math.min(e[0], x - m), Math.min(e[1], y - m), Math.max(e[2], x + m), Math.max(e[3], y + m)];
    if (next.some((v, k) => v !== e[k])) {
      this.extent = next;
      return true;
    }
    return false;
  }

  _size() {
    const [x0, y0, x1, y1] = this.extent;
    this.svg.setAttribute("viewBox", `${x0 * S} ${y0 * S} ${(x1 - x0) * S} ${(y1 - y0) * S}`);
    this.svg.setAttribute("width", String(Math.round((x1 - x0) * this.unit)));
    this.svg.setAttribute("height", String(Math.round((y1 - y0) * this.unit)));
  }

  /** Draw the picture and the clues of ``doc`` (building the board when its outline changed). */
  draw(doc) {
    if (JSON.stringify(doc.geometry) !== this.key) this.build(doc);
    const pal = palette(doc);
    const color = isColor(doc);
    const key = JSON.stringify(pal);
    if (key !== this.paletteKey) {
      this.paletteKey = key;
      this.colors = Object.fromEntries(pal.slice(1).map((p) => [p.char, color || p.rgb !== "#000000" ? p.rgb : INK]));
      this.names = Object.fromEntries(pal.map((p) => [p.char, p.name]));
      for (const row of this.cells) for (const c of row) delete c.dataset.v;
      for (const g of this.clueEls) delete g.dataset.text;
    }
    doc.grid.forEach((row, r) => {
      for (let k = 0; k < row.length; k++) {
        const c = this.cells[r][k];
        const ch = row[k];
        if (c.dataset.v !== ch) {
          c.dataset.v = ch;
          c.style.fill = this.fill(ch);
          c.classList.toggle("ink", ch !== BACKGROUND);
        }
      }
    });
    const flat = doc.grid.join("");
    let grew = false;
    this.lanes.forEach((lane, i) => {
      const t = doc.lane_clues ? doc.lane_clues[i] : null;
      const blocks = t == null ? lineClue(lane.cells.map((c) => flat[c]).join("")) : typedBlocks(doc, t);
      grew = this._clue(i, blocks, t != null, doc, color) || grew;
    });
    if (grew) this._size();
    this.mark("given", doc.givens || []); // cells revealed to the player
  }

  /** Lane i's clue: one number a block along the lane (a chip of its colour in colour, a "?" chip for a blot). */
  _clue(i, blocks, typed, doc, color) {
    const g = this.clueEls[i];
    g.classList.toggle("typed", typed);
    const text = clueText(doc, blocks);
    if (g.dataset.text === text) return false;
    g.dataset.text = text;
    for (const c of [...g.children]) if (c.tagName !== "title") c.remove();
    const shown = blocks.length ? blocks : [[0, null]];
    shown.forEach(([n, ch], j) => {
      const [x, y] = this._place(i, j, shown.length);
      const label = String(n);
      if ((color || n === BLOT) && ch) {
        const rgb = this.colors[ch] || "#888888";
        const w = Math.max(0.44, 0.26 * label.length + 0.14);
        g.appendChild(el("rect", { class: n === BLOT ? "chip blot" : "chip", x: (x - w / 2) * S, y: (y - 0.24) * S, width: w * S,
          height: 0.48 * S, rx: (n === BLOT ? 0.22 : 0.07) * S, fill: rgb, "data-char": ch }));
        const t = el("text", { x: x * S, y: y * S, fill: textOn(rgb), class: "on-chip" });
        t.textContent = label;
        g.appendChild(t);
      } else {
        const t = el("text", { x: x * S, y: y * S });
        t.textContent = label;
        g.appendChild(t);
      }
    });
    return this._grow(i, shown.length);
  }

  /** Show colour ``ch`` as ``rgb`` for now (while the colour picker moves). */
  recolor(ch, rgb) {
    for (const row of this.cells) for (const c of row) if (c.dataset.v === ch) c.style.fill = rgb;
    for (const r of this.svg.querySelectorAll(`rect.chip[data-char="${CSS.escape(ch)}"]`)) {
      r.setAttribute("fill", rgb);
      if (r.nextSibling) r.nextSibling.setAttribute("fill", textOn(rgb));
    }
  }

  /** Set one overlay class on exactly the given cells (``[[row, k], ...]``), with its drawing. */
  mark(cls, cells) {
    if (!this.svg) return;
    for (const row of this.cells) for (const c of row) c.classList.remove(cls);
    for (const m of [...this.markLayer.querySelectorAll(`[data-mark="${cls}"]`)]) m.remove();
    for (const [r, k] of cells) {
      const c = this.cells[r]?.[k];
      if (!c) continue;
      c.classList.add(cls);
      this._overlay(cls, this.polys[Number(c.dataset.cell)]);
    }
  }

  _overlay(cls, poly) {
    if (cls === "open") this.markLayer.appendChild(el("polygon", { points: points(poly), class: "m-open", "data-mark": cls }));
    else if (cls === "diff" || cls === "preview") {
      this.markLayer.appendChild(el("polygon", { points: points(shrunk(poly, 0.62)), class: `m-${cls}`, "data-mark": cls }));
    } else if (cls === "given" || cls === "reveal") { // a green ring (revealed), a green dot (to reveal)
      const [x, y] = centroid(poly);
      this.markLayer.appendChild(el("circle", { cx: x * S, cy: y * S, r: (cls === "given" ? 0.17 : 0.1) * S,
        class: `m-${cls}`, "data-mark": cls }));
    }
  }

  /** Placement counts: a triddler's verdict has none. */
  counts() {}

  /** Mark the clues of conflicting lanes (``[[family, index], ...]``). */
  conflict(lanes) {
    if (!this.svg) return;
    const bad = new Set(lanes.map(([f, i]) => `${f} ${i}`));
    this.lanes.forEach((lane, i) => this.clueEls[i].classList.toggle("conflict", bad.has(`${lane.family} ${lane.index}`)));
  }

  /** Show what a fix would change: cells to flip (``[[row, k, ch]]``) or cells to reveal (``[[row, k]]``). */
  preview(flips, reveals = []) {
    this.clearPreview();
    for (const [r, k] of reveals) {
      const c = this.cells[r]?.[k];
      if (!c) continue;
      c.classList.add("reveal");
      this._overlay("reveal", this.polys[Number(c.dataset.cell)]);
    }
    for (const [r, k, ch] of flips) {
      const c = this.cells[r]?.[k];
      if (!c) continue;
      c.classList.add("preview");
      c.style.fill = this.fill(ch);
      this._overlay("preview", this.polys[Number(c.dataset.cell)]);
    }
  }

  clearPreview() {
    if (!this.svg) return;
    for (const row of this.cells) {
      for (const c of row) {
        if (c.classList.contains("preview")) {
          c.classList.remove("preview");
          c.style.fill = this.fill(c.dataset.v);
        }
        c.classList.remove("reveal");
      }
    }
    for (const m of [...this.markLayer.querySelectorAll('[data-mark="preview"], [data-mark="reveal"]')]) m.remove();
  }
}
