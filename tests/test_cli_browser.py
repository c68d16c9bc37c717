"""The HTML inspector in a real headless browser (Debian's chromium + chromium-driver).

The reports are of real replayed threads: the demo's own report and ``inspect --html`` of
the demo database. The page must load with no console errors, show the summary and the
chart, search within itself, and render a screenshot that is not blank.
"""

from __future__ import annotations

import io
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_helpers import (
    THREAD,
    demo_dir_fixture,  # noqa: F401  (fixtures)
    run,
)
from matplotlib import image
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

from langgraph_compact.checkpoint import CompactSqliteSaver
from langgraph_compact.cli.db import latest_summary

REQUIRE_BROWSER = "LANGGRAPH_COMPACT_REQUIRE_BROWSER"
"""Set (as ``.ci/run`` does) to turn a missing browser into a failure instead of a skip."""
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1280,2000",
)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webdriver.Chrome]:
    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        reason = (
            "no browser: the inspector's browser tests need Debian's chromium and "
            "chromium-driver (apt-get install chromium chromium-driver)"
        )
        if os.environ.get(REQUIRE_BROWSER):
            pytest.fail(f"{reason}; {REQUIRE_BROWSER} is set, so a missing browser fails")
        pytest.skip(reason)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def reports(demo_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    inspected = tmp_path_factory.mktemp("inspect") / "thread.html"
    result = run(
        "inspect",
        demo_dir / "demo.sqlite",
        "--thread",
        THREAD,
        "--budget",
        "4000",
        "--html",
        inspected,
    )
    assert result.exit_code == 0, result.output
    return {"demo": demo_dir / "demo.html", "inspect": inspected}


@pytest.mark.parametrize("name", ["demo", "inspect"])
def test_report_loads_and_shows_summary_and_chart(
    browser: webdriver.Chrome, reports: dict[str, Path], demo_dir: Path, name: str
) -> None:
    browser.get(reports[name].as_uri())
    severe = [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
    assert severe == [], severe
    with CompactSqliteSaver.from_conn_string(str(demo_dir / "demo.sqlite")) as saver:
        summary = latest_summary(saver, THREAD)
    assert summary is not None
    shown = browser.find_element(By.ID, "summary").text
    first_item = next(item for items in summary.sections.values() for item in items)
    assert first_item.text.split("\n")[0][:40] in shown
    chart = browser.find_element(By.ID, "chart")
    assert chart.size["width"] > 600 and chart.size["height"] > 150
    lines = browser.find_elements(By.CSS_SELECTOR, "#chart polyline")
    assert len(lines) == 2  # raw history and what the model was sent
    assert all(len(line.get_attribute("points").split()) > 5 for line in lines)
    assert browser.find_elements(By.CSS_SELECTOR, "#chart line.event")  # compactions marked
    bar = browser.find_element(By.ID, "coverage").text
    assert "head" in bar and "summarized" in bar and "tail" in bar


def test_search_filters_the_raw_history(
    browser: webdriver.Chrome, reports: dict[str, Path]
) -> None:
    browser.get(reports["demo"].as_uri())
    rows = browser.find_elements(By.CSS_SELECTOR, ".msg")
    assert len(rows) > 20
    browser.find_element(By.ID, "search").send_keys("flag")
    hits = browser.find_element(By.ID, "hits").text
    visible = [r for r in rows if r.is_displayed()]
    assert 0 < len(visible) < len(rows)
    assert hits.startswith(f"{len(visible)} of {len(rows)} messages match")
    assert all("flag" in r.text.lower() for r in visible)
    marked = browser.find_elements(By.CSS_SELECTOR, ".msg.summarized, .msg.clipped, .msg.pruned")
    assert marked  # what compaction did is visible per message


def test_screenshot_is_not_blank(browser: webdriver.Chrome, reports: dict[str, Path]) -> None:
    browser.get(reports["inspect"].as_uri())
    pixels = image.imread(io.BytesIO(browser.get_screenshot_as_png()), format="png")
    assert pixels.shape[0] > 500 and pixels.shape[1] > 500
    colors = {tuple(p) for p in pixels[::7, ::7, :3].reshape(-1, 3).round(2).tolist()}
    assert len(colors) > 50  # text, chart lines, coverage colors: not one flat color
    assert pixels[..., :3].std() > 0.05
