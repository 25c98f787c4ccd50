"""The page's server for its tests: started on a free port in a thread, as `serve` starts it,
and what each test needs skipped with a reason where it is missing."""

from __future__ import annotations

import importlib.util
import shutil
from importlib import resources
from pathlib import Path
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


def running(**options: Any) -> Any:
    """The app served on a free loopback port in a thread (see web.command.in_thread)."""
    from mha_symbolic.web.command import in_thread

    return in_thread(**options)


def browser(downloads: Path | None = None) -> Any:
    """A headless Chromium driven through chromedriver (the system's; never a download);
    the files the page downloads go to ``downloads``."""
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
    if downloads is not None:
        options.add_experimental_option(
            "prefs",
            {"download.default_directory": str(downloads), "download.prompt_for_download": False},
        )
    driver_path = shutil.which(CHROMEDRIVER) or str(shutil.which("chromedriver"))
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    if downloads is not None:  # headless Chromium takes its download folder from DevTools too
        behavior = {"behavior": "allow", "downloadPath": str(downloads)}
        driver.execute_cdp_cmd("Page.setDownloadBehavior", behavior)
    return driver
