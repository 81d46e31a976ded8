// The editor page: painting, history, live verdicts, fixes, files.
// Every verdict comes from the server (the same library calls as the CLI).

import { Board } from "./board.js";
import { TriBoard } from "./triboard.js";
import {
  BACKGROUND, History, MAX_COLORS, MAX_SIDE, addColor, blank, cleared, clone, colorUsed, column, configure, editColor,
  height, inverted, isColor, isTriddler, lineClue, palette, parseClue, removeColor, resized, sameClue, setCell, typedBlocks, width, reveal,
  mirrored, ruleFromSpec, ruleText, toggleGiven, untypeLanesAt,
} from "./doc.js";

const $ = (id) => document.getElementById(id);
const CLIENT = Math.random().toString(36).slice(2, 12);
const DEBOUNCE_MS = 60;
const FIX_DELAY_MS = 400;

const state = {
  doc: blank(10, 10),
  version: 0, // edit number: answers for an older one are dropped
  savedVersion: 0,
  history: new History(),
  ink: "#", // the character the left button paints (BACKGROUND: the eraser)
  stroke: null, // {ch, changed} while the mouse paints
  timer: null,
  fixTimer: null,
  timeout: 5,
  canSave: false,
  fixes: null,
  triddlerFormats: [],
  maxHexagonSide: 20,
};

// the board of the document's geometry: a grid of squares, or a triddler's triangles
const boards = { grid: new Board($("board")), tri: new TriBoard($("board")) };
let board = boards.grid;

function boardFor(doc) {
  const b = isTriddler(doc) ? boards.tri : boards.grid;
  if (b !== board) {
    board.reset();
    b.reset();
    board = b;
  }
  return b;
}

// ---------------------------------------------------------------------------
// server calls

async function post(path, body) {
  const resp = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (path === "api/export" && resp.ok) return resp;
  let data;
  try {
    data = await resp.json();
  } catch {
    throw Object.assign(new Error(`the server answered ${resp.status}`), { status: resp.status });
  }
  if (!resp.ok) throw Object.assign(new Error(data.error || `the server answered ${resp.status}`), { status: resp.status, data });
  return data;
}

/** The document as the server takes it; checks leave out a level's files (a reward image can be large). */
function docForServer(withFiles = true) {
  const d = state.doc;
  if (isTriddler(d)) {
    return { geometry: d.geometry, grid: d.grid, palette: d.palette, lane_clues: d.lane_clues, name: d.name, meta: d.meta,
      givens: d.givens || [], rules: d.rules || [] };
  }
  return { grid: d.grid, palette: d.palette, row_clues: d.row_clues, column_clues: d.column_clues, name: d.name,
    meta: d.meta, givens: d.givens || [], rules: d.rules || [], level: withFiles ? d.level : null };
}

function message(text, kind = "error") {
  const el = $("message");
  el.textContent = text || "";
  el.className = text ? kind : "";
}

// ---------------------------------------------------------------------------
// changes

function changed() {
  state.version += 1;
  if ($("message").className === "error") message(""); // an edit answers the last error
  state.fixes = null;
  $("fixes").classList.add("stale");
  render();
  const v = $("verdict");
  v.dataset.state = "pending";
  v.dataset.version = String(state.version);
  clearTimeout(state.timer);
  state.timer = setTimeout(analyze, DEBOUNCE_MS);
}

function edit(fn) {
  state.history.push(state.doc);
  const out = fn(state.doc);
  if (out === false) {
    state.history.drop();
    return;
  }
  if (out) state.doc = out;
  changed();
}

function render() {
  const pal = palette(state.doc);
  if (!pal.some((p) => p.char === state.ink)) state.ink = pal[1].char; // its colour was undone or removed
  boardFor(state.doc).draw(state.doc);
  renderPalette();
  $("width").value = width(state.doc);
  $("height").value = height(state.doc);
  const tri = isTriddler(state.doc);
  $("width").disabled = $("height").disabled = tri;
  $("rule-text").placeholder = tri ? "connected" : "symmetric:left-right";
  if (tri) $("width").value = $("height").value = ""; // a triddler's size is its outline (New triddler)
  const sel = $("save-format");
  for (const o of sel.options) o.hidden = tri ? !state.triddlerFormats.includes(o.value) : o.dataset.triddler === "only";
  if (sel.selectedOptions.length && sel.selectedOptions[0].hidden) sel.value = tri ? state.triddlerFormats[0] : "non";
  $("undo").disabled = !state.history.past.length;
  $("redo").disabled = !state.history.future.length;
  const lvl = state.doc.level;
  $("completed-box").hidden = !lvl;
  if (lvl) $("completed").checked = !!lvl.completed;
  const dirty = state.version !== state.savedVersion;
  document.title = `${dirty ? "• " : ""}${state.doc.name || "untitled"} — satnono editor`;
  $("save").disabled = !state.canSave;
  renderRules();
}

/** The document's rules, each with a button that removes it. */
function renderRules() {
  const list = $("rules");
  list.replaceChildren();
  (state.doc.rules || []).forEach((rule, i) => {
    const li = document.createElement("li");
    li.setAttribute("data-testid", "rule");
    const name = document.createElement("code");
    name.textContent = ruleText(rule);
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = "✕";
    b.title = "remove this rule";
    b.setAttribute("aria-label", `remove rule ${ruleText(rule)}`);
    b.addEventListener("click", () => edit((d) => { d.rules = (d.rules || []).filter((_, j) => j !== i); }));
    li.append(name, " ", b);
    list.appendChild(li);
  });
  if (!(state.doc.rules || []).length) {
    const li = document.createElement("li");
    li.className = "none";
    li.textContent = "none: the clues alone";
    list.appendChild(li);
  }
}

function addRule() {
  const input = $("rule-text");
  let rule;
  try {
    rule = ruleFromSpec(input.value, state.doc);
  } catch (e) {
    message(`Rule: ${e.message}.`);
    return;
  }
  input.value = "";
  edit((d) => { d.rules = [...(d.rules || []), rule]; });
}

// ---------------------------------------------------------------------------
// the palette bar

const BW_ONLY = new Set(["nin", "mk", "cwd", "pbm", "txt", "picross", "level"]);

function renderPalette() {
  const doc = state.doc;
  const pal = palette(doc);
  const color = isColor(doc);
  const box = $("swatches");
  const key = JSON.stringify([pal, state.ink]);
  if (box.dataset.key !== key) {
    box.dataset.key = key;
    box.replaceChildren(...pal.map((p, i) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "swatch" + (p.char === state.ink ? " current" : "") + (i === 0 ? " eraser" : "");
      b.setAttribute("data-testid", `color-${i}`);
      b.dataset.char = p.char;
      b.setAttribute("aria-pressed", String(p.char === state.ink));
      const chip = document.createElement("i");
      chip.style.backgroundColor = i === 0 ? "#ffffff" : (color || p.rgb !== "#000000" ? p.rgb : "#1d1d22");
      const label = document.createElement("span");
      label.textContent = i === 0 ? "eraser" : (color ? `${p.name} ${p.char}` : p.name);
      const k = document.createElement("kbd");
      k.textContent = i <= 9 ? String(i) : "";
      b.append(chip, label, k);
      b.title = i === 0 ? "background: the left button erases (key 0)"
        : `paint ${p.name} (grid character ${p.char}${i <= 9 ? `, key ${i}` : ""})`;
      b.addEventListener("click", () => pick(p.char));
      return b;
    }));
  }
  const i = pal.findIndex((p) => p.char === state.ink);
  const cur = pal[i];
  const name = $("color-name");
  const rgb = $("color-rgb");
  const editing = i > 0;
  name.disabled = rgb.disabled = !editing;
  if (document.activeElement !== name) name.value = editing ? cur.name : "";
  if (editing && rgb.value !== cur.rgb) rgb.value = cur.rgb;
  $("color-remove").disabled = !editing || pal.length <= 2 || colorUsed(doc, i);
  $("color-remove").title = !editing ? "pick a colour to remove" : pal.length <= 2 ? "a picture needs one colour"
    : colorUsed(doc, i) ? `${cur.name} is used: erase its cells (and typed clues) first` : `remove ${cur.name}`;
  $("color-add").disabled = pal.length - 1 >= MAX_COLORS;
  for (const o of $("save-format").options) {
    o.textContent = (o.value === "level" ? "level (+ .pbm, .ppm)" : o.value) + (color && BW_ONLY.has(o.value) ? " (b/w only)" : "");
  }
}

function pick(ch) {
  state.ink = ch;
  render();
}

function paletteEdit(fn) {
  try {
    edit(fn);
  } catch (e) {
    state.history.drop();
    message(e.message);
    render();
  }
}

function wirePalette() {
  $("color-add").addEventListener("click", () => {
    let added = null;
    paletteEdit((d) => { const out = addColor(d); added = out.char; return out.doc; });
    if (added) { state.ink = added; render(); $("color-name").focus(); $("color-name").select(); }
  });
  const change = () => {
    const pal = palette(state.doc);
    const i = pal.findIndex((p) => p.char === state.ink);
    if (i <= 0) return;
    const name = $("color-name").value;
    const rgb = $("color-rgb").value;
    if (name.trim() === pal[i].name && rgb.toLowerCase() === pal[i].rgb) return;
    paletteEdit((d) => editColor(d, i, name, rgb));
  };
  $("color-name").addEventListener("change", change);
  $("color-name").addEventListener("keydown", (e) => { if (e.key === "Enter") e.target.blur(); });
  $("color-rgb").addEventListener("change", change);
  $("color-rgb").addEventListener("input", (e) => { // live: the cells follow the picker without an edit per step
    const pal = palette(state.doc);
    const i = pal.findIndex((p) => p.char === state.ink);
    if (i > 0) board.recolor(pal[i].char, e.target.value);
  });
  $("color-remove").addEventListener("click", () => {
    const pal = palette(state.doc);
    const i = pal.findIndex((p) => p.char === state.ink);
    if (i > 0) paletteEdit((d) => removeColor(d, i));
  });
}

function undo() {
  const d = state.history.undo(state.doc);
  if (d) { state.doc = d; changed(); }
}

function redo() {
  const d = state.history.redo(state.doc);
  if (d) { state.doc = d; changed(); }
}

// ---------------------------------------------------------------------------
// verdicts

async function analyze() {
  const version = state.version;
  let data;
  try {
    data = await post("api/analyze", { client: CLIENT, version, doc: docForServer(false) });
  } catch (e) {
    if (version === state.version) showVerdict({ error: e.message }, version);
    return;
  }
  if (data.stale || data.version !== state.version) return; // a newer edit is on its way
  showVerdict(data.result, version);
  const r = data.result;
  clearTimeout(state.fixTimer);
  if (r.picture_ok && (r.status === "multiple" || (r.status === "unique" && !r.line_solvable))) {
    showFixes("pending");
    // proposals take longer: ask once the pen has rested a moment
    state.fixTimer = setTimeout(() => { if (version === state.version) requestFixes(version); }, FIX_DELAY_MS);
  } else showFixes(null, r);
}

function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }

function showVerdict(r, version) {
  const v = $("verdict");
  v.dataset.state = "done";
  v.dataset.version = String(version);
  const main = document.createElement("strong");
  const detail = document.createElement("span");
  detail.className = "detail";
  let cls;
  if (r.error) {
    cls = "unknown";
    main.textContent = "error";
    detail.textContent = r.error;
    board.mark("open", []); board.mark("diff", []); board.counts(null, null); board.conflict([]);
  } else {
    if (r.status === "unique" && r.line_solvable) {
      cls = "good";
      main.textContent = "✔ unique, line-solvable";
      detail.textContent = "good: no guessing needed";
    } else if (r.status === "unique") {
      cls = "warn";
      main.textContent = "unique, needs search";
      detail.textContent = `line logic alone leaves ${plural(r.left, "cell")} open (shaded): the player must guess or look ahead`;
    } else if (r.status === "multiple") {
      cls = "bad";
      main.textContent = "✘ multiple solutions";
      const n = r.ambiguous.length;
      detail.textContent = `bad: two solutions differ in ${plural(n, "cell")} (outlined in red)`;
    } else if (r.status === "none") {
      cls = "bad";
      main.textContent = "✘ none: no solution";
      detail.textContent = r.reason || "";
      if (r.conflict_rules && r.conflict_rules.length) detail.textContent += ` (with the rule${r.conflict_rules.length > 1 ? "s" : ""} ${r.conflict_rules.join(", ")})`;
    } else {
      cls = "unknown";
      main.textContent = `unknown after ${r.timeout} s`;
      detail.textContent = r.reason ? `time limit reached: ${r.reason}` : "time limit reached";
    }
    if (!r.picture_ok) detail.textContent += (state.doc.rules || []).length
      ? " — the picture does not match the typed clues or breaks a rule"
      : " — the picture does not match the typed clues";
    detail.textContent += ` · ${r.seconds.toFixed(2)} s`;
    board.mark("open", r.undetermined);
    board.mark("diff", r.ambiguous);
    board.counts(r.row_counts, r.column_counts);
    board.conflict(r.conflict);
  }
  v.className = cls;
  v.replaceChildren(main, document.createTextNode(" "), detail);
}

// ---------------------------------------------------------------------------
// fixes

async function requestFixes(version) {
  let data;
  try {
    data = await post("api/fix", { client: CLIENT, version, doc: docForServer(false) });
  } catch (e) {
    if (version === state.version) showFixes({ error: e.message });
    return;
  }
  if (data.stale || data.version !== state.version) return;
  showFixes(data.result);
}

function where(r, c) { return isTriddler(state.doc) ? `row ${r + 1}, cell ${c + 1}` : `row ${r + 1}, col ${c + 1}`; }

/** "N cells revealed to the player" with a button that removes them (when there are any). */
function revealedNote(box) {
  const n = (state.doc.givens || []).length;
  if (!n) return;
  const p = document.createElement("p");
  p.className = "note revealed";
  p.setAttribute("data-testid", "revealed");
  p.textContent = `${plural(n, "cell")} revealed to the player (the verdict counts them as given). `;
  const b = document.createElement("button");
  b.textContent = "Remove";
  b.setAttribute("data-testid", "remove-revealed");
  b.addEventListener("click", () => edit((d) => { d.givens = []; }));
  p.appendChild(b);
  box.appendChild(p);
}

function showFixes(res, verdict) {
  const box = $("fixes");
  box.replaceChildren();
  box.classList.remove("stale");
  state.fixes = res;
  const note = (text) => {
    const p = document.createElement("p");
    p.className = "note";
    p.textContent = text;
    box.appendChild(p);
  };
  if (res === null) {
    revealedNote(box);
    if (verdict && verdict.status === "unique" && verdict.line_solvable) note("Nothing to fix.");
    else if (verdict && !verdict.picture_ok) note("Fix proposals work on a picture that matches its clues.");
    else note("Fix proposals appear for a picture with several solutions or one that needs search.");
    return;
  }
  if (res === "pending") { note("Looking for fixes…"); return; }
  if (res.error) { note(`No proposals: ${res.error}`); return; }
  const shownFor = state.version;
  const list = document.createElement("ul");
  list.className = "fix-list";
  const item = (text, kind, onPreview, onApply) => {
    const li = document.createElement("li");
    li.className = `fix ${kind}`;
    li.tabIndex = 0;
    li.textContent = text;
    li.dataset.testid = "fix";
    li.setAttribute("data-testid", "fix");
    li.addEventListener("mouseenter", onPreview);
    li.addEventListener("focus", onPreview);
    li.addEventListener("mouseleave", () => board.clearPreview());
    li.addEventListener("blur", () => board.clearPreview());
    if (onApply) {
      li.classList.add("applicable");
      li.addEventListener("click", onApply);
      li.addEventListener("keydown", (e) => { if (e.key === "Enter") onApply(); });
    }
    list.appendChild(li);
  };
  const pal = palette(state.doc);
  const colorName = (ch) => {
    const p = pal.find((x) => x.char === ch);
    if (ch === BACKGROUND) return isColor(state.doc) ? "background" : "white";
    return p ? (isColor(state.doc) ? `${p.name} (${ch})` : p.name) : ch;
  };
  for (const e of res.edits) {
    const ch = e.char;
    const what = e.line_solvable ? "unique, line-solvable" : "unique, needs search";
    item(`Make ${where(e.row, e.col)} ${colorName(ch)} → ${what}`, "edit",
      () => board.preview([[e.row, e.col, ch]], []),
      () => {
        board.clearPreview();
        if (shownFor !== state.version) return; // proposed for an older picture (the list is dimmed)
        edit((d) => {
          setCell(d, e.row, e.col, ch);
          untypeLanesAt(d, e.row, e.col); // the edit recomputes the clues of its lanes (row and column)
        });
      });
  }
  for (const [key, label] of [["givens_unique", "unique"], ["givens_line", "line-solvable"]]) {
    const g = res[key];
    if (!g || !g.count) continue;
    if (key === "givens_line" && res.givens_unique && res.givens_unique.count === g.count && res.givens_unique.line_solvable) continue;
    const cells = g.givens.map((x) => [x.row, x.col]);
    item(`Reveal ${plural(g.count, "cell")} to the player → ${label}`, "givens",
      () => board.preview([], cells),
      () => {
        board.clearPreview();
        if (shownFor !== state.version) return; // proposed for an older picture (the list is dimmed)
        edit((d) => reveal(d, cells) ? undefined : false);
      });
  }
  revealedNote(box);
  if (!list.children.length) {
    note(res.timed_out ? "No proposal found in time." : (res.reason || "No single-cell edit makes it unique."));
    return;
  }
  box.appendChild(list);
  if (res.timed_out) note("The search stopped at its time limit: more fixes may exist.");
}

// ---------------------------------------------------------------------------
// painting

function cellAt(x, y) {
  const el = document.elementFromPoint(x, y);
  return el && el.classList && el.classList.contains("cell") ? el : null;
}

/** The cells on the straight line from (r0, c0) to (r1, c1) (Bresenham), both ends included. */
function lineCells(r0, c0, r1, c1) {
  const out = [];
  const dr = Math.abs(r1 - r0), dc = Math.abs(c1 - c0);
  const sr = r0 < r1 ? 1 : -1, sc = c0 < c1 ? 1 : -1;
  let err = dc - dr;
  for (;;) {
    out.push([r0, c0]);
    if (r0 === r1 && c0 === c1) return out;
    const e2 = 2 * err;
    if (e2 > -dr) { err -= dr; c0 += sc; }
    if (e2 < dc) { err += dc; r0 += sr; }
  }
}

function paint(el) {
  const stroke = state.stroke;
  if (!stroke || !el) return;
  const r = Number(el.dataset.row);
  const c = Number(el.dataset.col);
  // pointer events are sparse when the pen moves fast: fill the cells in between
  const cells = stroke.last && !isTriddler(state.doc) ? lineCells(stroke.last[0], stroke.last[1], r, c) : [[r, c]];
  stroke.last = [r, c];
  let any = false;
  // with a symmetric rule on, each cell is drawn with its mirror images
  for (const [rr, cc] of cells) for (const [mr, mc] of mirrored(state.doc, rr, cc)) any = setCell(state.doc, mr, mc, stroke.ch) || any;
  if (any) {
    stroke.changed = true;
    changed();
  }
}

/** Paint under the pointer; on a triddler also the triangles between it and the last pointer event. */
function paintTo(x, y) {
  const stroke = state.stroke;
  if (isTriddler(state.doc)) {
    if (stroke.xy) {
      const [x0, y0] = stroke.xy;
      const n = Math.ceil(Math.hypot(x - x0, y - y0) / 4);
      for (let i = 1; i < n; i++) paint(cellAt(x0 + ((x - x0) * i) / n, y0 + ((y - y0) * i) / n));
    }
    stroke.xy = [x, y];
  }
  paint(cellAt(x, y));
}

function startStroke(e) {
  const el = e.target.closest && e.target.closest(".cell");
  if (!el || (e.button !== 0 && e.button !== 2)) return;
  e.preventDefault();
  if (e.shiftKey && e.button === 0) { // Shift+click: mark or unmark a cell revealed to the player
    const r = Number(el.dataset.row), c = Number(el.dataset.col);
    edit((d) => { toggleGiven(d, r, c); });
    return;
  }
  state.history.push(state.doc);
  const erase = e.button === 2 || e.ctrlKey || e.metaKey; // Ctrl+click: a right click on one-button pads
  state.stroke = { ch: erase ? BACKGROUND : state.ink, changed: false, last: null };
  if (isTriddler(state.doc)) state.stroke.xy = [e.clientX, e.clientY];
  paint(el);
}

function endStroke() {
  if (!state.stroke) return;
  if (!state.stroke.changed) state.history.drop();
  state.stroke = null;
  render();
}

// ---------------------------------------------------------------------------
// typed clues

function editClue(el) {
  const isRow = el.classList.contains("row-clue");
  const i = Number(isRow ? el.dataset.row : el.dataset.col);
  const d = state.doc;
  const max = isRow ? width(d) : height(d);
  const input = document.createElement("input");
  input.className = "clue-input";
  input.value = el.dataset.text;
  input.title = isColor(d) ? "blocks: length then colour character, e.g. 3a 1b (a bare length is the first colour); ?a: a blotted block (length hidden); 0: an empty line; empty: the picture's own clue"
    : "block lengths, e.g. 3 1 2; ?: a blotted block (length hidden); 0: an empty line; empty: the picture's own clue";
  el.replaceChildren(input);
  el.dataset.text = "";
  input.focus();
  input.select();
  let done = false;
  const finish = (commit) => {
    if (done) return;
    done = true;
    if (commit) {
      try {
        const clue = parseClue(input.value, max, d);
        const own = lineClue(isRow ? d.grid[i] : column(d.grid, i));
        const value = clue === null || sameClue(clue, own) ? null : clue;
        const key = isRow ? "row_clues" : "column_clues";
        const before = d[key][i] == null ? null : typedBlocks(d, d[key][i]);
        if (!sameClue(before, value)) {
          edit((doc) => { doc[key][i] = value; });
          return;
        }
      } catch (err) {
        message(`${isRow ? "Row" : "Column"} ${i + 1}: ${err.message}`);
      }
    }
    render();
  };
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter") finish(true);
    else if (e.key === "Escape") finish(false);
    e.stopPropagation();
  });
  input.addEventListener("blur", () => finish(true));
}

// ---------------------------------------------------------------------------
// files

function toBase64(buffer) {
  const bytes = new Uint8Array(buffer);
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

async function openFiles(fileList) {
  const files = [];
  for (const f of fileList) files.push({ name: f.name, data: toBase64(await f.arrayBuffer()) });
  if (!files.length) return;
  message("Opening…", "info");
  try {
    const data = await post("api/open", { files });
    // the page cannot know where a picked file lives: Save stays off until Save as names a file,
    // so the file named on the command line is not overwritten with another puzzle by mistake
    state.canSave = false;
    edit(() => data.doc); // opening is undoable: nothing drawn before is lost
    pick(palette(data.doc)[1].char);
    $("file").textContent = `${files.map((f) => f.name).join(", ")} (opened in the page)`;
    message(`Opened ${files.map((f) => f.name).join(", ")}. Use Save as or Download to keep it.`, "info");
  } catch (e) {
    message(e.message);
  }
}

/** Start a new, empty triddler: a hexagon of the side chosen (undoable, as opening a file). */
async function newTriddler() {
  const side = Number($("hexagon-side").value);
  if (!Number.isInteger(side) || side < 1 || side > state.maxHexagonSide) {
    message(`A hexagon's side goes from 1 to ${state.maxHexagonSide}.`);
    return;
  }
  try {
    const data = await post("api/new", { hexagon: side });
    state.canSave = false; // a new puzzle: Save as names its file
    edit(() => data.doc);
    pick(palette(data.doc)[1].char);
    if (!state.triddlerFormats.includes($("save-format").value)) $("save-format").value = state.triddlerFormats[0];
    $("file").textContent = `new triddler (hexagon of side ${side})`;
    message("");
  } catch (e) {
    message(e.message);
  }
}

async function save() {
  message("Saving…", "info");
  try {
    const data = await post("api/save", { doc: docForServer() });
    state.savedVersion = state.version;
    message(`Saved ${data.path}`, "info");
    $("file").textContent = data.file || "";
    render();
  } catch (e) {
    message(e.message);
  }
}

async function saveAs(overwrite = false) {
  const name = $("save-name").value.trim();
  const format = $("save-format").value;
  if (!name) { message("Type a file name to save as."); $("save-name").focus(); return; }
  message("Saving…", "info");
  try {
    const data = await post("api/save-as", { doc: docForServer(), name, format, overwrite });
    state.savedVersion = state.version;
    state.canSave = true;
    $("file").textContent = data.file || "";
    message(`Saved ${data.path}`, "info");
    render();
  } catch (e) {
    if (e.status === 409 && !overwrite) {
      if (window.confirm(`${name} exists. Replace it?`)) saveAs(true);
      else message(`${name} exists: not saved.`);
      return;
    }
    message(e.message);
  }
}

async function download() {
  try {
    const resp = await post("api/export", { doc: docForServer(), format: $("save-format").value });
    const blob = await resp.blob();
    const cd = resp.headers.get("Content-Disposition") || "";
    const m = /filename="([^"]+)"/.exec(cd);
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = m ? m[1] : "puzzle";
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  } catch (e) {
    message(e.message);
  }
}

// ---------------------------------------------------------------------------
// wiring

function wire() {
  const b = $("board");
  b.addEventListener("pointerdown", startStroke);
  b.addEventListener("contextmenu", (e) => e.preventDefault());
  b.addEventListener("click", (e) => {
    const clue = e.target.closest && e.target.closest(".clue");
    if (clue && !clue.querySelector("input")) editClue(clue);
  });
  window.addEventListener("pointermove", (e) => { if (state.stroke) paintTo(e.clientX, e.clientY); });
  window.addEventListener("pointerup", endStroke);
  window.addEventListener("pointercancel", endStroke);
  window.addEventListener("blur", endStroke);

  const size = () => {
    const w = Number($("width").value);
    const h = Number($("height").value);
    if (!Number.isInteger(w) || !Number.isInteger(h) || w < 1 || h < 1 || w > MAX_SIDE || h > MAX_SIDE) {
      message(`Width and height go from 1 to ${MAX_SIDE}.`);
      render();
      return;
    }
    if (w !== width(state.doc) || h !== height(state.doc)) edit((d) => resized(d, w, h));
  };
  $("width").addEventListener("change", size);
  $("height").addEventListener("change", size);
  $("clear").addEventListener("click", () => edit((d) => cleared(d)));
  $("new-triddler").addEventListener("click", newTriddler);
  $("invert").addEventListener("click", () => edit((d) => inverted(d, state.ink === BACKGROUND ? palette(d)[1].char : state.ink)));
  wirePalette();
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("rule-add").addEventListener("click", addRule);
  $("rule-text").addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); addRule(); } });
  $("completed").addEventListener("change", (e) => edit((d) => { d.level = { ...d.level, completed: e.target.checked }; }));
  $("open").addEventListener("click", () => $("picker").click());
  $("picker").addEventListener("change", async (e) => { await openFiles(e.target.files); e.target.value = ""; });
  $("save").addEventListener("click", save);
  $("save-as").addEventListener("click", () => saveAs(false));
  $("download").addEventListener("click", download);
  window.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    const mod = e.ctrlKey || e.metaKey;
    const key = e.key.toLowerCase();
    if (mod && key === "z") { e.preventDefault(); if (e.shiftKey) redo(); else undo(); }
    else if (mod && key === "y") { e.preventDefault(); redo(); }
    else if (mod && key === "s") { e.preventDefault(); if (state.canSave) save(); }
    else if (!mod && !e.altKey && /^[0-9]$/.test(e.key)) { // number keys pick a colour, 0 the eraser
      const p = palette(state.doc)[Number(e.key)];
      if (p) { e.preventDefault(); pick(p.char); }
    }
  });
  window.addEventListener("dragover", (e) => { e.preventDefault(); document.body.classList.add("dropping"); });
  window.addEventListener("dragleave", () => document.body.classList.remove("dropping"));
  window.addEventListener("drop", (e) => {
    e.preventDefault();
    document.body.classList.remove("dropping");
    if (e.dataTransfer && e.dataTransfer.files.length) openFiles(e.dataTransfer.files);
  });
  window.addEventListener("beforeunload", (e) => {
    if (state.version !== state.savedVersion) { e.preventDefault(); e.returnValue = ""; }
  });
}

async function start() {
  wire();
  try {
    const resp = await fetch("api/state");
    const data = await resp.json();
    if (!resp.ok) throw new Error(data.error || `the server answered ${resp.status}`);
    configure(data);
    $("width").max = $("height").max = String(MAX_SIDE);
    state.doc = data.doc;
    state.ink = palette(data.doc)[1].char;
    state.timeout = data.timeout;
    state.canSave = data.can_save;
    $("file").textContent = data.file || "new puzzle";
    const sel = $("save-format");
    for (const f of data.formats) {
      const o = document.createElement("option");
      o.value = f;
      o.textContent = f === "level" ? "level (+ .pbm, .ppm)" : f;
      sel.appendChild(o);
    }
    state.triddlerFormats = data.triddler_formats || [];
    state.maxHexagonSide = data.max_hexagon_side || state.maxHexagonSide;
    $("hexagon-side").max = String(state.maxHexagonSide);
    for (const f of state.triddlerFormats.filter((x) => !data.formats.includes(x))) { // g: triddlers only
      const o = document.createElement("option");
      o.value = f;
      o.textContent = f;
      o.dataset.triddler = "only";
      o.hidden = true;
      sel.appendChild(o);
    }
    sel.value = data.doc.format && data.formats.includes(data.doc.format) ? data.doc.format : "non";
    if (isTriddler(data.doc)) sel.value = state.triddlerFormats.includes(data.doc.format) ? data.doc.format : state.triddlerFormats[0];
    if (data.file) $("save-name").placeholder = data.file.replace(/#\d+$/, "");
  } catch (e) {
    message(`Could not load the puzzle: ${e.message}`);
  }
  changed();
  state.savedVersion = state.version;
  render();
}

start();

export { state, clone }; // for debugging from the console
