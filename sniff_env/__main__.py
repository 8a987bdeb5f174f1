"""``python -m sniff_env``: watch a match of American Sniff between random players, run an arena
of agents, cross-play partners (``crossplay``), ``play`` against them in the terminal or ``serve``
the game in the browser."""

from __future__ import annotations

from collections.abc import Sequence

from sniff_env import kernels as K
from sniff_env.agents import arena_table, make_agent
from sniff_env.game import Game
from sniff_env.render import render_text
from sniff_env.tiles import ARM_NAMES, DRAW, action_name, decode_action
from sniff_twelve.core.spec import GameUI
from sniff_twelve.tools import crossplay
from sniff_twelve.tools.cli import build_parser, play_random, run_analyze, run_arena, run_replay, run_serve
from sniff_twelve.tools.play import run_play


def narrate(before: Game, after: Game, seat: int, action: int) -> str:
    """One line per move; when a hand ends, the table as it stood and the settlement."""
    line = f"seat {seat}: {action_name(action)}"
    if action < DRAW and after.hands_played == before.hands_played:
        line += f"   ends {after.describe()['total']}" + (f", +{after.last_credit}" if after.last_credit else "")
    if after.hands_played > before.hands_played:
        s = after.state_array
        result = "domino" if s[K.LAST_RESULT] == K.DOMINO else "blocked"
        deducted = s[K.DEDUCT : K.DEDUCT + after.num_players].tolist()
        line = (
            f"\n{before}\n\n{line}\n-- hand {after.hands_played} over ({result}): "
            f"deducted {deducted} by seat, scores {after.scores}\n"
        )
    return line


# --- play: the Sniff-specific parts of the screen (sniff_twelve.tools.play runs the loop) ------------------


def _who(seat: int, human: int) -> str:
    return "you" if seat == human else f"seat {seat}"


def _tile(tile: tuple[int, int]) -> str:
    return f"[{tile[0]}|{tile[1]}]"


def _where(game: Game, arm: int) -> str:
    if game.state_array[K.N_PLACED] == 0:
        return "to open the hand"
    return f"on the {ARM_NAMES[arm]} end" if arm < 2 else f"on the Sniff's {ARM_NAMES[arm]} arm"


def play_table(game: Game, human: int) -> str:
    """The cross and the free spots, ends and hand sizes of ``render_text`` (no hand, no raw ids)."""
    skip = ("scores ", "legal: ", f"seat {game.current_player} to act")
    return "\n".join(line for line in render_text(game).splitlines() if not line.startswith(skip))


def play_scores(game: Game, human: int) -> str:
    return f"{_score_text(game, human)}   (target {game.target})"


def _score_text(game: Game, human: int) -> str:
    if game.num_players == 4:
        mine, theirs = game.side_of(human), 1 - game.side_of(human)
        text = (
            f"your team (seats {mine}+{mine + 2}): {game.scores[mine]}   "
            f"opponents (seats {theirs}+{theirs + 2}): {game.scores[theirs]}"
        )
    else:
        text = "   ".join(f"{_who(seat, human)}: {score}" for seat, score in enumerate(game.scores))
    return text


def play_hand(game: Game, human: int) -> list[str]:
    return [_tile(tile) for tile in game.hand(human)]


def play_move(game: Game, action: int, human: int) -> str:
    """``[3|5] on the east end (scores 15)``, ``draw from the boneyard``, ``pass``."""
    kind, tile, arm = decode_action(action)
    if kind == "draw":
        return f"draw from the boneyard ({game.boneyard_size} left)"
    if kind == "pass":
        return "pass"
    after = game.clone()
    after.apply(action)
    notes = [f"scores {after.last_credit}"] if after.last_credit else []
    if after.winner is not None:
        notes.append("wins the match")
    elif after.hands_played > game.hands_played:
        notes.append("your last tile: domino")
    return f"{_tile(tile)} {_where(game, arm)}" + (f" ({', '.join(notes)})" if notes else "")


def play_event(before: Game, after: Game, seat: int, action: int, human: int) -> str:
    """What a move did: the tile and its credit, a draw (the tile only for the human, read from their
    hand, so the seat's view is enough), the end of a hand."""
    kind, tile, arm = decode_action(action)
    if kind == "draw":
        drawn = set(after.hand(human)) - set(before.hand(human))
        same_hand = after.hands_played == before.hands_played
        text = f"drew {_tile(drawn.pop())}" if seat == human and same_hand else "drew from the boneyard"
    elif kind == "pass":
        text = "passed"
    else:
        credit = f"scored {after.last_credit}" if after.last_credit else "no score"
        total = sum(c for _, c in after.last_scored())
        text = f"{_tile(tile)} {_where(before, arm)}: ends {total}, {credit}"
    if after.winner is not None:
        text += " -- reached the target"
    elif after.hands_played > before.hands_played:
        s = after.state_array
        how = f"domino by {_who(int(s[K.LAST_OUT]), human)}" if s[K.LAST_RESULT] == K.DOMINO else "blocked"
        deducted = [(_who(p, human), int(s[K.DEDUCT + p])) for p in range(after.num_players)]
        pips = ", ".join(f"{who} {points}" for who, points in deducted if points) or "none"
        text += (
            f"\n-- hand {after.hands_played} over ({how}); pips deducted: {pips}"
            f"\n-- scores: {_score_text(after, human)}"
            f"\n-- hand {after.hands_played + 1} dealt, {_who(after.current_player, human)} to open"
        )
    return text


def play_result(game: Game, human: int) -> str:
    hands = game.hands_played + (game.winner is not None)
    if game.winner is None:
        head = "The match was truncated without a winner."
    elif game.num_players == 4:
        w = game.winner
        head = f"{'Your team' if w == game.side_of(human) else 'The opponents'} (seats {w}+{w + 2}) won the match!"
    else:
        head = "You won the match!" if game.winner == human else f"Seat {game.winner} won the match."
    return f"{head}\nfinal scores: {play_scores(game, human)}\nhands played: {hands}"


PLAY_UI = GameUI(
    title="American Sniff",
    table=play_table,
    scores=play_scores,
    hand=play_hand,
    move=play_move,
    event=play_event,
    result=play_result,
    rules=(
        "Place a tile whose half matches a free spot's pips; with none, draw from the boneyard (one at a\n"
        "time; a playable drawn tile must be played at once); pass only when the boneyard is empty.\n"
        "The first double of a hand is the Sniff: once both its sides are covered its north/south arms open.\n"
        "After every placement the open ends are summed; a multiple of 5 scores that many points.\n"
        "A hand ends by domino (a player's last tile) or when blocked; everyone loses their pips rounded\n"
        "to 5. The first to reach the target wins at once."
    ),
)

PLAY_OPTIONS = [
    (("--target",), {"type": int, "default": None, "help": "points to win (default 250 / 200 / 200)"}),
    (("--partner",), {"metavar": "AGENT", "help": "your partner with 4 players (default heuristic)"}),
]


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser(
        "sniff",
        "American Sniff dominoes (rules: docs/rules.md Part S)",
        (2, 3, 4),
        4,
        play_extra=PLAY_OPTIONS,
        serve_extra=PLAY_OPTIONS[:1],
    )
    crossplay.add_parser(parser, (2, 3, 4), 4)
    args = parser.parse_args(argv)
    if args.command == "crossplay":
        return crossplay.main(args, arena_table(args.players))
    if args.command == "arena":
        run_arena(args, arena_table(args.players))
    elif args.command == "play":
        if args.target is not None and args.target < 1:
            parser.error("--target must be at least 1")
        game = Game(num_players=args.players, seed=args.seed, target=args.target)
        if args.partner and args.players != 4:
            parser.error("--partner needs --players 4 (partners sit opposite)")
        partner = ((args.seat + 2) % 4, args.partner or "heuristic") if args.players == 4 else None
        return run_play(args, parser, game, PLAY_UI, make_agent, partner)
    elif args.command == "replay":
        return run_replay(args, Game, narrate)
    elif args.command == "analyze":
        from sniff_env.solver import solve

        return run_analyze(args, Game, solve, lambda game: game.hands_played)
    elif args.command == "serve":
        from sniff_env.web import WEB

        return run_serve(args, WEB, ["target"])
    else:
        play_random(Game(num_players=args.players, seed=args.seed), args.seed, narrate, args.quiet)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
