"""American Sniff in the browser (``python -m sniff_env serve``, ``sniff_twelve.web``): the table as SVG
from one seat's place, and the legal moves as clicks — a tile of the hand, then a free spot.

The layout is ``sniff_env.geometry.table_layout``'s (the main line west–east, the Sniff's side arms
north–south, long arms bending into their own quarter, S10–S14); scored ends carry a disc with
their contribution, free spots that score nothing a ring (S15). The player's own hand is drawn
apart, a small SVG per tile (``hand``), so the page can lay it out to fit a phone. Every tile
drawn face up carries ``data-tile="a-b"``; the hand's tiles ``data-item`` (their index in
``Game.hand``) and the free spots ``data-spot`` (their arm, the action's ``tile * 4 + arm``; an
empty table's opening spot is arm 0).
"""

from __future__ import annotations

from collections.abc import Sequence

from sniff_env import kernels as K
from sniff_env.game import Game
from sniff_env.geometry import PIPS, PORTRAIT, Piece, Spot, table_layout
from sniff_env.tiles import decode_action, tile_name
from sniff_env.ui import PLAY_UI, where
from sniff_twelve.web import svg
from sniff_twelve.web.svg import FELT, GOLD, MUTED, PANEL, RED, TEXT
from sniff_twelve.web.table import Move, WebGame

WIDTH = 1200
HEADER = 84
LAYOUT_H = 440
FOOTER = HEADER + LAYOUT_H
MAX_UNIT = 46
HAND_UNIT = 40  # the player's own tiles: 40 × 80 px, easy to tap on a phone
FACE_UP_UNIT = 26  # every hand face up (a hand's end, a finished match, a replay)
# a phone held upright: a narrow table drawn at about its own size, its labels at least 12 px, its
# tiles 32 to 36 px across however long the chain (it then grows down, or scrolls across)
NARROW = 360
LEAST_UNIT, MOST_NARROW_UNIT = 32, 36

IVORY, TILE_EDGE, PIP, DIVIDER = "#f7f1e2", "#968a70", "#181818", "#585248"
ORANGE, CREAM, MARK_INK, BACK = "#ff8c14", "#faf6e8", "#961c1c", "#26262c"


def tile(
    x: float, y: float, pips: tuple[int, int], vertical: bool, unit: float, edge: str | None = None, **attrs
) -> str:
    """A tile with its top-left corner at ``(x, y)``: ``pips`` top/bottom (upright) or left/right."""
    w, h = (unit, 2 * unit) if vertical else (2 * unit, unit)
    gap = unit * 0.05
    parts = [
        svg.element(
            "rect",
            {
                "x": x + gap / 2,
                "y": y + gap / 2,
                "width": w - gap,
                "height": h - gap,
                "rx": unit * 0.14,
                "fill": IVORY,
                "stroke": edge or TILE_EDGE,
                "stroke-width": unit * (0.1 if edge else 0.04),
            },
        )
    ]
    if vertical:
        line = {"x1": x + 0.16 * w, "y1": y + unit, "x2": x + 0.84 * w, "y2": y + unit}
    else:
        line = {"x1": x + unit, "y1": y + 0.16 * h, "x2": x + unit, "y2": y + 0.84 * h}
    parts.append(svg.element("line", {**line, "stroke": DIVIDER, "stroke-width": unit * 0.045}))
    for k, count in enumerate(pips):
        ox, oy = (x, y + k * unit) if vertical else (x + k * unit, y)
        for px, py in PIPS[count]:
            cx, cy = (px, py) if vertical else (py, px)
            parts.append(svg.element("circle", {"cx": ox + cx * unit, "cy": oy + cy * unit, "r": unit * 0.088}))
    low, high = sorted(pips)
    return svg.group(parts, fill=PIP, data_tile=f"{low}-{high}", **attrs)


def back(x: float, y: float, unit: float) -> str:
    """A face-down tile (upright), for hand sizes and the boneyard."""
    return svg.element(
        "rect",
        {"x": x, "y": y, "width": unit, "height": 2 * unit, "rx": unit * 0.2, "fill": BACK, "stroke": "#787882"},
    )


def _side_names(game: Game, names: Sequence[str]) -> list[str]:
    if game.num_players == 4:
        return [f"{names[side]} + {names[side + 2]}" for side in (0, 1)]
    return list(names)


def _header(game: Game, names: Sequence[str]) -> list[str]:
    parts = [
        svg.element("rect", {"width": WIDTH, "height": HEADER, "fill": PANEL}),
        svg.text(20, 30, "American Sniff", 22, fill=TEXT, font_weight="bold"),
    ]
    hand = game.hands_played + (not game.is_terminal() or game.winner is not None)  # a won match ends in a hand
    info = f"{game.num_players} players · hand {hand} · target {game.target} · boneyard {game.boneyard_size}"
    parts.append(svg.text(212, 30, info, 15, fill=MUTED))
    d = game.describe()
    if d["tiles"]:
        ends = " + ".join(str(c) for _, c in d["scored"]) or "0"
        note = f"ends {ends} = {d['total']}" + (f" · credit +{d['credit']}" if d["credit"] else " · no credit")
        parts.append(svg.text(WIDTH - 20, 30, note, 16, fill=GOLD if d["credit"] else MUTED, text_anchor="end"))
    acting = None if game.is_terminal() else game.side_of(game.current_player)
    sides = _side_names(game, names)
    width = (WIDTH - 40 - 10 * (len(sides) - 1)) / len(sides)
    for side, (name, score) in enumerate(zip(sides, game.scores, strict=True)):
        x = 20 + side * (width + 10)
        won = game.winner == side
        parts.append(svg.panel(x, 44, width, 32, side in (acting, game.winner), "#604c10" if won else svg.SEAT))
        label = svg.fit(name, width - (160 if won else 90), 15) + (" — wins" if won else "")
        parts.append(svg.text(x + 12, 65, label, 15, fill=TEXT))
        color = RED if score < 0 else GOLD if won else TEXT
        parts.append(svg.text(x + width - 12, 66, str(score), 19, fill=color, font_weight="bold", text_anchor="end"))
    return parts


def _placed(last: dict[int, int]) -> dict[tuple[int, int], int]:
    """The tile each seat placed last (``last``: seat → its last action) → that seat."""
    placed = {}
    for who, action in last.items():
        kind, placed_tile, _ = decode_action(action)
        if kind == "place":
            placed[placed_tile] = who
    return placed


def _extent(pieces: list[Piece], spots: list[Spot]) -> tuple[float, float, float, float]:
    """The box, in units, that holds every tile and spot with a margin."""
    boxes = [p.box() for p in pieces] + [(s.x - 0.45, s.y - 0.45, s.x + 0.45, s.y + 0.45) for s in spots]
    x0, y0 = min(b[0] for b in boxes) - 0.3, min(b[1] for b in boxes) - 0.3
    x1, y1 = max(b[2] for b in boxes) + 0.3, max(b[3] for b in boxes) + 0.3
    return x0, y0, x1, y1


def _opening(game: Game, seat: int, live: bool, cx: float, cy: float, size: float) -> list[str]:
    """An empty table: the opening spot (arm 0) and who opens."""
    if game.is_terminal():
        return []
    opener = "you open" if game.current_player == seat and live else f"seat {game.current_player} opens"
    box = {"x": cx - 40, "y": cy - 52, "width": 80, "height": 104, "rx": 10, "fill": "none", "stroke": MUTED}
    return [
        svg.spot([svg.element("rect", {**box, "stroke-dasharray": "8 6"})], 0),
        svg.text(cx, cy + 86, f"The table is empty: {opener} with any tile", size, fill=MUTED, text_anchor="middle"),
    ]


def _cross(
    pieces: list[Piece], spots: list[Spot], at: tuple[float, float, float], last: dict[int, int], radii: tuple
) -> list[str]:
    """The tiles at ``at`` (left, top, unit: where unit (0, 0) lies and its size), the Sniff
    outlined, discs on scored ends and rings on free spots; the tile each seat placed last carries
    that seat's number. ``radii``: the least radius of a seat's badge and of a spot."""
    ox, oy, unit = at
    placed = _placed(last)
    parts, badges = [], []
    for p in pieces:
        bx, by, _, _ = p.box()
        pips = (p.first, p.second)
        parts.append(tile(ox + bx * unit, oy + by * unit, pips, p.vertical, unit, ORANGE if p.sniff else None))
        who = placed.get((min(pips), max(pips)))
        if who is not None:  # the last move of seat ``who``: a numbered badge on the tile's corner
            x, y, r = ox + bx * unit, oy + by * unit, max(radii[0], unit * 0.26)
            badge = [
                svg.element("circle", {"cx": x, "cy": y, "r": r, "fill": GOLD, "stroke": MARK_INK, "stroke-width": 1}),
                svg.text(x, y + r * 0.4, str(who), r * 1.2, fill=MARK_INK, font_weight="bold", text_anchor="middle"),
            ]
            badges.append(svg.group(badge, data_last=who))
    parts += badges  # above every tile: a crosswise tile placed later never hides one
    for s in spots:
        x, y, r = ox + s.x * unit, oy + s.y * unit, max(radii[1], unit * 0.42)
        if s.value is None:
            mark = [
                svg.element("circle", {"cx": x, "cy": y, "r": r, "fill": "none", "stroke": CREAM, "stroke-width": 3})
            ]
        else:
            circle = {"cx": x, "cy": y, "r": r, "fill": CREAM, "stroke": MARK_INK, "stroke-width": 2}
            label = svg.text(x, y + r * 0.36, str(s.value), r, fill=MARK_INK, font_weight="bold", text_anchor="middle")
            mark = [svg.element("circle", circle), label]
        parts.append(svg.spot(mark, s.arm))
    return parts


def _layout(game: Game, seat: int, live: bool, last: dict[int, int]) -> list[str]:
    """The cross of tiles (``_cross``) as large as the table's middle band lets it be."""
    cx, cy = WIDTH / 2, HEADER + LAYOUT_H / 2
    pieces, spots = table_layout(game)
    if not pieces:
        return _opening(game, seat, live, cx, cy, 18)
    x0, y0, x1, y1 = _extent(pieces, spots)
    unit = min(MAX_UNIT, (WIDTH - 40) / (x1 - x0), (LAYOUT_H - 20) / (y1 - y0))
    at = (cx - (x0 + x1) / 2 * unit, cy - (y0 + y1) / 2 * unit, unit)
    return _cross(pieces, spots, at, last, (8.0, 11.0))


def _seats(game: Game, names: Sequence[str], hands_up: bool, boneyard_up: bool) -> tuple[list[str], float]:
    """Every seat's hand and the boneyard, a row each: face down (a row of backs and the count) or
    face up, the tiles as large as the longest row lets them be; the parts and where they end."""
    x, tx = 40, 265  # names, then tiles
    rows = [(names[seat], game.hand(seat) if hands_up else game.hand_sizes[seat]) for seat in range(game.num_players)]
    rows.append(("boneyard", game.boneyard if boneyard_up else game.boneyard_size))
    longest = max((len(content) for _, content in rows if isinstance(content, list)), default=1)
    unit = min(FACE_UP_UNIT, (WIDTH - tx - 60) / (1.15 * max(longest, 1)))
    title = "Every hand, face up" if boneyard_up else "The hands as counted (S23)" if hands_up else "Hands"
    parts = [svg.text(x, FOOTER + 28, title, 15, fill=MUTED)]
    y = FOOTER + 42
    for k, (name, content) in enumerate(rows):
        face_up = isinstance(content, list)
        height = 2 * unit + 10 if face_up else 30
        middle = y + (height - 10) / 2
        if k == game.current_player and not game.is_terminal():
            parts.append(svg.element("path", {"d": f"M{x - 14},{middle - 7} l10,7 l-10,7 z", "fill": GOLD}))
        parts.append(svg.text(x, middle + 5, svg.fit(name, tx - x - 12, 14), 14, fill=TEXT))
        if face_up:
            parts += [tile(tx + i * 1.15 * unit, y, t, True, unit) for i, t in enumerate(content)]
            count, shown = len(content), len(content) * 1.15 * unit
        else:
            parts += [back(tx + i * 13, y, 10) for i in range(min(content, 16))]
            count, shown = content, min(content, 16) * 13
        parts.append(svg.text(tx + shown + 6, middle + 5, str(count), 14, fill=TEXT))
        y += height
    return parts, y + 14


def _narrow_header(game: Game, names: Sequence[str]) -> tuple[list[str], float]:
    """``_header`` for a phone held upright: the title, the hand and the ends a line each, then a
    row per side with its score; the parts and where they end."""
    hand = game.hands_played + (not game.is_terminal() or game.winner is not None)
    info = f"{game.num_players} players · hand {hand} · target {game.target} · boneyard {game.boneyard_size}"
    parts = [
        svg.text(14, 24, "American Sniff", 18, fill=TEXT, font_weight="bold"),
        svg.text(14, 46, info, 12, fill=MUTED),
    ]
    d = game.describe()
    y = 54
    if d["tiles"]:
        ends = " + ".join(str(c) for _, c in d["scored"]) or "0"
        note = f"ends {ends} = {d['total']}" + (f" · credit +{d['credit']}" if d["credit"] else " · no credit")
        parts.append(svg.text(14, 72, note, 15, fill=GOLD if d["credit"] else MUTED))
        y = 82
    acting = None if game.is_terminal() else game.side_of(game.current_player)
    for side, (name, score) in enumerate(zip(_side_names(game, names), game.scores, strict=True)):
        won = game.winner == side
        parts.append(svg.panel(10, y, NARROW - 20, 30, side in (acting, game.winner), "#604c10" if won else svg.SEAT))
        label = svg.fit(name, NARROW - (150 if won else 90), 14) + (" — wins" if won else "")
        parts.append(svg.text(22, y + 20, label, 14, fill=TEXT))
        color = RED if score < 0 else GOLD if won else TEXT
        parts.append(svg.text(NARROW - 22, y + 21, str(score), 17, fill=color, font_weight="bold", text_anchor="end"))
        y += 36
    return [svg.element("rect", {"width": "100%", "height": y + 4, "fill": PANEL}), *parts], y + 4


def _narrow_layout(
    game: Game, seat: int, live: bool, last: dict[int, int], top: float
) -> tuple[list[str], float, float]:
    """The cross for a phone held upright: ``geometry.PORTRAIT``'s layout with x and y swapped,
    so the main line runs down the screen (west end up) and the Sniff's arms across it (north
    left), a line of text says so; the tiles as large as ``NARROW`` lets them be, from
    ``LEAST_UNIT`` to ``MOST_NARROW_UNIT``. The parts, their width and where they end."""
    pieces, spots = table_layout(game, PORTRAIT)
    if not pieces:
        return _opening(game, seat, live, NARROW / 2, top + 70, 13), NARROW, top + 180
    pieces = [Piece(p.y, p.x, not p.vertical, p.first, p.second, p.sniff) for p in pieces]
    spots = [Spot(s.y, s.x, s.value, s.arm) for s in spots]
    x0, y0, x1, y1 = _extent(pieces, spots)
    unit = min(MOST_NARROW_UNIT, max(LEAST_UNIT, (NARROW - 12) / (x1 - x0)))
    width = max(NARROW, (x1 - x0) * unit + 12)
    at = (width / 2 - (x0 + x1) / 2 * unit, top + 32 - y0 * unit, unit)
    compass = svg.text(14, top + 20, "west end ↑ · east end ↓ · Sniff's north ← · south →", 12, fill=MUTED)
    return [compass, *_cross(pieces, spots, at, last, (10.0, 12.0))], width, top + 42 + (y1 - y0) * unit


def _narrow_seats(
    game: Game, names: Sequence[str], hands_up: bool, boneyard_up: bool, top: float
) -> tuple[list[str], float]:
    """``_seats`` for a phone held upright: a row per seat and the boneyard, face up tiles on lines
    of their own under the name (``LEAST_UNIT`` across); the parts and where they end."""
    rows = [(names[seat], game.hand(seat) if hands_up else game.hand_sizes[seat]) for seat in range(game.num_players)]
    rows.append(("boneyard", game.boneyard if boneyard_up else game.boneyard_size))
    title = "Every hand, face up" if boneyard_up else "The hands as counted (S23)" if hands_up else "Hands"
    parts, y = [svg.text(14, top + 24, title, 13, fill=MUTED)], top + 34
    step = 1.15 * LEAST_UNIT
    per_line = int((NARROW - 28) // step)
    for k, (name, content) in enumerate(rows):
        if k == game.current_player and not game.is_terminal():
            parts.append(svg.element("path", {"d": f"M4,{y + 9} l8,6 l-8,6 z", "fill": GOLD}))
        if isinstance(content, list):
            parts.append(svg.text(16, y + 20, f"{svg.fit(name, NARROW - 80, 13)} · {len(content)}", 13, fill=TEXT))
            y += 28
            for i, t in enumerate(content):
                line, col = divmod(i, per_line)
                parts.append(tile(16 + col * step, y + line * (2 * LEAST_UNIT + 8), t, True, LEAST_UNIT))
            y += -(-len(content) // per_line) * (2 * LEAST_UNIT + 8) + 4
        else:
            parts.append(svg.text(16, y + 20, svg.fit(name, 170, 13), 13, fill=TEXT))
            parts += [back(196 + i * 12, y + 4, 10) for i in range(min(content, 10))]
            parts.append(svg.text(202 + min(content, 10) * 12, y + 20, str(content), 13, fill=TEXT))
            y += 30
    return parts, y + 10


def draw_portrait(game: Game, seat: int, names: Sequence[str], reveal: bool, last: dict[int, int] | None = None) -> str:
    """``draw`` for a phone held upright: header, cross and hands one under another, ``NARROW``
    px wide, or wider when the cross needs it (the page then scrolls the table across rather than
    shrink it below 96 %)."""
    boneyard_up = reveal and int(game.state_array[K.STATUS]) != K.HAND_OVER
    header, top = _narrow_header(game, names)
    cross, width, foot = _narrow_layout(game, seat, not reveal, last or {}, top)
    seats, height = _narrow_seats(game, names, reveal, boneyard_up, foot)
    parts = [svg.element("rect", {"width": "100%", "height": height, "fill": FELT}), *header, *cross]
    parts += [svg.element("rect", {"y": foot, "width": "100%", "height": height - foot, "fill": PANEL}), *seats]
    label = f"American Sniff table seen from seat {seat}"
    return svg.document(round(width), round(height), label, parts, least_width=0.96 * width if width > NARROW else None)


def hand(game: Game, seat: int) -> list[str]:
    """The seat's hand, a small SVG per tile (``data-item``: its index in ``Game.hand``); when the
    seat is to act, the tiles it can play edged in gold and raised (classes ``playable lift``)."""
    to_act = not game.is_terminal() and game.current_player == seat
    playable = {decode_action(a)[1] for a in game.legal_actions()} if to_act else set()
    out = []
    for i, t in enumerate(game.hand(seat)):
        edge = GOLD if t in playable else None
        attrs = {"class": "hand tile playable lift" if edge else "hand tile", "data-item": i}
        face = [tile(0, 0, t, True, HAND_UNIT, edge)]
        out.append(svg.piece(HAND_UNIT, 2 * HAND_UNIT, tile_name(t), face, **attrs))
    return out


def draw(game: Game, seat: int, names: Sequence[str], reveal: bool, last: dict[int, int] | None = None) -> str:
    """The table from ``seat``'s place as an SVG document (see the module docstring); ``last``
    (seat → its last action) marks the tile each seat placed last. Face up (``reveal``), a settled
    hand (``Game.hand_as_ended``) keeps the boneyard face down: the hands are counted, the
    boneyard is never turned (S23)."""
    boneyard_up = reveal and int(game.state_array[K.STATUS]) != K.HAND_OVER
    footer, height = _seats(game, names, reveal, boneyard_up)
    parts = [svg.element("rect", {"width": WIDTH, "height": height, "fill": FELT})]
    parts += _header(game, names)
    parts += _layout(game, seat, not reveal, last or {})
    parts.append(svg.element("rect", {"y": FOOTER, "width": WIDTH, "height": height - FOOTER, "fill": PANEL}))
    parts += footer
    return svg.document(WIDTH, round(height), f"American Sniff table seen from seat {seat}", parts)


def moves(game: Game, seat: int) -> list[Move]:
    """The legal moves of ``seat`` (to act): each placement as its hand tile and its arm's spot,
    with the credit it earns (S17); DRAW (S19) and PASS (S21) as buttons."""
    hand = game.hand(seat)
    credit = game.action_features()[:, 0]
    out = []
    for action in game.legal_actions():
        kind, t, arm = decode_action(action)
        if kind == "draw":
            out.append(Move(action, f"Draw ({game.boneyard_size} left)", key="d"))
            continue
        if kind == "pass":
            out.append(Move(action, "Pass", key="p"))
            continue
        points = int(credit[action])
        notes = [f"scores {points}"] if points else []
        if points and game.scores[game.side_of(seat)] + points >= game.target:
            notes.append("wins the match")
        elif len(hand) == 1:
            notes.append("domino")
        label = f"{tile_name(t)} {where(game, arm)}" + (f" ({', '.join(notes)})" if notes else "")
        out.append(Move(action, label, item=hand.index(t), spot=arm))
    return out


WEB = WebGame.of(
    Game,
    PLAY_UI,
    draw=draw,
    hand=hand,
    moves=moves,
    step=lambda game: game.hands_played + 1,
    hand_end=Game.hand_as_ended,
    draw_portrait=draw_portrait,
)
