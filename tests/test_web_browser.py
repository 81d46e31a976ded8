"""End-to-end tests of ``satnono edit`` in a real headless Chromium (Playwright).

The editor is started as users start it (the ``satnono edit`` command, its URL
read from the first line of stdout).  Skipped when Playwright or a Chromium
binary is missing.  ``SATNONO_SCREENSHOTS=DIR`` stores the page's screenshots
there (the README's picture is one of them).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from satnono.formats import load
from test_blotted_cli import XML as BLOT_XML  # the blotted colour puzzle the CLI tests use

sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium binary (apt-get install chromium)")

ROOT = Path(__file__).resolve().parents[1]
PUZZLE = ROOT / "puzzles" / "jwilk" / "data000.nin"  # 10x10, unique and line-solvable; white 4x4 at the top
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
WAIT = 20_000  # ms: generous for a loaded 2-core machine; verdicts come in milliseconds


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


class Editor:
    """A ``satnono edit`` process and its URL."""

    def __init__(self, *args: str, cwd: Path) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "satnono", "edit", *args, "--no-browser"],
                                     cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline().strip()
        if not line.startswith("http://127.0.0.1:"):
            self.stop()
            raise AssertionError(f"no URL on stdout: {line!r} {self.proc.stderr.read()}")
        self.url = line

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGINT)  # Ctrl+C: a clean shutdown
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@pytest.fixture
def start(tmp_path):
    editors: list[Editor] = []

    def run(*args: str) -> Editor:
        e = Editor(*args, cwd=tmp_path)
        editors.append(e)
        return e

    yield run
    for e in editors:
        e.stop()


@pytest.fixture
def page(browser):
    ctx = browser.new_context(viewport={"width": 1200, "height": 760})
    p = ctx.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    yield p
    ctx.close()
    assert not errors, errors


def verdict(page, word: str) -> str:
    """Wait until the verdict is settled and says ``word``; return its text."""
    loc = page.locator('[data-testid="verdict"][data-state="done"]')
    sync_api.expect(loc).to_contain_text(word, timeout=WAIT)
    return loc.inner_text()


def cell(page, r: int, c: int):
    return page.locator(f'.cell[data-row="{r}"][data-col="{c}"]')


def grid_of(page, h: int, w: int) -> list[str]:
    rows = page.evaluate("""() => { const out = [];
        document.querySelectorAll('.cell').forEach(el => {
          const r = +el.dataset.row; out[r] = (out[r] || '') + (el.dataset.v === '.' ? '.' : '#'); });
        return out; }""")
    assert len(rows) == h and all(len(r) == w for r in rows)
    return rows


def shot(page, name: str) -> None:
    folder = os.environ.get("SATNONO_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name), full_page=True)


def test_draw_switch_undo_fix_save_and_reopen(start, page, tmp_path):
    src = tmp_path / "pic.nin"
    shutil.copy(PUZZLE, src)
    ed = start(str(src))
    page.goto(ed.url)
    text = verdict(page, "unique")
    assert "line-solvable" in text
    solution = grid_of(page, 10, 10)
    assert load(str(src)).is_solution(solution)

    # draw an elementary switch: a 2x2 diagonal in the white corner
    cell(page, 0, 5).click()
    cell(page, 1, 6).click()
    verdict(page, "multiple")
    for r, c in ((0, 5), (0, 6), (1, 5), (1, 6)):
        sync_api.expect(cell(page, r, c)).to_have_class(__import__("re").compile(r"\bdiff\b"))
    assert page.locator(".cell.diff").count() == 4
    assert page.get_by_test_id("row-count-0").inner_text() == "2"
    assert page.get_by_test_id("col-count-6").inner_text() == "2"
    assert page.get_by_test_id("row-count-5").inner_text() == ""
    sync_api.expect(page.locator('[data-testid="fix"]').first).to_be_visible(timeout=WAIT)

    # undo (Ctrl+Z) twice: back to the bundled picture
    page.keyboard.press("Control+z")
    page.keyboard.press("Control+z")
    assert "line-solvable" in verdict(page, "unique")
    assert grid_of(page, 10, 10) == solution
    page.keyboard.press("Control+Shift+z")
    page.keyboard.press("Control+Shift+z")
    verdict(page, "multiple")

    # apply the first fix proposal (hover previews it, click applies it)
    first = page.locator('[data-testid="fix"].applicable').first
    sync_api.expect(first).to_be_visible(timeout=WAIT)
    first.hover()
    assert page.locator(".cell.preview").count() == 1
    shot(page, "editor.png")
    first.click()
    verdict(page, "unique")
    fixed = grid_of(page, 10, 10)
    assert sum(a != b for ra, rb in zip(fixed, solution) for a, b in zip(ra, rb)) == 1

    # right-drag erases; paint it back with a left click
    cell(page, 9, 1).click(button="right")
    verdict(page, "")
    assert grid_of(page, 10, 10)[9][1] == "."
    page.keyboard.press("Control+z")
    verdict(page, "unique")

    # save in two formats and reopen each through the file picker
    for name, fmt in (("fixed.non", "non"), ("fixed.pbm", "pbm")):
        page.get_by_test_id("save-name").fill(name)
        page.get_by_test_id("save-format").select_option(fmt)
        page.get_by_test_id("save-as").click()
        sync_api.expect(page.get_by_test_id("message")).to_contain_text(f"Saved {tmp_path / name}", timeout=WAIT)
        assert load(str(tmp_path / name)).goal == tuple(fixed)
    page.get_by_test_id("save-format").select_option("non")
    page.get_by_test_id("save-name").fill("fixed.non")
    page.get_by_test_id("save-as").click()  # exists: the page asks, the dialog is dismissed, nothing is written
    sync_api.expect(page.get_by_test_id("message")).to_contain_text("exists", timeout=WAIT)

    page.locator("#width").fill("12")
    page.locator("#width").dispatch_event("change")
    verdict(page, "")
    assert grid_of(page, 10, 12)[0].startswith(fixed[0])
    for name in ("fixed.non", "fixed.pbm"):
        page.locator("#picker").set_input_files(str(tmp_path / name))
        sync_api.expect(page.get_by_test_id("message")).to_contain_text(f"Opened {name}", timeout=WAIT)
        verdict(page, "unique")
        assert grid_of(page, 10, 10) == fixed
        page.locator("#width").fill("11")  # change it, so the next open is visible
        page.locator("#width").dispatch_event("change")
        verdict(page, "")


def _trio(folder: Path) -> dict[str, bytes]:
    # a P1 PBM laid out unlike satnono's writer, a binary PPM: saving must keep both as they are
    files = {
        "cat.level": b"0\n",
        "cat.pbm": b"P1\n# cat\n5 4\n0 1 1 1 0\n1 1 0 1 1\n1 1 1 1 1\n0 1 0 1 0\n",
        "cat.ppm": b"P6\n5 4\n255\n" + bytes(range(60)),
    }
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return files


def test_level_trio_saved_back_unchanged(start, page, tmp_path):
    files = _trio(tmp_path)
    ed = start(str(tmp_path / "cat.level"))
    page.goto(ed.url)
    verdict(page, "unique")
    assert grid_of(page, 4, 5) == [".###.", "##.##", "#####", ".#.#."]
    sync_api.expect(page.locator("#completed-box")).to_be_visible()
    page.get_by_test_id("save").click()
    sync_api.expect(page.get_by_test_id("message")).to_contain_text("Saved", timeout=WAIT)
    for name, data in files.items():
        assert (tmp_path / name).read_bytes() == data

    # mark it completed and draw: Save rewrites the flag and the picture, never the reward image
    page.locator("#completed").check()
    cell(page, 0, 0).click()
    verdict(page, "")
    page.get_by_test_id("save").click()
    sync_api.expect(page.get_by_test_id("message")).to_contain_text("Saved", timeout=WAIT)
    assert (tmp_path / "cat.level").read_bytes().strip() == b"1"
    assert load(str(tmp_path / "cat.level")).goal[0] == "####."
    assert (tmp_path / "cat.ppm").read_bytes() == files["cat.ppm"]

    # the trio opened through the picker and saved under a new name keeps its reward image
    other = tmp_path / "in"
    other.mkdir()
    files2 = _trio(other)
    page.locator("#picker").set_input_files([str(other / n) for n in files2])
    sync_api.expect(page.get_by_test_id("message")).to_contain_text("Opened", timeout=WAIT)
    verdict(page, "unique")
    sync_api.expect(page.get_by_test_id("save")).to_be_disabled()  # not over cat.level by mistake
    page.get_by_test_id("save-name").fill("copy.level")
    page.get_by_test_id("save-format").select_option("level")
    page.get_by_test_id("save-as").click()
    sync_api.expect(page.get_by_test_id("message")).to_contain_text("Saved", timeout=WAIT)
    for suffix in (".level", ".pbm", ".ppm"):
        assert (tmp_path / f"copy{suffix}").read_bytes() == files2[f"cat{suffix}"]


def test_typed_clues_give_none_and_unknown_file_is_refused(start, page, tmp_path):
    ed = start()
    page.goto(ed.url)
    verdict(page, "unique")  # an empty 10x10 picture: unique
    page.get_by_test_id("row-clue-0").click()
    page.locator(".clue-input").fill("11")
    page.locator(".clue-input").press("Enter")
    sync_api.expect(page.get_by_test_id("message")).to_contain_text("does not fit")
    page.get_by_test_id("row-clue-0").click()
    page.locator(".clue-input").fill("3")
    page.locator(".clue-input").press("Enter")
    text = verdict(page, "none")
    assert "no solution" in text
    sync_api.expect(page.get_by_test_id("message")).to_have_text("")
    sync_api.expect(page.get_by_test_id("row-clue-0")).to_have_class(__import__("re").compile(r"\btyped\b"))
    shot(page, "editor-none.png")
    with page.expect_download() as dl:  # download in a chosen format: the typed clues, no picture
        page.get_by_test_id("save-format").select_option("json")
        page.locator("#download").click()
    got = tmp_path / dl.value.suggested_filename
    dl.value.save_as(got)
    p = load(str(got))
    assert p.rows[0] == (3,) and p.goal is None and got.name == "puzzle.json"
    # a file dropped on the page opens like a picked one
    page.evaluate("""() => { const dt = new DataTransfer();
        dt.items.add(new File(["width 3\\nheight 1\\nrows\\n1 1\\ncolumns\\n1\\n0\\n1\\n"], "drop.non"));
        window.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true })); }""")
    sync_api.expect(page.get_by_test_id("message")).to_contain_text("Opened drop.non", timeout=WAIT)
    assert "line-solvable" in verdict(page, "unique")
    assert grid_of(page, 1, 3) == ["#.#"]
    page.keyboard.press("Control+z")  # opening is undoable: the typed clues come back
    verdict(page, "none")
    bad = tmp_path / "bad.non"
    bad.write_text("width 2\nheight x\n")
    page.locator("#picker").set_input_files(str(bad))
    sync_api.expect(page.get_by_test_id("message")).to_contain_text("bad.non:2", timeout=WAIT)


def test_search_puzzle_shows_open_cells_and_counts(start, page, tmp_path):
    ed = start(str(ROOT / "puzzles" / "webpbn" / "webpbn-00065.xml"))  # Wolter's "Mum": 810 cells need search
    page.goto(ed.url)
    text = verdict(page, "unique")
    assert "needs search" in text and "810 cells" in text and "line-solvable" not in text
    assert page.locator(".cell.open").count() == 810
    counts = [page.get_by_test_id(f"row-count-{r}").inner_text() for r in range(40)]
    assert any(c for c in counts) and all(c == "" or c[0].isdigit() for c in counts)
    # a long column count reads as one word turned a quarter (its box is tall and one line
    # wide), not one character per line
    long = [el for el in page.locator(".col-count").all() if len(el.inner_text()) > 2]
    assert long
    for el in long:
        box = el.bounding_box()
        line = page.evaluate("(e) => parseFloat(getComputedStyle(e).fontSize)", el.element_handle())
        assert box["width"] < 2.2 * line and box["height"] > len(el.inner_text()) * 0.4 * line
        assert "\n" not in el.inner_text()
    sync_api.expect(page.locator("#fixes")).not_to_contain_text("Looking", timeout=WAIT)
    shot(page, "editor-search.png")


def test_time_limit_says_unknown(start, page):
    ed = start(str(ROOT / "puzzles" / "webpbn" / "webpbn-00065.xml"), "--timeout", "0.001")
    page.goto(ed.url)
    assert "unknown after 0.001 s" in verdict(page, "unknown")


def test_drag_paints_and_erases_in_one_undo_step_and_resizing_keeps_the_drawing(start, page):
    ed = start()
    page.goto(ed.url)
    verdict(page, "unique")

    def drag(r, c0, c1, button="left"):
        a = cell(page, r, c0).bounding_box()
        b = cell(page, r, c1).bounding_box()
        page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
        page.mouse.down(button=button)
        page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=2)  # a fast pen: few events
        page.mouse.up(button=button)

    drag(2, 0, 4)
    assert "line-solvable" in verdict(page, "unique")
    assert grid_of(page, 10, 10)[2] == "#####....."
    assert page.get_by_test_id("row-clue-2").inner_text().split() == ["5"]
    box = cell(page, 0, 0).bounding_box()
    drag(2, 1, 3, button="right")  # the clue grows to "1 1" under the pen: the grid must not move
    verdict(page, "unique")
    assert grid_of(page, 10, 10)[2] == "#...#....."
    assert cell(page, 0, 0).bounding_box() == box
    assert page.get_by_test_id("row-clue-2").inner_text().split() == ["1", "1"]
    page.get_by_test_id("undo").click()  # the whole erasing stroke at once
    verdict(page, "unique")
    assert grid_of(page, 10, 10)[2] == "#####....."
    page.locator("#invert").click()
    verdict(page, "")
    assert grid_of(page, 10, 10)[2] == ".....#####"
    page.keyboard.press("Control+z")
    for w, h in ((3, 3), (12, 4)):
        page.locator("#width").fill(str(w))
        page.locator("#width").dispatch_event("change")
        page.locator("#height").fill(str(h))
        page.locator("#height").dispatch_event("change")
        verdict(page, "")
    assert grid_of(page, 4, 12) == ["." * 12, "." * 12, "###" + "." * 9, "." * 12]
    page.locator("#clear").click()
    verdict(page, "unique")
    assert grid_of(page, 4, 12) == ["." * 12] * 4


COLOUR = ROOT / "puzzles" / "satnono" / "colour-search-10x10.non"  # 3 colours, unique, 16 cells need search


def chars_of(page) -> list[str]:
    """The picture as the page holds it: each cell's palette character."""
    return page.evaluate("""() => { const out = [];
        document.querySelectorAll('.cell').forEach(el => {
          const r = +el.dataset.row; out[r] = (out[r] || '') + el.dataset.v; });
        return out; }""")


def test_colour_palette_paint_undo_fix_and_save_json(start, page, tmp_path):
    src = tmp_path / "colour.non"
    shutil.copy(COLOUR, src)
    puzzle = load(str(src))
    ed = start(str(src))
    page.goto(ed.url)
    assert "needs search" in verdict(page, "unique")
    assert chars_of(page) == list(puzzle.goal)
    assert page.locator(".cell.open").count() == 16
    # the palette bar: eraser, then the file's three colours; clues are chips in their colour
    for i, c in enumerate(puzzle.palette):
        sync_api.expect(page.get_by_test_id(f"color-{i}")).to_be_visible()
    chips = page.get_by_test_id("row-clue-0").locator(".chip")
    assert chips.count() == 3 and [chips.nth(j).get_attribute("data-char") for j in range(3)] == ["c", "a", "a"]
    red = page.evaluate("() => getComputedStyle(document.querySelector('[data-testid=row-clue-5] .chip:nth-child(2)')).backgroundColor")
    assert red == "rgb(220, 40, 40)"  # row 6 is 2a 1b 2c: its middle chip is the file's red

    # key 2 picks the second colour; painting draws it and the verdict follows
    page.keyboard.press("2")
    sync_api.expect(page.get_by_test_id("color-2")).to_have_class(re.compile(r"\bcurrent\b"))
    cell(page, 9, 9).click()
    verdict(page, "")
    assert chars_of(page)[9] == "..c......b"
    assert page.get_by_test_id("row-clue-9").locator(".chip").count() == 2
    page.keyboard.press("Control+z")
    assert "needs search" in verdict(page, "unique")
    assert chars_of(page) == list(puzzle.goal)

    # a fix proposal: hovering shows the cell in its new colour, clicking applies it
    first = page.locator('[data-testid="fix"].applicable').first
    sync_api.expect(first).to_be_visible(timeout=WAIT)
    m = re.search(r"row (\d+), col (\d+) .*\((\w)\)", first.inner_text())
    assert m, first.inner_text()
    r, c, ch = int(m[1]) - 1, int(m[2]) - 1, m[3]
    first.hover()
    assert page.locator(".cell.preview").count() == 1
    shot(page, "editor-colour.png")
    first.click()
    assert "line-solvable" in verdict(page, "unique")
    fixed = chars_of(page)
    assert fixed[r][c] == ch and grid_diff_count(fixed, puzzle.goal) == 1

    # add a colour, name and recolour it, paint with it; a used colour cannot be removed
    page.get_by_test_id("color-add").click()
    sync_api.expect(page.get_by_test_id("color-4")).to_have_class(re.compile(r"\bcurrent\b"))
    page.get_by_test_id("color-name").fill("gold")
    page.get_by_test_id("color-name").press("Enter")
    page.get_by_test_id("color-rgb").fill("#ffd700")
    sync_api.expect(page.get_by_test_id("color-4")).to_contain_text("gold")
    cell(page, 9, 9).click()
    verdict(page, "")
    new = page.get_by_test_id("color-4").get_attribute("data-char")
    assert chars_of(page)[9][9] == new
    sync_api.expect(page.get_by_test_id("color-remove")).to_be_disabled()
    # a typed colour clue names a palette character; an unknown one is refused with a message
    page.get_by_test_id("row-clue-9").click()
    page.locator(".clue-input").fill("1c 1z")
    page.locator(".clue-input").press("Enter")
    sync_api.expect(page.get_by_test_id("message")).to_contain_text('no colour uses the character "z"')
    page.get_by_test_id("row-clue-9").click()
    page.locator(".clue-input").fill(f"1c 2{new}")
    page.locator(".clue-input").press("Enter")
    assert "no solution" in verdict(page, "none")
    page.keyboard.press("Control+z")
    verdict(page, "")
    page.get_by_test_id("save-name").fill("gold.json")
    page.get_by_test_id("save-format").select_option("json")
    page.get_by_test_id("save-as").click()
    sync_api.expect(page.get_by_test_id("message")).to_contain_text("Saved", timeout=WAIT)
    saved = load(str(tmp_path / "gold.json"))
    assert saved.goal == tuple(chars_of(page))
    assert ("gold", (255, 215, 0)) in [(col.name, col.rgb) for col in saved.palette]
    # a level is black and white: refused with a message, nothing written
    page.get_by_test_id("save-name").fill("lvl.level")
    page.get_by_test_id("save-format").select_option("level")
    page.get_by_test_id("save-as").click()
    sync_api.expect(page.get_by_test_id("message")).to_contain_text("black-and-white PBM", timeout=WAIT)
    assert not list(tmp_path.glob("lvl*"))

    # undo the gold cell: gold is unused and can go; then reopen the JSON: the palette comes back
    page.keyboard.press("Control+z")
    verdict(page, "")
    page.get_by_test_id("color-4").click()
    page.get_by_test_id("color-remove").click()
    sync_api.expect(page.get_by_test_id("color-4")).to_have_count(0)
    page.locator("#picker").set_input_files(str(tmp_path / "gold.json"))
    sync_api.expect(page.get_by_test_id("message")).to_contain_text("Opened gold.json", timeout=WAIT)
    verdict(page, "")
    assert chars_of(page) == list(saved.goal)
    sync_api.expect(page.get_by_test_id("color-4")).to_contain_text("gold")
    assert page.get_by_test_id("color-4").get_attribute("data-char") == new


def grid_diff_count(a, b) -> int:
    return sum(x != y for ra, rb in zip(a, b) for x, y in zip(ra, rb))


def test_black_and_white_becomes_colour_and_back(start, page, tmp_path):
    ed = start()
    page.goto(ed.url)
    verdict(page, "unique")
    sync_api.expect(page.get_by_test_id("color-2")).to_have_count(0)  # black and white: one colour
    cell(page, 0, 0).click()
    verdict(page, "")
    assert page.get_by_test_id("row-clue-0").locator(".chip").count() == 0
    page.get_by_test_id("color-add").click()  # the next default colour: red, drawing with 'a'
    sync_api.expect(page.get_by_test_id("color-2")).to_contain_text("red")
    cell(page, 0, 1).click()
    verdict(page, "")
    assert chars_of(page)[0] == "#a" + "." * 8
    chips = page.get_by_test_id("row-clue-0").locator(".chip")
    assert [chips.nth(j).get_attribute("data-char") for j in range(chips.count())] == ["#", "a"]
    page.get_by_test_id("save-name").fill("duo.pbm")
    page.get_by_test_id("save-format").select_option("pbm")
    page.get_by_test_id("save-as").click()
    sync_api.expect(page.get_by_test_id("message")).to_contain_text("black-and-white puzzles only", timeout=WAIT)
    assert not (tmp_path / "duo.pbm").exists()
    # erase the red cell: red is unused and can go; the picture is black and white again
    cell(page, 0, 1).click(button="right")
    verdict(page, "")
    sync_api.expect(page.get_by_test_id("color-remove")).to_be_enabled()
    page.get_by_test_id("color-remove").click()
    sync_api.expect(page.get_by_test_id("color-2")).to_have_count(0)
    assert page.get_by_test_id("row-clue-0").locator(".chip").count() == 0
    page.get_by_test_id("save-as").click()
    sync_api.expect(page.get_by_test_id("message")).to_contain_text("Saved", timeout=WAIT)
    assert load(str(tmp_path / "duo.pbm")).goal[0] == "#" + "." * 9


def test_reveal_proposal_is_applied_kept_saved_in_json_and_removable(start, page, tmp_path):
    """A "Reveal N cells" fix: applying it makes the puzzle unique with the picture unchanged;
    the revealed cells are shown, undoable, saved in JSON (refused by formats that cannot hold
    them) and reopened."""
    src = tmp_path / "pic.nin"
    shutil.copy(PUZZLE, src)
    ed = start(str(src))
    page.goto(ed.url)
    verdict(page, "unique")
    cell(page, 0, 5).click()
    cell(page, 1, 6).click()  # a 2x2 switch: two solutions
    verdict(page, "multiple")
    picture = grid_of(page, 10, 10)
    reveal = page.locator('[data-testid="fix"].givens').first
    sync_api.expect(reveal).to_be_visible(timeout=WAIT)
    assert "Reveal" in reveal.inner_text()
    reveal.hover()
    assert page.locator(".cell.reveal").count() >= 1
    reveal.click()
    verdict(page, "unique")
    assert grid_of(page, 10, 10) == picture  # revealing changes no cell
    given = page.locator(".cell.given")
    assert given.count() >= 1
    r, c = int(given.first.get_attribute("data-row")), int(given.first.get_attribute("data-col"))
    assert (r, c) in {(0, 5), (0, 6), (1, 5), (1, 6)}
    sync_api.expect(page.get_by_test_id("revealed")).to_contain_text("revealed to the player", timeout=WAIT)
    shot(page, "editor-revealed.png")
    page.keyboard.press("Control+z")
    verdict(page, "multiple")
    assert page.locator(".cell.given").count() == 0
    page.keyboard.press("Control+Shift+z")
    verdict(page, "unique")

    # a format that cannot hold revealed cells refuses; JSON keeps them
    page.get_by_test_id("save-name").fill("revealed.non")
    page.get_by_test_id("save-format").select_option("non")
    page.get_by_test_id("save-as").click()
    sync_api.expect(page.get_by_test_id("message")).to_contain_text("revealed", timeout=WAIT)
    assert not (tmp_path / "revealed.non").exists()
    page.get_by_test_id("save-name").fill("revealed.json")
    page.get_by_test_id("save-format").select_option("json")
    page.get_by_test_id("save-as").click()
    sync_api.expect(page.get_by_test_id("message")).to_contain_text("Saved", timeout=WAIT)
    saved = load(str(tmp_path / "revealed.json"))
    assert saved.givens and all(saved.goal[gr][gc] == saved.chars[v] for gr, gc, v in saved.givens)

    page.get_by_test_id("remove-revealed").click()
    verdict(page, "multiple")
    page.locator("#picker").set_input_files(str(tmp_path / "revealed.json"))
    sync_api.expect(page.get_by_test_id("message")).to_contain_text("Opened revealed.json", timeout=WAIT)
    verdict(page, "unique")
    assert page.locator(".cell.given").count() == len(saved.givens)


def test_rules_listed_added_drawn_mirrored_saved_and_removed(start, page, tmp_path):
    """An author adds a symmetric rule: painting draws the mirror image too, the verdict is
    judged under the rule, the rule is listed, saved in JSON (refused by a format that
    cannot hold it) and removed again."""
    ed = start()
    page.goto(ed.url)
    verdict(page, "")
    assert page.get_by_test_id("rules").inner_text().startswith("none")
    page.get_by_test_id("rule-text").fill("symmetric:diagonal")
    page.get_by_test_id("rule-add").click()
    sync_api.expect(page.get_by_test_id("message")).to_contain_text("write symmetric:AXIS")
    page.get_by_test_id("rule-text").fill("symmetric:left-right")
    page.get_by_test_id("rule-text").press("Enter")
    sync_api.expect(page.get_by_test_id("rule")).to_have_count(1)
    assert page.get_by_test_id("rule").first.inner_text().startswith("symmetric:left-right")

    # a diagonal pair and its mirror: without the rule several solutions, with it...
    cell(page, 0, 0).click()
    cell(page, 1, 1).click()
    rows = grid_of(page, 10, 10)
    assert rows[0] == "#........#" and rows[1] == ".#......#."  # mirrored while painting
    text = verdict(page, "")
    shot(page, "editor-rules.png")

    # saved in JSON with its rule; a format without rules refuses
    page.get_by_test_id("save-name").fill("sym.json")
    page.get_by_test_id("save-format").select_option("json")
    page.get_by_test_id("save-as").click()
    sync_api.expect(page.get_by_test_id("message")).to_contain_text("Saved", timeout=WAIT)
    saved = load(str(tmp_path / "sym.json"))
    assert [r.as_json() for r in saved.rules] == [{"rule": "symmetric", "axis": "left-right"}]
    page.get_by_test_id("save-name").fill("sym.non")
    page.get_by_test_id("save-format").select_option("non")
    page.get_by_test_id("save-as").click()
    sync_api.expect(page.get_by_test_id("message")).to_contain_text("cannot store rules", timeout=WAIT)
    assert not (tmp_path / "sym.non").exists()

    # the rule's verdict differs from the clues alone: remove the rule, the verdict changes
    page.get_by_role("button", name="remove rule symmetric:left-right").click()
    sync_api.expect(page.get_by_test_id("rule")).to_have_count(0)
    assert verdict(page, "") != text or "unique" in text
    cell(page, 2, 2).click()
    assert grid_of(page, 10, 10)[2] == "..#......."  # no longer mirrored




def test_blotted_clues_show_as_blots_and_typing_a_question_mark_blots_a_clue(start, page, tmp_path):
    """Issue 17: a blotted clue is a filled rounded box of its colour with '?', kept typed; typing '?'
    (in colour '?b') blots a clue number and the live verdict follows (checked by the CLI tests'
    brute force: this puzzle is unique, and multiple once row 2's number is blotted too)."""
    f = tmp_path / "blot.xml"
    f.write_text(BLOT_XML)
    ed = start(str(f))
    page.goto(ed.url)
    assert "line-solvable" in verdict(page, "unique")
    assert grid_of(page, 3, 3) == ["###", ".#.", "##."]
    blot = page.get_by_test_id("row-clue-0").locator(".chip.blot")
    sync_api.expect(blot).to_have_text("?")
    style = page.evaluate("(e) => { const s = getComputedStyle(e); return [s.backgroundColor, s.borderTopLeftRadius]; }",
                          blot.element_handle())
    assert style[0] == "rgb(200, 0, 0)" and style[1] != "0px"
    col0 = page.get_by_test_id("col-clue-0").locator(".chip.blot")
    sync_api.expect(col0).to_have_text("?")
    assert page.evaluate("(e) => getComputedStyle(e).backgroundColor", col0.element_handle()) == "rgb(0, 0, 200)"
    page.get_by_test_id("col-clue-2").click()
    sync_api.expect(page.locator(".clue-input")).to_have_value("1b")
    page.locator(".clue-input").fill("?b")
    page.locator(".clue-input").press("Enter")
    sync_api.expect(page.get_by_test_id("col-clue-2").locator(".chip.blot")).to_have_text("?")
    assert "line-solvable" in verdict(page, "unique")
    page.get_by_test_id("row-clue-1").click()
    page.locator(".clue-input").fill("?b")
    page.locator(".clue-input").press("Enter")
    verdict(page, "multiple")
    shot(page, "editor-blotted.png")
    with page.expect_download() as dl:  # saved as JSON, the blots as ["?", "b"]
        page.get_by_test_id("save-format").select_option("json")
        page.locator("#download").click()
    got = tmp_path / dl.value.suggested_filename
    dl.value.save_as(got)
    p = load(str(got))
    assert [c.text(p.chars, True) for c in p.row_clues] == ["?r 1b", "?b", "1b 1r"]
    assert [c.text(p.chars, True) for c in p.column_clues] == ["1r ?b", "1r 1b 1r", "?b"]
    page.get_by_test_id("save-format").select_option("non")  # a format without blots: one line, nothing saved
    page.locator("#download").click()
    sync_api.expect(page.get_by_test_id("message")).to_contain_text("cannot store blotted clues", timeout=WAIT)


# ---------------------------------------------------------------------------
# clue numbers: contrast on their chip (WCAG 2.x) and size on big boards

MIN_CLUE_FONT = 11  # CSS px: board.js's MIN_CLUE_FONT
LIGHT = ("#aaaaaa", "#ffff00", "#eeeeee", "#7a7a7a", "#e0457b")  # the last two: mid tones, near the black/white crossover
DARK = ("#000080", "#000000", "#800000", "#dc2828", "#cf0dcc")  # #cf0dcc: the worst case, 4.58:1 either way


def wcag_luminance(r: int, g: int, b: int) -> float:
    """WCAG 2.x relative luminance of an sRGB colour (0-255 channels)."""
    def lin(c: int) -> float:
        x = c / 255
        return x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def wcag_ratio(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    hi, lo = sorted((wcag_luminance(*a), wcag_luminance(*b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def css_rgb(text: str) -> tuple[int, int, int]:
    """``rgb(r, g, b)`` (as getComputedStyle gives it) -> (r, g, b)."""
    m = re.fullmatch(r"rgba?\((\d+), (\d+), (\d+)(?:, [\d.]+)?\)", text)
    assert m, text
    return int(m[1]), int(m[2]), int(m[3])


def hex_rgb(h: str) -> tuple[int, int, int]:
    return int(h[1:3], 16), int(h[3:5], 16), int(h[5:7], 16)


def test_wcag_reference_black_or_white_reads_at_least_4_58_on_every_colour():
    """The claim the chips rely on, over all 16.7M sRGB colours: the better of black and white
    text has a contrast ratio of at least 4.58:1 (the worst colour, luminance 0.179, ties)."""
    np = pytest.importorskip("numpy")
    v = np.arange(256) / 255
    lin = np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)
    lum = (0.2126 * lin[:, None, None] + 0.7152 * lin[None, :, None] + 0.0722 * lin[None, None, :]).ravel()
    best = np.maximum((lum + 0.05) / 0.05, 1.05 / (lum + 0.05))
    assert 4.58 <= best.min() < 4.59
    i = int(best.argmin())
    assert abs(wcag_ratio(((i >> 16) & 255, (i >> 8) & 255, i & 255), (0, 0, 0)) - best.min()) < 1e-9


def test_chip_text_colour_is_black_or_white_by_the_wcag_contrast_ratio(start, page):
    """board.js's luminance, contrast and textOn against the Python WCAG reference: greys,
    colours around the black/white crossover and a seeded random sample."""
    import random
    rnd = random.Random(7)
    colours = [(g, g, g) for g in range(256)] + [hex_rgb(h) for h in LIGHT + DARK]
    colours += [tuple(rnd.randrange(256) for _ in range(3)) for _ in range(4000)]
    colours += [c for c in (tuple(rnd.randrange(256) for _ in range(3)) for _ in range(40000))
                if abs(wcag_luminance(*c) - 0.1791) < 0.004][:500]  # the crossover: black and white nearly tie
    hexes = ["#%02x%02x%02x" % c for c in colours]
    ed = start()
    page.goto(ed.url)
    verdict(page, "unique")
    got = page.evaluate("""async (hexes) => {
        const m = await import(new URL("static/board.js", document.baseURI).href);
        return hexes.map((h) => [m.luminance(h), m.contrast(h, "#000000"), m.contrast(h, "#ffffff"), m.textOn(h)]); }""", hexes)
    for c, h, (lum, on_black, on_white, text) in zip(colours, hexes, got):
        assert lum == pytest.approx(wcag_luminance(*c), abs=1e-12), h
        assert on_black == pytest.approx(wcag_ratio(c, (0, 0, 0)), rel=1e-12), h
        assert on_white == pytest.approx(wcag_ratio(c, (255, 255, 255)), rel=1e-12), h
        want = "#000000" if wcag_ratio(c, (0, 0, 0)) >= wcag_ratio(c, (255, 255, 255)) else "#ffffff"
        assert text == want, (h, text)
        assert wcag_ratio(c, hex_rgb(text)) >= 4.58, h
    # #rgb shorthand too (the page's fallback grey is written #888); the minimum font the size tests assume
    assert page.evaluate("""async () => { const m = await import(new URL("static/board.js", document.baseURI).href);
        return [m.luminance("#888") === m.luminance("#888888"), m.textOn("#888"), m.MIN_CLUE_FONT]; }""") \
        == [True, "#000000", MIN_CLUE_FONT]


def regions_puzzle(path: Path, w: int, h: int, colours: tuple[str, ...] | None) -> None:
    """A w x h picture of 12x12 regions cycling through ``colours`` (black and white if None), with
    a full first row and column: clues of 12, 4 and w / h (three digits at 100)."""
    from satnono.formats import save
    from satnono.model import Puzzle
    from satnono.palette import Color
    chars = "abcdefgh"[:len(colours)] if colours else "#"
    g = ["".join(chars[(r // 12 + c // 12) % len(chars)] if (r // 12 + c // 12) % 2 == 0 or colours else "."
                 for c in range(w)) for r in range(h)]
    g = [chars[0] * w] + [chars[0] + row[1:] for row in g[1:]]
    pal = None
    if colours:
        pal = [Color("white", ".", (255, 255, 255))] + [Color(f"c{i}", ch, hex_rgb(x)) for i, (ch, x) in
                                                           enumerate(zip(chars, colours))]
    save(Puzzle.from_grid(g, pal), str(path), overwrite=True)


CLUE_SPANS = """() => {
  const bgOf = (el) => {  // the colour a number is drawn on: the first ancestor with a background
    for (let e = el; e; e = e.parentElement) {
      const c = getComputedStyle(e).backgroundColor;
      const a = c.match(/rgba\\(.*, ([\\d.]+)\\)/);
      if (!a || +a[1] > 0) return c;
    }
    return "rgb(255, 255, 255)";
  };
  const out = [];
  for (const clue of document.querySelectorAll(".clue")) {
    const box = clue.getBoundingClientRect();
    for (const s of clue.children) {
      if (s.tagName !== "SPAN") continue;
      const st = getComputedStyle(s);
      const r = s.getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(s);
      const t = range.getBoundingClientRect();  // the digits themselves
      out.push({ id: clue.dataset.testid, text: s.textContent, chip: s.classList.contains("chip"),
        classes: clue.className, color: st.color, bg: bgOf(s), font: parseFloat(st.fontSize),
        sw: s.scrollWidth, cw: s.clientWidth, box: [r.left, r.top, r.right, r.bottom],
        digits: [t.left, t.top, t.right, t.bottom], clue: [box.left, box.top, box.right, box.bottom] });
    }
  }
  return out;
}"""


def check_clue_numbers(page, min_ratio: float = 4.5) -> list[dict]:
    """Every clue number: at least MIN_CLUE_FONT, its digits inside its chip (or box), inside its
    column's width (column clues) or its row's height (row clues), not over its neighbour, and
    at least ``min_ratio`` contrast against what it is drawn on."""
    spans = page.evaluate(CLUE_SPANS)
    assert spans
    eps = 0.5
    by_clue: dict[str, list[dict]] = {}
    for s in spans:
        where = (s["id"], s["text"], s["classes"])
        assert s["font"] >= MIN_CLUE_FONT, where
        assert s["sw"] <= s["cw"], where
        # the digits' text box inside the chip; a plain number's line (line-height 1.1) is 1 px
        # shorter than the font's ascent + descent (no ink there: digits have no descenders)
        ey = eps if s["chip"] else 1.0
        x0, y0, x1, y1 = s["box"]
        dx0, dy0, dx1, dy1 = s["digits"]
        assert x0 - eps <= dx0 and dx1 <= x1 + eps and y0 - ey <= dy0 and dy1 <= y1 + ey, (where, s["box"], s["digits"])
        cx0, cy0, cx1, cy1 = s["clue"]
        if s["id"].startswith("col-clue"):  # the chip and its digits within the column
            assert cx0 - eps <= min(x0, dx0) and max(x1, dx1) <= cx1 + eps, (where, s["box"], s["clue"])
        else:  # within the row
            assert cy0 - ey <= min(y0, dy0) and max(y1, dy1) <= cy1 + ey, (where, s["box"], s["clue"])
        ratio = wcag_ratio(css_rgb(s["color"]), css_rgb(s["bg"]))
        assert ratio >= min_ratio, (where, s["color"], s["bg"], ratio)
        by_clue.setdefault(s["id"], []).append(s)
    for sid, group in by_clue.items():  # neighbours do not overlap
        col = sid.startswith("col-clue")
        for a, b in zip(group, group[1:]):
            assert (a["box"][3] <= b["box"][1] + eps) if col else (a["box"][2] <= b["box"][0] + eps), (sid, a, b)
    return spans


def open_file(page, path: Path) -> None:
    page.locator("#picker").set_input_files(str(path))
    sync_api.expect(page.get_by_test_id("message")).to_contain_text(f"Opened {path.name}", timeout=WAIT)
    verdict(page, "")


def test_clue_chips_read_on_light_and_dark_colours_and_fit_on_the_largest_boards(start, page, tmp_path):
    """Defect 7: light chips (#aaaaaa, yellow, #eeeeee, mid tones) and dark ones get the digit colour
    of the higher WCAG contrast (>= 4.5:1), and two- and three-digit numbers keep at least
    MIN_CLUE_FONT px without leaving their chip, column or row on a 48x40 board and on the
    largest the editor allows (the cells grow, the page scrolls)."""
    from satnono.web.document import EDITOR_MAX_SIDE
    ed = start()
    page.goto(ed.url)
    verdict(page, "unique")
    assert page.locator("#width").get_attribute("max") == str(EDITOR_MAX_SIDE)  # what the page lets one type
    big = EDITOR_MAX_SIDE
    for name, colours in (("light", LIGHT), ("dark", DARK)):
        for w, h in ((48, 40), (big, big)):
            f = tmp_path / f"{name}-{w}x{h}.json"
            regions_puzzle(f, w, h, colours)
            open_file(page, f)
            spans = check_clue_numbers(page)
            chips = [s for s in spans if s["chip"]]
            assert len(chips) == len(spans)
            assert {css_rgb(s["bg"]) for s in chips} == {hex_rgb(x) for x in colours}
            texts = {s["text"] for s in chips}
            assert {"12", str(w), str(h)} <= texts
            if w == 48:
                shot(page, f"editor-chips-{name}-48x40.png")
    assert "100" in texts  # a three-digit clue was among them
    shot(page, "editor-chips-dark-largest.png")

    # typed and conflicting clues keep their contrast and fit (a typed column of 39 cells: no solution)
    open_file(page, tmp_path / "light-48x40.json")
    page.get_by_test_id("col-clue-3").click()
    page.locator(".clue-input").fill("39b")
    page.locator(".clue-input").press("Enter")
    verdict(page, "none")
    sync_api.expect(page.locator(".clue.conflict").first).to_be_attached(timeout=WAIT)
    spans = check_clue_numbers(page)
    assert any(s["text"] == "39" and "typed" in s["classes"] for s in spans)
    assert any("conflict" in s["classes"] for s in spans)
    page.get_by_test_id("col-clue-3").hover()
    check_clue_numbers(page)
    shot(page, "editor-chips-typed-conflict.png")


def test_black_and_white_clue_numbers_read_and_fit_also_typed_and_in_conflict(start, page, tmp_path):
    """Plain (black-and-white) clue numbers: at least MIN_CLUE_FONT px, inside their column or row,
    and readable on the board, also typed (blue), in conflict (red, bold) and hovered."""
    from satnono.web.document import EDITOR_MAX_SIDE
    ed = start()
    page.goto(ed.url)
    verdict(page, "unique")
    for w, h in ((48, 40), (EDITOR_MAX_SIDE, EDITOR_MAX_SIDE)):
        f = tmp_path / f"bw-{w}x{h}.non"
        regions_puzzle(f, w, h, None)
        open_file(page, f)
        spans = check_clue_numbers(page)
        assert not any(s["chip"] for s in spans)
        assert {"12", str(w), str(h)} <= {s["text"] for s in spans}
    shot(page, "editor-bw-largest.png")
    open_file(page, tmp_path / "bw-48x40.non")
    page.get_by_test_id("row-clue-2").click()
    page.locator(".clue-input").fill("12 30")
    page.locator(".clue-input").press("Enter")
    verdict(page, "none")
    sync_api.expect(page.locator(".clue.conflict").first).to_be_attached(timeout=WAIT)
    spans = check_clue_numbers(page)
    assert any("typed" in s["classes"] for s in spans) and any("conflict" in s["classes"] for s in spans)
    for sel in ("row-clue-2", page.locator(".clue.conflict").first.get_attribute("data-testid")):
        page.get_by_test_id(sel).hover()  # the hover background under blue and red numbers
        check_clue_numbers(page)
    shot(page, "editor-bw-typed-conflict.png")
