"""How a simulation's statistics are shown: a plain-text table, and a PNG with matplotlib
(the ``plot`` extra: a server has no use for it)."""

from __future__ import annotations

from importlib.util import find_spec
from typing import Any

PLOT_MISSING = "--plot needs matplotlib, which is not installed: pip install 'parlour[plot]'"


def plot_available() -> bool:
    """Whether :func:`plot` can draw (matplotlib is installed); nothing is imported."""
    return find_spec("matplotlib") is not None


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _num(x: float | None) -> str:
    if x is None:
        return "-"
    if isinstance(x, float) and not x.is_integer():
        return f"{x:.3f}" if abs(x) < 10 else f"{x:.1f}"
    return f"{x:.0f}"


def text_table(result: dict[str, Any]) -> str:
    """The win rates (Wilson 95% intervals) and the game-length statistics, as text."""
    cfg = result["config"]
    seats = ("seats rotate (entry k at seat (k+i) mod N in game i)" if cfg["swap_seats"]
             else "seats fixed (entry k at seat k)")
    options = ", ".join(f"{k}={v}" for k, v in cfg["options"].items())
    lines = [f"{result['game']}, {result['players']} players, {result['games']} games, "
             f"seed {cfg['seed']}, {seats}" + (f", options {options}" if options else "")]
    extra = sorted({k for e in result["entries"] for k in e}
                   - {"entry", "bot", "seat", "wins", "win_rate", "ci95"})
    intervals = [k for k in extra if k.endswith("_ci95")]
    extra = [k for k in extra if k not in intervals]
    width = max([6, *(len(e["bot"]) for e in result["entries"])])  # a person's name is longer
    header = (f"{'entry':>5}  {'seat':>4}  {'bot':<{width}}  {'wins':>6}  {'win rate':>8}  "
              "95% CI (Wilson)")
    lines += ["", header + "".join(f"  {k:>14}" for k in extra)]
    for e in result["entries"]:
        lo, hi = e["ci95"]
        seat = str(e["seat"]) if isinstance(e["seat"], int) else "rot"
        row = (f"{e['entry']:>5}  {seat:>4}  {e['bot']:<{width}}  {e['wins']:>6}  "
               f"{_pct(e['win_rate']):>8}  [{_pct(lo)}, {_pct(hi)}]")
        lines.append(row + "".join(f"  {_num(e[k]):>14}" for k in extra))
    for key in intervals:
        name = key.removesuffix("_ci95")
        lines.append("")
        lines.append(f"{name}, 95% CI (delta method over games):")
        for e in result["entries"]:
            lo, hi = e[key]
            lines.append(f"  entry {e['entry']} {e['bot']:<{width}}  {_num(e[name])}  "
                         f"[{lo:.3f}, {hi:.3f}]")
    unfinished = f"unfinished (capped): {result['unfinished']}"
    if result["stopped"]:
        unfinished += " (" + ", ".join(f"{k}: {v}" for k, v in result["stopped"].items()) + ")"
    drawn = f" ({result['draws']} drawn)" if result["draws"] else ""
    lines += ["", f"finished: {result['finished']}{drawn}   {unfinished}",
              "win rates are over finished games", ""]
    lines.append(f"{'game length':<20} {'mean':>8} {'sd':>8} {'min':>7} {'p5':>7} "
                 f"{'median':>7} {'p95':>7} {'max':>7}")
    for key, label in (("actions", "actions"), ("seconds", "virtual seconds")):
        s = result["length"][key]
        if s["count"]:
            cells = [f"{s[k]:>7.0f}" if key == "actions" else f"{s[k]:>7.1f}"
                     for k in ("min", "p5", "median", "p95", "max")]
            lines.append(f"{label:<20} {s['mean']:>8.1f} {s['sd']:>8.1f} " + " ".join(cells))
    return "\n".join(lines) + "\n"


def plot(result: dict[str, Any], path: str) -> None:
    """Win rates with their intervals, and the distribution of game lengths, into ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    entries = result["entries"]
    labels = [f"{e['entry']}: {e['bot']}" for e in entries]
    rates = [e["win_rate"] or 0.0 for e in entries]
    errors = [[r - e["ci95"][0] for r, e in zip(rates, entries, strict=True)],
              [e["ci95"][1] - r for r, e in zip(rates, entries, strict=True)]]
    left.bar(labels, rates, yerr=errors, capsize=6, color="#4c72b0")
    left.axhline(1 / result["players"], color="grey", linestyle="--", linewidth=1,
                 label="even share")
    left.set_ylim(0, 1)
    left.set_ylabel("win rate (95% Wilson interval)")
    left.set_title(f"{result['game']}: {result['finished']} finished games")
    left.legend()
    lengths = result["lengths"]
    span = (max(lengths) - min(lengths)) if lengths else 0
    # one bar per length when they are few, so integer lengths leave no empty bins
    bins: Any = range(min(lengths), max(lengths) + 2) if lengths and span < 60 else 40
    right.hist(lengths, bins=bins, color="#55a868")
    right.set_xlabel("game length (actions)")
    right.set_ylabel("games")
    right.set_title("game lengths")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
