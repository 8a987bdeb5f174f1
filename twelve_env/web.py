"""The card game "12" in the browser (``python -m twelve_env serve``, ``sniff_twelve.web``): the table
as SVG from one seat's place, and the legal moves as clicks — a card of the hand, then the pile.

Seat panels show every hand's size, captured cards and score (T15); the stock is a face-down
stack with its count, the face-up pile is fanned with the top card last (T7). Every card drawn
face up carries ``data-card`` (its rank's name); the pile ``data-spot="0"``. The player's own hand
is drawn apart, a small SVG per card (``hand``, each with ``data-item``), so the page can lay it
out to fit a phone; a gold edge marks a card that takes the pile (a pair or a sum of 12, T8).
"""

from __future__ import annotations

from collections.abc import Sequence

from sniff_twelve.web import svg
from sniff_twelve.web.svg import FELT, GOLD, MUTED, PANEL, RED, TEXT
from sniff_twelve.web.table import Move, WebGame
from twelve_env.cards import Deck, card_value, rank_name
from twelve_env.game import Game
from twelve_env.ui import PLAY_UI

WIDTH, HEIGHT = 1200, 760
HEADER = 60
SEATS_TOP, SEATS_H = 72, 112
TABLE_TOP = SEATS_TOP + SEATS_H
FOOTER = 540
CARD = (96, 134)
# a phone held upright: a narrow table drawn at about its own size, its labels at least 12 px
NARROW, NARROW_HEADER = 360, 64
NARROW_CARD, SMALL_CARD = (60, 84), (30, 42)

PAPER, CARD_EDGE, INK, FACE_INK = "#fcfbf6", "#a0a096", "#1c1c22", "#9e1824"
BACK, BACK_LINE = "#1e3e8e", "#567cce"


def card(x: float, y: float, deck: Deck, rank: int, size: tuple[float, float] = CARD, edge: str | None = None, **attrs):
    """A face-up card with its top-left corner at ``(x, y)``: the rank large and in a corner, its
    value toward 12 (T2) small at the bottom."""
    w, h = size
    label = rank_name(deck, rank)
    ink = FACE_INK if label in ("J", "Q", "K") else INK
    stroke = {"stroke": edge, "stroke-width": 5} if edge else {"stroke": CARD_EDGE, "stroke-width": 1.2}
    parts = [svg.element("rect", {"x": x, "y": y, "width": w, "height": h, "rx": w * 0.09, "fill": PAPER, **stroke})]
    if w >= 40:
        parts.append(svg.text(x + w * 0.1, y + w * 0.24, label, w * 0.2, fill=ink, font_weight="bold"))
        parts.append(
            svg.text(x + w / 2, y + h * 0.58, label, w * 0.42, fill=ink, font_weight="bold", text_anchor="middle")
        )
        value = f"= {card_value(deck, rank)}"
        size = max(12, w * 0.14)  # readable on a phone's small card too
        parts.append(svg.text(x + w / 2, y + h * 0.86, value, size, fill="#78786e", text_anchor="middle"))
    else:
        parts.append(
            svg.text(x + w / 2, y + h * 0.62, label, w * 0.46, fill=ink, font_weight="bold", text_anchor="middle")
        )
    return svg.group(parts, data_card=label, **attrs)


def back(x: float, y: float, size: tuple[float, float]) -> str:
    """A face-down card."""
    w, h = size
    return svg.group(
        [
            svg.element("rect", {"x": x, "y": y, "width": w, "height": h, "rx": w * 0.09, "fill": PAPER}),
            svg.element(
                "rect",
                {"x": x + w * 0.08, "y": y + w * 0.08, "width": w * 0.84, "height": h - w * 0.16, "fill": BACK},
            ),
            svg.element(
                "path",
                {
                    "d": f"M{x + w / 2},{y + h * 0.2} L{x + w * 0.8},{y + h / 2} L{x + w / 2},{y + h * 0.8} "
                    f"L{x + w * 0.2},{y + h / 2} Z",
                    "fill": "none",
                    "stroke": BACK_LINE,
                    "stroke-width": max(1, w * 0.04),
                },
            ),
        ],
        **{"class": "back"},
    )


def _header(game: Game, narrow: bool = False) -> list[str]:
    """The title, the deck and a note: the game's end, the last round (T12) or the rule of T8; on a
    line each for a phone held upright (``narrow``)."""
    decks = {"bridge": "52-card deck", "numbers": "number deck 1–11"}
    deck = decks[game.deck] if isinstance(game.deck, str) else f"deck of {len(game.deck)} cards"
    if game.is_terminal():
        note, color = "game over", GOLD
    elif game.last_round:
        note, color = f"last round: {game.turns_left} turn(s) left, no drawing", GOLD
    else:
        note, color = "a pair or a sum of 12 takes the pile", MUTED
    if narrow:
        return [
            svg.element("rect", {"width": NARROW, "height": NARROW_HEADER, "fill": PANEL}),
            svg.text(14, 28, '"12"', 22, fill=GOLD, font_weight="bold"),
            svg.text(76, 27, f"Jamaican Sniping · {game.num_players} players", 13, fill=TEXT),
            svg.text(14, 52, f"{deck} · {note}", 12, fill=color),
        ]
    return [
        svg.element("rect", {"width": WIDTH, "height": HEADER, "fill": PANEL}),
        svg.text(20, 40, '"12"', 26, fill=GOLD, font_weight="bold"),
        svg.text(90, 38, f"Jamaican Sniping · {game.num_players} players · {deck}", 16, fill=TEXT),
        svg.text(WIDTH - 20, 38, note, 16, fill=color, text_anchor="end"),
    ]


def _seats(game: Game, names: Sequence[str], reveal: bool, last: dict[int, int]) -> list[str]:
    """One panel per seat: its hand (face down, or face up with ``reveal``), captured cards, score,
    and the card it played last (``last``: seat → its last action, a rank)."""
    n = game.num_players
    w = (WIDTH - 40 - (n - 1) * 10) / n
    acting = None if game.is_terminal() else game.current_player
    scores, parts = game.scores, []
    for seat in range(n):
        x = 20 + seat * (w + 10)
        parts.append(svg.panel(x, SEATS_TOP, w, SEATS_H, seat == acting))
        name = svg.fit(names[seat], w - 20, 14)
        parts.append(svg.text(x + 10, SEATS_TOP + 20, name, 14, fill=TEXT, font_weight="bold"))
        size = game.hand_sizes[seat]
        if reveal:  # face up: cards a label can be read on, overlapping less the more there are
            step = min(32.0, (w - 50) / max(size, 1))
            cards = enumerate(game.hand(seat))
            parts += [card(x + 10 + i * step, SEATS_TOP + 28, game.deck, rank, (30, 42)) for i, rank in cards]
        else:
            step = min(14.0, (w - 50) / max(size, 1))
            parts += [back(x + 10 + i * step, SEATS_TOP + 30, (20, 30)) for i in range(size)]
        parts.append(
            svg.text(x + 10, SEATS_TOP + 84, f"{size} in hand · {game.captured[seat]} captured", 13, fill=MUTED)
        )
        color = RED if scores[seat] < 0 else TEXT
        parts.append(svg.text(x + 10, SEATS_TOP + 103, f"score {scores[seat]:+d}", 14, fill=color, font_weight="bold"))
        if seat in last:
            played = f"last: {rank_name(game.deck, last[seat])}"
            parts.append(
                svg.group(
                    [svg.text(x + w - 10, SEATS_TOP + 103, played, 13, fill=GOLD, text_anchor="end")], data_last=seat
                )
            )
    return parts


def _table(game: Game, reveal: bool) -> list[str]:
    """The stock and the face-up pile (the one spot every card is played to)."""
    cw, ch = CARD
    cy = TABLE_TOP + (FOOTER - TABLE_TOP) / 2 + 10
    sx, sy = 60, cy - ch / 2
    parts = [svg.text(sx + cw / 2, TABLE_TOP + 30, f"Stock · {game.stock_size}", 16, fill=MUTED, text_anchor="middle")]
    for i in range(min(5, (game.stock_size + 5) // 6)):
        parts.append(back(sx - 2 * i, sy - 2 * i, CARD))
    if reveal and game.stock_size:
        parts.append(svg.text(sx, cy + ch / 2 + 30, "next cards:", 13, fill=MUTED))
        stock = game.stock
        parts += [card(sx + 80 + i * 26, cy + ch / 2 + 14, game.deck, r, (24, 34)) for i, r in enumerate(stock[:36])]
    pile = game.pile
    left, right = sx + cw + 90, WIDTH - 60
    step = min(46.0, (right - left - cw) / max(len(pile) - 1, 1))
    x0 = max(left, (left + right) / 2 - (cw + (len(pile) - 1) * step) / 2)
    label = f"Face-up pile · {len(pile)} card{'s' * (len(pile) != 1)}"
    parts.append(svg.text(x0, TABLE_TOP + 30, label, 16, fill=MUTED))
    cards = [card(x0 + i * step, sy + 8, game.deck, r) for i, r in enumerate(pile[:-1])]
    if pile:
        cards.append(
            card(x0 + (len(pile) - 1) * step + (14 if len(pile) > 1 else 0), sy - 6, game.deck, pile[-1], edge=GOLD)
        )
    width = (len(pile) - 1) * step + cw + 20
    target = {"x": x0 - 6, "y": sy - 16, "width": max(width, cw + 12), "height": ch + 34, "rx": 12, "fill": "none"}
    if not reveal and not game.is_terminal():
        cards.append(svg.spot([svg.element("rect", target)], 0))
    parts.append(svg.group(cards))
    return parts


def _hand(game: Game, seat: int, name: str) -> list[str]:
    """The seat's hand in the footer of a finished game, named as the page names the seat."""
    hand = game.hand(seat)
    parts = [svg.text(20, FOOTER + 34, "Your hand" if name == "you" else f"Hand of {name}", 16, fill=MUTED)]
    step = min(CARD[0] + 12.0, (WIDTH - 40 - CARD[0]) / max(len(hand) - 1, 1))
    parts += [card(20 + i * step, FOOTER + 56, game.deck, rank) for i, rank in enumerate(hand)]
    return parts


def _narrow_seats(game: Game, names: Sequence[str], reveal: bool, last: dict[int, int], top: float) -> list[str]:
    """``_seats`` for a phone held upright: a panel per seat, one under another."""
    acting = None if game.is_terminal() else game.current_player
    parts, w, h = [], NARROW - 20, 74
    for seat in range(game.num_players):
        x, y = 10, top + seat * (h + 6)
        parts.append(svg.panel(x, y, w, h, seat == acting))
        parts.append(svg.text(x + 10, y + 20, svg.fit(names[seat], w - 110, 14), 14, fill=TEXT, font_weight="bold"))
        score = game.scores[seat]
        color = RED if score < 0 else TEXT
        parts.append(svg.text(x + w - 10, y + 20, f"score {score:+d}", 14, fill=color, text_anchor="end"))
        size = game.hand_sizes[seat]
        step = min(30.0, 130 / max(size - 1, 1))
        if reveal:
            parts += [card(x + 10 + i * step, y + 27, game.deck, r, SMALL_CARD) for i, r in enumerate(game.hand(seat))]
        else:
            parts += [back(x + 10 + i * step, y + 33, (20, 30)) for i in range(size)]
        held = f"{size} in hand · {game.captured[seat]} captured"
        parts.append(svg.text(x + w - 10, y + 44, held, 12, fill=MUTED, text_anchor="end"))
        if seat in last:
            played = f"last: {rank_name(game.deck, last[seat])}"
            parts.append(
                svg.group([svg.text(x + w - 10, y + 64, played, 13, fill=GOLD, text_anchor="end")], data_last=seat)
            )
    return parts


def _narrow_table(game: Game, reveal: bool, top: float) -> tuple[list[str], float]:
    """``_table`` for a phone held upright: the stock, the pile beside it, the stock's next cards
    (face up) on lines under them; the parts and where they end."""
    (cw, ch), (sw, sh) = NARROW_CARD, SMALL_CARD
    sx, sy = 16, top + 34
    parts = [svg.text(sx, top + 20, f"Stock · {game.stock_size}", 13, fill=MUTED)]
    parts += [back(sx + 2 * i, sy - 2 * i, NARROW_CARD) for i in range(min(5, (game.stock_size + 5) // 6))]
    pile, left = game.pile, sx + cw + 34
    step = min(30.0, (NARROW - 26 - left - cw) / max(len(pile) - 1, 1))
    label = f"Face-up pile · {len(pile)} card{'s' * (len(pile) != 1)}"
    parts.append(svg.text(left, top + 20, label, 13, fill=MUTED))
    cards = [card(left + i * step, sy + 4, game.deck, r, NARROW_CARD) for i, r in enumerate(pile[:-1])]
    if pile:
        x = left + (len(pile) - 1) * step + (8 if len(pile) > 1 else 0)
        cards.append(card(x, sy - 4, game.deck, pile[-1], NARROW_CARD, edge=GOLD))
    if not reveal and not game.is_terminal():
        width = max((len(pile) - 1) * step + cw + 16, cw + 12)
        target = {"x": left - 6, "y": sy - 12, "width": width, "height": ch + 24, "rx": 10, "fill": "none"}
        cards.append(svg.spot([svg.element("rect", target)], 0))
    parts.append(svg.group(cards))
    y = sy + ch + 18
    if reveal and game.stock_size:
        per_line = int((NARROW - 2 * sx) // (sw + 2))
        parts.append(svg.text(sx, y + 14, "next cards:", 12, fill=MUTED))
        for i, r in enumerate(game.stock):
            line, col = divmod(i, per_line)
            parts.append(card(sx + col * (sw + 2), y + 22 + line * (sh + 4), game.deck, r, SMALL_CARD))
        y += 30 + -(-game.stock_size // per_line) * (sh + 4)
    return parts, y


def draw_portrait(game: Game, seat: int, names: Sequence[str], reveal: bool, last: dict[int, int] | None = None) -> str:
    """``draw`` for a phone held upright: header, seats, stock and pile one under another,
    ``NARROW`` px wide; face up (``reveal``), the seat's own hand again at the foot."""
    top = NARROW_HEADER + 8
    parts = [*_header(game, narrow=True), *_narrow_seats(game, names, reveal, last or {}, top)]
    table, foot = _narrow_table(game, reveal, top + game.num_players * 80)
    parts += table
    height = foot
    if reveal:
        hand = game.hand(seat)
        title = "Your hand" if names[seat] == "you" else f"Hand of {names[seat]}"
        step = min(NARROW_CARD[0] + 8.0, (NARROW - 32 - NARROW_CARD[0]) / max(len(hand) - 1, 1))
        parts += [svg.element("rect", {"y": foot, "width": NARROW, "height": NARROW_CARD[1] + 50, "fill": PANEL})]
        parts.append(svg.text(16, foot + 24, title, 13, fill=MUTED))
        parts += [card(16 + i * step, foot + 36, game.deck, r, NARROW_CARD) for i, r in enumerate(hand)]
        height = foot + NARROW_CARD[1] + 50
    felt = svg.element("rect", {"width": NARROW, "height": height, "fill": FELT})
    return svg.document(NARROW, round(height), f'"12" table seen from seat {seat}', [felt, *parts])


def hand(game: Game, seat: int) -> list[str]:
    """The seat's hand while the game runs, a small SVG per card (``data-item``: its index in
    ``Game.hand``); when the seat is to act every card is playable (T7), and one that takes the
    pile (T8) is edged in gold and raised (class ``lift``)."""
    to_act = not game.is_terminal() and game.current_player == seat
    captured = game.action_features()[:, 0] if to_act else None  # T8: what each card would take
    out = []
    for i, rank in enumerate(game.hand(seat)):
        takes = bool(to_act and captured[rank] > 0)
        classes = "hand card" + " playable" * to_act + " lift" * takes
        face = [card(0, 0, game.deck, rank, edge=GOLD if takes else None)]
        out.append(svg.piece(*CARD, rank_name(game.deck, rank), face, **{"class": classes, "data-item": i}))
    return out


def draw(game: Game, seat: int, names: Sequence[str], reveal: bool, last: dict[int, int] | None = None) -> str:
    """The table from ``seat``'s place as an SVG document (see the module docstring); ``last``
    (seat → its last action) names the card each seat played last. Face up (``reveal``), the
    seat's own hand is drawn again, large, at the foot."""
    height = HEIGHT if reveal else FOOTER
    parts = [svg.element("rect", {"width": WIDTH, "height": height, "fill": FELT})]
    parts += _header(game)
    parts += _seats(game, names, reveal, last or {})
    parts += _table(game, reveal)
    if reveal:
        parts.append(svg.element("rect", {"y": FOOTER, "width": WIDTH, "height": HEIGHT - FOOTER, "fill": PANEL}))
        parts += _hand(game, seat, names[seat])
    return svg.document(WIDTH, height, f'"12" table seen from seat {seat}', parts)


def moves(game: Game, seat: int) -> list[Move]:
    """Every card of ``seat``'s hand (to act) on the pile (T7), worded with what it does."""
    hand = game.hand(seat)
    labels = {action: PLAY_UI.move(game, action, seat) for action in game.legal_actions()}
    return [Move(rank, labels[rank], item=i, spot=0) for i, rank in enumerate(hand) if rank in labels]


WEB = WebGame.of(Game, PLAY_UI, draw=draw, hand=hand, moves=moves, step=lambda game: 1, draw_portrait=draw_portrait)
