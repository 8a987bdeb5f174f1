"""Picture of a Sniff table (Pillow): the layout as real tiles on felt, the scores, the hand to act.

``render_image(game)`` returns an ``H×W×3 uint8`` RGB array (what ``render_mode="rgb_array"``
gives); ``save_image(game, path)`` writes it as PNG.

The picture follows the figures of the rule text (S10–S17), laid out by ``sniff_env.geometry``
(the main line west–east, the Sniff's side arms north–south, long arms bending into their own
quarter):

- the Sniff is outlined in orange and sits in the middle of the picture;
- every scored end carries a filled disc with its contribution (an end double shows ``2v``, an
  uncovered side arm ``v``); a free spot that is not scored — the second line side of an opening
  double — carries a hollow ring;
- the whole layout is scaled to fit a fixed-size picture, whatever the 28 tiles do.

The header shows each side's score (with ``tally=True`` also S27's paper tally: a stroke per 5
points, a large X with four small x per 50), the target and the last placement's scored ends; the
footer shows the tiles of the seat to act (its legal tiles raised, with the arms they fit) and
every seat's hand size and the boneyard.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from sniff_env import kernels as K
from sniff_env.geometry import PIPS, table_layout
from sniff_env.tiles import DRAW, NUM_ARMS, PASS, TILES
from sniff_twelve import drawing as ei
from sniff_twelve.drawing import GOLD, MUTED, RED, TEXT

if TYPE_CHECKING:
    import numpy as np

    from sniff_env.game import Game

WIDTH = 1280
HEADER = 96
TALLY_ROW = 34
LAYOUT = 600
FOOTER = 178
MARGIN = 26
MAX_UNIT = 50  # pixels per pip square at full size; the layout only ever shrinks from here
HAND_UNIT = 40

IVORY, TILE_EDGE, PIP = (247, 241, 226), (150, 138, 112), (24, 24, 24)  # a tile's face, rim and pips
DIVIDER, BRASS = (88, 82, 72), (190, 150, 72)  # the line between its halves, its centre pin
ORANGE = (255, 140, 20)  # the Sniff's outline
CREAM, MARK_INK = (250, 246, 232), (150, 28, 28)  # the free spots' markers


# --- sprites ---------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=1024)
def tile_sprite(first: int, second: int, vertical: bool, unit: int, edge: tuple[int, int, int] | None = None):
    """An ivory tile ``unit`` pixels per half-square (minus a hairline gap), black pips, divider
    and brass centre pin; ``edge`` draws a coloured outline (the Sniff's orange, a legal tile's gold)."""
    gap = max(1, round(unit * 0.05))
    w, h = (unit - gap, 2 * unit - gap) if vertical else (2 * unit - gap, unit - gap)

    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        bw, bh, u = w * k, h * k, unit * k
        r, line = 0.14 * u, max(1.0, 0.035 * u)
        # a bevel: the face is lighter than its lower right rim
        ei.rimmed(draw, bw, bh, r, line, (TILE_EDGE, (226, 216, 192)))
        draw.rounded_rectangle((line, line, bw - 1 - 2.2 * line, bh - 1 - 2.2 * line), radius=r - line, fill=IVORY)
        hw, hh = (bw, bh / 2) if vertical else (bw / 2, bh)
        halves = ((0, 0), (0, hh)) if vertical else ((0, 0), (hw, 0))
        pr = 0.088 * min(hw, hh)
        for (ox, oy), pips in zip(halves, (first, second), strict=True):
            for px, py in PIPS[pips]:
                if not vertical:
                    px, py = py, px
                cx, cy = ox + px * hw, oy + py * hh
                draw.ellipse((cx - pr, cy - pr, cx + pr, cy + pr), fill=PIP)
        lw = max(1.0, 0.045 * u)
        if vertical:
            draw.rectangle((0.14 * bw, bh / 2 - lw / 2, 0.86 * bw, bh / 2 + lw / 2), fill=DIVIDER)
        else:
            draw.rectangle((bw / 2 - lw / 2, 0.14 * bh, bw / 2 + lw / 2, 0.86 * bh), fill=DIVIDER)
        pin = 0.07 * min(hw, hh)
        draw.ellipse((bw / 2 - pin, bh / 2 - pin, bw / 2 + pin, bh / 2 + pin), fill=BRASS, outline=(120, 90, 40))
        if edge is not None:
            ew = max(2.0, 0.1 * u)
            draw.rounded_rectangle((0, 0, bw - 1, bh - 1), radius=r, outline=edge, width=round(ew))

    return ei.sprite(w, h, paint)


@functools.lru_cache(maxsize=64)
def back_sprite(unit: int) -> Image.Image:
    """A small face-down tile (upright), for hand sizes and the boneyard."""
    w, h = unit, 2 * unit

    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        bw, bh = w * k, h * k
        draw.rounded_rectangle((0, 0, bw - 1, bh - 1), radius=0.2 * bw, fill=(38, 38, 44), outline=(120, 120, 130))
        draw.ellipse((bw * 0.36, bh / 2 - bw * 0.14, bw * 0.64, bh / 2 + bw * 0.14), fill=BRASS)

    return ei.sprite(w, h, paint)


# --- tally (S27) -------------------------------------------------------------------------------------
def draw_tally(draw: ImageDraw.ImageDraw, x: float, y: float, points: int, color=TEXT, height: int = 26) -> float:
    """S27's paper tally at ``(x, y)`` (top left): a large X with four small x per 50 points, then a
    stroke per 5; a negative score is prefixed with a minus and drawn in red. Returns the right edge."""
    if points < 0:
        color = RED
        draw.line((x, y + height / 2, x + 8, y + height / 2), fill=color, width=2)
        x += 13
    fifties, rest = divmod(abs(points), 50)
    shown = min(fifties, 6)
    s = height
    for _ in range(shown):
        m = s * 0.3
        draw.line((x + m, y + m, x + s - m, y + s - m), fill=color, width=2)
        draw.line((x + s - m, y + m, x + m, y + s - m), fill=color, width=2)
        c, e = s * 0.1, max(2.0, s * 0.08)
        for cx, cy in ((x + c, y + c), (x + s - c, y + c), (x + c, y + s - c), (x + s - c, y + s - c)):
            draw.line((cx - e, cy - e, cx + e, cy + e), fill=color, width=1)
            draw.line((cx + e, cy - e, cx - e, cy + e), fill=color, width=1)
        x += s + 8
    if fifties > shown:
        ei.draw_text(draw, (x, y + s / 2), f"x{fifties}", 15, color, anchor="lm", bold=True)
        x += 34
    for i in range(rest // 5):
        draw.line((x, y + 2, x, y + s - 2), fill=color, width=2)
        x += 6 if i % 5 != 4 else 11
    return x


# --- the picture -------------------------------------------------------------------------------------
def _side_names(game: Game) -> list[str]:
    if game.num_players == 4:
        return ["Team 0+2", "Team 1+3"]
    return [f"Seat {i}" for i in range(game.num_players)]


def _draw_header(img: Image.Image, game: Game, tally: bool) -> None:
    draw = ImageDraw.Draw(img)
    height = HEADER + (TALLY_ROW if tally else 0)
    ei.panel(draw, WIDTH, 0, height, height - 1)
    ei.draw_text(draw, (MARGIN, 16), "American Sniff", 26, TEXT, bold=True)
    info = f"{game.num_players} players  ·  hand {game.hands_played + (0 if game.is_terminal() else 1)}"
    info += f"  ·  target {game.target}  ·  boneyard {game.boneyard_size}"
    ei.draw_text(draw, (MARGIN + 222, 22), info, 16, MUTED)
    d = game.describe()
    if d["tiles"]:
        parts = " + ".join(str(c) for _, c in d["scored"]) or "0"
        credit = d["credit"]
        note = f"ends {parts} = {d['total']}" + (f"   ·   credit +{credit}" if credit else "   ·   no credit")
        ei.draw_text(draw, (WIDTH - MARGIN, 22), note, 17, GOLD if credit else MUTED, anchor="rt", bold=bool(credit))
    acting = None if game.is_terminal() else game.side_of(game.current_player)
    names = _side_names(game)
    chip_w = 238
    chip_h = 36 + (TALLY_ROW if tally else 0)
    for side, (name, score) in enumerate(zip(names, game.scores, strict=True)):
        x0, y0 = MARGIN + side * (chip_w + 14), 52
        won = game.winner == side
        ei.chip(draw, (x0, y0, x0 + chip_w, y0 + chip_h), 9, side == acting, won)
        ei.draw_text(draw, (x0 + 12, y0 + 18), name + ("  wins" if won else ""), 17, TEXT, anchor="lm")
        color = RED if score < 0 else (GOLD if won else TEXT)
        ei.draw_text(draw, (x0 + chip_w - 12, y0 + 18), str(score), 22, color, anchor="rm", bold=True)
        if tally:
            draw_tally(draw, x0 + 12, y0 + 37, score)
    x_note = MARGIN + len(names) * (chip_w + 14) + 6
    if not d["tiles"] and game.hands_played and not game.is_terminal():
        ei.draw_text(draw, (x_note, 70), _last_hand_note(game), 15, MUTED, anchor="lm")


def _last_hand_note(game: Game) -> str:
    s = game.state_array
    how = "domino by seat " + str(int(s[K.LAST_OUT])) if int(s[K.LAST_RESULT]) == K.DOMINO else "blocked"
    cuts = [f"seat {i} -{int(s[K.DEDUCT + i])}" for i in range(game.num_players) if s[K.DEDUCT + i]]
    return f"last hand: {how}" + (f"; {', '.join(cuts)}" if cuts else "")


def _draw_layout(img: Image.Image, game: Game, top: int) -> None:
    draw = ImageDraw.Draw(img)
    pieces, spots = table_layout(game)
    cx, cy = WIDTH / 2, top + LAYOUT / 2
    if not pieces:
        if game.is_terminal():
            return
        opener = game.current_player
        ei.draw_text(draw, (cx, cy - 14), "The table is empty", 28, (214, 232, 220), anchor="mm", bold=True)
        ei.draw_text(draw, (cx, cy + 22), f"seat {opener} opens with any tile", 18, MUTED, anchor="mm")
        return
    boxes = [p.box() for p in pieces] + [(s.x - 0.45, s.y - 0.45, s.x + 0.45, s.y + 0.45) for s in spots]
    x0, y0 = min(b[0] for b in boxes) - 0.25, min(b[1] for b in boxes) - 0.25
    x1, y1 = max(b[2] for b in boxes) + 0.25, max(b[3] for b in boxes) + 0.25
    unit = int(min(MAX_UNIT, (WIDTH - 2 * MARGIN) / (x1 - x0), (LAYOUT - 2 * 16) / (y1 - y0)))
    unit = max(unit, 6)
    ox = cx - (x0 + x1) / 2 * unit
    oy = cy - (y0 + y1) / 2 * unit
    radius = max(2, round(unit * 0.14))
    blur = max(1.0, unit * 0.06)
    offset = (max(1, round(unit * 0.05)), max(1, round(unit * 0.08)))
    for p in pieces:
        spr = tile_sprite(p.first, p.second, p.vertical, unit, ORANGE if p.sniff else None)
        bx, by, _, _ = p.box()
        gap = max(1, round(unit * 0.05)) / 2
        ei.paste_with_shadow(img, spr, (ox + bx * unit + gap, oy + by * unit + gap), radius, offset, blur)
    size = max(14, round(unit * 0.8))
    for s in spots:
        if s.value is None:
            mark = ei.disc(size, "", fill=None, ring=CREAM, ring_width=0.12)
        else:
            mark = ei.disc(size, str(s.value), fill=CREAM, ink=MARK_INK, ring=MARK_INK, ring_width=0.07)
        ei.paste(img, mark, (ox + s.x * unit - size / 2, oy + s.y * unit - size / 2))


def _draw_footer(img: Image.Image, game: Game, top: int) -> None:
    draw = ImageDraw.Draw(img)
    ei.panel(draw, WIDTH, top, top + FOOTER, top)
    # every seat's hand size and the boneyard, on the right
    rx = WIDTH - MARGIN - 300
    ei.draw_text(draw, (rx, top + 14), "Hands", 15, MUTED)
    ei.draw_text(draw, (WIDTH - MARGIN, top + 14), f"Boneyard  {game.boneyard_size}", 15, MUTED, anchor="rt")
    back = back_sprite(11)
    for seat in range(game.num_players):
        y = top + 36 + seat * 27
        if not game.is_terminal() and seat == game.current_player:
            ei.pointer(draw, (rx - 6, y + 11), 9, GOLD)
        ei.draw_text(draw, (rx + 8, y + 11), f"seat {seat}", 15, TEXT, anchor="lm")
        count = len(game.hand(seat))
        for i in range(min(count, 14)):
            ei.paste(img, back, (rx + 80 + i * 13, y))
        ei.draw_text(draw, (rx + 80 + min(count, 14) * 13 + 6, y + 11), str(count), 15, TEXT, anchor="lm")
    if game.is_terminal():
        names = _side_names(game)
        text = "Match truncated" if game.is_truncated() or game.winner is None else f"{names[game.winner]} wins"
        ei.draw_text(draw, (MARGIN, top + FOOTER / 2), text, 30, GOLD, anchor="lm", bold=True)
        return
    seat = game.current_player
    legal = game.legal_actions()
    fits: dict[tuple[int, int], list[str]] = {}
    for a in legal:
        if a < DRAW:
            fits.setdefault(TILES[a // NUM_ARMS], []).append("WENS"[a % NUM_ARMS])
    team = f"  (team {seat % 2}+{seat % 2 + 2})" if game.num_players == 4 else ""
    note = ""
    if legal == [DRAW]:
        note = "  —  no tile fits: must draw"
    elif legal == [PASS]:
        note = "  —  no tile fits, boneyard empty: must pass"
    elif not game.state_array[K.N_PLACED]:
        note = "  —  opens with any tile"
    ei.draw_text(draw, (MARGIN, top + 14), f"Seat {seat} to act{team}{note}", 17, TEXT, bold=True)
    hand = game.hand(seat)
    room = rx - MARGIN - 20
    unit = min(HAND_UNIT, int(room / max(1, len(hand)) / 1.3))
    step = unit * 1.3
    for i, tile in enumerate(hand):
        x = MARGIN + i * step
        arms = fits.get(tile)
        lift = 8 if arms and game.state_array[K.N_PLACED] else 0
        spr = tile_sprite(tile[0], tile[1], True, unit, GOLD if arms else None)
        ei.paste_with_shadow(img, spr, (x, top + 52 - lift), 3, (2, 3), 2.0)
        if arms and game.state_array[K.N_PLACED]:
            label = " ".join(dict.fromkeys(arms))
            ei.draw_text(draw, (x + unit / 2, top + 60 + 2 * unit), label, 13, GOLD, anchor="mt", bold=True)


def render_pil(game: Game, tally: bool = False) -> Image.Image:
    """The picture as a Pillow image (see ``render_image``)."""
    header = HEADER + (TALLY_ROW if tally else 0)
    img = ei.felt(WIDTH, header + LAYOUT + FOOTER)
    _draw_header(img, game, tally)
    _draw_layout(img, game, header)
    _draw_footer(img, game, header + LAYOUT)
    return img


def render_image(game: Game, tally: bool = False) -> np.ndarray:
    """The table as an ``H×W×3 uint8`` RGB array (``1280 × 874``, or ``× 908`` with ``tally``).

    The size never depends on the layout: long arms bend and the layout is scaled to fit.
    """
    return ei.to_array(render_pil(game, tally))


def save_image(game: Game, path: str | Path, tally: bool = False) -> Path:
    """Write the picture of ``game`` as PNG to ``path``; returns the path."""
    return ei.save_png(render_pil(game, tally), path)
