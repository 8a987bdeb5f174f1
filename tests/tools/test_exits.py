"""One exit-code convention across the commands (``sniff_twelve.tools.exits``): a usage error — a
bad agent spec, file or option — exits 2 with one ``error: …`` line and plays nothing."""

from __future__ import annotations

import pytest

import sniff_env.__main__
import twelve_env.__main__
from benchmarks import ladder
from tests.bounds import usage_error

CASES = [
    (sniff_env.__main__.main, ["arena", "--agents", "greedy", "nobody", "--deals", "1"], "unknown agent 'nobody'"),
    (twelve_env.__main__.main, ["arena", "--agents", "py:nowhere:X", "greedy", "--deals", "1"], "does not import"),
    (sniff_env.__main__.main, ["crossplay", "--agents", "greedy", "nobody"], "unknown agent 'nobody'"),
    (sniff_env.__main__.main, ["analyze", "missing.json"], "missing.json"),
    (twelve_env.__main__.main, ["replay", "missing.json"], "cannot replay missing.json"),
    (sniff_env.__main__.main, ["serve", "--agent", "nobody"], "--agent nobody"),
    (sniff_env.__main__.main, ["play", "--target", "0"], "--target"),
    (ladder.main, ["--game", "twelve", "--deals", "1", "--agent", "nobody"], "unknown agent 'nobody'"),
]


@pytest.mark.parametrize(
    ("main", "argv", "says"), CASES, ids=lambda value: " ".join(value) if isinstance(value, list) else ""
)
def test_a_usage_error_exits_2_with_one_line(main, argv, says, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert says in usage_error(capsys, main, argv)
    assert not list(tmp_path.iterdir())  # nothing written


def test_argparse_errors_exit_2_too(capsys):
    with pytest.raises(SystemExit) as stop:
        sniff_env.__main__.main(["arena", "--no-such-option"])
    assert capsys.readouterr().err == "error: sniff arena has no option --no-such-option; see sniff arena --help\n"
    assert stop.value.code == 2
