"""Figures with matplotlib: the figures of an experiment's report, drawn from its rows.

``privpac.experiment.figures(name, rows)`` returns the figures the experiment's SVG report
draws, as data; :func:`draw` renders one with matplotlib in the report's conventions
(axes, 1-2-5 ticks on logarithmic axes and colours from
``privpac.experiment.figure_layout``, bounds and slope guides dashed in the colour of their
measurement, references dashed in grey, the legend outside the data), and
:func:`experiment_figures` draws them all::

    import privpac, privpac.plot
    rows = privpac.experiment.merge([...])            # or results.json's "rows"
    for figure in privpac.plot.experiment_figures("k-curves", rows):
        figure.savefig("k-curves.png", dpi=150)

matplotlib is optional: privpac imports without it, and these functions raise
``ImportError`` naming the package to install when it is missing.
"""

from . import _privpac

__all__ = ["draw", "experiment_figures"]


def _pyplot():
    try:
        import matplotlib.pyplot as plt
    except ImportError as error:
        raise ImportError("privpac.plot needs matplotlib (pip install matplotlib)") from error
    return plt


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
    for series, colour in zip(figure["series"], layout["colours"]):
        points = [
            (x, y)
            for x, y in series["points"]
            if (not figure["log_x"] or x > 0) and (not figure["log_y"] or y > 0)
        ]
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        if series["style"] == "measured":
            ax.plot(xs, ys, "-o", color=colour, linewidth=2, markersize=4, label=series["label"])
        else:
            ax.plot(xs, ys, "--", color=colour, linewidth=2, label=series["label"])
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
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
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
