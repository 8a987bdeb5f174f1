"""The README's Python examples run as printed, and print what their comments say."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", README, flags=re.S)


def test_quick_tour_runs_and_prints_what_it_says():
    """Each ``print(...)  # OUTPUT: why`` prints OUTPUT, line for line."""
    assert len(BLOCKS) >= 2
    tour = BLOCKS[0]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(tour, "README quick tour", "exec"), {})
    claims = re.findall(r"^print\(.*\)  # (.*)$", tour, flags=re.M)
    printed = out.getvalue().splitlines()
    assert len(printed) == len(claims) >= 2
    for line, claim in zip(printed, claims, strict=True):
        assert claim == line or claim.startswith(f"{line}:"), (line, claim)


def test_the_quick_tour_plays_one_hand_to_its_end_and_says_where_a_match_would_stop():
    """The AEC loop plays moves that win nothing (the first legal one): one hand ends, and the text
    says what the same loop does with whole matches — the figures it gives hold."""
    import sniff_env

    assert 'episode="hand"' in BLOCKS[0]
    env = sniff_env.env(num_players=4, forced="auto")
    env.reset(seed=42)
    moves = 0
    for _agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        action = None if terminated or truncated else int(obs["action_mask"].nonzero()[0][0])
        moves += action is not None
        env.step(action)
    assert truncated and not terminated and env.unwrapped.game.hands_played == 200
    assert f"200-hand truncation (`max_hands`, S26) after\n{moves:,} moves" in README


def test_the_quick_start_tours_as_the_readme_does():
    quickstart = (Path(__file__).resolve().parents[2] / "docs" / "quickstart.md").read_text(encoding="utf-8")
    assert re.findall(r"```python\n(.*?)```", quickstart, flags=re.S)[0] == BLOCKS[0]
    after = README.split(BLOCKS[0])[1].removeprefix("```\n\n").split("\n\n")[0]
    assert after.startswith('With the default `episode="match"`') and after in quickstart  # its note too


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
