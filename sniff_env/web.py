"""American Sniff in the browser (``python -m sniff_env serve``, ``sniff_twelve.web``): the table as SVG
from one seat's place, and the legal moves as clicks — a tile of the hand, then a free spot.

The layout is ``sniff_env.image.table_layout``'s (the main line west–east, the Sniff's side arms
north–south, long arms bending into their own quarter, S10–S14); scored ends carry a disc with
their contribution, free spots that score nothing a ring (S15). Every tile drawn face up carries
``data-tile="a-b"``; the hand's tiles ``data-item`` (their index in ``Game.hand``) and the free
spots ``data-spot`` (their arm, the action's ``tile * 4 + arm``; an empty table's opening spot
is arm 0).
"""

from __future__ import annotations

from collections.abc import Sequence

from sniff_env import kernels as K
from sniff_env.agents import AGENT_GROUP, AGENTS, make_agent
from sniff_env.game import SETTLEMENTS, Game
from sniff_env.image import PIPS, table_layout
from sniff_env.tiles import ARM_NAMES, decode_action
from sniff_env.ui import PLAY_UI
from sniff_twelve.agents.external import installed_agents
from sniff_twelve.web import svg
from sniff_twelve.web.table import Move, Option, WebGame

WIDTH = 1200
HEADER = 84
LAYOUT_H = 440
FOOTER = HEADER + LAYOUT_H
MAX_UNIT = 46
HAND_UNIT = 36

FELT, PANEL = "#1c6842", "#0e3420"
IVORY, TILE_EDGE, PIP, DIVIDER = "#f7f1e2", "#968a70", "#181818", "#585248"
ORANGE, GOLD, CREAM, MARK_INK = "#ff8c14", "#ffd046", "#faf6e8", "#961c1c"
TEXT, MUTED, RED, BACK = "#ecf0e8", "#b0ccba", "#ff786e", "#26262c"
ROW = {False: 30, True: 40}  # height of a seat's row in the footer: face down, face up
SPOT = {"class": "spot", "pointer_events": "all"}  # a free spot takes clicks on its whole disc or ring


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
        outline = GOLD if side in (acting, game.winner) else "#306848"
        box = {"x": x, "y": 44, "width": width, "height": 32, "rx": 8, "stroke": outline, "stroke-width": 2}
        parts.append(svg.element("rect", {**box, "fill": "#604c10" if won else "#164a2e"}))
        label = name[:46] + (" — wins" if won else "")
        parts.append(svg.text(x + 12, 65, label, 15, fill=TEXT))
        color = RED if score < 0 else GOLD if won else TEXT
        parts.append(svg.text(x + width - 12, 66, str(score), 19, fill=color, font_weight="bold", text_anchor="end"))
    return parts


def _layout(game: Game, seat: int, live: bool, last: dict[int, int]) -> list[str]:
    """The cross of tiles, the Sniff outlined, discs on scored ends and rings on free spots; the
    tile each seat placed last (``last``: seat → its last action) carries that seat's number."""
    placed = {}
    for who, action in last.items():
        kind, placed_tile, _ = decode_action(action)
        if kind == "place":
            placed[placed_tile] = who
    cx, cy = WIDTH / 2, HEADER + LAYOUT_H / 2
    pieces, spots = table_layout(game)
    if not pieces:
        if game.is_terminal():
            return []
        opener = "you open" if game.current_player == seat and live else f"seat {game.current_player} opens"
        box = {"x": cx - 40, "y": cy - 52, "width": 80, "height": 104, "rx": 10, "fill": "none", "stroke": MUTED}
        return [
            svg.group([svg.element("rect", {**box, "stroke-dasharray": "8 6"})], **SPOT, data_spot=0),
            svg.text(cx, cy + 86, f"The table is empty: {opener} with any tile", 18, fill=MUTED, text_anchor="middle"),
        ]
    boxes = [p.box() for p in pieces] + [(s.x - 0.45, s.y - 0.45, s.x + 0.45, s.y + 0.45) for s in spots]
    x0, y0 = min(b[0] for b in boxes) - 0.3, min(b[1] for b in boxes) - 0.3
    x1, y1 = max(b[2] for b in boxes) + 0.3, max(b[3] for b in boxes) + 0.3
    unit = min(MAX_UNIT, (WIDTH - 40) / (x1 - x0), (LAYOUT_H - 20) / (y1 - y0))
    ox, oy = cx - (x0 + x1) / 2 * unit, cy - (y0 + y1) / 2 * unit
    parts = []
    for p in pieces:
        bx, by, _, _ = p.box()
        pips = (p.first, p.second)
        parts.append(tile(ox + bx * unit, oy + by * unit, pips, p.vertical, unit, ORANGE if p.sniff else None))
        who = placed.get((min(pips), max(pips)))
        if who is not None:  # the last move of seat ``who``: a numbered badge on the tile's corner
            x, y, r = ox + bx * unit, oy + by * unit, max(8.0, unit * 0.26)
            badge = [
                svg.element("circle", {"cx": x, "cy": y, "r": r, "fill": GOLD, "stroke": MARK_INK, "stroke-width": 1}),
                svg.text(x, y + r * 0.4, str(who), r * 1.2, fill=MARK_INK, font_weight="bold", text_anchor="middle"),
            ]
            parts.append(svg.group(badge, data_last=who))
    for s in spots:
        x, y, r = ox + s.x * unit, oy + s.y * unit, max(11.0, unit * 0.42)
        if s.value is None:
            mark = [
                svg.element("circle", {"cx": x, "cy": y, "r": r, "fill": "none", "stroke": CREAM, "stroke-width": 3})
            ]
        else:
            circle = {"cx": x, "cy": y, "r": r, "fill": CREAM, "stroke": MARK_INK, "stroke-width": 2}
            label = svg.text(x, y + r * 0.36, str(s.value), r, fill=MARK_INK, font_weight="bold", text_anchor="middle")
            mark = [svg.element("circle", circle), label]
        parts.append(svg.group(mark, **SPOT, data_spot=s.arm))
    return parts


def _seats(game: Game, names: Sequence[str], x: float, reveal: bool) -> list[str]:
    """Every seat's hand (face down, or face up with ``reveal``) and the boneyard, one row each."""
    parts = [svg.text(x, FOOTER + 28, "Hands" if not reveal else "Every hand, face up", 15, fill=MUTED)]
    row = ROW[reveal]
    unit = 10 if not reveal else 17
    rows = [(names[seat], game.hand(seat) if reveal else game.hand_sizes[seat]) for seat in range(game.num_players)]
    rows.append(("boneyard", game.boneyard if reveal else game.boneyard_size))
    for k, (name, content) in enumerate(rows):
        y = FOOTER + 42 + k * row
        if k == game.current_player and not game.is_terminal():
            parts.append(svg.element("path", {"d": f"M{x - 14},{y + 3} l10,7 l-10,7 z", "fill": GOLD}))
        parts.append(svg.text(x, y + 15, name[:30], 14, fill=TEXT))
        tx = x + 225
        if reveal:
            parts += [tile(tx + i * 1.15 * unit, y, t, True, unit) for i, t in enumerate(content)]
            count = len(content)
        else:
            parts += [back(tx + i * 1.3 * unit, y, unit) for i in range(min(content, 16))]
            count = content
        shown = min(count, 16) * 1.3 * unit if not reveal else count * 1.15 * unit
        parts.append(svg.text(tx + shown + 6, y + 15, str(count), 14, fill=TEXT))
    return parts


def _hand(game: Game, seat: int) -> list[str]:
    """The seat's hand, upright; when it is to act, its playable tiles raised and edged in gold."""
    hand = game.hand(seat)
    to_act = not game.is_terminal() and game.current_player == seat
    playable = {decode_action(a)[1] for a in game.legal_actions()} if to_act else set()
    parts = [svg.text(20, FOOTER + 28, "Your hand", 15, fill=MUTED)]
    unit = min(HAND_UNIT, 560 / max(1, len(hand)) / 1.3)
    for i, t in enumerate(hand):
        lift = 10 if t in playable else 0
        attrs = {"class": "hand playable" if lift else "hand", "data-item": i}
        parts.append(tile(20 + i * 1.3 * unit, FOOTER + 58 - lift, t, True, unit, GOLD if lift else None, **attrs))
    return parts


def draw(game: Game, seat: int, names: Sequence[str], reveal: bool, last: dict[int, int] | None = None) -> str:
    """The table from ``seat``'s place as an SVG document (see the module docstring); ``last``
    (seat → its last action) marks the tile each seat placed last."""
    height = FOOTER + max(190, 56 + (game.num_players + 1) * ROW[reveal])  # the seats' rows and the boneyard
    parts = [svg.element("rect", {"width": WIDTH, "height": height, "fill": FELT})]
    parts += _header(game, names)
    parts += _layout(game, seat, not reveal, last or {})
    parts.append(svg.element("rect", {"y": FOOTER, "width": WIDTH, "height": height - FOOTER, "fill": PANEL}))
    if reveal:
        parts += _seats(game, names, 40, reveal=True)
    else:
        parts += _hand(game, seat)
        parts += _seats(game, names, 720, reveal=False)
    return svg.document(WIDTH, height, f"American Sniff table seen from seat {seat}", parts)


def _where(arm: int) -> str:
    return f"on the {ARM_NAMES[arm]} end" if arm < 2 else f"on the Sniff's {ARM_NAMES[arm]} arm"


def moves(game: Game, seat: int) -> list[Move]:
    """The legal moves of ``seat`` (to act): each placement as its hand tile and its arm's spot,
    with the credit it earns (S17); DRAW (S19) and PASS (S21) as buttons."""
    hand = game.hand(seat)
    credit = game.action_features()[:, 0]
    opening = int(game.state_array[K.N_PLACED]) == 0
    out = []
    for action in game.legal_actions():
        kind, t, arm = decode_action(action)
        if kind == "draw":
            out.append(Move(action, f"Draw ({game.boneyard_size} left)", key="d"))
            continue
        if kind == "pass":
            out.append(Move(action, "Pass", key="p"))
            continue
        where = "to open the hand" if opening else _where(arm)
        points = int(credit[action])
        notes = [f"scores {points}"] if points else []
        if points and game.scores[game.side_of(seat)] + points >= game.target:
            notes.append("wins the match")
        elif len(hand) == 1:
            notes.append("domino")
        label = f"[{t[0]}|{t[1]}] {where}" + (f" ({', '.join(notes)})" if notes else "")
        out.append(Move(action, label, item=hand.index(t), spot=arm))
    return out


WEB = WebGame(
    game_cls=Game,
    make_agent=make_agent,
    agents=(*AGENTS, *installed_agents(AGENT_GROUP)),
    options=(
        Option("target", "Target score (empty: 250 / 200 / 200)", "int"),
        Option("settlement", "Settlement (S4a variant: allfives)", "choice", "deduct", SETTLEMENTS),
        Option("undrawn", "Boneyard tiles left undrawn (S4a)", "choice", 0, (0, 1, 2)),
    ),
    draw=draw,
    moves=moves,
    step=lambda game: game.hands_played + 1,
    ui=PLAY_UI,
)
