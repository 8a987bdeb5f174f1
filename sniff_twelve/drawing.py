"""Pillow helpers both games' image renderers share (``sniff_env.image``, ``twelve_env.image``).

Everything here is game-agnostic: a felt-table canvas, fonts with a fallback that works on a
machine with no system fonts, anchored text, anti-aliased sprites (drawn at 4× and scaled down,
then cached by the callers), soft drop shadows, numbered discs, conversion to the ``H×W×3 uint8``
arrays ``render_mode="rgb_array"`` returns, PNG saving and an ``animate`` writer (animated GIF or a
PNG contact strip) for match replays.

>>> img = felt(64, 48)
>>> arr = to_array(img)
>>> arr.shape, arr.dtype
((48, 64, 3), dtype('uint8'))
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

Color = tuple[int, int, int] | tuple[int, int, int, int]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
#: supersampling factor of ``sprite``
SUPERSAMPLE = 4

# the colours both tables share
PANEL, PANEL_EDGE = (14, 52, 32), (8, 30, 18)  # the header and footer bands, and their edge line
TEXT, MUTED = (236, 240, 232), (176, 204, 186)
GOLD, RED = (255, 208, 70), (255, 120, 110)  # what is lit (to act, legal, won), a negative score
CHIP, WINNER_CHIP, CHIP_EDGE = (22, 74, 46), (96, 76, 16), (48, 104, 72)  # a seat's panel

#: TrueType files tried in order (Pillow also searches the system font folders for bare names);
#: when none loads, Pillow's built-in default font is used, so rendering never needs system fonts.
FONT_FILES: dict[bool, tuple[str, ...]] = {
    False: (
        "DejaVuSans.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "LiberationSans-Regular.ttf",
        "Arial.ttf",
        "Helvetica.ttc",
    ),
    True: (
        "DejaVuSans-Bold.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
        "LiberationSans-Bold.ttf",
        "Arial Bold.ttf",
        "Arialbd.ttf",
        "Helvetica.ttc",
    ),
}


@functools.lru_cache(maxsize=128)
def font(size: int, bold: bool = False) -> Font:
    """A font of ``size`` pixels: a system TrueType font if one loads, else Pillow's default."""
    size = max(1, int(size))
    for name in FONT_FILES[bool(bold)]:
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    try:
        return ImageFont.load_default(size)  # scalable built-in font (Pillow >= 10.1 with FreeType)
    except (TypeError, OSError, ValueError):
        return ImageFont.load_default()


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: Color = (255, 255, 255),
    anchor: str = "lt",
    bold: bool = False,
) -> tuple[int, int, int, int]:
    """Draw ``text`` with its ink box anchored at ``xy``; returns that box.

    ``anchor`` is two letters: horizontal ``l``/``m``/``r`` and vertical ``t``/``m``/``b`` of the
    ink box. The anchoring is computed here, so it also works with Pillow's bitmap default font.
    """
    f = font(size, bold)
    left, top, right, bottom = draw.textbbox((0, 0), text, font=f)
    w, h = right - left, bottom - top
    x = xy[0] - {"l": 0, "m": w / 2, "r": w}[anchor[0]]
    y = xy[1] - {"t": 0, "m": h / 2, "b": h}[anchor[1]]
    draw.text((round(x - left), round(y - top)), text, font=f, fill=fill)
    return round(x), round(y), round(x + w), round(y + h)


def pointer(draw: ImageDraw.ImageDraw, xy: tuple[float, float], size: float, fill: Color = GOLD) -> None:
    """A small right-pointing triangle with its left edge at ``xy[0]``, centred on ``xy[1]``
    (drawn, not a glyph, so it needs no font that has ``▶``)."""
    x, y = xy
    draw.polygon(((x, y - size / 2), (x + size * 0.85, y), (x, y + size / 2)), fill=fill)


def panel(draw: ImageDraw.ImageDraw, width: int, top: float, bottom: float, edge_at: float) -> None:
    """A ``PANEL`` band across the picture from ``top`` to ``bottom``, its edge line at ``edge_at``
    (the bottom of a header, the top of a footer)."""
    draw.rectangle((0, top, width, bottom), fill=PANEL)
    draw.line((0, edge_at, width, edge_at), fill=PANEL_EDGE, width=2)


def chip(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], radius: int, lit: bool, won: bool) -> None:
    """A seat's (or side's) panel: gold-edged when ``lit`` (to act) or ``won``, golden when ``won``."""
    fill = WINNER_CHIP if won else CHIP
    draw.rounded_rectangle(box, radius=radius, fill=fill, outline=GOLD if lit or won else CHIP_EDGE, width=2)


def rimmed(draw: ImageDraw.ImageDraw, width: float, height: float, radius: float, rim: float, colors: tuple) -> None:
    """A rounded face of ``width × height`` inside a rim ``rim`` wide: ``colors`` is ``(rim, face)``
    (a tile's, a card's)."""
    draw.rounded_rectangle((0, 0, width - 1, height - 1), radius=radius, fill=colors[0])
    draw.rounded_rectangle((rim, rim, width - 1 - rim, height - 1 - rim), radius=radius - rim, fill=colors[1])


@functools.lru_cache(maxsize=16)
def _felt(width: int, height: int, color: tuple[int, int, int], grain: float) -> Image.Image:
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    cx, cy = (width - 1) / 2, (height - 1) / 2
    r = np.sqrt(((xx - cx) / max(cx, 1)) ** 2 + ((yy - cy) / max(cy, 1)) ** 2) / np.sqrt(2)
    shade = 1.12 - 0.38 * r**1.6  # lighter in the middle, darker to the rim
    noise = np.random.default_rng(0).normal(0.0, grain, size=(height, width)).astype(np.float32) if grain else 0.0
    rgb = np.asarray(color, dtype=np.float32)[None, None, :] * (shade + noise)[:, :, None]
    return Image.fromarray(np.clip(rgb, 0, 255).astype(np.uint8), "RGB")


def felt(width: int, height: int, color: tuple[int, int, int] = (28, 104, 66), grain: float = 0.0) -> Image.Image:
    """A new RGB canvas that looks like table felt: a soft vignette, lighter in the middle.

    ``grain`` adds a fixed noise texture of that relative strength (e.g. 0.02); it is off by
    default because it makes PNG and GIF files several times larger.
    """
    return _felt(int(width), int(height), tuple(color), float(grain)).copy()


def canvas(width: int, height: int, color: Color = (0, 0, 0)) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A plain RGB canvas and its drawing context."""
    img = Image.new("RGB", (int(width), int(height)), color[:3])
    return img, ImageDraw.Draw(img)


def sprite(width: int, height: int, paint: Callable[[ImageDraw.ImageDraw, float], None]) -> Image.Image:
    """An anti-aliased RGBA sprite of ``width × height``.

    ``paint(draw, k)`` draws on a transparent canvas ``SUPERSAMPLE`` times larger; ``k`` is that
    factor, so it draws at ``k * x`` for a sprite coordinate ``x``. The result is scaled down.
    """
    k = SUPERSAMPLE
    big = Image.new("RGBA", (max(1, int(width)) * k, max(1, int(height)) * k), (0, 0, 0, 0))
    paint(ImageDraw.Draw(big), k)
    return big.resize((max(1, int(width)), max(1, int(height))), Image.Resampling.LANCZOS)


@functools.lru_cache(maxsize=256)
def shadow(width: int, height: int, radius: int, blur: float = 3.0, opacity: int = 120) -> Image.Image:
    """A soft dark RGBA blot for a rounded box of ``width × height``; it is ``2 * pad`` larger,
    with ``pad = ceil(3 * blur)``, so paste it at the box's corner minus ``pad``."""
    pad = int(np.ceil(3 * blur))
    mask = Image.new("L", (int(width) + 2 * pad, int(height) + 2 * pad), 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (pad, pad, pad + int(width) - 1, pad + int(height) - 1), radius=radius, fill=opacity
    )
    mask = mask.filter(ImageFilter.GaussianBlur(blur))
    out = Image.new("RGBA", mask.size, (0, 0, 0, 0))
    out.putalpha(mask)
    return out


def paste(img: Image.Image, piece: Image.Image, xy: tuple[float, float]) -> None:
    """Composite the RGBA ``piece`` onto ``img`` with its top-left corner at ``xy`` (clipped)."""
    img.paste(piece, (round(xy[0]), round(xy[1])), piece)


def paste_with_shadow(
    img: Image.Image,
    piece: Image.Image,
    xy: tuple[float, float],
    radius: int = 4,
    offset: tuple[int, int] = (2, 3),
    blur: float = 2.5,
) -> None:
    """``paste`` with a soft drop shadow under it, shifted by ``offset``."""
    blot = shadow(piece.width, piece.height, radius, blur)
    pad = (blot.width - piece.width) // 2
    paste(img, blot, (xy[0] + offset[0] - pad, xy[1] + offset[1] - pad))
    paste(img, piece, xy)


@functools.lru_cache(maxsize=256)
def disc(
    diameter: int,
    label: str = "",
    fill: Color | None = (250, 246, 232),
    ink: Color = (140, 28, 28),
    ring: Color = (250, 246, 232),
    ring_width: float = 0.09,
) -> Image.Image:
    """A round marker: filled with ``label`` in it, or hollow (``fill=None``) showing only its ring.

    ``ring_width`` is a fraction of the diameter.
    """

    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        d = diameter * k
        w = max(1, round(ring_width * d))
        draw.ellipse((w / 2, w / 2, d - w / 2 - 1, d - w / 2 - 1), fill=fill, outline=ring, width=w)
        if label:
            size = round(d * (0.62 if len(label) == 1 else 0.54 if len(label) == 2 else 0.42))
            draw_text(draw, (d / 2, d / 2), label, size, fill=ink, anchor="mm", bold=True)

    return sprite(diameter, diameter, paint)


def to_array(img: Image.Image) -> np.ndarray:
    """``H×W×3 uint8`` RGB array of ``img`` (a fresh, writable array)."""
    return np.array(img.convert("RGB"), dtype=np.uint8)


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
