"""Make docs/report.png, the README's picture of `symcheck report`: the page for relu as headless
Chromium lays it out (the browser tests/output/test_report_html.py drives), shrunk to a small palette PNG.

    python scripts/report_screenshot.py        # needs chromium, chromium-driver, selenium
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "report.png"


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        page, shot = Path(tmp) / "relu.html", Path(tmp) / "shot.png"
        subprocess.run([sys.executable, "-m", "symcheck", "report", "--act", "relu", "-o", str(page)], check=True)
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1000,1000"):
            options.add_argument(argument)
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        try:
            driver.get(page.as_uri())
            driver.save_screenshot(str(shot))
        finally:
            driver.quit()
        image = Image.open(shot).convert("RGB")
        image = image.resize((image.width * 4 // 5, image.height * 4 // 5), Image.LANCZOS)
        image.quantize(colors=96, method=Image.Quantize.FASTOCTREE).save(OUT, optimize=True)
    print(f"wrote {OUT.relative_to(ROOT)} ({OUT.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
