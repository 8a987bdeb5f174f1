"""Reading a study file (``study run STUDY.toml``; its keys: ``sniff_twelve.web.study``) with
``tomllib``: every key checked, each agent spec built and seated at the table, the table dealt
once, the consent file read. A bad file is one ``StudyError`` line naming the file and the key, so
nothing starts. ``markdown`` turns the consent text into the page's HTML.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sniff_twelve.core.agent import partner_seat
from sniff_twelve.web.study import NAME, TUTORIAL_SEED, Condition, Question, Study

if TYPE_CHECKING:
    from sniff_twelve.web.table import WebGame

SCALES = ("1-7", "text")
ORDERS = ("latin",)
KEYS = {"id", "game", "seat", "hands_per_block", "order", "consent", "completion_code", "table", "deals"}
KEYS |= {"tutorial", "conditions", "questions", "blind"}


class StudyError(ValueError):
    """A study file that cannot run: one line naming the file and the key."""


def load_study(path: Path, web: WebGame) -> Study:
    """The study file at ``path`` for the game of ``web``, checked; ``StudyError`` naming the key
    that is missing or wrong (and the file), so nothing starts on a bad file."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise StudyError(f"{path}: cannot be read ({error.strerror or error})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise StudyError(f"{path}: not TOML ({error})") from None
    try:
        return _read(data, path.parent, web)
    except StudyError as error:
        raise StudyError(f"{path}: {error}") from None


def _need(data: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str = "") -> Any:
    name = f"{where}{key}"
    if key not in data:
        raise StudyError(f"missing key {name!r}")
    value = data[key]
    if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        raise StudyError(f"key {name!r} must be {_kind(kind)}; got {value!r}")
    if not isinstance(value, kind):
        raise StudyError(f"key {name!r} must be {_kind(kind)}; got {value!r}")
    return value


def _kind(kind: type | tuple[type, ...]) -> str:
    names = {str: "a string", int: "a whole number", dict: "a table", list: "a list", bool: "true or false"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _agent(web: WebGame, players: int, name: Any, key: str) -> str:
    if not isinstance(name, str) or not name:
        raise StudyError(f"key {key!r} must be an agent spec such as 'greedy'; got {name!r}")
    try:
        web.make_agent(name).check_table(players)
    except ValueError as error:
        raise StudyError(f"key {key!r}: {error}") from None
    return name


def _condition(web: WebGame, data: Any, name: str, players: int, partner: int | None, others: int) -> Condition:
    where = f"conditions.{name}." if name != "tutorial" else "tutorial."
    if not isinstance(data, dict):
        raise StudyError(f"key {where[:-1]!r} must be a table with partner and opponents")
    unknown = set(data) - {"partner", "opponents"}
    if unknown:
        raise StudyError(f"unknown key {where + sorted(unknown)[0]!r} (a condition has partner and opponents)")
    if partner is None:
        if "partner" in data:
            raise StudyError(f"key {where + 'partner'!r}: the participant's seat has no partner at this table")
        agent = None
    else:
        agent = _agent(
            web,
            players,
            data["partner"] if "partner" in data else _need(data, "partner", str, where),
            where + "partner",
        )
    opponents = _need(data, "opponents", (str, list), where)
    if isinstance(opponents, str):
        opponents = [opponents] * others
    if len(opponents) != others:
        raise StudyError(f"key {where + 'opponents'!r} must name one agent or {others} (one per opponent seat)")
    chosen = tuple(_agent(web, players, o, where + "opponents") for o in opponents)
    return Condition(name, agent, chosen)


def _read(data: dict[str, Any], folder: Path, web: WebGame) -> Study:
    unknown = set(data) - KEYS
    if unknown:
        raise StudyError(f"unknown key {sorted(unknown)[0]!r} (keys: {', '.join(sorted(KEYS))})")
    study_id = _need(data, "id", str)
    if not NAME.fullmatch(study_id):
        raise StudyError(f"key 'id' must be letters, digits, - and _ (at most 64); got {study_id!r}")
    game = data.get("game", web.name)
    if game != web.name:
        raise StudyError(f"key 'game' is {game!r}, but this command runs {web.name!r}")
    spec = web.game_cls.spec
    table = _need(data, "table", dict)
    unknown = set(table) - {"players", "options"}
    if unknown:
        raise StudyError(f"unknown key {'table.' + sorted(unknown)[0]!r} (the table has players and options)")
    players = _need(table, "players", int, "table.")
    if players not in spec.players:
        raise StudyError(f"key 'table.players' must be one of {', '.join(map(str, spec.players))}; got {players}")
    options = dict(table.get("options", {}))
    if not isinstance(table.get("options", {}), dict):
        raise StudyError("key 'table.options' must be a table of the game's options")
    known = {option.name: option for option in spec.row_options}  # the rules' and the game's own (episode)
    for name, value in options.items():
        if name not in known:
            raise StudyError(f"unknown key {'table.options.' + name!r} (options: {', '.join(known)})")
        try:
            options[name] = known[name].check(value)
        except (ValueError, TypeError) as error:
            raise StudyError(f"key {'table.options.' + name!r}: {error}") from None
    episode = known.get("episode")
    if episode is not None and "episode" not in options and "hand" in (episode.choices or ()):
        options["episode"] = "hand"  # a study's hand is one game: one deal, settled
    try:  # a table the game cannot deal (too many tiles or cards for the set) stops here
        web.game_cls(num_players=players, seed=0, **options)
    except (ValueError, TypeError) as error:
        raise StudyError(f"key 'table.options': {error}") from None
    seat = _need(data, "seat", int)
    if not 0 <= seat < players:
        raise StudyError(f"key 'seat' must be a seat from 0 to {players - 1}; got {seat}")
    partner = partner_seat(spec, players, seat)
    others = players - 1 - (partner is not None)
    conditions = _need(data, "conditions", dict)
    if len(conditions) < 1:
        raise StudyError("key 'conditions' must hold at least one condition ([conditions.NAME])")
    read = []
    for name, body in conditions.items():
        if not NAME.fullmatch(name):
            raise StudyError(f"key {'conditions.' + name!r}: a condition's name is letters, digits, - and _")
        read.append(_condition(web, body, name, players, partner, others))
    deals = _need(data, "deals", dict)
    unknown = set(deals) - {"seeds", "deals"}
    if unknown:
        raise StudyError(f"unknown key {'deals.' + sorted(unknown)[0]!r} (give deals.seeds or deals.deals)")
    if ("seeds" in deals) == ("deals" in deals):
        raise StudyError("missing key 'deals.seeds' (or 'deals.deals': explicit deals; one of the two)")
    seeds: tuple[int, ...] = ()
    explicit = None
    if "seeds" in deals:
        seeds = tuple(_need(deals, "seeds", list, "deals."))
        if not seeds or any(isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < 2**31 for s in seeds):
            raise StudyError("key 'deals.seeds' must be a list of whole numbers from 0 to 2**31 - 1")
        if len(set(seeds)) != len(seeds):
            raise StudyError("key 'deals.seeds' lists a seed twice: every deal of the set is its own")
    else:
        explicit = tuple(_need(deals, "deals", list, "deals."))
        if not explicit:
            raise StudyError("key 'deals.deals' must list at least one deal")
        for k, deal in enumerate(explicit):
            try:
                web.game_cls(num_players=players, seed=k, deal=deal, **options)
            except (ValueError, TypeError) as error:
                raise StudyError(f"key 'deals.deals' (deal {k + 1}): {error}") from None
    hands = _need(data, "hands_per_block", int)
    if hands < 1:
        raise StudyError(f"key 'hands_per_block' must be at least 1; got {hands}")
    order = _need(data, "order", str)
    if order not in ORDERS:
        raise StudyError(
            f"key 'order' must be {' or '.join(map(repr, ORDERS))} (a balanced Latin square); got {order!r}"
        )
    consent_file = folder / _need(data, "consent", str)
    try:
        consent = consent_file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise StudyError(
            f"key 'consent': {consent_file} cannot be read ({getattr(error, 'strerror', None) or error})"
        ) from None
    questions = []
    for k, item in enumerate(data.get("questions", [])):
        where = f"questions[{k + 1}]."
        if not isinstance(item, dict):
            raise StudyError("key 'questions' must be a list of tables ([[questions]]) with text and scale")
        unknown = set(item) - {"id", "text", "scale"}
        if unknown:
            raise StudyError(f"unknown key {where + sorted(unknown)[0]!r} (a question has id, text and scale)")
        text = _need(item, "text", str, where)
        scale = _need(item, "scale", str, where)
        if scale not in SCALES:
            raise StudyError(f'key {where + "scale"!r} must be "1-7" or "text"; got {scale!r}')
        qid = item.get("id", f"q{k + 1}")
        if not isinstance(qid, str) or not NAME.fullmatch(qid) or qid in {q.id for q in questions}:
            raise StudyError(f"key {where + 'id'!r} must be a name of its own (letters, digits, - and _); got {qid!r}")
        questions.append(Question(qid, text, scale))
    if not isinstance(data.get("questions", []), list):
        raise StudyError("key 'questions' must be a list of tables ([[questions]])")
    code = _need(data, "completion_code", str)
    if not code.strip():
        raise StudyError("key 'completion_code' must not be empty")
    tutorial, tutorial_seed = None, TUTORIAL_SEED
    given = data.get("tutorial", {})
    if given is not False:
        if not isinstance(given, dict):
            raise StudyError("key 'tutorial' must be a table (seed, partner, opponents) or false")
        body = dict(given)
        tutorial_seed = body.pop("seed", TUTORIAL_SEED)
        if isinstance(tutorial_seed, bool) or not isinstance(tutorial_seed, int) or not 0 <= tutorial_seed < 2**31:
            raise StudyError(f"key 'tutorial.seed' must be a whole number from 0; got {tutorial_seed!r}")
        body.setdefault("opponents", "greedy")
        if partner is not None:
            body.setdefault("partner", "greedy")
        tutorial = _condition(web, body, "tutorial", players, partner, others)
    blind = data.get("blind", True)
    if not isinstance(blind, bool):
        raise StudyError(f"key 'blind' must be true or false; got {blind!r}")
    return Study(
        id=study_id,
        game=web.name,
        players=players,
        options=options,
        seat=seat,
        conditions=tuple(read),
        seeds=seeds,
        deals=explicit,
        hands_per_block=hands,
        order=order,
        consent=consent,
        questions=tuple(questions),
        completion_code=code,
        tutorial=tutorial,
        partner_seat=partner,
        tutorial_seed=tutorial_seed,
        blind=blind,
    )


def markdown(text: str) -> str:
    """A small, safe Markdown to HTML for the consent page: every character escaped, then ``#``
    headings, ``-``/``*`` and ``1.`` lists, paragraphs, ``**bold**``, ``*emphasis*`` and
    ``[text](https://…)`` links.

    >>> markdown("# Consent\\n\\nYou **may** stop <any> time.\\n\\n- one\\n- two")
    '<h1>Consent</h1>\\n<p>You <strong>may</strong> stop &lt;any&gt; time.</p>\\n<ul><li>one</li><li>two</li></ul>'
    """
    from html import escape

    def inline(line: str) -> str:
        line = escape(line)
        line = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", line)
        line = re.sub(r"\*(.+?)\*", r"<em>\1</em>", line)
        return re.sub(r"\[([^\]]+)\]\((https?://[^)\s&]+)\)", r'<a href="\2" rel="noreferrer">\1</a>', line)

    blocks, out = re.split(r"\n\s*\n", text.strip()), []
    for block in blocks:
        lines = [line.strip() for line in block.splitlines() if line.strip()]
        if not lines:
            continue
        heading = re.match(r"(#{1,4})\s+(.*)", lines[0])
        if heading and len(lines) == 1:
            level = len(heading.group(1))
            out.append(f"<h{level}>{inline(heading.group(2))}</h{level}>")
        elif all(re.match(r"[-*]\s+", line) for line in lines):
            out.append("<ul>" + "".join(f"<li>{inline(line[1:].strip())}</li>" for line in lines) + "</ul>")
        elif all(re.match(r"\d+\.\s+", line) for line in lines):
            items = "".join(f"<li>{inline(line.split('.', 1)[1].strip())}</li>" for line in lines)
            out.append(f"<ol>{items}</ol>")
        else:
            out.append(f"<p>{inline(' '.join(lines))}</p>")
    return "\n".join(out)
