"""The README's Python examples run as printed, and print what their comments say."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", README, flags=re.S)


def test_quick_tour_runs_and_prints_what_it_says():
    assert len(BLOCKS) >= 2
    tour = BLOCKS[0]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(tour, "README quick tour", "exec"), {})
    claimed = re.search(r"print\(.*\)  # (\[.*?\] \S+ \S+):", tour).group(1)
    assert out.getvalue().strip() == claimed


def test_vector_example_runs():
    namespace: dict = {}
    exec(compile(BLOCKS[1], "README VectorGame example", "exec"), namespace)
    assert namespace["obs"].shape == (4096, 135)


DOCS_SITE = "https://sniff-twelve.readthedocs.io/en/latest/"
REPOSITORY = "https://github.com/sniff-twelve/sniff-twelve"
RAW = "https://raw.githubusercontent.com/sniff-twelve/sniff-twelve/main/"


def test_the_readme_fits_on_a_screen_or_two():
    assert len(README.splitlines()) <= 200


def test_every_readme_link_is_absolute_and_points_at_something_that_exists():
    """The README is also the package index's page: relative links resolve nowhere there. Every
    link names the docs site, the repository or a raw file, and what it names is in the checkout."""
    root = Path(__file__).resolve().parents[2]
    links = re.findall(r"\]\(([^)]+)\)", README) + re.findall(r"<(https?://[^>]+)>", README)
    assert len(links) > 10
    for link in links:
        assert link.startswith("https://"), link
        if link.startswith(DOCS_SITE):
            page = link.removeprefix(DOCS_SITE).split("#")[0].removesuffix(".html")
            assert (root / "docs" / f"{page}.md").is_file(), link
        elif link.startswith(RAW):
            assert (root / link.removeprefix(RAW)).is_file(), link
        elif link.startswith(f"{REPOSITORY}/"):
            path = link.removeprefix(f"{REPOSITORY}/").split("/", 2)[-1]  # tree/main/X or blob/main/X
            assert (root / path).exists(), link
        else:
            assert link.rstrip("/") in (DOCS_SITE.removesuffix("en/latest/").rstrip("/"), REPOSITORY), link
