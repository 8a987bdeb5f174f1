"""Draw a mid-match Sniff table and a "12" table as PNGs (the pictures of the docs).

python examples/render_tables.py [OUT_DIR]
"""

from __future__ import annotations

import sys
from pathlib import Path

import sniff_env
import twelve_env
from sniff_env.agents import make_agent as sniff_agent
from sniff_twelve.drawing import save_png
from twelve_env.agents import make_agent as twelve_agent


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    game = sniff_env.Game(num_players=4, seed=21)
    agent = sniff_agent("heuristic")
    while len(game.describe()["scored"]) < 4 or len(game.describe()["tiles"]) < 11:  # a full cross
        game.apply(agent.act(game))
    save_png(game.image(), out / "sniff_table.png")
    cards = twelve_env.Game(num_players=4, seed=5)
    greedy = twelve_agent("greedy")
    for _ in range(9):
        cards.apply(greedy.act(cards))
    save_png(cards.image(), out / "twelve_table.png")
    print(f"wrote {out / 'sniff_table.png'} and {out / 'twelve_table.png'}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs"))
