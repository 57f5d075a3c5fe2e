"""Figures with matplotlib: the figures of an experiment's report, drawn from its rows.

``privpac.experiment.figures(name, rows)`` returns the figures the experiment's SVG report
draws, as data; :func:`draw` renders one with matplotlib in the report's conventions
(axes, 1-2-5 ticks on logarithmic axes and colours from
``privpac.experiment.figure_layout``, bounds and slope guides dashed in the colour of their
measurement, references dashed in grey, the legend outside the data; a series drawn exactly
on an earlier one gets hollow square markers and the legend entry
``LABEL (same line as "EARLIER")``, so neither is hidden), and
:func:`experiment_figures` draws them all::

    import privpac, privpac.plot
    rows = privpac.experiment.merge([...])            # or results.json's "rows"
    for figure in privpac.plot.experiment_figures("k-curves", rows):
        figure.savefig("k-curves.png", dpi=150)

matplotlib is optional: privpac imports without it, and these functions raise
``ImportError`` naming the package to install when it is missing.
"""

import math

from . import _privpac

__all__ = ["coinciding", "draw", "experiment_figures"]


def _pyplot():
    try:
        import matplotlib.pyplot as plt
    except ImportError as error:
        raise ImportError("privpac.plot needs matplotlib (pip install matplotlib)") from error
    return plt


def _plot_points(figure, series):
    """The series' drawable points (non-finite and, on log axes, non-positive values
    dropped) in data coordinates, and in plot coordinates (log10 on log axes)."""
    kept = [
        (x, y)
        for x, y in series["points"]
        if math.isfinite(x)
        and math.isfinite(y)
        and (not figure["log_x"] or x > 0)
        and (not figure["log_y"] or y > 0)
    ]
    plot = [
        (math.log10(x) if figure["log_x"] else x, math.log10(y) if figure["log_y"] else y)
        for x, y in kept
    ]
    return kept, plot


def coinciding(figure):
    """For each series of ``figure``, the index of an earlier series drawn on exactly the
    same line (the same drawable points to 1e-9 in plot coordinates, as the SVG report
    decides), or None."""
    lines = [_plot_points(figure, series)[1] for series in figure["series"]]

    def close(a, b):
        return (
            len(a) > 0
            and len(a) == len(b)
            and all(
                abs(p[0] - q[0]) <= 1e-9 * (1 + abs(p[0]))
                and abs(p[1] - q[1]) <= 1e-9 * (1 + abs(p[1]))
                for p, q in zip(a, b)
            )
        )

    return [
        next((j for j in range(i) if close(lines[i], lines[j])), None) for i in range(len(lines))
    ]


def draw(figure, ax=None):
    """Draws one figure dict (from ``privpac.experiment.figures``, or built by hand in the
    same shape) and returns the matplotlib ``Figure``. With ``ax``, draws into that axes.

    Raises privpac.BadInputError for a dict that is not a figure, ImportError without
    matplotlib.
    """
    layout = _privpac.experiment.figure_layout(figure)
    plt = _pyplot()
    if ax is None:
        fig, ax = plt.subplots(figsize=(9.6, 5.0))
    else:
        fig = ax.figure
    same = coinciding(figure)
    handles, legend_labels = [], []
    for series, colour, earlier in zip(figure["series"], layout["colours"], same):
        points = _plot_points(figure, series)[0]
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        style = "-" if series["style"] == "measured" else "--"
        if earlier is None:
            marker = {"marker": "o", "markersize": 4} if style == "-" else {}
        else:
            # On top of an earlier line: hollow squares, so both colours show.
            marker = {"marker": "s", "markersize": 8, "markerfacecolor": "none"}
        (line,) = ax.plot(
            xs, ys, style, color=colour, linewidth=2, label=series["label"], **marker
        )
        handles.append(line)
        legend_labels.append(
            series["label"]
            if earlier is None
            else f'{series["label"]} (same line as “{figure["series"][earlier]["label"]}”)'
        )
    for name, axis in (("x", layout["x"]), ("y", layout["y"])):
        if axis["log"]:
            getattr(ax, f"set_{name}scale")("log")
        getattr(ax, f"set_{name}lim")(axis["lo"], axis["hi"])
        values = [tick[0] for tick in axis["ticks"]]
        labels = [tick[1] for tick in axis["ticks"]]
        getattr(ax, f"set_{name}ticks")(values, labels)
        getattr(ax, f"set_{name}ticks")([], minor=True)
    ax.grid(True, color="#e1e1e1", linewidth=1)
    ax.set_axisbelow(True)
    ax.set_xlabel(figure["x_label"])
    ax.set_ylabel(figure["y_label"])
    ax.set_title(figure["title"])
    if figure["series"]:
        ax.legend(handles, legend_labels, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    fig.tight_layout()
    return fig


def experiment_figures(name, rows):
    """Draws every figure of experiment ``name``'s report from its rows (the merged rows of
    ``privpac.experiment.merge``, or the ``"rows"`` of a results.json) and returns the
    matplotlib ``Figure`` objects, in the report's order; each one's ``privpac_file``
    attribute is the file name the SVG report uses (with its ``.svg`` suffix).

    Raises privpac.InvalidParameterError for an unknown name, privpac.BadInputError for
    rows that are not a list of dicts, ImportError without matplotlib.
    """
    drawn = []
    for figure in _privpac.experiment.figures(name, rows):
        fig = draw(figure)
        fig.privpac_file = figure["file"]
        drawn.append(fig)
    return drawn
