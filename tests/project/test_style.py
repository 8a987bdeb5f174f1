"""The code base stays ``ruff`` clean (lint and format), as the contributing rules ask."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_ruff_check_and_format_are_clean():
    for args in (["check", "."], ["format", "--check", "."]):
        done = subprocess.run([sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr


def test_no_module_of_the_web_package_is_over_450_lines():
    """The web app stays in modules a reader takes in whole: routes, sessions, records, the table."""
    long = {
        path.name: lines
        for path in (ROOT / "sniff_twelve" / "web").glob("*.py")
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > 450
    }
    assert not long, long
