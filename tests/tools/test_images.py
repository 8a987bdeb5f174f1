"""The pictures of both tables (``Game.image``, ``render_mode="rgb_array"``): the web part's SVG
table rasterised by ``sniff_twelve.drawing``; and Sniff's layout (``sniff_env.geometry``)."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest
from fontTools.ttLib import TTFont
from PIL import Image

import sniff_env
import twelve_env
from sniff_env import geometry
from sniff_env.tiles import encode_action
from sniff_twelve import drawing as image

MAX_SIDE = 2000
FELT = (0x1C, 0x68, 0x42)  # both tables' felt (#1c6842)


def _check_picture(arr: np.ndarray) -> None:
    assert isinstance(arr, np.ndarray)
    assert arr.dtype == np.uint8
    assert arr.ndim == 3 and arr.shape[2] == 3
    assert 100 <= arr.shape[0] <= MAX_SIDE and 100 <= arr.shape[1] <= MAX_SIDE
    colours = np.unique(arr.reshape(-1, 3)[::7], axis=0)
    assert len(colours) > 50, "the picture looks blank"


def _play(game, seed: int, steps: int | None = None):
    rng = random.Random(seed)
    done = 0
    while not game.is_terminal() and (steps is None or done < steps):
        game.apply(rng.choice(game.legal_actions()))
        done += 1
    return game


# --- the rasteriser --------------------------------------------------------------------------------
def test_rasterise_draws_an_svg_at_its_own_size():
    doc = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 30 20">'
        '<rect width="30" height="20" fill="#1c6842"/><rect x="10" width="10" height="10" fill="#ffffff"/></svg>'
    )
    arr = image.rasterise(doc)
    assert arr.shape == (20, 30, 3) and arr.dtype == np.uint8
    assert arr[15, 5].tolist() == list(FELT) and arr[5, 15].tolist() == [255, 255, 255]
    with pytest.raises(ValueError):
        image.rasterise("<svg")


def test_text_renders_with_the_shipped_fonts_in_both_weights():
    """The rasteriser never looks at the machine's fonts: text shows with the faces shipped beside it."""
    assert [f.rsplit("/", 1)[1] for f in image.FONTS] == ["DejaVuSans-Bold.ttf", "DejaVuSans.ttf"]
    inked = []
    for weight in ("normal", "bold"):
        doc = (
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 40" font-family="DejaVu Sans">'
            f'<rect width="200" height="40" fill="#000000"/><text x="4" y="30" font-size="24" fill="#ffffff" '
            f'font-weight="{weight}">Seat 12</text></svg>'
        )
        inked.append(int((image.rasterise(doc).max(axis=2) > 128).sum()))
    assert inked[0] > 200 and inked[1] > inked[0]  # the bold face is heavier


def test_every_character_the_tables_write_is_in_the_shipped_fonts():
    texts = set()
    for game in (_play(sniff_env.Game(num_players=4, seed=2), 2, 30), _play(twelve_env.Game(num_players=3), 1, 8)):
        web = game.spec.part("web")
        names = [f"seat {i}" for i in range(game.num_players)]
        for draw in (web.draw, web.draw_portrait):
            for reveal in (False, True):
                doc = draw(game, game.current_player, names, reveal)
                texts |= set("".join(re.findall(r">([^<>]+)</text>", doc)))
        texts |= set(image.table_document(game))
    for path in image.FONTS:
        cmap = TTFont(path).getBestCmap()
        missing = {c for c in texts if ord(c) not in cmap and c.isprintable() and c not in "\n"}
        assert not missing, (path, missing)


# --- the pictures ----------------------------------------------------------------------------------
def _scripted_sniff(second: list, boneyard: list) -> sniff_env.Game:
    """S16's opening Sniff [4|4] held by seat 0 (to open); seat 1 and the boneyard as given."""
    deal = {"hands": [[(4, 4), (1, 4), (0, 0)], second], "boneyard": boneyard, "opener": 0}
    return sniff_env.Game(num_players=2, seed=0, target=10_000, deal=deal)


def test_picture_is_the_table_seen_by_the_seat_to_act():
    """Two games that look the same to the seat to act draw the same picture, whatever the other
    hand and the boneyard hold; once that other seat is to act, its own hand shows and they differ."""
    a = _scripted_sniff([(4, 6), (2, 4), (3, 3)], [(5, 5), (5, 6)])
    b = _scripted_sniff([(5, 5), (2, 4), (3, 3)], [(4, 6), (5, 6)])
    assert a.hand(1) != b.hand(1) and a.boneyard != b.boneyard
    assert np.array_equal(a.image(), b.image())
    for game in (a, b):
        game.apply(encode_action((4, 4), 0))
    assert a.current_player == b.current_player == 1
    assert not np.array_equal(a.image(), b.image())


def test_twelve_picture_hides_every_other_hand_and_the_stock():
    hands = [[1, 2, 3], [4, 5, 6]]
    a = twelve_env.Game(num_players=2, deal={"hands": hands, "face_up": 7, "stock": [8, 9]})
    b = twelve_env.Game(num_players=2, deal={"hands": [[1, 2, 3], [9, 8, 4]], "face_up": 7, "stock": [5, 6]})
    assert np.array_equal(a.image(), b.image())
    c = twelve_env.Game(num_players=2, deal={"hands": [[1, 2, 4], [4, 5, 6]], "face_up": 7, "stock": [8, 9]})
    assert not np.array_equal(a.image(), c.image())  # the hand of the seat to act is in the picture


def test_pictures_are_deterministic_and_follow_the_game():
    game = _scripted_sniff([(4, 6), (2, 4), (3, 3)], [(5, 5), (5, 6)])
    before = game.image()
    _check_picture(before)
    assert np.array_equal(before, game.clone().image())
    game.apply(encode_action((4, 4), 0))
    opened = game.image()
    assert opened.shape == before.shape and not np.array_equal(before, opened)
    cards = twelve_env.Game(num_players=3, seed=5)
    first = cards.image()
    _check_picture(first)
    assert np.array_equal(first, twelve_env.Game(num_players=3, seed=5).image())
    cards.apply(cards.legal_actions()[0])
    assert not np.array_equal(first, cards.image())


@pytest.mark.parametrize(
    ("make", "every"),
    [
        (lambda: sniff_env.Game(num_players=2, seed=12, target=60), 7),
        (lambda: sniff_env.Game(num_players=4, seed=14, target=60), 7),
        (lambda: twelve_env.Game(num_players=2, deck="numbers", seed=2), 3),
        (lambda: twelve_env.Game(num_players=7, seed=7), 3),
    ],
)
def test_a_whole_game_keeps_one_picture_size(make, every):
    """A video of an episode needs frames of one size: the size depends on the table size only."""
    game = make()
    shape = game.image().shape
    rng = random.Random(every)
    step = 0
    while not game.is_terminal():
        game.apply(rng.choice(game.legal_actions()))
        step += 1
        if step % every == 0 or game.is_terminal():
            assert game.image().shape == shape
    _check_picture(game.image())


def test_env_render_rgb_array_is_the_picture():
    env = sniff_env.env(num_players=3, render_mode="rgb_array")
    env.reset(seed=4)
    frame = env.render()
    _check_picture(frame)
    assert np.array_equal(frame, env.unwrapped.game.image())
    single = twelve_env.single_agent_env(num_players=2, render_mode="rgb_array")
    single.reset(seed=1)
    _check_picture(single.render())


def test_a_game_without_a_drawing_has_no_picture(monkeypatch):
    game = twelve_env.Game(num_players=2, seed=0)
    parts = {name: where for name, where in type(game.spec).parts.items() if name != "web"}
    monkeypatch.setattr(type(game.spec), "parts", parts)
    with pytest.raises(NotImplementedError, match="no drawing"):
        game.image()


def test_save_png_reopens(tmp_path):
    arr = _play(sniff_env.Game(num_players=4, seed=2), seed=2, steps=15).image()
    path = image.save_png(arr, tmp_path / "sniff.png")
    with Image.open(path) as img:
        assert img.format == "PNG"
        assert np.array_equal(np.asarray(img.convert("RGB")), arr)


def test_animate_writes_gif_and_strip(tmp_path):
    game = sniff_env.Game(num_players=2, seed=3)
    frames = [game.image()]
    for _ in range(2):
        game.apply(game.legal_actions()[0])
        frames.append(game.image())
    frames.append(twelve_env.Game(num_players=2, seed=0).image())  # another size
    gif = image.animate(frames, tmp_path / "replay.gif", duration_ms=200)
    with Image.open(gif) as img:
        assert img.format == "GIF" and img.n_frames >= 2
        assert img.size == (max(f.shape[1] for f in frames), max(f.shape[0] for f in frames))
    strip = image.animate(frames, tmp_path / "replay.png", scale=0.25, columns=2)
    with Image.open(strip) as img:
        assert img.format == "PNG" and img.width < 2 * frames[0].shape[1]
    with pytest.raises(ValueError):
        image.animate([], tmp_path / "none.gif")


# --- Sniff's layout (S10–S17) ------------------------------------------------------------------------
def test_sniff_layout_marks_scored_and_free_spots():
    game = _scripted_sniff([(4, 6), (2, 4), (3, 3)], [(5, 5), (5, 6)])
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
