"""The arena report: per-bot points with paired confidence intervals, rates, scores and
decision times, as a JSON-ready dict, a text table and a PNG chart."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

from ..rulesets import ruleset as find_ruleset
from .arena import DECISION_LIMIT_MEDIAN, DECISION_LIMIT_WORST, ChunkResult
from .stats import mean_ci, paired_difference


def build_report(
    result: ChunkResult,
    ruleset: str,
    bots: list[str],
    seed_start: int,
    workers: int,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Summarise a merged arena result."""
    unit = find_ruleset(ruleset).unit
    distinct = list(dict.fromkeys(bots))
    per_bot: dict[str, Any] = {}
    for name in distinct:
        t = result.tallies[name]
        series = [g[name] for g in result.groups]
        entry: dict[str, Any] = {
            "points_per_hand": mean_ci(series).as_dict() if series else None,
            "seat_hands": t.seat_hands,
            "wins": t.wins,
            "win_rate": t.wins / t.seat_hands if t.seat_hands else 0.0,
            "deal_in_rate": t.deal_ins / t.seat_hands if t.seat_hands else 0.0,
            "decision_ms": {
                "median": 1000 * t.timing.quantile(0.5),
                "p99": 1000 * t.timing.quantile(0.99),
                "max": 1000 * t.timing.maximum,
                "count": t.timing.count,
            },
            "decision_cpu_ms": {
                "median": 1000 * t.cpu_timing.quantile(0.5),
                "p99": 1000 * t.cpu_timing.quantile(0.99),
                "max": 1000 * t.cpu_timing.maximum,
            },
            "illegal_actions": t.illegal,
            "liability": t.liability.summary(),
        }
        if t.errors:
            entry["illegal_examples"] = list(t.errors)
        if unit == "tai":  # 台 and 番 (Jiaxing)
            entry["avg_tai"] = t.tai / t.wins if t.wins else None
            entry["avg_fan"] = t.fan / t.wins if t.wins else None
        else:  # 和 points (Wenling)
            entry["avg_he"] = t.win_points / t.wins if t.wins else None
        entry["time_limits_ok"] = (
            t.timing.quantile(0.5) <= DECISION_LIMIT_MEDIAN
            and t.timing.maximum <= DECISION_LIMIT_WORST
        )
        per_bot[name] = entry
    pairwise = []
    for a, b in itertools.combinations(distinct if result.groups else [], 2):
        diff = paired_difference([g[a] for g in result.groups], [g[b] for g in result.groups])
        pairwise.append(
            {
                "a": a,
                "b": b,
                "diff_points_per_hand": diff.as_dict(),
                "a_better_significant": diff.low > 0,
                "b_better_significant": diff.high < 0,
            }
        )
    return {
        "ruleset": ruleset,
        "bots": list(bots),
        "options": options or {},
        "duplicate_sets": len(result.groups),
        "seed_range": [seed_start, seed_start + len(result.groups)],
        "hands_played": result.hands,
        "draw_rate": result.draws / result.hands if result.hands else 0.0,
        "workers": workers,
        "elapsed_s": round(result.seconds, 2),
        "ci_method": "t interval over duplicate sets (one value per seed, all rotations)",
        "per_bot": per_bot,
        "pairwise": pairwise,
        "illegal_actions_total": sum(t.illegal for t in result.tallies.values()),
        "engine_errors": len(result.engine_errors),
        "engine_error_examples": result.engine_errors[:10],
    }


def write_json(report: dict[str, Any], path: str | Path) -> None:
    Path(path).write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def text_table(report: dict[str, Any]) -> str:
    """A plain-text summary of the report."""
    score_key = f"avg_{find_ruleset(report['ruleset']).unit}"
    lines = [
        f"{report['ruleset']}: {report['duplicate_sets']} duplicate sets, "
        f"{report['hands_played']} hands, draws {100 * report['draw_rate']:.1f}%, "
        f"{report['elapsed_s']} s",
        f"{'bot':<12}{'pts/hand':>10}{'95% CI':>22}{'win%':>8}{score_key:>9}"
        f"{'med ms':>9}{'p99 ms':>9}{'max ms':>9}{'illegal':>9}",
    ]
    for name, e in report["per_bot"].items():
        p = e["points_per_hand"] or {"mean": float("nan"), "ci95": [float("nan")] * 2}
        avg = e.get(score_key)
        low, high = p["ci95"]
        ci_text = f"[{low:.3f}, {high:.3f}]"
        avg_text = "-" if avg is None else f"{avg:.2f}"
        lines.append(
            f"{name:<12}{p['mean']:>10.3f}{ci_text:>22}"
            f"{100 * e['win_rate']:>8.1f}{avg_text:>9}"
            f"{e['decision_ms']['median']:>9.2f}{e['decision_ms']['p99']:>9.2f}"
            f"{e['decision_ms']['max']:>9.1f}{e['illegal_actions']:>9}"
        )
    for name, e in report["per_bot"].items():
        cpu = e.get("decision_cpu_ms")
        if cpu:
            lines.append(
                f"{name}: decision thread CPU ms median {cpu['median']:.2f}, "
                f"p99 {cpu['p99']:.2f}, max {cpu['max']:.1f}"
            )
    lines.extend(_liability_lines(report))
    for pair in report["pairwise"]:
        d = pair["diff_points_per_hand"]
        verdict = (
            f"{pair['a']} better"
            if pair["a_better_significant"]
            else f"{pair['b']} better"
            if pair["b_better_significant"]
            else "not significant"
        )
        lines.append(
            f"{pair['a']} - {pair['b']}: {d['mean']:+.3f} per hand, 95% CI "
            f"[{d['ci95'][0]:+.3f}, {d['ci95'][1]:+.3f}] ({verdict})"
        )
    return "\n".join(lines)


def _liability_lines(report: dict[str, Any]) -> list[str]:
    """三摊 choices and their results, third claims fed, 包三家 payments, per bot."""

    def pct(x: float | None) -> str:
        return "-" if x is None else f"{100 * x:.0f}%"

    def num(x: float | None) -> str:
        return "-" if x is None else f"{x:+.2f}"

    rules = find_ruleset(report["ruleset"])
    lines = []
    for name, e in report["per_bot"].items():
        li = e.get("liability")
        if not li:
            continue
        hands = e["seat_hands"] or 1
        if rules.santan:
            lines.append(
                f"{name}: 三摊 asked {li['santan_asked']}, 坚持 {pct(li['continue_rate'])}; "
                f"after 坚持 {num(li['points_after_continue'])} pts/hand, "
                f"won {pct(li['win_rate_after_continue'])}, "
                f"others won {pct(li['others_won_after_continue'])}; "
                f"third claims fed {li['third_claim_feeds']} "
                f"({100 * li['third_claim_feeds'] / hands:.1f} per 100 hands)"
            )
        elif rules.baosanjia:
            lines.append(
                f"{name}: 包三家 {li['baosanjia']} "
                f"({100 * li['baosanjia'] / hands:.2f} per 100 hands), "
                f"mean paid {num(li['baosanjia_mean_paid'])}"
            )
    return lines


def write_png(report: dict[str, Any], path: str | Path) -> None:
    """A three-panel chart: points per hand (95% CI), win rate, decision time."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(report["per_bot"])
    entries = [report["per_bot"][n] for n in names]
    if not report["duplicate_sets"]:
        raise ValueError("no duplicate set finished: nothing to chart")
    means = [e["points_per_hand"]["mean"] for e in entries]
    errs = [
        [m - e["points_per_hand"]["ci95"][0] for m, e in zip(means, entries, strict=True)],
        [e["points_per_hand"]["ci95"][1] - m for m, e in zip(means, entries, strict=True)],
    ]
    fig, axes = plt.subplots(1, 3, figsize=(13, 4.2))
    colours = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860"]
    bar_colours = [colours[i % len(colours)] for i in range(len(names))]
    ax = axes[0]
    ax.bar(names, means, yerr=errs, capsize=6, color=bar_colours)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_title("points per hand (95% CI)")
    ax = axes[1]
    ax.bar(names, [100 * e["win_rate"] for e in entries], color=bar_colours)
    ax.set_title("win rate (%)")
    ax = axes[2]
    med = [e["decision_ms"]["median"] for e in entries]
    p99 = [e["decision_ms"]["p99"] for e in entries]
    xs = range(len(names))
    ax.bar([x - 0.2 for x in xs], med, width=0.4, label="median", color="#4c72b0")
    ax.bar([x + 0.2 for x in xs], p99, width=0.4, label="p99", color="#dd8452")
    ax.set_xticks(list(xs), names)
    ax.set_yscale("log")
    ax.set_title("decision time (ms)")
    ax.legend()
    fig.suptitle(
        f"baida arena: {report['ruleset']}, {report['duplicate_sets']} duplicate sets, "
        f"{report['hands_played']} hands"
    )
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
