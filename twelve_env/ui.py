"""The words of "12" on screen: the replay's narration and the terminal play screen's texts
(``PLAY_UI``, also the web app's "since your last turn" and result lines)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from sniff_twelve.core.seats import who
from sniff_twelve.core.spec import GameUI
from twelve_env.cards import SIX, rank_name
from twelve_env.render import render_text
from twelve_env.spec import SPEC

if TYPE_CHECKING:
    from twelve_env.game import Game


def narrate(before: Game, after: Game, seat: int, action: int) -> str:
    taken = after.captured[seat] - before.captured[seat]
    top = rank_name(before.deck, before.pile[-1])
    what = f"captures {taken}" if taken else "draws" if after.stock_size < before.stock_size else "no capture"
    return f"seat {seat}: {rank_name(after.deck, action)} on {top}: {what}"


# --- play: the "12"-specific parts of the screen (sniff_twelve.tools.play runs the loop) ---------------------


def _cards(n: int) -> str:
    return f"{n} card{'s' * (n != 1)}"


def play_table(game: Game, human: int) -> str:
    """Pile and stock: the lines of ``render_text`` that are not about seats."""
    return "\n".join(line for line in render_text(game).splitlines() if "seat " not in line and line != "game over")


def play_scores(game: Game, human: int) -> str:
    """Per seat: cards in hand, captured, score (T15) -- the seat lines of ``render_text``."""
    lines = [line for line in render_text(game).splitlines() if line[2:].startswith("seat ")]
    return "\n".join(line.replace(f"seat {human}:", f"seat {human} (you):", 1) for line in lines)


def play_hand(game: Game, human: int) -> list[str]:
    return [rank_name(game.deck, rank) for rank in game.hand(human)]


def _outcome(before: Game, after: Game, seat: int, action: int, done: bool) -> list[str]:
    """What playing ``action`` did (``done``) or will do beyond laying the card: capture, draws, the end."""
    taken = after.captured[seat] - before.captured[seat]
    if taken:
        notes = [f"{'captured' if done else 'captures'} {_cards(taken)}"]
        if action == SIX and before.pile[-1] == SIX:
            notes.append(f"6 on 6: the others {'drew' if done else 'draw'}")
    elif after.stock_size < before.stock_size:
        notes = ["no capture, " + ("drew a card" if done else "you draw a card")]
    else:
        notes = ["no capture"]
    if after.is_terminal():
        notes.append("ended the game" if done else "ends the game")
    return notes


def play_move(game: Game, action: int, human: int) -> str:
    """``play 7 on the Q (captures 4 cards)``."""
    after = game.clone()
    after.apply(action)
    notes = ", ".join(_outcome(game, after, human, action, done=False))
    return f"play {rank_name(game.deck, action)} on the {rank_name(game.deck, game.pile[-1])} ({notes})"


def play_event(before: Game, after: Game, seat: int, action: int, human: int) -> str:
    """What a card did; the card drawn only for the human (read from their hand, so the seat's view
    is enough), the new face-up card after a capture."""
    notes = _outcome(before, after, seat, action, done=True)
    if seat == human and notes[0].endswith("drew a card"):
        drawn = Counter(after.hand(human)) - (Counter(before.hand(human)) - Counter([action]))
        notes[0] = f"no capture, drew {rank_name(before.deck, next(iter(drawn)))}"
    if notes[0].startswith("captured") and after.pile and not after.is_terminal():
        notes.append(f"new face-up card {rank_name(after.deck, after.pile[-1])}")
    top = rank_name(before.deck, before.pile[-1])
    return f"played {rank_name(before.deck, action)} on the {top}: {', '.join(notes)}"


def play_result(game: Game, human: int) -> str:
    scores = game.scores
    best = max(scores)
    winners = [who(seat, human) for seat, score in enumerate(scores) if score == best]
    if len(winners) > 1:
        head = f"Tie between {' and '.join(winners)} at {best}."
    elif winners[0] == "you":
        head = f"You won with {best}!"
    else:
        head = f"{winners[0].capitalize()} won with {best}."
    final = ", ".join(f"{who(seat, human)} {score}" for seat, score in enumerate(scores))
    return f"{head}\nfinal scores (captured minus in hand): {final}"


RULES = (
    "Play one card on the top face-up card. If the two values sum to 12 (A = 1, J, Q, K = 11) or the\n"
    "cards are a pair (same rank), you capture the whole pile; otherwise you draw a card.\n"
    "A 6 on a 6 captures and every other player draws. The game ends when someone plays their last\n"
    "card, or after one last round once the stock is empty. Score = cards captured - cards in hand."
)

#: the play screen's texts, in ``GameUI``'s field order (each ``play_*`` function is its field)
PLAY_UI = GameUI(SPEC.title, play_table, play_scores, play_hand, play_move, play_event, play_result, RULES)
