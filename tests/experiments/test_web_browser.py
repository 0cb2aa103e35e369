"""End to end: ``cardsim serve`` started as a command and driven by headless Chromium
(the system's ``chromium``, through Playwright): load the page, play a whole Debertz deal and
a whole Barbu deal by clicking, replay a hand-record file and ask for solver values, with no
console error anywhere.

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
    pg.wait_for_selector("#game option", state="attached")
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
        pg.wait_for_function("document.body.dataset.ready === '1'")
        if pg.is_visible("#deal-end"):
            return clicks
        pg.evaluate("document.body.dataset.ready = '0'")
        button = pg.query_selector("#actions button") or pg.query_selector("#hand button.legal")
        assert button is not None, pg.inner_text("#status")
        button.click()
    if stop:
        pg.wait_for_function("document.body.dataset.ready === '1'")
        return limit
    raise AssertionError("the deal did not end")


def start(pg, game, agents, players=None):
    pg.select_option("#game", game)
    if players:
        pg.select_option("#players", players)
    pg.fill("#agents", agents)
    pg.evaluate("document.body.dataset.ready = '0'")
    pg.click("#start")
    pg.wait_for_function("document.body.dataset.ready === '1'")


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
    page.wait_for_function("document.body.dataset.ready === '1'")
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
        page.wait_for_function("document.body.dataset.ready === '1'")
    page.click("#compare-game")
    page.wait_for_function("document.body.dataset.gameCompared !== undefined")
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
    page.wait_for_function("document.querySelector('#run-list').textContent.length > 0")
    shot(page, "leaderboard.png")


def test_compare_two_agents(page):
    page.click("#tab-compare")
    page.wait_for_selector("#cmp-file option", state="attached")
    page.click("#cmp-list")
    page.wait_for_selector("#cmp-deals tr.pick")
    page.click("#cmp-deals tr.pick")
    page.wait_for_function("document.body.dataset.compared !== undefined")
    for k in (0, 1):
        assert page.query_selector_all(f"#cmp-play{k} .seat .hand .card")
    page.click("#cmp-play0 .row button:last-of-type")
    assert "step 1/" in page.inner_text("#cmp-play0 .row span")
    shot(page, "compare.png")
