"""The Pillow pictures of both tables (``sniff_env.image``, ``twelve_env.image``, ``sniff_twelve.drawing``)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from PIL import Image

import sniff_env
import twelve_env
from sniff_env import geometry
from sniff_env import image as sniff_image
from sniff_env.tiles import encode_action
from sniff_twelve import drawing as ei
from twelve_env import image as twelve_image

MAX_SIDE = 2000


def _check_picture(arr: np.ndarray) -> None:
    assert isinstance(arr, np.ndarray)
    assert arr.dtype == np.uint8
    assert arr.ndim == 3 and arr.shape[2] == 3
    assert 100 <= arr.shape[0] <= MAX_SIDE and 100 <= arr.shape[1] <= MAX_SIDE
    colours = np.unique(arr.reshape(-1, 3)[::7], axis=0)
    assert len(colours) > 200, "the picture looks blank"


def _play(game, seed: int, steps: int | None = None):
    rng = random.Random(seed)
    done = 0
    while not game.is_terminal() and (steps is None or done < steps):
        game.apply(rng.choice(game.legal_actions()))
        done += 1
    return game


# --- Sniff -----------------------------------------------------------------------------------------
def _scripted_sniff() -> sniff_env.Game:
    """S16's opening Sniff [4|4]: both line sides then a side arm get a tile."""
    deal = {
        "hands": [[(4, 4), (1, 4), (0, 0)], [(4, 6), (2, 4), (3, 3)]],
        "boneyard": [(5, 5), (5, 6)],
        "opener": 0,
    }
    return sniff_env.Game(num_players=2, seed=0, target=10_000, deal=deal)


def test_sniff_empty_table_renders():
    game = sniff_env.Game(num_players=3, seed=1)
    arr = sniff_image.render_image(game)
    _check_picture(arr)
    assert arr.shape == sniff_image.render_image(game).shape


def test_sniff_image_changes_with_the_layout():
    game = _scripted_sniff()
    before = sniff_image.render_image(game)
    game.apply(encode_action((4, 4), 0))
    opened = sniff_image.render_image(game)
    _check_picture(opened)
    assert opened.shape == before.shape
    assert not np.array_equal(before, opened)
    game.apply(encode_action((4, 6), 1))
    assert not np.array_equal(opened, sniff_image.render_image(game))


def test_sniff_tally_adds_a_row():
    game = _play(sniff_env.Game(num_players=2, seed=4), seed=4, steps=20)
    plain, tally = sniff_image.render_image(game), sniff_image.render_image(game, tally=True)
    _check_picture(tally)
    assert tally.shape[0] > plain.shape[0] and tally.shape[1] == plain.shape[1]


def test_sniff_layout_marks_scored_and_free_spots():
    game = _scripted_sniff()
    game.apply(encode_action((4, 4), 0))
    pieces, spots = geometry.table_layout(game)
    assert len(pieces) == 1 and pieces[0].sniff
    assert sorted(s.value is None for s in spots) == [False, True]  # S15: two spots, one scored
    assert [s.value for s in spots if s.value is not None] == [8]
    game.apply(encode_action((4, 6), 1))
    game.apply(encode_action((1, 4), 0))  # both line sides continued: the side arms open (S13, S16)
    _, spots = geometry.table_layout(game)
    assert sorted(s.value for s in spots) == sorted(c for _, c in game.scored())


def test_sniff_layout_never_overlaps():
    """Play whole hands at random and check that no two tiles share table area, whatever bends."""
    for seed in range(12):
        game = sniff_env.Game(num_players=2, seed=seed, target=10_000)
        rng = random.Random(seed)
        while game.hands_played == 0:
            game.apply(rng.choice(game.legal_actions()))
            if game.hands_played:
                break
            boxes = [p.box() for p in geometry.table_layout(game)[0]]
            for i, a in enumerate(boxes):
                for b in boxes[:i]:
                    overlap_x = min(a[2], b[2]) - max(a[0], b[0])
                    overlap_y = min(a[3], b[3]) - max(a[1], b[1])
                    assert overlap_x <= 1e-9 or overlap_y <= 1e-9, (seed, a, b)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_sniff_full_match_renders_every_step(players):
    game = sniff_env.Game(num_players=players, seed=10 + players, target=60)
    rng = random.Random(players)
    shape = sniff_image.render_image(game).shape
    while not game.is_terminal():
        game.apply(rng.choice(game.legal_actions()))
        arr = sniff_image.render_image(game, tally=False)
        assert arr.shape == shape and arr.dtype == np.uint8
    _check_picture(arr)


def test_sniff_save_png_reopens(tmp_path):
    game = _play(sniff_env.Game(num_players=4, seed=2), seed=2, steps=15)
    path = sniff_image.save_image(game, tmp_path / "sniff.png")
    arr = sniff_image.render_image(game)
    with Image.open(path) as img:
        assert img.format == "PNG"
        assert img.size == (arr.shape[1], arr.shape[0])
        assert np.array_equal(np.asarray(img.convert("RGB")), arr)


# --- 12 --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 7])
@pytest.mark.parametrize("deck", ["bridge", "numbers"])
def test_twelve_renders_whole_games(players, deck):
    game = twelve_env.Game(num_players=players, deck=deck, seed=players)
    first = twelve_image.render_image(game)
    _check_picture(first)
    rng = random.Random(players)
    last = first
    changed = False
    while not game.is_terminal():
        game.apply(rng.choice(game.legal_actions()))
        arr = twelve_image.render_image(game)
        assert arr.shape == first.shape and arr.dtype == np.uint8
        changed |= not np.array_equal(arr, last)
        last = arr
    assert changed
    _check_picture(last)


def test_twelve_image_changes_after_a_move(tmp_path):
    game = twelve_env.Game(num_players=3, seed=5)
    before = twelve_image.render_image(game)
    game.apply(game.legal_actions()[0])
    after = twelve_image.render_image(game)
    assert not np.array_equal(before, after)
    path = twelve_image.save_image(game, tmp_path / "twelve.png")
    with Image.open(path) as img:
        assert img.size == (after.shape[1], after.shape[0])


# --- shared helpers --------------------------------------------------------------------------------
def test_animate_writes_gif_and_strip(tmp_path):
    game = sniff_env.Game(num_players=2, seed=3)
    rng = random.Random(3)
    frames = [sniff_image.render_image(game)]
    for _ in range(3):
        game.apply(rng.choice(game.legal_actions()))
        frames.append(sniff_image.render_image(game))
    frames.append(twelve_image.render_image(twelve_env.Game(num_players=2, seed=0)))  # another size
    gif = ei.animate(frames, tmp_path / "replay.gif", duration_ms=200)
    with Image.open(gif) as img:
        assert img.format == "GIF" and img.n_frames >= 2
        assert img.size == (max(f.shape[1] for f in frames), max(f.shape[0] for f in frames))
    strip = ei.animate(frames[:4], tmp_path / "replay.png", scale=0.25, columns=2)
    with Image.open(strip) as img:
        assert img.format == "PNG" and img.width < 2 * frames[0].shape[1]
    with pytest.raises(ValueError):
        ei.animate([], tmp_path / "none.gif")


def test_default_font_fallback(monkeypatch):
    """With no system font found, Pillow's built-in font is used and both pictures still render."""
    monkeypatch.setattr(ei, "FONT_FILES", {False: ("no-such-font.ttf",), True: ("no-such-font.ttf",)})
    ei.font.cache_clear()
    sniff_image.tile_sprite.cache_clear()
    twelve_image.card_sprite.cache_clear()
    ei.disc.cache_clear()
    try:
        assert ei.font(20) is not None
        _check_picture(sniff_image.render_image(_play(sniff_env.Game(num_players=2, seed=1), seed=1, steps=6)))
        _check_picture(twelve_image.render_image(twelve_env.Game(num_players=4, seed=1)))
    finally:
        monkeypatch.undo()
        for cached in (ei.font, sniff_image.tile_sprite, twelve_image.card_sprite, ei.disc, twelve_image._tilted):
            cached.cache_clear()
