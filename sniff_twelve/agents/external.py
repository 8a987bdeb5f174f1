"""Agents from outside the library: by import path, ``py:package.module:Name[:ARG]``, or by the
name an installed package gives them in its game's entry-point group.

``Name`` is an ``Agent`` subclass or a factory returning an ``Agent``; ``ARG`` (a string) is its one
argument. The spec is a string, so it travels to worker processes, which build the agent again
there; any spec a built-in agent accepts works the same way (``make_agent``, ``arena``,
``crossplay``, ``ladder``). Whatever goes wrong is one ``ValueError`` naming the spec.

A package registers agents under the group ``sniff_env.agents`` or ``twelve_env.agents``; in its
``pyproject.toml``::

    [project.entry-points."sniff_env.agents"]
    belief = "my_agents.belief:BeliefAgent"

and ``belief`` (``belief:ARG``) is then an agent spec like the built-ins, listed beside them.

>>> from sniff_env.agents import make_agent
>>> agent = make_agent("py:sniff_twelve.agents.builtin:RandomAgent")
>>> type(agent).__name__
'RandomAgent'
"""

from __future__ import annotations

import importlib
import importlib.metadata
from typing import Any

from sniff_twelve.agents.spec import IMPORT
from sniff_twelve.core.agent import Agent

PREFIX = f"{IMPORT}:"
FORM = "py:package.module:Name or py:package.module:Name:ARG"


def import_agent(agent_spec: str, **kwargs: Any) -> Agent:
    """The agent ``agent_spec`` (``py:…``) names, built with its ``ARG`` (if any) and ``kwargs``."""
    module_name, sep, rest = agent_spec[len(PREFIX) :].partition(":")
    name, _, arg = rest.partition(":")
    if not (module_name and sep and name.isidentifier()):
        raise ValueError(f"agent spec {agent_spec!r}: write {FORM}")
    try:
        module = importlib.import_module(module_name)
    except Exception as error:  # an import can fail in any way: report it, whatever it is
        raise ValueError(f"agent spec {agent_spec!r}: module {module_name!r} does not import ({_say(error)})") from None
    target = getattr(module, name, None)
    if not callable(target):
        raise ValueError(f"agent spec {agent_spec!r}: module {module_name!r} has no agent class or factory {name!r}")
    try:
        agent = target(*([arg] if arg else []), **kwargs)
    except Exception as error:
        call = f"{name}({arg!r})" if arg else f"{name}()"
        raise ValueError(f"agent spec {agent_spec!r}: {call} raised {_say(error)}") from None
    if not isinstance(agent, Agent):
        raise ValueError(
            f"agent spec {agent_spec!r}: {name} gave a {type(agent).__name__}, not an Agent "
            "(subclass sniff_twelve.core.agent.Agent and implement choose(view))"
        )
    return agent


def installed_agents(group: str) -> dict[str, str]:
    """``name → "package.module:Name"`` for every agent an installed package registers in ``group``."""
    return {entry.name: entry.value for entry in importlib.metadata.entry_points(group=group)}


def _say(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
