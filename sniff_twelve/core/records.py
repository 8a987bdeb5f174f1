"""Match records: a small JSON document that replays a game exactly.

``{"format": "sniff-twelve-record", "version": 1, "game": …, "options": {…}, "start": {"stream":
[hi, lo], "deal": {…}}, "actions": […], "events": […], "result": {…}}`` — the options and the
starting deal (in the ``deal=`` format of the game's ``Game``), the two words of the game's random
stream right after that deal (so later deals replay too), every action, what happened, and the
result. ``load_record`` rebuilds the game by replaying every action and checks the events and the
result; a malformed or tampered record raises ``ValueError`` saying what is wrong and nothing is
returned half-applied.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from sniff_twelve.core.game import BaseGame

FORMAT = "sniff-twelve-record"
VERSION = 1


def _plain(value: Any) -> Any:
    """Tuples to lists and numpy scalars to ints, as JSON gives them back."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, np.integer):
        return int(value)
    return value


def make_record(game: BaseGame) -> dict[str, Any]:
    """The record of ``game`` so far (it may still be going on). A game made with ``from_state``
    in the middle of play cannot be recorded: a record starts from a deal."""
    initial = game.initial_state
    if initial[game.spec.STEPS] != 0:
        raise ValueError("this game was picked up in the middle of play (from_state): a record starts from a deal")
    return _plain(
        {
            "format": FORMAT,
            "version": VERSION,
            "game": game.record_name,
            "options": game.record_options(),
            "start": {"stream": initial[_stream(game)].tolist(), "deal": game.deal_of(initial)},
            "actions": list(game.history),
            "events": game.record_events(),
            "result": game.record_result(),
        }
    )


def parse_record(record: Any, game_cls: type[BaseGame]) -> dict[str, Any]:
    """The record as a dict with the right header and every part present, else ``ValueError``."""
    if isinstance(record, (str, bytes)):
        try:
            record = json.loads(record)
        except json.JSONDecodeError as error:
            raise ValueError(f"a record is JSON; this is not: {error}") from None
    if not isinstance(record, dict):
        raise ValueError("a record is a JSON object")
    if record.get("format") != FORMAT or record.get("version") != VERSION:
        raise ValueError(f"not a {FORMAT} version {VERSION} document")
    if record.get("game") != game_cls.record_name:
        raise ValueError(f"this is a record of {record.get('game')!r}, not {game_cls.record_name!r}")
    missing = {"options", "start", "actions", "events", "result"} - set(record)
    if missing:
        raise ValueError(f"record lacks {sorted(missing)}")
    if not isinstance(record["actions"], list):
        raise ValueError("record actions must be a list")
    return record


def load_record(record: Any, game_cls: type[BaseGame]) -> BaseGame:
    """Replay ``record`` (a dict, or JSON text) into a new ``game_cls`` game and check it."""
    record = parse_record(record, game_cls)
    game = _starting_game(record, game_cls)
    for k, action in enumerate(record["actions"]):
        try:
            game.apply(action)
        except ValueError as error:
            raise ValueError(f"record action #{k} does not replay: {error}") from None
    if _plain(game.record_events()) != record["events"]:
        raise ValueError("record events differ from what its actions produce: tampered or corrupt")
    if _plain(game.record_result()) != record["result"]:
        raise ValueError("record result differs from what its actions produce: tampered or corrupt")
    return game


def split_records(text: str) -> list[str]:
    """The records in ``text``: one JSON document, or JSON Lines (one record per line, as
    ``arena --records`` writes them)."""
    try:
        json.loads(text)
        return [text]
    except json.JSONDecodeError:
        lines = [line for line in text.splitlines() if line.strip()]
        if len(lines) < 2:
            raise
        return lines


def replay_steps(record: Any, game_cls: type[BaseGame]) -> Iterator[tuple[BaseGame, int | None]]:
    """Check the whole record, then yield ``(game, action)`` before each of its actions and a final
    ``(game, None)`` — one ``game`` object, advanced as it goes."""
    record = parse_record(record, game_cls)
    load_record(record, game_cls)
    game = _starting_game(record, game_cls)
    for action in record["actions"]:
        yield game, action
        game.apply(action)
    yield game, None


def _starting_game(record: dict[str, Any], game_cls: type[BaseGame]) -> BaseGame:
    """The game at the record's start: its options, its deal and its random stream."""
    start = record["start"]
    if not isinstance(start, dict) or not isinstance(record["options"], dict):
        raise ValueError("record options and start must be objects")
    stream = start.get("stream")
    words_ok = isinstance(stream, list) and all(isinstance(w, int) and -(2**31) <= w < 2**31 for w in stream)
    if not (words_ok and len(stream) == 2):
        raise ValueError("record start.stream must be two 32-bit integers")
    try:
        game = game_cls(seed=0, deal=start.get("deal"), **record["options"])
    except TypeError as error:
        raise ValueError(f"record options are not this game's options: {error}") from None
    game._state[_stream(game)] = stream
    game.initial_state[_stream(game)] = stream
    return game


def _stream(game: BaseGame) -> slice:
    """The two slots of the game's random stream (``GameSpec.RNG``)."""
    return slice(game.spec.RNG, game.spec.RNG + 2)
