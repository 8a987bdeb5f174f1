"""Differential test: the compiled engine (``twelve_env.Game``) against the independent pure-Python
reference (``tests/reference/twelve_ref.py``, written from docs/rules.md Part T only).

Every case is a player count (2–7) × deck × the T10 variant. Two kinds of games are played, with
actions drawn from a seeded ``random.Random``:

- seeded games: ``Game(seed=…)`` deals (T5, T6) and the reference is built from the Game's initial
  hands, stock, face-up card and first player;
- random partial deals (docs/api.md ``deal``): random hand sizes 1–7, random stock lengths including 0
  and 1, sixes made more likely — these reach the rare corners (T11 draws running the stock out,
  T13 starting at once or through a turn-up, T14) far more often than full deals.

At every step both must agree on the legal actions, every hand (sorted), the pile, the stock, the
captured counts, the seat to act, the last-round state and its turns left, and whether the game is
over; at the end on the T15 scores. A tally of rare events checks that the corners were reached.

Sizing: 24 cases × (250 seeded + 150 dealt) = 9,600 games, about 20 s on the 2-core machine.

The size dial (T1's deck as a list of values 1–11, each at most four times, played as the numbers
deck; T5's hand size as any other; every other rule unchanged): for 2–7 players, list decks of fixed
shapes (repeats, sixes for T11, decks without pairs or without any capture, tiny decks, the number
deck as a list) and random ones, hand sizes from 1 to the most the deck deals (every fourth game that
most: the stock is empty from the deal, T13); half dealt by the engine's seed (checked to be exactly
the deck, ``check_dealt``), half the reference's deal given as ``deal=``. Besides the step-by-step
comparison, every card of the deck is accounted for at every step, value by value (``check_cards``).
6 × 2,000 = 12,000 games, about 7 s. A broken dial (the engine given another deck or hand size than
the harness) must make the comparison fail.
"""

from __future__ import annotations

import random
import sys
from collections import Counter

import pytest

from tests.reference.twelve_ref import HAND_SIZE, TwelveReference, deck_cards, deck_of
from tests.reference.twelve_ref import deal as ref_deal
from twelve_env import Game

pytestmark = pytest.mark.slow

SEEDED_GAMES = 250
DEALT_GAMES = 150
RANKS = {"bridge": 13, "numbers": 11}
SIX = 5
CASES = [(n, deck, extra) for n in range(2, 8) for deck in ("bridge", "numbers") for extra in (False, True)]
IDS = [f"{n}p-{deck}-{'extra' if extra else 'plain'}" for n, deck, extra in CASES]

TALLY: Counter = Counter()


def check_same(game: Game, ref: TwelveReference, where: str) -> None:
    over = ref.over
    assert game.is_terminal() == over, where
    assert game.legal_actions() == ref.legal_actions(), where
    for seat in range(game.num_players):
        assert game.hand(seat) == sorted(ref.hands[seat]), where
    assert game.pile == ref.pile, where
    assert game.stock == ref.stock, where
    assert game.stock_size == len(ref.stock), where
    assert game.captured == ref.captured, where
    assert game.scores == ref.scores(), where
    assert game.last_round == (ref.last_round and not over), where
    if not over:
        assert game.current_player == ref.current_player, where
        if ref.last_round:
            assert game.turns_left == ref._last_round_turns_left, where
        else:
            assert game.turns_left is None, where


def tally(before: Game, after: Game, action: int) -> None:
    """Count the rare situations the run should reach (plain bookkeeping from the public API)."""
    actor = before.current_player
    captured = after.captured[actor] > before.captured[actor]
    if captured and action == SIX and before.pile[-1] == SIX and after.hand(actor):
        TALLY["six on six"] += 1
        if (
            after.stock_size == 0
            and sum(len(after.hand(s)) for s in range(after.num_players))
            < sum(len(before.hand(s)) for s in range(before.num_players)) + before.num_players - 2
        ):
            TALLY["six on six, stock runs out during the draws (T11)"] += 1
        if after.is_terminal():
            TALLY["six on six draws empty the stock (T14)"] += 1
    if not after.hand(actor):
        TALLY["last card (T12)"] += 1
    if before.last_round and captured:
        TALLY["capture ends last round (T14)"] += 1
    if not before.last_round and after.last_round:
        TALLY["last round by turn-up (T13)" if captured else "last round by draw (T13)"] += 1
    if before.last_round and after.is_terminal() and not captured and after.hand(actor):
        TALLY["last round played out (T13)"] += 1


def check_cards(game: Game, ref: TwelveReference, cards: Counter, where: str) -> None:
    """Every card of the deal is somewhere: the hands, the stock and the pile (compared with the
    reference) and the captured cards (the reference's, as many as the engine counts) hold the
    dealt cards, rank by rank (T7-T11 move cards, never make or lose one)."""
    held = [c for s in range(game.num_players) for c in game.hand(s)] + game.stock + game.pile
    captured = [c for cards_of_seat in ref.captured_cards for c in cards_of_seat]
    assert [len(c) for c in ref.captured_cards] == game.captured, where
    assert Counter(held) + Counter(captured) == cards, where


def play(game: Game, ref: TwelveReference, rng: random.Random, label: str, cards: Counter | None = None) -> None:
    """Random play in lockstep; with ``cards`` (the dealt cards) also ``check_cards`` at every step."""
    check_same(game, ref, f"{label} start")
    if cards is not None:
        check_cards(game, ref, cards, f"{label} start")
    if game.last_round:
        TALLY["last round from the deal (T13)"] += 1
    steps = 0
    while not ref.over:
        action = rng.choice(ref.legal_actions())
        before = game.clone()
        game.apply(action)
        ref.apply(action)
        steps += 1
        check_same(game, ref, f"{label} step {steps} action {action} history {game.history}")
        if cards is not None:
            check_cards(game, ref, cards, f"{label} step {steps} action {action} history {game.history}")
        tally(before, game, action)
        assert steps <= 60, label  # every card is played at most once
    assert game.is_terminal()
    assert game.scores == ref.scores(), label
    TALLY["games"] += 1


def random_deal(n: int, deck: str, rng: random.Random) -> dict:
    ranks = RANKS[deck]
    cards = [r for r in range(ranks) for _ in range(4)]
    rng.shuffle(cards)
    if rng.random() < 0.5:  # bring the sixes to the front: T11 on most deals
        cards.sort(key=lambda r: (r != SIX, rng.random()))
        rng.shuffle(cards[: 4 + 2 * n])
    sizes = [rng.randint(1, 7) for _ in range(n)]
    need = sum(sizes) + 1
    if need > len(cards):
        sizes = [1] * n
        need = n + 1
    hands, i = [], 0
    for size in sizes:
        hands.append(cards[i : i + size])
        i += size
    face_up = cards[i]
    rest = cards[i + 1 :]
    stock = rest[: rng.choice([0, 1, 2, n - 1, n, n + 1, rng.randint(0, len(rest))])]
    return {"hands": hands, "stock": stock, "face_up": face_up, "first_player": rng.randrange(n)}


def seeded_games(n: int, deck: str, extra: bool) -> None:
    """T1–T15: seeded deals played at random agree with the reference at every step."""
    rng = random.Random(f"seeded {n} {deck} {extra}")
    for i in range(SEEDED_GAMES):
        seed = rng.randrange(2**32)
        game = Game(num_players=n, deck=deck, seed=seed, capture_extra_turn=extra)
        assert game.current_player == game.first_player
        hands = [game.hand(s) for s in range(n)]
        assert [len(h) for h in hands] == [5] * n and len(game.pile) == 1  # T5
        ref = TwelveReference(n, deck, hands, game.stock, game.pile[0], game.current_player, extra)
        play(game, ref, rng, f"{n}p {deck} extra={extra} game {i} seed {seed}")


def dealt_positions(n: int, deck: str, extra: bool) -> None:
    """T5–T15 corners: random partial deals (short stocks, many sixes) agree with the reference."""
    rng = random.Random(f"dealt {n} {deck} {extra}")
    for i in range(DEALT_GAMES):
        deal = random_deal(n, deck, rng)
        game = Game(num_players=n, deck=deck, deal=deal, capture_extra_turn=extra)
        ref = TwelveReference(
            n, deck, deal["hands"], deal["stock"], deal["face_up"], deal["first_player"], capture_extra_turn=extra
        )
        play(game, ref, rng, f"{n}p {deck} extra={extra} deal {i} {deal}")


@pytest.mark.parametrize(("n", "deck", "extra"), CASES, ids=IDS)
def test_seeded_games_and_dealt_positions_match_reference(n, deck, extra):
    """T1–T15: every case's seeded games and hand-made deals agree with the reference; the rare
    corners the run must reach are counted per case and asserted over all cases below."""
    seeded_games(n, deck, extra)
    dealt_positions(n, deck, extra)


def test_rare_events_are_reached(monkeypatch):
    """The differential runs reach every corner they are meant to test: replayed here with a fresh
    tally (a quarter of the games per case), so this holds whatever ran before it."""
    tally, seeded, dealt = Counter(), SEEDED_GAMES // 4, DEALT_GAMES // 4
    module = sys.modules[__name__]
    monkeypatch.setattr(module, "TALLY", tally)
    monkeypatch.setattr(module, "SEEDED_GAMES", seeded)
    monkeypatch.setattr(module, "DEALT_GAMES", dealt)
    for case in CASES:
        seeded_games(*case)
        dealt_positions(*case)
    assert tally["games"] == len(CASES) * (seeded + dealt)
    for event in (
        *LIST_EVENTS,
        "six on six draws empty the stock (T14)",
        "six on six, stock runs out during the draws (T11)",
    ):
        assert tally[event] >= 20, (event, dict(tally))


# The size dial: list decks (values 1-11, each at most four times, T1) of a few shapes, any hand size (T5).
LIST_DECKS = [
    [1, 5, 6, 6, 7, 11],  # repeats, a six pair (T11), sums of 12 (T8)
    [6, 6, 6, 6],  # sixes only: every capture is a six on six
    [6, 6, 6, 1, 11],
    [1, 2, 3, 4, 5],  # no pair, no sum of 12: nothing is ever captured
    list(range(1, 12)),  # sums of 12 but no pair
    [1, 1, 5, 5, 6, 6, 6, 7, 7, 11, 11, 11, 2, 10, 3],
    [v for v in range(1, 12) for _ in range(2)],
    [v for v in range(1, 12) for _ in range(4)],  # the numbers deck as a list
    [4, 4, 4, 4, 8, 8, 8, 8, 6, 6, 9, 9, 3, 3, 11, 11, 11, 11, 1, 1, 1],
]
LIST_GAMES = 2000  # per player count
LIST_PLAYERS = [2, 3, 4, 5, 6, 7]
LIST_EVENTS = (
    "six on six",
    "last card (T12)",
    "capture ends last round (T14)",
    "last round by turn-up (T13)",
    "last round by draw (T13)",
    "last round played out (T13)",
    "last round from the deal (T13)",
)


def random_list_deck(rng: random.Random, n: int) -> list[int]:
    """0-4 copies of every value (sixes more likely), at least a card per seat and one face up."""
    while True:
        deck = [v for v in range(1, 12) for _ in range(rng.choice((0, 0, 1, 2, 4) if v != 6 else (1, 2, 3, 4)))]
        if len(deck) >= n + 1:
            return deck


def list_deck_table(n: int, i: int, rng: random.Random) -> tuple[list[int], int]:
    """The ``i``-th game's deck (a named shape when it can seat ``n``, else random) and hand size:
    the most the deck can deal (the stock empty at once, T13) every fourth game, else 1 … that."""
    deck = LIST_DECKS[i % len(LIST_DECKS)]
    if i % 3 == 2 or len(deck) < n + 1:
        deck = random_list_deck(rng, n)
    top = (len(deck) - 1) // n
    hand_size = top if i % 4 == 0 else rng.randint(1, top)
    return deck, hand_size


def check_dealt(game: Game, deck: list[int], hand_size: int, where: str) -> None:
    """T5 with the size dial: every seat holds ``hand_size`` cards, one card is face up, and the
    hands, the face-up card and the stock are exactly the list deck's cards."""
    n = game.num_players
    assert game.deck == deck_of(deck) and game.hand_size == hand_size, where
    assert [len(game.hand(s)) for s in range(n)] == [hand_size] * n and len(game.pile) == 1, where
    dealt = [c for s in range(n) for c in game.hand(s)] + game.stock + game.pile
    assert sorted(dealt) == deck_cards(deck), where


def play_list_deck_game(
    n: int, deck: list[int], hand_size: int, extra: bool, rng: random.Random, label: str, given: object = None
) -> None:
    """One game on a list deck in lockstep with the reference: dealt by the engine's seed
    (``check_dealt``), or from the reference's deal of the same table given as ``deal=`` when
    ``rng`` draws an odd number; ``given`` is the deck as passed to the engine (default the list)."""
    given = deck if given is None else given
    seed = rng.randrange(2**32)
    if seed % 2 == 0:
        label += f" seed {seed}"
        game = Game(num_players=n, deck=given, hand_size=hand_size, seed=seed, capture_extra_turn=extra)
        check_dealt(game, deck, hand_size, label)
        deal = {"hands": [game.hand(s) for s in range(n)], "stock": game.stock, "face_up": game.pile[0]}
        deal["first_player"] = game.current_player
    else:
        deal = ref_deal(n, deck, rng, hand_size)
        label += f" deal {deal}"
        game = Game(num_players=n, deck=given, hand_size=hand_size, deal=deal, capture_extra_turn=extra)
    ref = TwelveReference(
        n, deck, deal["hands"], deal["stock"], deal["face_up"], deal["first_player"], capture_extra_turn=extra
    )
    play(game, ref, rng, label, cards=Counter(deck_cards(deck)))


def list_deck_games(n: int, games: int) -> None:
    """Random games on list decks (``list_deck_table``), half dealt by the engine's seed and half
    from the reference's deal; the T10 variant every other pair; every third deck given as its
    string ``"1,5,6"``."""
    rng = random.Random(f"list decks {n}")
    for i in range(games):
        deck, hand_size = list_deck_table(n, i, rng)
        extra = i % 4 >= 2
        given = ",".join(map(str, deck)) if i % 3 == 0 else deck
        label = f"{n}p deck={deck} hand_size={hand_size} extra={extra} game {i}"
        play_list_deck_game(n, deck, hand_size, extra, rng, label, given)


@pytest.mark.parametrize("n", LIST_PLAYERS)
def test_list_decks_match_reference(monkeypatch, n):
    """T1-T15 on the size dial's tables: list decks (repeats, sixes for T11, tiny decks whose stock
    is empty from the deal, T13) and hand sizes 1 … the most the deck deals; every card of the
    deck is accounted for at every step (``check_cards``) and the corners are reached."""
    tally = Counter()
    monkeypatch.setattr(sys.modules[__name__], "TALLY", tally)
    list_deck_games(n, LIST_GAMES)
    assert tally["games"] == LIST_GAMES
    for event in LIST_EVENTS:
        assert tally[event] >= 5, (event, dict(tally))
    if n <= 4:
        assert tally["six on six draws empty the stock (T14)"] > 0, dict(tally)


BROKEN_DIALS = {  # (the table the harness and the reference use, what the engine is given instead)
    "engine plays the number deck": (([1, 5, 6, 6, 7, 11], 2), {"deck": "numbers"}),
    "engine plays another list": (([1, 5, 6, 6, 7, 11], 2), {"deck": [1, 5, 6, 7, 7, 11]}),
    "engine deals T5's hand size": ((list(range(1, 12)), 2), {"hand_size": HAND_SIZE}),
    "engine deals another hand size": ((list(range(1, 12)), 2), {"hand_size": 3}),
}


@pytest.mark.parametrize("broken", BROKEN_DIALS)
def test_a_broken_dial_is_detected(monkeypatch, broken):
    """The comparison would catch an engine that ignored the dial (T1's list deck, T5's hand size):
    the engine is built with one setting changed while the harness and the reference keep the
    table's; every seeded game must fail (and passes with the engine given the table)."""
    (deck, hand_size), engine = BROKEN_DIALS[broken]
    seeds = [seed for seed in range(40) if random.Random(seed).randrange(2**32) % 2 == 0][:5]
    for seed in seeds:
        play_list_deck_game(2, deck, hand_size, False, random.Random(seed), broken)
    module, real = sys.modules[__name__], Game
    monkeypatch.setattr(module, "Game", lambda *args, **options: real(*args, **{**options, **engine}))
    for seed in seeds:
        with pytest.raises(AssertionError):
            play_list_deck_game(2, deck, hand_size, False, random.Random(seed), broken)


def test_list_deck_deals_are_checked():
    """A list deck holds only its cards (T1 with the size dial): a ``deal=`` using more of a value
    than the list holds, or a value it lacks, is refused by the engine and the reference alike;
    a hand size the deck cannot deal (T5: every hand and one card face up) too."""
    deck = [1, 5, 6, 6, 7, 11]
    good = {"hands": [[5, 0], [5, 10]], "stock": [6], "face_up": 4, "first_player": 1}
    Game(num_players=2, deck=deck, hand_size=2, deal=good)
    TwelveReference(2, deck, good["hands"], good["stock"], good["face_up"], 1)
    for bad in ({**good, "face_up": 5}, {**good, "stock": [2]}):  # a third 6; a 3 the list lacks
        with pytest.raises(ValueError):
            Game(num_players=2, deck=deck, hand_size=2, deal=bad)
        with pytest.raises(ValueError):
            TwelveReference(2, deck, bad["hands"], bad["stock"], bad["face_up"], 1)
    with pytest.raises(ValueError):
        Game(num_players=2, deck=deck, hand_size=3, seed=0)  # 2 x 3 cards and one face up > 6
    with pytest.raises(ValueError):
        ref_deal(2, deck, random.Random(0), 3)
