"""Can the learned response's input play the exact best response? ``python -m benchmarks.response_inputs``.

On a small table (``benchmarks.exploit.SMALL``) the exact best response to an agent is a choice per
information state, and information states remember the whole deal so far; the learned response
sees only the seat's observation and the action features (``sniff_twelve.tools.response``). For
every agent and seat this groups the information states by that input and counts the groups where
the best response (OpenSpiel's ``TabularBestResponse``) plays differently: none means a policy of
the input alone can play it, so what keeps a learned response short of it is the training. Where
there are some, a policy of the input is improved group by group from the best response's
majority choice (exact values, sweeps until no group gains) and its value reported.
"""

from __future__ import annotations

import argparse
import collections
import json

from benchmarks.exploit import AGENTS, SMALL
from sniff_twelve.agents.builtin import game_agents
from sniff_twelve.core.games import game_spec
from sniff_twelve.core.seats import Table
from sniff_twelve.tools.exploitability import GameTree, _policy_of, _spiel, agent_choices


def input_groups(tree: GameTree, seat: int) -> dict[tuple[bytes, bytes], list[str]]:
    """``seat``'s information states (EFG keys) grouped by the response's input."""
    groups = collections.defaultdict(list)
    for key, info, _ in tree.states:
        if info.player == seat:
            engine = info.state._engine
            groups[engine.observation(seat).tobytes(), engine.action_features().tobytes()].append(key)
    return groups


def best_input_policy(tree: GameTree, seat: int, agent_policy: dict, groups: dict, best: dict) -> float:
    """The value for ``seat`` of a deterministic policy of the input, against ``agent_policy``:
    the best response's majority choice in each group, then each group's choice changed while
    that gains."""
    ours = {key: {efg: a for a, efg in mapping.items()} for key, _, mapping in tree.states}

    def value(choice: dict) -> float:
        policy = dict(agent_policy)
        for group, keys in groups.items():
            for key in keys:
                policy[key] = [(efg, float(ours[key][efg] == choice[group])) for efg, _ in agent_policy[key]]
        return tree.value(policy)[seat]

    choice = {g: collections.Counter(ours[k][best[k]] for k in keys).most_common(1)[0][0] for g, keys in groups.items()}
    current, improved = value(choice), True
    while improved:
        improved = False
        for group, keys in groups.items():
            kept = choice[group]
            for action in sorted(set(ours[keys[0]].values()) - {kept}):
                choice[group] = action
                if (tried := value(choice)) > current + 1e-12:
                    current, kept, improved = tried, action, True
            choice[group] = kept
    return current


def rows(game: str, agents: list[str]) -> list[dict]:
    table = Table.of(game_spec(game), 2, **SMALL[game])
    tree, pyspiel = GameTree(table), _spiel()
    out = []
    for name in agents:
        agent_policy = _policy_of(tree, agent_choices(tree, game_agents(table.spec).make_agent(name)))
        for seat in (0, 1):
            response = pyspiel.TabularBestResponse(tree.game, seat, agent_policy)
            best = response.get_best_response_actions()
            groups = input_groups(tree, seat)
            conflicts = [keys for keys in groups.values() if len({best[k] for k in keys}) > 1]
            row = {
                "game": game,
                "agent": name,
                "seat": seat,
                "infosets": sum(len(keys) for keys in groups.values()),
                "inputs": len(groups),
                "conflicting_inputs": len(conflicts),
                "best_response": response.value(tree.game.new_initial_state().history_str()),
            }
            if conflicts:
                row["best_input_policy"] = best_input_policy(tree, seat, agent_policy, groups, best)
            out.append(row)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=list(SMALL), choices=list(SMALL))
    parser.add_argument("--agents", nargs="+", default=["random", "greedy", "heuristic", "ppo"])
    args = parser.parse_args()
    for game in args.games:
        for row in rows(game, [a for a in args.agents if a in AGENTS[game]]):
            print(json.dumps(row))


if __name__ == "__main__":
    main()
