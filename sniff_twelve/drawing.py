"""Pictures of a table: a game's one drawing, the SVG table of its ``web`` part, rasterised.

``table_image(game)`` is ``Game.image()`` and the environments' ``render_mode="rgb_array"``: the
table as the seat to act sees it (``WebGame.draw`` of its public game, the other hands face down)
with its own hand (``WebGame.hand``) in a row below; after the game, the public table. Its size
depends on the table size only, never on the position.

``rasterise`` draws any SVG document with resvg and the DejaVu Sans faces shipped beside this
module (never the machine's fonts: a picture is the same on every machine, with or without fonts
installed); ``save_png`` and ``animate`` write pictures and replays. The faces are DejaVu Sans 2.37
(``fonts/LICENSE``) cut to the characters the tables use, by
``pyftsubset DejaVuSans.ttf --unicodes="U+0020-007E,U+00A0-00FF,U+2010-2027,U+2030-203A,U+2190-2193,U+2212,U+25B6"
--no-hinting --desubroutinize`` (and the same for ``DejaVuSans-Bold.ttf``).

>>> red = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="2"><rect width="4" height="2" fill="red"/></svg>'
>>> picture = rasterise(red)
>>> picture.shape, picture.dtype, picture[0, 0].tolist()
((2, 4, 3), dtype('uint8'), [255, 0, 0])
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import resvg_py
from PIL import Image

from sniff_twelve.web import svg
from sniff_twelve.web.table import public_game

if TYPE_CHECKING:
    from sniff_twelve.core.game import BaseGame

FONTS = [str(path) for path in sorted((Path(__file__).parent / "fonts").glob("*.ttf"))]
FONT = "DejaVu Sans"
HAND_ROW, HAND_HEIGHT = 150, 100  # the row under the table, and the height of its tiles or cards
PANEL, TEXT = "#0e3420", "#ecf0e8"
# nested documents (the table, the hand's tiles or cards) drawn without a clip: each clip costs
# resvg a layer the size of the whole picture (about half the time of a table's)
UNCLIPPED = "svg { overflow: visible }"


def rasterise(document: str) -> np.ndarray:
    """The SVG ``document`` as an ``H×W×3 uint8`` RGB array at its own size (resvg)."""
    png = resvg_py.svg_to_bytes(
        svg_string=document,
        skip_system_fonts=True,
        font_files=FONTS,
        font_family=FONT,
        sans_serif_family=FONT,
        style_sheet=UNCLIPPED,
    )
    with Image.open(io.BytesIO(png)) as img:
        return np.array(img.convert("RGB"))


def _size(document: str) -> tuple[float, float]:
    """The width and height of an SVG document from its ``viewBox`` (``svg.document``, ``svg.piece``)."""
    found = re.search(r'viewBox="([^"]*)"', document[: document.index(">")])
    if found is None:
        raise ValueError("an SVG document without a viewBox has no size to draw it at")
    _, _, width, height = map(float, found.group(1).split())
    return width, height


def table_document(game: BaseGame) -> str:
    """The SVG of ``table_image``: the game's web table from the place of the seat to act, drawn
    from that seat's public game (``public_game``: nothing hidden from it can change the
    picture), and its hand below, every tile or card scaled to ``HAND_HEIGHT``."""
    web = game.spec.part("web")
    if web is None:
        raise NotImplementedError(f"{game.spec.title} has no drawing (no web part) to make a picture of")
    live = not game.is_terminal()
    seat = game.current_player if live else 0
    view = public_game(game, seat)
    table = web.draw(view, seat, [f"seat {i}" for i in range(game.num_players)], False)
    width, height = _size(table)
    caption = f"Seat {seat} to act" if live else "Game over"
    parts = [
        svg.element("rect", {"width": width, "height": height + HAND_ROW, "fill": PANEL}),
        svg.element("svg", {"width": width, "height": height}, table),
        svg.text(20, height + 26, caption, 15, fill=TEXT, font_weight="bold"),
    ]
    pieces = web.hand(view, seat) if live else []
    for i, piece in enumerate(pieces):
        piece_width, piece_height = _size(piece)
        scale = HAND_HEIGHT / piece_height
        shown = piece_width * scale
        step = min(shown + 10, (width - 40 - shown) / max(len(pieces) - 1, 1))  # overlap when the row is full
        where = f"translate({20 + i * step:.2f},{height + 38}) scale({scale:.4f})"
        parts.append(svg.element("g", {"transform": where}, piece))
    label = f"{game.spec.title} table: {caption.lower()}"
    return svg.document(round(width), round(height + HAND_ROW), label, parts)


def table_image(game: BaseGame) -> np.ndarray:
    """``game``'s table as an ``H×W×3 uint8`` RGB array (``table_document``, rasterised)."""
    return rasterise(table_document(game))


def _as_image(frame: Image.Image | np.ndarray) -> Image.Image:
    if isinstance(frame, Image.Image):
        return frame.convert("RGB")
    arr = np.asarray(frame)
    if arr.dtype != np.uint8 or arr.ndim != 3 or arr.shape[2] not in (3, 4):
        raise ValueError(f"a frame is an H×W×3 uint8 array or a PIL image; got {arr.dtype} {arr.shape}")
    return Image.fromarray(arr[:, :, :3], "RGB")


def save_png(frame: Image.Image | np.ndarray, path: str | Path) -> Path:
    """Write ``frame`` (image or ``H×W×3`` array) as PNG; returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    _as_image(frame).save(path, format="PNG", optimize=False)
    return path


def _pad_to(img: Image.Image, size: tuple[int, int], color: tuple[int, int, int]) -> Image.Image:
    if img.size == size:
        return img
    out = Image.new("RGB", size, color)
    out.paste(img, ((size[0] - img.width) // 2, (size[1] - img.height) // 2))
    return out


def animate(
    frames: Iterable[Image.Image | np.ndarray],
    path: str | Path,
    duration_ms: int = 700,
    loop: int = 0,
    columns: int | None = None,
    scale: float = 1.0,
    background: tuple[int, int, int] = (20, 20, 20),
) -> Path:
    """Write a replay: an animated GIF (``*.gif``) or a PNG contact strip (any other suffix).

    Frames of different sizes are centred on the largest. ``scale`` shrinks every frame first
    (handy for long strips); ``columns`` wraps the strip into a grid (default: one row).
    ``duration_ms`` is the time per GIF frame, ``loop`` the GIF loop count (0 = forever).
    """
    images = [_as_image(f) for f in frames]
    if not images:
        raise ValueError("animate needs at least one frame")
    if scale != 1.0:
        images = [
            im.resize((max(1, round(im.width * scale)), max(1, round(im.height * scale))), Image.Resampling.LANCZOS)
            for im in images
        ]
    size = (max(im.width for im in images), max(im.height for im in images))
    images = [_pad_to(im, size, background) for im in images]
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix.lower() == ".gif":
        images[0].save(
            path,
            format="GIF",
            save_all=True,
            append_images=images[1:],
            duration=int(duration_ms),
            loop=int(loop),
            optimize=False,
        )
        return path
    cols = len(images) if columns is None else max(1, min(int(columns), len(images)))
    rows = -(-len(images) // cols)
    gap = 4
    sheet = Image.new("RGB", (cols * size[0] + (cols - 1) * gap, rows * size[1] + (rows - 1) * gap), background)
    for i, im in enumerate(images):
        r, c = divmod(i, cols)
        sheet.paste(im, (c * (size[0] + gap), r * (size[1] + gap)))
    sheet.save(path, format="PNG")
    return path
