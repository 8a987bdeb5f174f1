"""Agent specs: the strings that name agents, parsed once (the grammar: docs/agents.md).

``NAME[:ARGUMENT][@POLICY]`` is one agent: a registered or installed name, what follows its first
``:`` (iterations, a model, a checkpoint: the agent reads it), and the policy that guides a search
(``rollout:64@ppo``); ``py:package.module:Name[:ARG]`` is an agent by import path. An arena entry
``a+b`` is a partnership, one agent a seat of a side (``partners``). Old spellings still parse,
with a ``DeprecationWarning`` naming the new one (``OLD_NAMES``, ``OLD_GUIDED``).

>>> spec = AgentSpec.parse("belief:64:greedy@ppo")
>>> spec.name, spec.argument, str(spec.guide), str(spec)
('belief', '64:greedy', 'ppo', 'belief:64:greedy@ppo')
>>> partners("greedy+heuristic")
['greedy', 'heuristic']
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass

from sniff_twelve.core.options import ArgumentTypeError

#: the name of an agent by import path (``sniff_twelve.agents.external``): ``py:…``
IMPORT = "py"
#: what joins the agents of a partnership in an arena entry
PARTNER = "+"
#: what puts a policy after the search it guides
GUIDE = "@"
#: the policy that guides a search: the game's trained ``ppo`` (its checkpoint after a ``:``)
GUIDE_POLICY = "ppo"
#: old names that still build the agent now named otherwise
OLD_NAMES = {"ismcts": "rollout"}
#: the old one-agent spellings with ``+``: ``ismcts[:N]+ppo[:PATH]`` and ``belief[:N[:MODEL]]+ppo``
#: (now ``rollout[:N]@ppo[:PATH]``, ``belief[:N[:MODEL]]@ppo``; PATH holds no ``+``)
OLD_GUIDED = re.compile(r"ismcts(?::[^+]*)?\+ppo(?::[^+]+)?|belief(?::[^+]*)?\+ppo")
#: a guide: the first ``@`` followed by a name up to a ``:``, an ``@`` or the end (``ppo:runs/a@b.npz``
#: is a path)
_GUIDE_AT = re.compile(GUIDE + r"(?=[A-Za-z_]\w*(?:[:@]|$))")


@dataclass(frozen=True)
class AgentSpec:
    """One agent, as its spec names it: ``NAME[:ARGUMENT][@POLICY]``; ``str`` writes it back."""

    name: str
    #: what follows the name's ``:`` (``""``: nothing); the agent's class reads it
    argument: str = ""
    #: the ``POLICY`` that guides the search (``@ppo[:CHECKPOINT]``), or ``None``
    guide: AgentSpec | None = None

    @classmethod
    def parse(cls, text: str) -> AgentSpec:
        """The spec ``text`` writes; ``ValueError`` for a partnership or a bad shape, a
        ``DeprecationWarning`` naming the new spelling for an old one (module docstring)."""
        if not isinstance(text, str):
            raise ArgumentTypeError(f"an agent spec is a string such as 'greedy' or 'rollout:200'; got {text!r}")
        if text.startswith(IMPORT + ":"):
            return cls(IMPORT, text[len(IMPORT) + 1 :])
        old_guide = bool(OLD_GUIDED.fullmatch(text))
        written, text = text, text.replace(PARTNER, GUIDE, 1) if old_guide else text
        if PARTNER in text:
            raise ValueError(f"agent spec {text!r} is a partnership (an arena entry), not one agent")
        head, guide = _split_guide(text)
        name, _, argument = head.partition(":")
        spec = cls(OLD_NAMES.get(name, name), argument, cls.parse(guide) if guide else None)
        if spec.guide is not None and spec.guide.guide is not None:
            raise ValueError(f"agent spec {written!r}: a guide takes no guide of its own")
        if old_guide or name in OLD_NAMES:
            message = f"agent spec {written!r} is deprecated: write {str(spec)!r}"
            warnings.warn(message, DeprecationWarning, stacklevel=2)
        return spec

    def __str__(self) -> str:
        text = self.name + (f":{self.argument}" if self.argument else "")
        return text + (f"{GUIDE}{self.guide}" if self.guide is not None else "")


def _split_guide(text: str) -> tuple[str, str]:
    """``text`` before its guide and the guide (``""``: none)."""
    at = _GUIDE_AT.search(text)
    return (text, "") if at is None else (text[: at.start()], text[at.end() :])


def partners(entry: str) -> list[str]:
    """The agent specs of an arena entry, one a seat of its side: ``a+b`` is two; an old
    one-agent spelling (``OLD_GUIDED``) stays one.

    >>> partners("greedy+ppo"), partners("rollout:64@ppo+greedy"), partners("ismcts:64+ppo")
    (['greedy', 'ppo'], ['rollout:64@ppo', 'greedy'], ['ismcts:64+ppo'])
    """
    specs: list[str] = []
    for part in entry.split(PARTNER):
        if specs and OLD_GUIDED.fullmatch(f"{specs[-1]}{PARTNER}{part}"):
            specs[-1] += f"{PARTNER}{part}"
        else:
            specs.append(part)
    return specs
