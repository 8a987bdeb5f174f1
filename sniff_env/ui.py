"""The words of American Sniff on screen: the replay's narration and the terminal play screen's
texts (``PLAY_UI``, also the web app's "since your last turn" and result lines)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sniff_env import kernels as K
from sniff_env.render import render_text
from sniff_env.spec import SPEC
from sniff_env.tiles import ARM_NAMES, DRAW, action_name, decode_action, tile_name
from sniff_twelve.core.seats import who
from sniff_twelve.core.spec import GameUI

if TYPE_CHECKING:
    from sniff_env.game import Game


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


def where(game: Game, arm: int) -> str:
    """Where a placement on ``arm`` goes, in words (the web's move labels too)."""
    if game.state_array[K.N_PLACED] == 0:
        return "to open the hand"
    return f"on the {ARM_NAMES[arm]} end" if arm < 2 else f"on the Sniff's {ARM_NAMES[arm]} arm"


def _side_name(game: Game, side: int, human: int) -> str:
    if game.num_players == 4:
        return "your team" if side == game.side_of(human) else "the opponents"
    return who(side, human)


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
        text = "   ".join(f"{who(seat, human)}: {score}" for seat, score in enumerate(game.scores))
    return text


def play_hand(game: Game, human: int) -> list[str]:
    return [tile_name(tile) for tile in game.hand(human)]


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
    return f"{tile_name(tile)} {where(game, arm)}" + (f" ({', '.join(notes)})" if notes else "")


def play_event(before: Game, after: Game, seat: int, action: int, human: int) -> str:
    """What a move did: the tile and its credit, a draw (the tile only for the human, read from their
    hand, so the seat's view is enough), the end of a hand."""
    kind, tile, arm = decode_action(action)
    if kind == "draw":
        drawn = set(after.hand(human)) - set(before.hand(human))
        same_hand = after.hands_played == before.hands_played
        text = f"drew {tile_name(drawn.pop())}" if seat == human and same_hand else "drew from the boneyard"
    elif kind == "pass":
        text = "passed"
    else:
        credit = f"scored {after.last_credit}" if after.last_credit else "no score"
        total = sum(c for _, c in after.last_scored())
        text = f"{tile_name(tile)} {where(before, arm)}: ends {total}, {credit}"
    if after.winner is not None:
        text += " -- reached the target"
    elif after.hands_played > before.hands_played:
        settled = "".join(f"\n-- {line}" for line in play_settlement(after, human).splitlines())
        text += f"{settled}\n-- hand {after.hands_played + 1} dealt, {who(after.current_player, human)} to open"
    return text


def play_settlement(game: Game, human: int) -> str:
    """How the hand just ended was settled (S22–S24): how it ended, the pips deducted, the scores."""
    s = game.state_array
    how = f"domino by {who(int(s[K.LAST_OUT]), human)}" if s[K.LAST_RESULT] == K.DOMINO else "blocked"
    counted = [(who(p, human), int(s[K.DEDUCT + p])) for p in range(game.num_players)]
    pips = ", ".join(f"{who} {points}" for who, points in counted if points) or "none"
    if game.settlement == "deduct":
        settled = f"pips deducted: {pips}"
    elif s[K.SETTLED_SIDE] < 0:
        settled = f"pips counted: {pips}; a tie for the fewest, nobody scores (S4a)"
    else:
        side = _side_name(game, int(s[K.SETTLED_SIDE]), human)
        settled = f"pips counted: {pips}; {side} +{int(s[K.SETTLED_POINTS])} (S4a)"
    return f"hand {game.hands_played} over ({how}); {settled}\nscores: {_score_text(game, human)}"


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


RULES = (
    "Place a tile whose half matches a free spot's pips; with none, draw from the boneyard (one at a\n"
    "time; a playable drawn tile must be played at once); pass only when the boneyard is empty.\n"
    "The first double of a hand is the Sniff: once both its sides are covered its north/south arms open.\n"
    "After every placement the open ends are summed; a multiple of 5 scores that many points.\n"
    "A hand ends by domino (a player's last tile) or when blocked; everyone loses their pips rounded\n"
    "to 5. The first to reach the target wins at once."
)

#: the play screen's texts, in ``GameUI``'s field order (each ``play_*`` function is its field)
PLAY_UI = GameUI(
    SPEC.title, play_table, play_scores, play_hand, play_move, play_event, play_result, RULES, play_settlement
)
