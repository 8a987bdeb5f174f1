"""A study file (``study run STUDY.toml``): what every participant of a human-partner study plays.

The file is TOML (read with the standard library's ``tomllib``)::

    id = "partners"                 # names the study: /study/<id>?p=<participant code>
    seat = 0                        # the participant's seat
    hands_per_block = 4             # hands of each block (one block per condition)
    order = "latin"                 # condition orders: a balanced Latin square by participant index
    consent = "consent.md"          # Markdown, beside the study file
    completion_code = "C0MPLETE"    # shown on the last page

    [table]
    players = 4
    options = { pips = 4, hand_size = 3 }   # the game's options (a game of one hand each)

    [deals]
    seeds = [11, 12, 13, 14]        # or: deals = [ … ] in the game's deal= format

    [tutorial]                      # optional: a hand to learn the clicks (not analysed)
    seed = 99
    partner = "greedy"
    opponents = "greedy"

    [conditions.belief]
    partner = "belief"              # an agent spec (docs: agents)
    opponents = "heuristic"         # one spec for every opponent, or a list, one per opponent seat

    [[questions]]                   # asked after every block
    id = "trust"                    # optional (default q1, q2, …)
    text = "How much did you trust your partner?"
    scale = "1-7"                   # or "text"

Every participant plays the same deals in every condition: hand ``k`` of a block is deal
``k mod len(deals)``, dealt from its seed, and the agents' random streams are seeded from it too,
so two participants in one condition meet the same hands and the same replies to the same moves.
``sniff_twelve.web.study_file`` reads the file (``load_study``): a bad file is one ``StudyError``
line naming the key, and nothing starts.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sniff_twelve.core.agent import Agent
    from sniff_twelve.core.game import BaseGame
    from sniff_twelve.web.table import WebGame

#: what a study id and a participant code may be (they stand in links and file names)
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
TUTORIAL_SEED = 999_983  #: the tutorial's deal unless the file gives one


@dataclass(frozen=True)
class Condition:
    """One condition: the agent spec at the partner's seat (``None`` at a table without partners)
    and at each opponent's seat, in seat order."""

    name: str
    partner: str | None
    opponents: tuple[str, ...]


@dataclass(frozen=True)
class Question:
    id: str
    text: str
    scale: str  # "1-7" or "text"


@dataclass(frozen=True)
class Study:
    """A study file read and checked (``load_study``); ``to_json`` is what the records folder keeps of it."""

    id: str
    game: str
    players: int
    options: dict[str, Any]
    seat: int
    conditions: tuple[Condition, ...]
    seeds: tuple[int, ...]
    deals: tuple[Any, ...] | None  # explicit deals (the game's deal= format), else None: the seeds deal
    hands_per_block: int
    order: str
    consent: str  # the consent text, Markdown
    questions: tuple[Question, ...]
    completion_code: str
    tutorial: Condition | None
    partner_seat: int | None = None  # the participant's partner, at a table of partnerships
    tutorial_seed: int = TUTORIAL_SEED
    blind: bool = True  # the page names the seats, not their agents
    extra: dict[str, Any] = field(default_factory=dict)

    # --- who plays where ------------------------------------------------------------------------
    def opponent_seats(self) -> list[int]:
        partner = self.partner_seat
        return [s for s in range(self.players) if s not in (self.seat, partner)]

    def seating(self, condition: Condition, participant: str = "human") -> dict[int, str]:
        """Seat → agent spec (the participant's seat: ``participant``)."""
        seats = {self.seat: participant}
        if self.partner_seat is not None:
            seats[self.partner_seat] = condition.partner
        seats.update(zip(self.opponent_seats(), condition.opponents, strict=True))
        return dict(sorted(seats.items()))

    def condition(self, name: str) -> Condition:
        return next(c for c in self.conditions if c.name == name)

    # --- the deals ------------------------------------------------------------------------------
    @property
    def deal_count(self) -> int:
        return len(self.deals) if self.deals is not None else len(self.seeds)

    def deal_of_hand(self, hand: int) -> int:
        """The deal (an index into the deal set) hand ``hand`` of every block plays."""
        return hand % self.deal_count

    def deal_seed(self, deal: int) -> int:
        """The seed of deal ``deal`` (``-1``: the tutorial's): the game's and the agents' streams."""
        if deal < 0:
            return self.tutorial_seed
        return self.seeds[deal] if self.deals is None else deal

    def recipe(self, deal: int) -> dict[str, Any]:
        """How deal ``deal`` (``-1``: the tutorial) is made: the web store's recipe (players, options)."""
        options = dict(self.options)
        if deal >= 0 and self.deals is not None:
            options["deal"] = self.deals[deal]
        return {"players": self.players, "options": options}

    def new_game(self, game_cls: type[BaseGame], deal: int) -> BaseGame:
        recipe = self.recipe(deal)
        return game_cls(num_players=self.players, seed=self.deal_seed(deal), **recipe["options"])

    def agents(self, spec: WebGame, condition: Condition, deal: int) -> tuple[dict[int, Agent], dict[int, str]]:
        """The agents of ``condition`` at every seat but the participant's, each reset from the
        deal's seed as the web server resets its agents (``seed * 1000 + seat``)."""
        specs = {s: name for s, name in self.seating(condition).items() if s != self.seat}
        agents = {}
        for seat, name in specs.items():
            agents[seat] = spec.make_agent(name)
            agents[seat].reset(self.deal_seed(deal) * 1000 + seat)
        return agents, specs

    # --- the plan -------------------------------------------------------------------------------
    def orders(self) -> list[list[str]]:
        """The condition orders, a row per participant index (mod the rows)."""
        names = [c.name for c in self.conditions]
        return [[names[k] for k in row] for row in latin_square(len(names))]

    def order_of(self, index: int) -> list[str]:
        rows = self.orders()
        return rows[index % len(rows)]

    def plan(self, order: list[str]) -> list[dict[str, Any]]:
        """A participant's way through, after consent: the tutorial, then each block's hands and
        its questionnaire, then the end. Each stage has a ``key`` unique within the plan."""
        stages: list[dict[str, Any]] = []
        if self.tutorial is not None:
            stages.append({"key": "tutorial", "kind": "hand", "condition": None, "block": None, "hand": 0, "deal": -1})
        for block, name in enumerate(order):
            for hand in range(self.hands_per_block):
                stages.append(
                    {
                        "key": f"b{block}h{hand}",
                        "kind": "hand",
                        "condition": name,
                        "block": block,
                        "hand": hand,
                        "deal": self.deal_of_hand(hand),
                    }
                )
            if self.questions:
                stages.append({"key": f"b{block}q", "kind": "questions", "condition": name, "block": block})
        stages.append({"key": "done", "kind": "done"})
        return stages

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("extra")
        return json.loads(json.dumps(data))

    @property
    def fingerprint(self) -> str:
        """A short hash of everything that decides what is played and asked."""
        return hashlib.sha256(json.dumps(self.to_json(), sort_keys=True).encode()).hexdigest()[:16]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Study:
        """The study ``to_json`` wrote (a records folder's ``study.json``)."""
        data = dict(data)
        data["conditions"] = tuple(
            Condition(c["name"], c["partner"], tuple(c["opponents"])) for c in data["conditions"]
        )
        data["questions"] = tuple(Question(**q) for q in data["questions"])
        tutorial = data.get("tutorial")
        data["tutorial"] = (
            None if tutorial is None else Condition(tutorial["name"], tutorial["partner"], tuple(tutorial["opponents"]))
        )
        data["seeds"] = tuple(data["seeds"])
        data["deals"] = None if data["deals"] is None else tuple(data["deals"])
        return cls(**data)


def latin_square(n: int) -> list[list[int]]:
    """A balanced Latin square of ``n`` conditions (Williams' design): every condition once in each
    position and, across the rows, right after every other condition equally often. ``n`` rows when
    ``n`` is even; ``2n`` (each row then its reverse) when odd.

    >>> latin_square(2), latin_square(4)[:2]
    ([[0, 1], [1, 0]], [[0, 1, 3, 2], [1, 2, 0, 3]])
    >>> len(latin_square(3))
    6
    """
    if n < 1:
        return []
    first, low, high = [0], 1, n - 1
    while len(first) < n:
        first.append(low)
        low += 1
        if len(first) < n:
            first.append(high)
            high -= 1
    rows = [[(c + shift) % n for c in first] for shift in range(n)]
    return rows if n % 2 == 0 else rows + [row[::-1] for row in rows]
