"""The inspector in a real browser: `python -m tca devtools`, a Python host and a C host
connected by the library with TCA_DEVTOOLS, and headless Chromium driven by Selenium (make
test-devtools; the C host is built there and named by TCA_DEVTOOLS_C_HOST).

Checks the log, the state at a selected version, the slider, a jump the host's subscriber
sees, a dispatch, the export (it replays to the host's state), the written test (it passes), a
hostile store shown as text, and a saved journal opened offline. Logs and the screenshot go to
build/devtools/.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Iterator, List

import pytest
from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

import tca
from tca.devtools.redrive import replay

HERE = Path(__file__).resolve().parent
OUT = HERE.parents[2] / "build" / "devtools"


class Server:
    def __init__(self, *arguments: str) -> None:
        OUT.mkdir(parents=True, exist_ok=True)
        self.log = open(OUT / "server.log", "a")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tca", "devtools", "--port", "0", *arguments],
            stdout=subprocess.PIPE, stderr=self.log, text=True,
        )
        assert self.process.stdout is not None
        self.url = self.process.stdout.readline().strip()
        assert self.url.startswith("http://127.0.0.1:"), self.url
        self.token = self.url.split("token=", 1)[1]
        self.port = int(self.url.split(":")[2].split("/")[0])

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)
        self.log.close()


PYTHON_HOST = [sys.executable, str(HERE / "host.py")]


def c_host() -> List[str]:
    path = os.environ.get("TCA_DEVTOOLS_C_HOST")
    if not path:
        pytest.skip("TCA_DEVTOOLS_C_HOST names no C host (make test-devtools builds it)")
    return [path]


class Host:
    def __init__(self, server: Server, command: List[str], name: str = "host") -> None:
        self.journal = OUT / f"{name}-journal.jsonl"
        env = dict(os.environ, TCA_DEVTOOLS=f"127.0.0.1:{server.port}/{server.token}")
        self.process = subprocess.Popen(
            [*command, str(self.journal)], env=env, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=open(OUT / f"{name}.log", "w"), text=True,
        )
        self.lines: List[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.strip())

    def states(self) -> List[dict]:
        return [json.loads(line) for line in self.lines if line.startswith("{")]

    def stop(self) -> str:
        assert self.process.stdin is not None
        self.process.stdin.close()
        assert self.process.wait(20) == 0
        return self.journal.read_text()


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    downloads = OUT / "downloads"
    downloads.mkdir(parents=True, exist_ok=True)
    for old in downloads.iterdir():
        old.unlink()
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                 "--disable-gpu", "--window-size=1400,900"):
        options.add_argument(flag)
    options.add_argument("--safebrowsing-disable-download-protection")
    options.add_experimental_option("prefs", {
        "download.default_directory": str(downloads), "download.prompt_for_download": False,
        # NB: a .py file is a "dangerous" download that Chromium keeps unconfirmed otherwise.
        "safebrowsing.enabled": False, "safebrowsing.disable_download_protection": True,
    })
    service = Service("/usr/bin/chromedriver", log_output=str(OUT / "chromedriver.log"))
    driver = webdriver.Chrome(options=options, service=service)
    yield driver
    driver.quit()


def wait(driver: webdriver.Chrome, what, timeout: float = 15):
    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(lambda d: what())


def downloaded(name_start: str, suffix: str) -> Path:
    folder = OUT / "downloads"
    deadline = time.time() + 15
    while time.time() < deadline:
        found = [p for p in folder.iterdir() if p.name.startswith(name_start)
                 and p.name.endswith(suffix)]
        if found:
            return found[0]
        time.sleep(0.1)
    raise AssertionError(f"nothing downloaded into {folder}: {list(folder.iterdir())}")


def rows(driver: webdriver.Chrome):
    return driver.find_elements(By.CSS_SELECTOR, "#log [data-version]")


def state_text(driver: webdriver.Chrome) -> str:
    return driver.find_element(By.ID, "state").text


def test_live_session(browser: webdriver.Chrome) -> None:
    server = Server()
    host = Host(server, PYTHON_HOST)
    try:
        wait(browser, lambda: "ready" in host.lines)
        assert host.states()[-1]["count"] == 1
        browser.get(server.url)
        store = wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "[data-store]"))
        assert "counter" in store[0].text
        # The log: one row per action, newest last, with its origin.
        wait(browser, lambda: len(rows(browser)) == 5)
        texts = [r.text for r in rows(browser)]
        assert "host" in texts[0] and "incrementButtonTapped" in texts[0]
        assert "effect" in texts[3] and "numberFactResponse" in texts[3]
        assert [r.get_attribute("data-version") for r in rows(browser)] == ["1", "2", "3", "4", "5"]
        # The state at a selected version, with what changed highlighted.
        browser.find_element(By.CSS_SELECTOR, '#log [data-version="2"]').click()
        box = browser.find_element(By.ID, "state")
        wait(browser, lambda: box.get_attribute("data-version") == "2")
        assert "count: 2" in state_text(browser)
        changed = browser.find_elements(By.CSS_SELECTOR, "#state .changed")
        assert [c.get_attribute("data-path") for c in changed] == ["/count"]
        # The slider: Home goes to the first action.
        browser.find_element(By.ID, "slider").send_keys(Keys.HOME)
        wait(browser, lambda: box.get_attribute("data-version") == "1")
        assert "count: 1" in state_text(browser)
        # A jump: the host's subscriber sees the state of version 2 again.
        browser.find_element(By.CSS_SELECTOR, '#log [data-version="2"]').click()
        wait(browser, lambda: box.get_attribute("data-version") == "2")
        before = len(host.states())
        browser.find_element(By.ID, "jump").click()
        wait(browser, lambda: len(host.states()) > before)
        assert host.states()[-1] == {"count": 2, "isNumberFactLoading": False}
        wait(browser, lambda: len(rows(browser)) == 6)
        assert "jump" in rows(browser)[-1].text
        # A dispatch, typed: it continues from the state jumped to.
        field = browser.find_element(By.ID, "dispatch-input")
        field.send_keys('{"incrementButtonTapped":{}}')
        browser.find_element(By.ID, "dispatch").click()
        wait(browser, lambda: host.states()[-1]["count"] == 3)
        wait(browser, lambda: len(rows(browser)) == 7)
        assert "incrementButtonTapped" in rows(browser)[-1].text
        wait(browser, lambda: "count: 3" in state_text(browser))
        browser.find_element(By.CSS_SELECTOR, '#log [data-version="4"]').click()
        wait(browser, lambda: box.get_attribute("data-version") == "4")
        browser.save_screenshot(str(OUT / "screenshot.png"))
        browser.find_element(By.CSS_SELECTOR, '#log [data-version="7"]').click()
        # A dispatch the feature does not know is refused by the store, and said so.
        field.clear()
        field.send_keys("noSuchAction")
        browser.find_element(By.ID, "dispatch").click()
        message = browser.find_element(By.ID, "message")
        wait(browser, lambda: "dispatch" in message.text)
        # Export: the journal replays to the host's state.
        browser.find_element(By.ID, "export").click()
        exported = downloaded("", ".jsonl").read_text()
        final = host.states()[-1]
        assert replay(exported) == final
        # The written test passes.
        # NB: Chromium holds a downloaded .py for a confirmation a headless browser cannot give
        # (a "dangerous" file type), so the test reads what the link serves, in the page.
        link = browser.find_element(By.ID, "test")
        assert link.get_attribute("download").startswith("test_")
        link.click()
        test = OUT / "downloads" / "test_session.py"
        test.write_text(browser.execute_async_script(
            "fetch(arguments[0]).then((r) => r.text()).then(arguments[1])",
            link.get_attribute("href"),
        ))
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test)],
            capture_output=True, text=True, cwd=OUT,
        )
        (OUT / "generated-test.log").write_text(run.stdout + run.stderr)
        assert run.returncode == 0, run.stdout
        assert "2 passed" in run.stdout
        assert "store.receive({'numberFactResponse'" in test.read_text()
        journal = host.stop()
        assert journal == exported
    finally:
        if host.process.poll() is None:
            host.process.kill()
        server.stop()


def test_live_session_of_a_c_host(browser: webdriver.Chrome) -> None:
    """A C host, in an event loop on tca_store_fd: the library connects its store, and the
    inspector's commands wake the loop (docs/devtools.md, "Connecting a store")."""
    server = Server()
    host = Host(server, c_host(), "c-host")
    try:
        wait(browser, lambda: "ready" in host.lines)
        assert host.states()[-1]["count"] == 1
        browser.get(server.url)
        store = wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "[data-store]"))
        assert "counter" in store[0].text
        wait(browser, lambda: len(rows(browser)) == 5)
        texts = [r.text for r in rows(browser)]
        assert "host" in texts[0] and "incrementButtonTapped" in texts[0]
        assert "effect" in texts[3] and "numberFactResponse" in texts[3]
        # The state at a selected version.
        browser.find_element(By.CSS_SELECTOR, '#log [data-version="4"]').click()
        box = browser.find_element(By.ID, "state")
        wait(browser, lambda: box.get_attribute("data-version") == "4")
        assert "2 is a good number." in state_text(browser)
        # A jump, which the C host's subscriber reports.
        browser.find_element(By.CSS_SELECTOR, '#log [data-version="2"]').click()
        wait(browser, lambda: box.get_attribute("data-version") == "2")
        before = len(host.states())
        browser.find_element(By.ID, "jump").click()
        wait(browser, lambda: len(host.states()) > before)
        assert host.states()[-1] == {"count": 2, "isNumberFactLoading": False}
        wait(browser, lambda: len(rows(browser)) == 6)
        assert "jump" in rows(browser)[-1].text
        # A dispatch: the C host's loop wakes, polls, and its subscriber reports it.
        field = browser.find_element(By.ID, "dispatch-input")
        field.send_keys("incrementButtonTapped")
        browser.find_element(By.ID, "dispatch").click()
        wait(browser, lambda: host.states()[-1]["count"] == 3)
        wait(browser, lambda: len(rows(browser)) == 7)
        wait(browser, lambda: "count: 3" in state_text(browser))
        # Export: the journal is the C host's own, and replays to its state.
        for old in (OUT / "downloads").iterdir():
            old.unlink()
        browser.find_element(By.ID, "export").click()
        exported = downloaded("", ".jsonl").read_text()
        assert replay(exported) == host.states()[-1]
        assert tca.Store.replay(exported).state == host.states()[-1]
        assert host.stop() == exported
    finally:
        if host.process.poll() is None:
            host.process.kill()
        server.stop()


def test_hostile_store_is_shown_as_text(browser: webdriver.Chrome) -> None:
    server = Server()
    try:
        sock = socket.create_connection(("127.0.0.1", server.port))
        sock.sendall(
            f"GET /store?token={server.token} HTTP/1.1\r\nUpgrade: tca-store/1\r\n\r\n".encode()
        )
        assert sock.recv(4096).startswith(b"HTTP/1.1 101")
        evil = '<img src=x onerror="document.title=1">'
        header = {"tcaJournal": 1, "feature": evil, "state": {evil: "</script><b>x</b>"}}
        sock.sendall(json.dumps({
            "type": "hello", "store": "../../etc", "feature": evil, "header": header,
        }).encode() + b"\nnot json\n[1,2]\n{\"type\":\"entry\"}\n" + b"[" * 100000 + b"\n"
            + json.dumps({
            "type": "reduction", "origin": "<b>", "action": {evil: 1}, "version": 1,
        }).encode() + b"\n" + json.dumps({
            "type": "version", "version": 1, "patch": [{"op": "remove", "path": "/nothing"}],
        }).encode() + b"\n")
        browser.get(server.url)
        wait(browser, lambda: len(rows(browser)) == 1)
        assert evil in browser.find_element(By.ID, "stores").text
        assert "<img src=x onerror=" in rows(browser)[0].text and "effect" in rows(browser)[0].text
        wait(browser, lambda: "does not apply" in browser.find_element(By.ID, "patch").text)
        browser.find_element(By.CSS_SELECTOR, '#log [data-version="1"]').click()
        assert browser.find_elements(By.CSS_SELECTOR, "img, b") == []
        assert browser.title == "libtca inspector"
        with pytest.raises(NoAlertPresentException):
            browser.switch_to.alert.text
        sock.close()
    finally:
        server.stop()


def test_saved_journal_offline(browser: webdriver.Chrome) -> None:
    store = tca.Store("counter", clock="manual", seed=9, record=True)
    store.effect("numberFact.fetch")(lambda count: f"fact {count}")
    for action in ("incrementButtonTapped", "numberFactButtonTapped", "incrementButtonTapped"):
        store.send(action)
    path = OUT / "offline.jsonl"
    path.write_text(store.journal())
    server = Server(str(path))
    try:
        browser.get(server.url)
        wait(browser, lambda: len(rows(browser)) == 4)
        assert "offline" in browser.find_element(By.ID, "stores").text
        browser.find_element(By.CSS_SELECTOR, '#log [data-version="3"]').click()
        box = browser.find_element(By.ID, "state")
        wait(browser, lambda: box.get_attribute("data-version") == "3")
        assert "fact 1" in state_text(browser)
        assert not browser.find_element(By.ID, "jump").is_enabled()
        for version in range(5):
            assert json.loads(json.dumps(
                tca.Store.replay(store.journal(), version).snapshot()
            )) is not None
    finally:
        server.stop()
