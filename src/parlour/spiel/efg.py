"""A small game's whole tree as a Gambit EFG, for OpenSpiel's C++ solvers.

OpenSpiel's exact methods (``CFRSolver``, ``exploitability.nash_conv``, best responses)
walk the whole game tree at every iteration. Our Python states cost tens of microseconds
each to copy and step, so a tree of tens of thousands of nodes takes seconds a walk;
:func:`export` walks it once, through the rules, and writes it out in Gambit's extensive
form (``pyspiel.load_efg_game`` reads it): the same tree, the same chance probabilities,
returns and information sets (one per information-state string of ours), solved in C++.

:class:`Tree` also keeps, for each information set, one of our states in it, so that any
policy of ours (our computer players, :func:`parlour.spiel.bots.bot_policy`) can be asked
there and written into a :class:`open_spiel.python.policy.TabularPolicy` of the EFG game.

>>> import pyspiel, parlour.spiel
>>> game = pyspiel.load_game("parlour_slabberjan", {"players": 2, "chips": 1,
...     "variant": "small", "max_turns": 1, "cut": "lead"})
>>> tree = export(game)
>>> efg = pyspiel.load_efg_game(tree.text)
>>> efg.num_players(), tree.nodes > 100, len(tree.states) == len(tree.infosets)
(2, True, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Tree:
    """An exported game tree."""

    text: str = ""
    """The tree in Gambit's EFG format."""
    nodes: int = 0
    #: our information-state string -> its EFG information set's name
    infosets: dict[str, str] = field(default_factory=dict)
    #: the EFG information set's name -> one of our states in it
    states: dict[str, Any] = field(default_factory=dict)


def export(game: Any, *, name: str = "parlour") -> Tree:
    """Walks the whole tree of ``game`` (an OpenSpiel game; keep it small) and writes it as
    EFG. Actions are named by ``action_to_string``, information sets ``i1``, ``i2``, ..."""
    players = game.num_players()
    tree = Tree()
    lines = ["EFG 2 R " + _quoted(name) + " { "
             + " ".join(_quoted(f"seat {p}") for p in range(players)) + " }", '""']
    numbers: dict[tuple[int, str], int] = {}
    outcomes = 0
    chance_sets = 0
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        tree.nodes += 1
        if state.is_terminal():
            outcomes += 1
            payoffs = " ".join(repr(float(r)) for r in state.returns())
            lines.append(f't "" {outcomes} "" {{ {payoffs} }}')
            continue
        if state.is_chance_node():
            chance_sets += 1
            odds = state.chance_outcomes()
            labels = " ".join(f"{_quoted(state.action_to_string(a))} {p!r}" for a, p in odds)
            lines.append(f'c "" {chance_sets} "" {{ {labels} }} 0')
            children = [state.child(a) for a, _ in odds]
        else:
            player = state.current_player()
            info = state.information_state_string(player)
            key = (player, info)
            number = numbers.get(key)
            if number is None:
                number = numbers[key] = sum(1 for p, _ in numbers if p == player) + 1
                label = f"i{len(tree.states) + 1}"
                tree.infosets[info] = label
                tree.states[label] = state.clone()
            actions = state.legal_actions()
            labels = " ".join(_quoted(state.action_to_string(player, a)) for a in actions)
            lines.append(f'p "" {player + 1} {number} {_quoted(tree.infosets[info])} '
                         f'{{ {labels} }} 0')
            children = [state.child(a) for a in actions]
        stack.extend(reversed(children))  # depth first, in order: EFG's preorder
    tree.text = "\n".join(lines) + "\n"
    return tree


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
