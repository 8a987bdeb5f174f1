"""Picture of a "12" table (Pillow): seats, stock, the fanned face-up pile, the hand to act.

``render_image(game)`` returns an ``H×W×3 uint8`` RGB array (what ``render_mode="rgb_array"``
gives; always ``1280 × 800``); ``save_image(game, path)`` writes it as PNG.

- a strip of seat panels: each seat's hand size (as face-down cards), captured cards and score
  (T15); the seat to act is outlined in gold;
- the stock as a face-down stack with its count, the face-up pile fanned left to right with the
  top card last, raised and outlined, and the pile's size;
- the hand of the seat to act as cards: rank in the corners, the value toward 12 at the bottom
  (T2), and a gold edge on every card that would capture the top card (a pair or a sum of 12, T8).

Suits are ignored by the rules (T1), so the cards show ranks only.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from sniff_twelve import drawing as ei
from sniff_twelve.drawing import GOLD, MUTED, RED, TEXT
from twelve_env.cards import card_value, rank_name

if TYPE_CHECKING:
    import numpy as np

    from twelve_env.game import Game

WIDTH, HEIGHT = 1280, 800
HEADER = 60
SEATS_TOP, SEATS_H = 74, 96
TABLE_TOP, TABLE_H = 184, 370
FOOTER_TOP = TABLE_TOP + TABLE_H + 10
MARGIN = 26
CARD = (110, 154)
HAND_CARD = (104, 146)

PAPER, CARD_EDGE = (252, 251, 246), (160, 160, 150)  # a card's face and rim
INK, FACE_INK = (28, 28, 34), (158, 24, 36)  # ranks, and J Q K
BACK, BACK_LINE = (30, 62, 142), (86, 124, 206)  # a face-down card's field and lattice


def _blank(draw: ImageDraw.ImageDraw, width: float, height: float) -> float:
    """A card's paper inside its grey edge, ``width × height``; returns its corner radius."""
    radius = 0.09 * width
    ei.rimmed(draw, width, height, radius, max(1.0, 0.012 * width), (CARD_EDGE, PAPER))
    return radius


@functools.lru_cache(maxsize=256)
def card_sprite(label: str, value: int, size: tuple[int, int], edge: tuple[int, int, int] | None = None):
    """A face-up card: ``label`` in two corners and large in the middle, ``value`` as a hint at the
    bottom; ``edge`` draws a coloured border (the pile's top card, a capturing card)."""
    w, h = size
    ink = FACE_INK if label in ("J", "Q", "K") else INK

    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        bw, bh = w * k, h * k
        r = _blank(draw, bw, bh)
        if label in ("J", "Q", "K"):
            pad = 0.2 * bw
            draw.rounded_rectangle(
                (pad, pad * 1.1, bw - pad, bh - pad * 1.1),
                radius=r,
                fill=(250, 238, 206),
                outline=(200, 160, 80),
                width=2 * k,
            )
        corner = round(0.2 * bw) if len(label) < 2 else round(0.17 * bw)
        ei.draw_text(draw, (0.1 * bw, 0.07 * bw), label, corner, ink, anchor="lt", bold=True)
        ei.draw_text(draw, (bw - 0.1 * bw, bh - 0.07 * bw), label, corner, ink, anchor="rb", bold=True)
        big = round(0.46 * bw) if len(label) < 2 else round(0.38 * bw)
        ei.draw_text(draw, (bw / 2, bh * 0.47), label, big, ink, anchor="mm", bold=True)
        hint = f"= {value}"
        ei.draw_text(draw, (bw / 2, bh * 0.8), hint, round(0.13 * bw), (120, 120, 110), anchor="mm")
        if edge is not None:
            draw.rounded_rectangle((0, 0, bw - 1, bh - 1), radius=r, outline=edge, width=round(0.045 * bw))

    return ei.sprite(w, h, paint)


@functools.lru_cache(maxsize=32)
def back_sprite(size: tuple[int, int]) -> Image.Image:
    """A face-down card: white margin, blue field with a diamond lattice."""
    w, h = size

    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        bw, bh = w * k, h * k
        r = _blank(draw, bw, bh)
        m = 0.08 * bw
        draw.rounded_rectangle((m, m, bw - m, bh - m), radius=r * 0.6, fill=BACK)
        step = max(4.0 * k, 0.16 * bw)
        half = step / 2
        y = m + half
        row = 0
        while y + half <= bh - m + 0.01:
            x = m + half + (half if row % 2 else 0)
            while x + half <= bw - m + 0.01:
                d = half * 0.72
                draw.polygon(((x, y - d), (x + d, y), (x, y + d), (x - d, y)), outline=BACK_LINE, width=max(1, k))
                x += step
            y += half
            row += 1

    return ei.sprite(w, h, paint)


@functools.lru_cache(maxsize=512)
def _tilted(label: str, value: int, size: tuple[int, int], angle: float) -> Image.Image:
    return card_sprite(label, value, size).rotate(angle, resample=Image.Resampling.BICUBIC, expand=True)


def _draw_header(img: Image.Image, game: Game) -> None:
    draw = ImageDraw.Draw(img)
    ei.panel(draw, WIDTH, 0, HEADER, HEADER - 1)
    ei.draw_text(draw, (MARGIN, HEADER / 2), "12", 30, GOLD, anchor="lm", bold=True)
    ei.draw_text(draw, (MARGIN + 48, HEADER / 2 - 9), "Jamaican Sniping", 20, TEXT, anchor="lm", bold=True)
    deck = "52-card deck" if game.deck == "bridge" else "number deck 1-11"
    ei.draw_text(draw, (MARGIN + 48, HEADER / 2 + 12), f"{game.num_players} players  ·  {deck}", 14, MUTED, anchor="lm")
    if game.is_terminal():
        note, color = "game over", GOLD
    elif game.last_round:
        note, color = f"last round: {game.turns_left} turn(s) left, no drawing", GOLD
    else:
        note, color = "pair or sum of 12 takes the pile", MUTED
    ei.draw_text(draw, (WIDTH - MARGIN, HEADER / 2), note, 17, color, anchor="rm", bold=color == GOLD)


def _draw_seats(img: Image.Image, game: Game) -> None:
    draw = ImageDraw.Draw(img)
    n = game.num_players
    gap = 10
    w = (WIDTH - 2 * MARGIN - (n - 1) * gap) / n
    acting = None if game.is_terminal() else game.current_player
    scores = game.scores
    best = max(scores)
    mini = back_sprite((20, 28))
    for seat in range(n):
        x0 = MARGIN + seat * (w + gap)
        y0 = SEATS_TOP
        won = game.is_terminal() and scores[seat] == best
        ei.chip(draw, (x0, y0, x0 + w, y0 + SEATS_H), 10, seat == acting, won)
        name = f"Seat {seat}" + ("  wins" if won else "")
        if seat == acting:
            ei.pointer(draw, (x0 + 12, y0 + 16), 10, GOLD)
        ei.draw_text(
            draw, (x0 + 12 + (16 if seat == acting else 0), y0 + 16), name, 16, TEXT, anchor="lm", bold=seat == acting
        )
        score = scores[seat]
        ei.draw_text(
            draw, (x0 + w - 12, y0 + 16), f"{score:+d}", 18, RED if score < 0 else TEXT, anchor="rm", bold=True
        )
        count = len(game.hand(seat))
        room = w - 24 - 30
        step = min(12.0, room / max(count, 1))
        for i in range(min(count, 40)):
            ei.paste(img, mini, (x0 + 12 + i * step, y0 + 34))
        ei.draw_text(
            draw, (x0 + 12 + min(count, 40) * step + 16, y0 + 48), f"{count}", 16, TEXT, anchor="lm", bold=True
        )
        ei.draw_text(draw, (x0 + 12, y0 + 78), f"in hand  ·  captured {game.captured[seat]}", 13, MUTED, anchor="lm")


def _draw_table(img: Image.Image, game: Game) -> None:
    draw = ImageDraw.Draw(img)
    cw, ch = CARD
    cy = TABLE_TOP + TABLE_H / 2 + 6
    # the stock: a stack of backs, a few pixels per card, with its count
    sx, sy = MARGIN + 70, cy - ch / 2
    stock = game.stock_size
    ei.draw_text(draw, (sx + cw / 2, TABLE_TOP + 20), "Stock", 17, MUTED, anchor="mt")
    if stock:
        layers = min(6, 1 + stock // 6)
        back = back_sprite(CARD)
        for i in range(layers):
            ei.paste_with_shadow(img, back, (sx - i * 2, sy - i * 2), 9, (3, 4), 3.0)
        badge = ei.disc(46, str(stock), fill=(250, 246, 232), ink=(20, 40, 90), ring=GOLD, ring_width=0.07)
        ei.paste(img, badge, (sx + cw - 30 - 2 * layers, sy - 20 - 2 * layers))
    else:
        _dashed_box(draw, (sx, sy, sx + cw, sy + ch))
        ei.draw_text(draw, (sx + cw / 2, cy), "empty", 16, MUTED, anchor="mm")
    # the face-up pile, fanned from the bottom card (left) to the top card (right)
    pile = game.pile
    left, right = sx + cw + 110, WIDTH - MARGIN - 40
    m = len(pile)
    step = min(52.0, (right - left - cw - 20) / max(m - 1, 1))
    px0 = max(left, (left + right) / 2 - (cw + (m - 1) * step) / 2)
    label = f"Face-up pile  ·  {len(pile)} card{'s' if len(pile) != 1 else ''}"
    ei.draw_text(draw, (px0, TABLE_TOP + 20), label, 17, MUTED, anchor="lt")
    if not pile:
        _dashed_box(draw, (px0, sy, px0 + cw, sy + ch))
        ei.draw_text(draw, (px0 + cw / 2, cy), "none", 16, MUTED, anchor="mm")
        return
    deck = game.deck
    for i, rank in enumerate(pile[:-1]):
        angle = ((i * 37) % 9 - 4) * 1.1  # a slightly untidy pile, the same in every frame
        spr = _tilted(rank_name(deck, rank), card_value(deck, rank), CARD, angle)
        x = px0 + i * step + cw / 2 - spr.width / 2
        y = cy - spr.height / 2 + 6
        ei.paste_with_shadow(img, spr, (x, y), 9, (2, 3), 2.5)
    top = pile[-1]
    spr = card_sprite(rank_name(deck, top), card_value(deck, top), CARD, GOLD)
    tx, ty = px0 + (m - 1) * step + (18 if m > 1 else 0), cy - ch / 2 - 8
    ei.paste_with_shadow(img, spr, (tx, ty), 9, (5, 7), 4.0)
    ei.draw_text(draw, (tx + cw / 2, ty + ch + 16), "top card", 14, GOLD, anchor="mt", bold=True)


def _dashed_box(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
    x0, y0, x1, y1 = box
    color = (120, 170, 140)
    dash = 10
    x = x0
    while x < x1:
        draw.line((x, y0, min(x + dash / 2, x1), y0), fill=color, width=2)
        draw.line((x, y1, min(x + dash / 2, x1), y1), fill=color, width=2)
        x += dash
    y = y0
    while y < y1:
        draw.line((x0, y, x0, min(y + dash / 2, y1)), fill=color, width=2)
        draw.line((x1, y, x1, min(y + dash / 2, y1)), fill=color, width=2)
        y += dash


def _captures(game: Game, rank: int) -> bool:
    """T8: playing ``rank`` on the top card makes a pair or a sum of 12."""
    pile = game.pile
    if not pile:
        return False
    top = pile[-1]
    return rank == top or card_value(game.deck, rank) + card_value(game.deck, top) == 12


def _draw_footer(img: Image.Image, game: Game) -> None:
    draw = ImageDraw.Draw(img)
    ei.panel(draw, WIDTH, FOOTER_TOP, HEIGHT, FOOTER_TOP)
    if game.is_terminal():
        scores = game.scores
        best = max(scores)
        winners = [s for s, v in enumerate(scores) if v == best]
        who = f"Seat {winners[0]} wins" if len(winners) == 1 else "Seats " + ", ".join(map(str, winners)) + " tie"
        ei.draw_text(draw, (MARGIN, FOOTER_TOP + 60), f"Game over — {who} with {best:+d}", 30, GOLD, bold=True)
        line = "   ".join(f"seat {s}: {v:+d}" for s, v in enumerate(scores))
        ei.draw_text(draw, (MARGIN, FOOTER_TOP + 112), "scores (captured - in hand): " + line, 16, MUTED)
        return
    seat = game.current_player
    deck = game.deck
    hand = game.hand(seat)
    ei.draw_text(draw, (MARGIN, FOOTER_TOP + 14), f"Seat {seat} to play", 17, TEXT, bold=True)
    ei.draw_text(draw, (MARGIN + 170, FOOTER_TOP + 16), "gold edge: takes the pile", 14, GOLD)
    w = HAND_CARD[0]
    step = min(w + 12.0, (WIDTH - 2 * MARGIN - w) / max(len(hand) - 1, 1))
    for i, rank in enumerate(hand):
        hit = _captures(game, rank)
        spr = card_sprite(rank_name(deck, rank), card_value(deck, rank), HAND_CARD, GOLD if hit else None)
        ei.paste_with_shadow(img, spr, (MARGIN + i * step, FOOTER_TOP + 50 - (10 if hit else 0)), 8, (3, 4), 3.0)


def render_pil(game: Game) -> Image.Image:
    """The picture as a Pillow image (see ``render_image``)."""
    img = ei.felt(WIDTH, HEIGHT, color=(24, 96, 62))
    _draw_header(img, game)
    _draw_seats(img, game)
    _draw_table(img, game)
    _draw_footer(img, game)
    return img


def render_image(game: Game) -> np.ndarray:
    """The table as a ``800 × 1280 × 3 uint8`` RGB array."""
    return ei.to_array(render_pil(game))


def save_image(game: Game, path: str | Path) -> Path:
    """Write the picture of ``game`` as PNG to ``path``; returns the path."""
    return ei.save_png(render_pil(game), path)
