"""The web inspector in headless Chromium (Debian ``chromium`` + ``chromium-driver``, Selenium).

Skips only when the browser is not installed and CI is not set; in CI a missing browser is a
failure, so the check cannot silently disappear. Writes ``bench-out/inspector.png``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import LiveServer, live_server

from unavailable import require_extra, unavailable

require_extra("fastapi", "server")
httpx = require_extra("httpx", "server")

CHROMIUM = os.environ.get("STATELEDGER_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
SCREENSHOT = Path(__file__).resolve().parents[2] / "bench-out" / "inspector.png"


def _browser_or_skip() -> Any:
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not Path(p).exists()]
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("selenium (pip)")
    if missing:
        reason = f"headless browser test needs {', '.join(missing)} (apt-get install chromium " \
                 "chromium-driver; pip install selenium)"
        unavailable(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--window-size=1500,1250"):
        opts.add_argument(flag)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=opts)


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, str]]:
    root = tmp_path_factory.mktemp("inspector")
    with live_server(root / "mem.db", root / "mem.keys.db") as srv:
        key = srv.keys.create("demo").key  # type: ignore[attr-defined]
        with httpx.Client(base_url=srv.url, headers={"X-API-Key": key}, timeout=30) as c:
            for text, at in (("I live in Boston", "2023-01-10T09:00:00Z"),
                             ("I moved to Seattle last weekend", "2023-02-14T18:00:00Z"),
                             ("I might move to Portland next year", "2023-03-01T10:00:00Z"),
                             ("I have a dog named Rex", "2023-01-20T12:00:00Z")):
                resp = c.post("/v1/memories", json={"text": text, "user_id": "alice", "at": at,
                                                     "provenance": f"chat-{at[:10]}"})
                assert resp.status_code == 200, resp.text
            c.post("/v1/memories", json={"text": "I live in Lisbon", "user_id": "zoe"})
        yield srv, key


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    drv = _browser_or_skip()
    try:
        yield drv
    finally:
        drv.quit()


def test_inspector_timeline_search_and_resolve(seeded: tuple[LiveServer, str],
                                               driver: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.select import Select
    from selenium.webdriver.support.wait import WebDriverWait

    server, key = seeded
    wait = WebDriverWait(driver, 15)
    driver.get(server.url + "/inspector")

    # A wrong key is refused and says so.
    driver.find_element(By.ID, "api-key").send_keys("sl_000000000000_" + "x" * 43)
    driver.find_element(By.ID, "connect").click()
    wait.until(ec.text_to_be_present_in_element((By.ID, "status"), "401"))

    field = driver.find_element(By.ID, "api-key")
    field.clear()
    field.send_keys(key)
    driver.find_element(By.ID, "connect").click()
    wait.until(ec.text_to_be_present_in_element((By.ID, "status"), "Connected"))
    assert driver.find_element(By.ID, "status").text == "Connected: 2 user(s)."
    Select(driver.find_element(By.ID, "user")).select_by_value("alice")
    wait.until(ec.text_to_be_present_in_element((By.ID, "status"), "alice:"))
    assert driver.find_element(By.ID, "status").text == "alice: 4 record(s) in 2 fact(s)."

    location = driver.find_element(By.CSS_SELECTOR, '.fact[data-slot="location"]')
    states = location.find_elements(By.CSS_SELECTOR, ".state")
    # The live state first, then the others oldest first.
    assert [s.get_attribute("data-status") for s in states] == [
        "active", "superseded", "pending"]
    badges = [s.find_element(By.CSS_SELECTOR, ".badge").text for s in states]
    assert badges == ["live · active", "superseded", "pending"]
    assert "I live in Boston" in states[1].text and "2023-01-10 → 2023-02-14" in states[1].text
    assert "Seattle" in states[0].text and "→ now" in states[0].text
    # Links name their target's value, not a hash.
    assert "superseded by → Seattle" in states[1].text
    assert "supersedes → Boston" in states[0].text
    assert "contradicts → Seattle" in states[2].text
    assert "provenance: chat-2023-03-01" in states[2].text
    states = [states[1], states[0], states[2]]  # back to time order for the checks below
    assert "said 2023-03-01" in states[2].text and "Confirm" in states[2].text
    assert "live: seattle" in location.text.lower()
    pets = driver.find_element(By.CSS_SELECTOR, '.fact[data-slot="pet"]')
    assert [s.get_attribute("data-status") for s in
            pets.find_elements(By.CSS_SELECTOR, ".state")] == ["active"]
    log = driver.find_elements(By.CSS_SELECTOR, "#log tbody tr")
    assert [r.find_element(By.CSS_SELECTOR, ".badge").text for r in log] == [
        "append", "defer_verify", "revise", "append"]

    # Search shows the labelled packet and the trace.
    driver.find_element(By.ID, "query").send_keys("Where did I live before?")
    driver.find_element(By.ID, "search").click()
    wait.until(ec.text_to_be_present_in_element((By.ID, "status"), "Searched"))
    assert driver.find_element(By.ID, "view").text == "historical"
    rows = driver.find_elements(By.CSS_SELECTOR, "#evidence tbody tr")
    labelled = {r.find_elements(By.TAG_NAME, "td")[2].text:
                r.find_element(By.CSS_SELECTOR, ".label").text for r in rows}
    assert labelled["I live in Boston"] == "historical memory"
    assert labelled.get("I moved to Seattle last weekend", "current memory") == "current memory"
    driver.find_element(By.CSS_SELECTOR, "#trace-box summary").click()
    trace = driver.find_element(By.ID, "trace").text
    assert '"view": "historical"' in trace and '"pre_rank"' in trace

    driver.find_element(By.ID, "answer").click()
    wait.until(ec.text_to_be_present_in_element((By.ID, "answer-text"), "Boston"))

    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    assert driver.save_screenshot(str(SCREENSHOT))
    assert SCREENSHOT.stat().st_size > 10_000

    # Deny the pending claim from the page: it becomes a rejected state of the same fact.
    states[2].find_element(By.CSS_SELECTOR, "button.deny").click()
    wait.until(ec.text_to_be_present_in_element((By.ID, "status"), "Denied"))
    location = driver.find_element(By.CSS_SELECTOR, '.fact[data-slot="location"]')
    assert [s.get_attribute("data-status") for s in
            location.find_elements(By.CSS_SELECTOR, ".state")] == [
        "active", "superseded", "rejected"]

    severe = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"
              and "401" not in e["message"]]  # the refused key above logs its 401
    assert severe == [], severe  # no script errors, no CSP violations


def _seed(server: LiveServer, key: str) -> None:
    """Users for the page's other views: a five-state fact, a confirmed hedge, a note, a
    long log."""
    with httpx.Client(base_url=server.url, headers={"X-API-Key": key}, timeout=60) as c:
        def add(user: str, text: str, at: str) -> dict[str, Any]:
            resp = c.post("/v1/memories", json={"text": text, "user_id": user, "at": at})
            assert resp.status_code == 200, resp.text
            return resp.json()  # type: ignore[no-any-return]

        for i, city in enumerate(("Boston", "Seattle", "Denver", "Austin", "Chicago")):
            add("mover", f"I moved to {city}." if i else f"I live in {city}.",
                f"2023-0{i + 1}-01T09:00:00Z")
        add("hedger", "I live in Boston.", "2023-01-01T09:00:00Z")
        hedge = add("hedger", "I might move to Portland next year.", "2023-02-01T09:00:00Z")
        resp = c.post(f"/v1/pending/{hedge['record']['id']}/resolve", json={"action": "confirm"})
        assert resp.status_code == 200, resp.text
        add("hedger", "We watched a documentary about whales last night.",
            "2023-02-02T09:00:00Z")
        for i in range(25):
            add("chatty", f"I have a plant named Fern{i}.", f"2023-03-{i + 1:02d}T09:00:00Z")


def _shot(driver: Any, name: str) -> None:
    path = SCREENSHOT.with_name(f"inspector-{name}.png")
    path.parent.mkdir(parents=True, exist_ok=True)
    assert driver.save_screenshot(str(path)) and path.stat().st_size > 10_000


def test_inspector_for_newcomers(seeded: tuple[LiveServer, str], driver: Any,
                                 tmp_path: Path) -> None:
    """Live state always in view, confirmed hedges, notes apart, readable at 1400 px, the
    key kept for the tab, a paged log, forget and export from the page."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.select import Select
    from selenium.webdriver.support.wait import WebDriverWait

    server, key = seeded
    _seed(server, key)
    wait = WebDriverWait(driver, 20)
    driver.set_window_size(1400, 1000)
    driver.get(server.url + "/inspector")
    driver.execute_script("sessionStorage.clear()")
    field = driver.find_element(By.ID, "api-key")
    field.clear()
    field.send_keys(key)
    driver.find_element(By.ID, "connect").click()
    wait.until(ec.text_to_be_present_in_element((By.ID, "status"), "Connected"))

    # The key is kept for this tab: a reload reconnects by itself.
    driver.refresh()
    wait.until(ec.text_to_be_present_in_element((By.ID, "status"), "Connected"))

    def pick(user: str) -> None:
        Select(driver.find_element(By.ID, "user")).select_by_value(user)
        wait.until(ec.text_to_be_present_in_element((By.ID, "status"), f"{user}:"))

    # A five-state fact: the live card is first and stays in view when the timeline is
    # scrolled to its far end.
    pick("mover")
    fact = driver.find_element(By.CSS_SELECTOR, '.fact[data-slot="location"]')
    cards = fact.find_elements(By.CSS_SELECTOR, ".state")
    assert len(cards) == 5 and cards[0].get_attribute("data-status") == "active"
    assert "Chicago" in cards[0].text
    timeline = fact.find_element(By.CSS_SELECTOR, ".timeline")
    driver.execute_script("arguments[0].scrollLeft = arguments[0].scrollWidth", timeline)
    live_box = driver.execute_script(
        "const a = arguments[0].getBoundingClientRect(), b = arguments[1].getBoundingClientRect();"
        "return [a.left, a.right, b.left, b.right];", cards[0], timeline)
    assert live_box[0] >= live_box[2] - 1 and live_box[1] <= live_box[3] + 1, live_box
    # Readable at 1400 px: nothing wider than the window, tables inside their panels.
    widths = driver.execute_script(
        "return [document.documentElement.scrollWidth, window.innerWidth,"
        " document.querySelector('#log').scrollWidth,"
        " document.querySelector('#log-panel').clientWidth]")
    assert widths[0] <= widths[1] and widths[2] <= widths[3], widths
    _shot(driver, "five-states")

    # A confirmed hedge reads as confirmed, not as a past state; a note is listed apart.
    pick("hedger")
    hedge = driver.find_element(By.CSS_SELECTOR, '.state[data-shown="confirmed"]')
    assert "confirmed" in hedge.find_element(By.CSS_SELECTOR, ".badge").text
    assert "verified by → Portland" in hedge.text
    assert "documentary" not in " ".join(
        f.text for f in driver.find_elements(By.CSS_SELECTOR, ".fact"))
    notes = driver.find_element(By.ID, "notes")
    notes.find_element(By.TAG_NAME, "summary").click()
    assert "documentary about whales" in notes.text
    assert "and 1 note(s)." in driver.find_element(By.ID, "status").text
    _shot(driver, "confirmed-hedge")

    # The log pages by 20.
    pick("chatty")
    rows = driver.find_elements(By.CSS_SELECTOR, "#log tbody tr")
    assert len(rows) == 20 and driver.find_element(By.ID, "log-page").text == "1–20"
    assert not driver.find_element(By.ID, "log-newer").is_enabled()
    driver.find_element(By.ID, "log-older").click()
    wait.until(ec.text_to_be_present_in_element((By.ID, "log-page"), "21–25"))
    assert len(driver.find_elements(By.CSS_SELECTOR, "#log tbody tr")) == 5
    assert not driver.find_element(By.ID, "log-older").is_enabled()
    driver.find_element(By.ID, "log-newer").click()
    wait.until(ec.text_to_be_present_in_element((By.ID, "log-page"), "1–20"))
    _shot(driver, "paged-log")

    # Export downloads the user's JSONL; Forget deletes a fact after a confirmation.
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    driver.execute_cdp_cmd("Page.setDownloadBehavior",
                           {"behavior": "allow", "downloadPath": str(downloads)})
    pick("hedger")
    driver.find_element(By.ID, "export").click()
    wait.until(ec.text_to_be_present_in_element((By.ID, "status"), "Exported hedger"))
    wait.until(lambda _: (downloads / "hedger.jsonl").exists())
    lines = (downloads / "hedger.jsonl").read_text().splitlines()
    assert lines[0].startswith('{"type": "header"') and '"user_id": "hedger"' in lines[1]
    before = len(driver.find_elements(By.CSS_SELECTOR, ".fact"))
    driver.find_element(By.CSS_SELECTOR, '.fact[data-slot="location"] button.forget').click()
    driver.switch_to.alert.accept()
    wait.until(ec.text_to_be_present_in_element((By.ID, "status"), "Forgot"))
    assert len(driver.find_elements(By.CSS_SELECTOR, ".fact")) == before - 1
    _shot(driver, "after-forget")
