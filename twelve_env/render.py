"""Text rendering of a "12" table: pile, stock, hand sizes, captures, the hand to act."""

from __future__ import annotations

from typing import TYPE_CHECKING

from twelve_env.cards import card_value, rank_name

if TYPE_CHECKING:
    from twelve_env.game import Game


def render_text(game: Game) -> str:
    deck = game.deck
    pile = game.pile
    top = f"{rank_name(deck, pile[-1])} (value {card_value(deck, pile[-1])})" if pile else "none"
    lines = [
        f"face-up pile: {len(pile)} card(s), top {top}",
        f"stock: {game.stock_size}" + (f"   last round, {game.turns_left} turn(s) left" if game.last_round else ""),
    ]
    for seat in range(game.num_players):
        marker = ">" if seat == game.current_player and not game.is_terminal() else " "
        lines.append(
            f"{marker} seat {seat}: {len(game.hand(seat))} in hand, {game.captured[seat]} captured, "
            f"score {game.scores[seat]}"
        )
    if game.is_terminal():
        lines.append("game over")
    else:
        seat = game.current_player
        hand = " ".join(rank_name(deck, r) for r in game.hand(seat))
        lines.append(
            f"seat {seat} holds {hand}; legal: " + ", ".join(f"{a}: {rank_name(deck, a)}" for a in game.legal_actions())
        )
    return "\n".join(lines)
