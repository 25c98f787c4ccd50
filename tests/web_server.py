"""The page's server for its tests: started on a free port in a thread, as `serve` starts it,
and what each test needs skipped with a reason where it is missing."""

from __future__ import annotations

import importlib.util
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


def need_web() -> None:
    """Skip this test where the web extra is not installed."""
    for name in ("starlette", "uvicorn", "httpx"):
        if importlib.util.find_spec(name) is None:
            pytest.skip(f"{name} is not installed (pip install -e '.[test]')")


def example_text(name: str) -> str:
    return resources.files("mha_symbolic").joinpath("examples", f"{name}.toml").read_text("utf-8")


@contextmanager
def running(**options: Any) -> Iterator[str]:
    """The app (``create_app(**options)``) served by uvicorn on a free loopback port; its URL."""
    import uvicorn

    from mha_symbolic.web.app import create_app
    from mha_symbolic.web.command import bind, url

    sock = bind("127.0.0.1", 0)
    config = uvicorn.Config(create_app(**options), log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 120  # the workers start with the app (a loaded machine)
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the page's server did not start")
        time.sleep(0.05)
    try:
        yield url(sock, "127.0.0.1")
    finally:
        server.should_exit = True
        thread.join(timeout=60)
        sock.close()


def browser() -> Any:
    """A headless Chromium driven through chromedriver (the system's; never a download)."""
    if importlib.util.find_spec("selenium") is None:
        pytest.skip("selenium is not installed (pip install -e '.[test]')")
    if shutil.which(CHROMIUM) is None and shutil.which("chromium") is None:
        pytest.skip("chromium is not installed (apt-get install chromium chromium-driver)")
    if shutil.which(CHROMEDRIVER) is None and shutil.which("chromedriver") is None:
        pytest.skip("chromedriver is not installed (apt-get install chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which(CHROMIUM) or str(shutil.which("chromium"))
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000"):
        options.add_argument(argument)
    driver_path = shutil.which(CHROMEDRIVER) or str(shutil.which("chromedriver"))
    return webdriver.Chrome(service=Service(driver_path), options=options)
