"""End to end: ``cardsim serve`` started as a command and driven by headless Chromium
(the system's ``chromium``, through Playwright): load the page, play a whole Debertz deal and
a whole Barbu deal by clicking and by keys, the card table (seats around it, backs, the
trick in the middle, the last trick, the deal's facts, Barbu's doubles), a phone's width, a
reload that takes the game up again, replay a hand-record file and ask for solver values,
with no console error anywhere (the page runs under its Content-Security-Policy).

Skipped when Playwright or a Chromium executable is missing (``.ci/run`` installs both).
With ``CARDSIM_SCREENSHOTS=DIR`` the pages are saved there as PNG (docs/img holds them).
"""

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
playwright = pytest.importorskip("playwright.sync_api", reason="playwright is not installed "
                                 "(pip install 'cardsim[web]')")

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = next((p for p in (os.environ.get("CARDSIM_CHROMIUM"), shutil.which("chromium"),
                             shutil.which("chromium-browser")) if p), None)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium executable (apt-get "
                                "install chromium; .ci/run does it as root)")
SHOTS = os.environ.get("CARDSIM_SCREENSHOTS")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("serve")
    runs = root / "runs"
    runs.mkdir()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, "-m", "experiments.cli", "simulate", "debertz", "--hands",
                    "1", "--agents", "heuristic", "--history", str(runs / "deals.jsonl")],
                   check=True, cwd=ROOT, env=env, capture_output=True, timeout=600)
    (root / "compare.yaml").write_text(
        "name: cmp\nkind: tournament\ngame: debertz\nrules: {players: 2}\n"
        "agents: [heuristic, random]\ndeals: 4\nper_deal: true\n")
    subprocess.run([sys.executable, "-m", "experiments.cli", "run", str(root / "compare.yaml"),
                    "--out", str(runs)], check=True, cwd=ROOT, env=env, capture_output=True,
                   timeout=600)
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "experiments.cli", "serve", "--port",
                             str(port), "--runs", str(runs)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            urllib.request.urlopen(url + "/api/meta", timeout=2)
            break
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError(proc.stdout.read().decode())
            time.sleep(0.2)
    yield url
    proc.terminate()
    proc.wait(timeout=30)


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def page(browser, server):
    pg = browser.new_page(viewport={"width": 1100, "height": 900})
    # the first game of a server compiles the engine and agents it seats (minutes on a
    # busy machine when nothing is cached yet)
    pg.set_default_timeout(900_000)
    errors = []
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(server + "/?pace=0")
    pg.wait_for_selector("body[data-meta='1']")
    yield pg
    pg.close()
    assert errors == [], errors


def shot(pg, name):
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(Path(SHOTS) / name), full_page=True)


def play_by_clicking(pg, limit=200, stop=False):
    """Click the first legal decision (an action button, else a legal card) until the deal
    is over (or ``limit`` clicks, with ``stop``); returns the number of clicks."""
    for clicks in range(limit):
        pg.wait_for_selector("body[data-ready='1']")
        if pg.is_visible("#deal-end"):
            return clicks
        pg.evaluate("document.body.dataset.ready = '0'")
        button = pg.query_selector("#actions button") or pg.query_selector("#hand button.legal")
        assert button is not None, pg.inner_text("#status")
        button.click()
    if stop:
        pg.wait_for_selector("body[data-ready='1']")
        return limit
    raise AssertionError("the deal did not end")


def start(pg, game, agents, players=None, seed=None):
    pg.select_option("#game", game)
    if players:
        pg.select_option("#players", players)
    for menu in pg.query_selector_all("#seat-agents select"):
        menu.select_option(agents)
    if seed is not None:
        pg.fill("#seed", str(seed))
    pg.evaluate("document.body.dataset.ready = '0'")
    pg.click("#start")
    pg.wait_for_selector("body[data-ready='1']")


def test_debertz_deal_by_clicking(page):
    start(page, "debertz", "heuristic", "2")
    # a card that is not legal cannot be clicked
    disabled = page.query_selector_all("#hand button:disabled")
    assert all(b.get_attribute("class").find("legal") < 0 for b in disabled)
    clicks = play_by_clicking(page, 4, stop=True)
    shot(page, "play-debertz.png")
    clicks += play_by_clicking(page)
    assert clicks >= 9
    assert "Deal 1" in page.inner_text("#deal-result")
    assert page.query_selector_all("#sheet tr")
    shot(page, "deal-end-debertz.png")
    page.evaluate("document.body.dataset.ready = '0'")
    page.click("#next-deal")
    page.wait_for_selector("body[data-ready='1']")
    assert page.is_hidden("#deal-end")


def test_a_whole_game_in_duplicate_mode(page):
    """A whole (short) Debertz game by clicking, then the same game replayed with the
    duplicate agent in your seat, compared at the game's end."""
    page.fill("#conventions", "target=150")
    page.fill("#duplicate", "heuristic")
    start(page, "debertz", "heuristic", "2")
    for _ in range(40):
        play_by_clicking(page)
        assert page.is_hidden("#compare-game") != page.is_hidden("#next-deal")
        if page.is_hidden("#next-deal"):  # the game is over
            break
        page.evaluate("document.body.dataset.ready = '0'")
        page.click("#next-deal")
        page.wait_for_selector("body[data-ready='1']")
    page.click("#compare-game")
    page.wait_for_selector("body[data-game-compared]")
    text = page.inner_text("#compare-result")
    assert text.startswith("You: ") and "heuristic in your seat: " in text, text
    shot(page, "duplicate-game.png")


def test_barbu_deal_by_clicking(page):
    start(page, "barbu", "random")
    clicks = play_by_clicking(page)
    assert clicks >= 13
    shot(page, "deal-end-barbu.png")


def test_replay_and_solver_values(page, server):
    page.click("#tab-replay")
    page.wait_for_selector("#record-deal option", state="attached")
    page.select_option("#record-file", label="runs/deals.jsonl")
    page.wait_for_selector("#record-deal option", state="attached")
    page.click("#open-record")
    page.wait_for_selector("#replay-view:not([hidden])")
    steps = int(page.get_attribute("#step", "max"))
    assert steps > 9
    # step to the first lead of the deal: every card of the hand is legal there
    data = json.loads(urllib.request.urlopen(
        server + "/api/replay?root=runs&path=deals.jsonl&deal=0").read())
    k = next(i for i, s in enumerate(data["steps"]) if s["view"]["phase"] == "play"
             and not s["view"]["trick"])
    for _ in range(k):
        page.click("#next-step")
    assert page.inner_text("#step-label").startswith(f"step {k} ")
    page.click("#ran-solver")
    page.wait_for_selector("#ranalysis[data-done='solver']", timeout=600_000)
    assert "solver:" in page.inner_text("#ranalysis")
    assert page.query_selector_all("#replay-table .value")
    shot(page, "replay-solver.png")


def test_leaderboard_page(page):
    page.click("#tab-runs")
    page.wait_for_selector("#run-list")
    page.wait_for_selector("#run-list:not(:empty)")
    shot(page, "leaderboard.png")


def test_compare_two_agents(page):
    page.click("#tab-compare")
    page.wait_for_selector("#cmp-file option", state="attached")
    page.click("#cmp-list")
    page.wait_for_selector("#cmp-deals tr.pick")
    page.click("#cmp-deals tr.pick")
    page.wait_for_selector("body[data-compared]")
    for k in (0, 1):
        assert page.query_selector_all(f"#cmp-play{k} .seat .hand .card")
    page.click("#cmp-play0 .row button:last-of-type")
    assert "step 1/" in page.inner_text("#cmp-play0 .row span")
    shot(page, "compare.png")


def press(pg, key):
    """A key at the table, then the agents' answer."""
    pg.evaluate("document.body.dataset.ready = '0'")
    pg.keyboard.press(key)
    pg.wait_for_selector("body[data-ready='1']")


def seats(pg):
    """Each seat box of the play table: seat, place, name, backs shown, the count's text."""
    return pg.eval_on_selector_all("#felt .seat", """els => els.map(e => ({
        seat: +e.dataset.seat, place: [...e.classList].find(c => c.startsWith('pos-')),
        name: e.querySelector('.name').textContent, backs: e.querySelectorAll('.back').length,
        count: (e.querySelector('.backs .count') || {}).textContent || null}))""")


def test_the_setup_offers_the_tables_named_players_and_networks(page, server):
    meta = json.loads(urllib.request.urlopen(server + "/api/meta").read())

    def networks(table):  # the zoo's networks of a table, strongest first
        return [m["name"] for m in meta["models"] if m["table"] == table]

    page.select_option("#game", "debertz")
    page.select_option("#players", "2")
    menus = page.query_selector_all("#seat-agents select")
    assert len(menus) == 1 and menus[0].input_value() == "strongest"
    offered = page.eval_on_selector_all("#seat-agents select option", "os => os.map(o => o.value)")
    assert offered[:5] == ["strongest", "fast", "network", "heuristic", "random"]
    assert page.eval_on_selector_all("#checkpoint option", "os => os.map(o => o.value)") == \
        networks("debertz-2p") == ["debertz-2p"]
    assert "over the heuristic" in page.inner_text("#network-card")
    page.select_option("#players", "2v2")
    assert len(page.query_selector_all("#seat-agents select")) == 3
    assert page.eval_on_selector_all("#checkpoint option", "os => os.map(o => o.value)") == \
        networks("debertz-2v2")  # no network of another table
    page.select_option("#game", "barbu")
    assert networks("barbu")[0] == "barbu-critic"
    assert page.input_value("#checkpoint") == "barbu-critic"  # the table's strongest network
    assert "target" not in page.get_attribute("#conventions", "placeholder")
    assert "first_declarer=" in page.get_attribute("#conventions", "placeholder")


def test_a_table_with_seats_around_it(page):
    start(page, "debertz", "heuristic", "4", seed=2)
    placed = {s["seat"]: s for s in seats(page)}
    assert [placed[k]["place"] for k in range(4)] == ["pos-south", "pos-west", "pos-north",
                                                      "pos-east"]
    assert placed[0]["name"] == "You" and placed[0]["backs"] == 0
    for k in (1, 2, 3):  # hidden hands: a back per card, and their count
        assert placed[k]["name"] == f"Seat {k}heuristic"
        assert placed[k]["backs"] >= 5 and placed[k]["count"] == f"{placed[k]['backs']} cards"
    info = page.inner_text("#felt .table-info")
    assert "TURN-UP" in info.upper() and page.query_selector("#felt .table-info .turnup")
    shot(page, "table-debertz-4p.png")
    # keys only: the first decision each time, until a trick has been taken
    for _ in range(60):
        if not page.is_disabled("#felt .last-trick-button"):
            break
        press(page, "1")
    assert "TRUMP" in page.inner_text("#felt .table-info").upper()
    # each card of the trick lies before the one who played it
    for slot in page.query_selector_all("#felt .trick-area .slot"):
        seat = slot.get_attribute("data-seat")
        assert slot.get_attribute("class").split()[-1] == placed[int(seat)]["place"]
    page.click("#felt .last-trick-button")
    assert len(page.query_selector_all("#felt .trick-area.last .slot")) == 4
    assert "won by" in page.inner_text("#felt .trick-area .caption")
    shot(page, "last-trick.png")
    page.keyboard.press("l")  # and back to the trick
    assert not page.query_selector("#felt .trick-area.last")


def test_keyboard_play_and_a_fresh_score_sheet(page):
    start(page, "debertz", "heuristic", "2", seed=5)
    for _ in range(80):  # arrows along the legal cards and Enter, else the first decision
        if page.is_visible("#deal-end"):
            break
        if page.query_selector("#hand button.legal"):
            page.keyboard.press("ArrowRight")
            assert page.evaluate("document.activeElement.classList.contains('legal')")
            press(page, "Enter")
        else:
            press(page, "1")
    assert page.is_visible("#deal-end")
    result = page.inner_text("#deal-result")
    assert result.startswith("Deal 1: ") and (" made it: " in result or "a byte" in result
                                               or "hanging byte" in result or "void" in result)
    assert len(page.query_selector_all("#sheet tr")) == 2
    start(page, "debertz", "heuristic", "2", seed=6)  # a new game: an empty sheet
    assert page.query_selector_all("#sheet tr") == [] and page.inner_text("#deal-result") == ""


def test_barbu_contracts_and_doubles_name_the_opponent(page):
    # seed 3: seat 3 declares domino; you are asked first whether to double it
    start(page, "barbu", "heuristic", seed=3)
    buttons = page.eval_on_selector_all("#actions button", "bs => bs.map(b => b.dataset.action)")
    texts = [t.strip() for t in page.eval_on_selector_all(
        "#actions button", "bs => bs.map(b => b.firstChild.textContent)")]
    assert buttons == ["no_double", "double"]
    assert texts == ["No double on seat 3 (heuristic)", "Double seat 3 (heuristic)"]
    assert "double seat 3 (heuristic), or not" in page.inner_text("#status")
    shot(page, "table-barbu-double.png")
    press(page, "2")  # double it: the doubles are listed by name
    assert "you doubled seat 3 (heuristic)" in page.inner_text("#felt .table-info")
    page.fill("#conventions", "first_declarer=0")
    start(page, "barbu", "heuristic", seed=3)
    texts = page.eval_on_selector_all("#actions button",
                                      "bs => bs.map(b => b.firstChild.textContent)")
    assert "No tricks" in texts and "No king" in texts and "Trumps" in texts


def test_a_phone_sized_table(browser, server):
    pg = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    pg.set_default_timeout(900_000)
    errors = []
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.goto(server + "/?pace=0")
    pg.wait_for_selector("body[data-meta='1']")
    start(pg, "barbu", "heuristic", seed=4)
    assert pg.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scroll
    for box in [b.bounding_box() for b in pg.query_selector_all(
            "#hand button, #felt .seat, #actions button")]:
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    shot(pg, "table-phone.png")
    pg.close()
    assert errors == []


def test_a_reload_takes_the_game_up_again(page):
    start(page, "debertz", "heuristic", "3", seed=9)
    press(page, "1")
    before = page.inner_text("#hand")
    status = page.inner_text("#status")
    page.evaluate("document.body.dataset.ready = '0'")
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert page.inner_text("#hand") == before and page.inner_text("#status") == status
