# Figures shared by scripts/plot and the validate-* scripts (issue 22 item 3): per-kernel bars
# normalized to a baseline with a geometric-mean group, the papers' figure style. matplotlib
# (python3-matplotlib, scripts/setup) with the Agg backend, so no display is needed.
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def geomean(xs):
    xs = [x for x in xs if x == x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def save(fig, out, formats=("png", "pdf")):
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    for ext in formats:
        fig.savefig(f"{out}.{ext}", bbox_inches="tight", dpi=150)
    plt.close(fig)
    print(f"wrote {out}." + " and .".join(formats), file=sys.stderr)


def normalized_bars(labels, series, ylabel, title, out, formats=("png", "pdf")):
    """labels: the groups (kernels); series: {name: [ratio per label, nan where missing]}. Draws one
    bar per series and label, a geometric-mean group at the end and a line at 1; returns
    {name: geomean}."""
    geo = {name: geomean(v) for name, v in series.items()}
    n = len(labels) + 1
    width = 0.8 / max(1, len(series))
    fig, ax = plt.subplots(figsize=(min(18, max(6, 0.22 * n * max(1, len(series)) + 2)), 4))
    for i, (name, v) in enumerate(series.items()):
        xs = [j + (i - (len(series) - 1) / 2) * width for j in range(n)]
        ax.bar(xs, list(v) + [geo[name]], width, label=name)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(range(n))
    ax.set_xticklabels(list(labels) + ["geomean"], rotation=45, ha="right")
    ax.set_ylabel(ylabel)
    ax.legend(fontsize="small")
    ax.set_title(title)
    save(fig, out, formats)
    return geo
