"""The built site in a real browser: headless Chromium driven by selenium (Debian's ``chromium``
and ``chromium-driver``; ``.ci/run`` installs them). Skipped when they are missing on a
developer's machine; under ``CI`` a missing browser fails instead."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

pytestmark = pytest.mark.browser

CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--window-size=1200,900")


def _missing() -> str | None:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    if not (shutil.which("chromium") or shutil.which("chromium-browser")):
        return "headless Chromium is not installed (apt-get install chromium chromium-driver)"
    if not shutil.which("chromedriver"):
        return "chromedriver is not installed (apt-get install chromium-driver)"
    return None


@pytest.fixture(scope="module")
def browser():
    why = _missing()
    if why:
        if os.environ.get("CI"):
            pytest.fail(f"browser tests must run in CI: {why}")
        pytest.skip(why)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    os.environ.setdefault("SE_OFFLINE", "true")  # selenium must never try to download a driver
    profile = tempfile.mkdtemp(prefix="vllm-lint-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    for flag in (*CHROMIUM_FLAGS, f"--user-data-dir={profile}"):
        opts.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=shutil.which("chromedriver")), options=opts)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def _wait(driver, css: str, timeout: float = 20):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout).until(ec.presence_of_element_located((By.CSS_SELECTOR, css)))


def _texts(driver, css: str) -> list[str]:
    """The rendered text of every element matching ``css`` (one round trip, not one per element)."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0])).map(e => (e.innerText ?? e.textContent).trim());", css)


def _search_and_follow(browser, site_dir, query: str) -> str:
    from selenium.webdriver.common.by import By

    browser.get((site_dir / "index.html").as_uri())
    box = browser.find_element(By.ID, "q")
    box.send_keys(query)
    first = _wait(browser, "#results li a")
    assert first.text == query or first.text == f"--{query}", first.text
    first.click()
    _wait(browser, "h1")
    return browser.find_element(By.TAG_NAME, "h1").text


def test_search_swap_space_and_read_its_timeline(browser, site_dir, shipped_db):
    from selenium.webdriver.common.by import By

    from vllm_lint.surface.timeline import story

    st = story(shipped_db, "--swap-space")
    assert _search_and_follow(browser, site_dir, "swap-space") == "--swap-space"
    assert browser.current_url.endswith("/options/swap-space/index.html")
    assert browser.find_element(By.CSS_SELECTOR, ".last-accepted").text == st.ranges[-1][1]
    assert browser.find_element(By.CSS_SELECTOR, ".removed-in").text.startswith(st.removed_in[-1])
    svg_text = " ".join(_texts(browser, "svg.timeline text"))
    assert f"removed in {st.removed_in[-1]}" in svg_text
    assert browser.find_element(By.CSS_SELECTOR, "svg.timeline").size["width"] > 500


def test_vllm_use_v1(browser, site_dir, shipped_db):
    from selenium.webdriver.common.by import By

    hist = shipped_db.env_history("VLLM_USE_V1")
    assert _search_and_follow(browser, site_dir, "VLLM_USE_V1") == "VLLM_USE_V1"
    assert browser.find_element(By.CSS_SELECTOR, ".last-accepted").text == hist.last
    removed = shipped_db.versions[shipped_db.position(hist.last) + 1]
    assert browser.find_element(By.CSS_SELECTOR, ".removed-in").text.startswith(removed)
    assert "runtime variable" in browser.find_element(By.CSS_SELECTOR, ".env-kind").text


def test_release_0_27_0_lists_its_removals(browser, site_dir, shipped_db):
    from selenium.webdriver.common.by import By

    from vllm_lint.surface.timeline import diff

    browser.get((site_dir / "releases" / "index.html").as_uri())
    browser.find_element(By.LINK_TEXT, "0.27.0").click()
    _wait(browser, "#removed")
    assert browser.find_element(By.TAG_NAME, "h1").text == "vLLM 0.27.0"
    removed = diff(shipped_db, "0.26.0", "0.27.0").removed
    got = _texts(browser, "#removed li")
    assert removed and got == _expected_lists(shipped_db, "0.26.0", "0.27.0")["removed"]
    assert sorted(n for t in got for n in t.split(" \u2014 ")[0].split(" / ")) == sorted(removed)


SECTIONS = ("removed", "renamed", "changed", "deprecated", "env-removed", "env-renamed", "env-changed",
            "env-deprecated", "added", "env-added")


def _expected_lists(db, old: str, new: str) -> dict[str, list[str]]:
    """Each section's list items as the upgrade guide words them (``site.model.migration_guide``
    over ``timeline.diff``, what ``flags diff`` reports)."""
    from vllm_lint.site.model import migration_guide
    from vllm_lint.surface.timeline import diff

    guide = migration_guide(db, diff(db, old, new))
    assert tuple(sec.id for sec in guide) == SECTIONS
    return {sec.id: [it.plain() for it in sec.items] for sec in guide}


@pytest.mark.parametrize("old,new", [("0.8.5", "0.27.1"), ("0.26.0", "0.27.0")])
def test_compare_two_releases_in_the_browser_as_flags_diff_does(browser, site_dir, shipped_db, old, new):
    """The client-side compare gives, section by section, what ``timeline.diff`` (``flags diff``)
    gives, and its permalink reopens it."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from vllm_lint.surface.timeline import diff

    browser.get((site_dir / "compare" / "index.html").as_uri())
    Select(browser.find_element(By.ID, "from")).select_by_value(old)
    Select(browser.find_element(By.ID, "to")).select_by_value(new)
    browser.find_element(By.CSS_SELECTOR, "#compare button").click()
    _wait(browser, "#compare-result #env-changed")
    expected = _expected_lists(shipped_db, old, new)
    got = {section: _texts(browser, f"#compare-result #{section} li") for section in SECTIONS}
    assert got == expected
    assert sum(map(len, got.values())) > 5
    permalink = browser.find_element(By.CSS_SELECTOR, "#permalink a").get_attribute("href")
    browser.get(permalink)
    _wait(browser, "#compare-result #env-changed")
    assert _texts(browser, "#compare-result #removed li") == expected["removed"]
    if (site_dir / "compare" / f"{old}...{new}" / "index.html").is_file():  # the ready-made page agrees
        browser.get((site_dir / "compare" / f"{old}...{new}" / "index.html").as_uri())
        assert {section: _texts(browser, f"#{section} li") for section in SECTIONS} == expected


def test_screenshots_are_not_blank(browser, site_dir, tmp_path):
    from PIL import Image

    pages = {"option": site_dir / "options" / "swap-space" / "index.html",
             "env": site_dir / "env" / "VLLM_USE_V1" / "index.html",
             "release": site_dir / "releases" / "0.27.0" / "index.html"}
    for name, page in pages.items():
        browser.get(page.as_uri())
        _wait(browser, "h1")
        shot = tmp_path / f"{name}.png"
        assert browser.save_screenshot(str(shot))
        img = Image.open(shot).convert("RGB")
        assert img.size[0] >= 800 and img.size[1] >= 600
        colors = img.getcolors(maxcolors=1 << 20)
        dominant = max(n for n, _ in colors)
        assert len(colors) > 20 and dominant < 0.97 * img.size[0] * img.size[1], name


@pytest.fixture
def pages_host(site_dir):
    """The site served over HTTP as GitHub Pages serves it: ``404.html`` (status 404) for a
    missing address."""
    import functools
    import http.server
    import threading

    class Handler(http.server.SimpleHTTPRequestHandler):
        def send_error(self, code, message=None, explain=None):
            if code != 404:
                return super().send_error(code, message, explain)
            body = (site_dir / "404.html").read_bytes()
            self.send_response(404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(site_dir)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_a_comparison_permalink_of_any_pair_opens_on_a_pages_host(browser, pages_host, shipped_db):
    """``compare/0.8.5...0.27.1/`` has no folder (only consecutive pairs do); on a host that
    serves ``404.html`` it opens the client-side compare of that pair."""
    from selenium.webdriver.common.by import By

    from vllm_lint.surface.timeline import diff

    browser.get(f"{pages_host}/compare/0.8.5...0.27.1/")
    _wait(browser, "#compare-result #env-changed")
    assert browser.current_url.endswith("/compare/index.html?from=0.8.5&to=0.27.1")
    assert _texts(browser, "#compare-result #removed li") == _expected_lists(shipped_db, "0.8.5", "0.27.1")["removed"]
    browser.get(f"{pages_host}/options/no-such-option/index.html")
    _wait(browser, "h1")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Page not found"
    assert browser.find_element(By.ID, "home").get_attribute("href") == f"{pages_host}/index.html"


def _search(browser, site_dir, query: str) -> list[str]:
    from selenium.webdriver.common.by import By

    browser.get((site_dir / "index.html").as_uri())
    box = browser.find_element(By.ID, "q")
    box.send_keys(query)
    _wait(browser, "#results li")
    return _texts(browser, "#results li a")


@pytest.mark.parametrize("query,found", [
    ("cuda graph", ["--cuda-graph-sizes", "--cudagraph-capture-sizes"]),  # words, separators ignored
    ("graph cuda", ["--cuda-graph-sizes", "--cudagraph-capture-sizes"]),
    ("swap", ["--swap-space"]),
    ("swap-spcae", ["--swap-space"]),  # two letters swapped
    ("cuda-grph-sizes", ["--cuda-graph-sizes"]),  # a letter missing
    ("max-modell-len", ["--max-model-len"]),  # a letter too many
    ("VLLM_USR_V1", ["VLLM_USE_V1"]),  # a wrong letter
])
def test_search_by_words_and_with_one_typo(browser, site_dir, query, found):
    hits = _search(browser, site_dir, query)
    assert hits[0] == found[0], hits[:5]
    assert set(found) <= set(hits), hits[:10]


def test_search_without_a_near_name_finds_nothing(browser, site_dir):
    from selenium.webdriver.common.by import By

    assert _search(browser, site_dir, "qqqzzz") == []
    assert browser.find_element(By.CSS_SELECTOR, "#results li").text.startswith("No option")


PHONE = 390


@pytest.fixture(scope="module")
def phone(browser):
    """The same browser with a phone's screen: 390 CSS pixels wide, as a phone lays pages out."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": PHONE, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    try:
        yield browser
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


PHONE_PAGES = ["index.html", "options/index.html", "options/swap-space/index.html",
               "options/speculative-config/index.html", "options/-O/index.html", "env/index.html",
               "env/VLLM_USE_V1/index.html", "releases/index.html", "releases/0.27.0/index.html",
               "releases/0.11.0/index.html", "compare/0.10.2...0.11.0/index.html", "rules/index.html",
               "rules/VL101/index.html", "reference/configuration/index.html",
               "reference/audit-schema/index.html", "404.html"]


@pytest.mark.parametrize("page", PHONE_PAGES + ["compare/index.html?from=0.8.5&to=0.33.0"])
def test_no_page_scrolls_sideways_on_a_phone(phone, site_dir, page):
    path, _, query = page.partition("?")
    phone.get((site_dir / path).as_uri() + (f"?{query}" if query else ""))
    _wait(phone, "#compare-result #env-added" if query else "h1")
    widths = phone.execute_script("return [document.documentElement.scrollWidth, document.body.scrollWidth,"
                                  " window.innerWidth]")
    assert widths[2] == PHONE and max(widths[:2]) <= PHONE, widths


@pytest.mark.parametrize("page,label", [("options/swap-space/index.html", "removed in"),
                                        ("options/guided-decoding-backend/index.html", "renamed to"),
                                        ("env/VLLM_USE_V1/index.html", "removed in")])
def test_the_timeline_shows_its_removal_mark_on_a_phone(phone, site_dir, page, label):
    phone.get((site_dir / page).as_uri())
    _wait(phone, "svg.timeline")
    box = phone.execute_script("""
        var marks = document.querySelectorAll('.tl-scroll .tl-removed, .tl-scroll .tl-renamed');
        var m = marks[marks.length - 1], t = m.nextElementSibling;
        var a = m.getBoundingClientRect(), b = t.getBoundingClientRect(), f = m.closest('.tl-scroll').getBoundingClientRect();
        return [a.left, a.right, b.left, b.right, f.left, f.right, t.textContent];""")
    mark_l, mark_r, text_l, text_r, frame_l, frame_r, text = box
    assert label in text
    assert frame_l <= min(mark_l, text_l) and max(mark_r, text_r) <= frame_r <= PHONE, box
