"""Tests of ``privpac.plot``: the figures of every committed experiment report, drawn with
matplotlib from the committed rows, have the SVG report's files, ticks, colours and line
styles; a missing matplotlib and a malformed figure are clear errors.

matplotlib is a test requirement (``pip install pytest matplotlib``): these tests import it
and fail, rather than skip, without it.
"""

import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

import privpac  # noqa: E402
import privpac.experiment as experiment  # noqa: E402
import privpac.plot  # noqa: E402
from privpac.errors import BadInputError, InvalidParameterError  # noqa: E402

QUICK = Path(__file__).resolve().parents[3] / "docs" / "experiments" / "quick"
REPORTS = sorted(p.parent for p in QUICK.glob("*/results.json"))


def test_every_committed_report_is_found():
    assert len(REPORTS) >= 6


@pytest.mark.parametrize("report", REPORTS, ids=lambda p: p.name)
def test_figures_of_a_report_match_its_svgs(report):
    results = json.loads((report / "results.json").read_text())
    figures = experiment.figures(results["experiment"], results["rows"])
    assert sorted(f["file"] for f in figures) == sorted(p.name for p in report.glob("*.svg"))
    drawn = privpac.plot.experiment_figures(results["experiment"], results["rows"])
    assert [f.privpac_file for f in drawn] == [f["file"] for f in figures]
    for figure, fig in zip(figures, drawn):
        svg = (report / figure["file"]).read_text()
        layout = experiment.figure_layout(figure)
        ax = fig.axes[0]
        for name, axis in (("x", layout["x"]), ("y", layout["y"])):
            labels = [t.get_text() for t in getattr(ax, f"get_{name}ticklabels")()]
            assert labels == [tick[1] for tick in axis["ticks"]]
            assert len(set(labels)) == len(labels), f"repeated tick labels {labels}"
            for label in labels:
                assert f">\n{label}\n</text>" in svg, f"tick {label} is not in the SVG"
            assert getattr(ax, f"get_{name}scale")() == ("log" if axis["log"] else "linear")
        # One line per series with points, in the layout's colour; bounds dashed.
        lines = [
            (s, c) for s, c in zip(figure["series"], layout["colours"]) if s["points"]
        ]
        assert len(ax.get_lines()) == len(lines)
        for line, (series, colour) in zip(ax.get_lines(), lines):
            assert matplotlib.colors.to_hex(line.get_color()) == colour
            dashed = line.get_linestyle() == "--"
            assert dashed == (series["style"] != "measured"), series["label"]
            assert line.get_label() == series["label"]
        # The legend sits right of the data.
        legend = ax.get_legend()
        assert legend is not None
        fig.canvas.draw()
        box = legend.get_window_extent().transformed(ax.transAxes.inverted())
        assert box.x0 > 1.0
        plt.close(fig)


def test_bounds_share_their_measurements_colour():
    figure = {
        "file": "f.svg", "title": "t", "x_label": "k", "y_label": "n",
        "log_x": True, "log_y": True,
        "series": [
            {"label": "a", "points": [[1, 10], [64, 90]], "style": "measured"},
            {"label": "a: bound", "points": [[1, 12], [64, 96]], "style": "bound"},
            {"label": "b", "points": [[1, 20], [64, 80]], "style": "measured"},
            {"label": "claim", "points": [[1, 50], [64, 50]], "style": "reference"},
        ],
    }
    colours = experiment.figure_layout(figure)["colours"]
    assert colours[0] == colours[1] != colours[2]
    assert colours[3] == "#6e6e6e"
    ticks = experiment.figure_layout(figure)["x"]["ticks"]
    assert [label for _, label in ticks] == ["1", "2", "5", "10", "20", "50"]


def test_malformed_figures_and_unknown_experiments_are_errors():
    with pytest.raises(BadInputError):
        experiment.figure_layout({"title": "no series"})
    with pytest.raises(BadInputError):
        privpac.plot.draw({"file": "f", "title": "t", "x_label": "x", "y_label": "y",
                           "log_x": False, "log_y": False,
                           "series": [{"label": "s", "points": [[1, None]], "style": "measured"}]})
    with pytest.raises(InvalidParameterError):
        experiment.figures("no-such-experiment", [])


def test_without_matplotlib_the_error_names_the_package(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    figure = {"file": "f", "title": "t", "x_label": "x", "y_label": "y",
              "log_x": False, "log_y": False, "series": []}
    with pytest.raises(ImportError, match="pip install matplotlib"):
        privpac.plot.draw(figure)


def _coinciding_figure():
    return {
        "file": "f.svg", "title": "t", "x_label": "k", "y_label": "n",
        "log_x": True, "log_y": True,
        "series": [
            {"label": "generic", "points": [[1, 10], [64, 90]], "style": "measured"},
            {"label": "generic bound", "points": [[1, 20], [64, 200]], "style": "bound"},
            {"label": "relabeling", "points": [[1, 12], [64, 95]], "style": "measured"},
            {"label": "relabeling bound", "points": [[1, 20], [64, 200]], "style": "bound"},
        ],
    }


def test_coinciding_curves_are_drawn_distinguishably():
    """A series on exactly the same line as an earlier one gets hollow square markers and
    the legend entry 'LABEL (same line as “EARLIER”)', as the SVG report draws it; a series
    apart by more than the tolerance does not."""
    figure = _coinciding_figure()
    assert privpac.plot.coinciding(figure) == [None, None, None, 1]
    fig = privpac.plot.draw(figure)
    ax = fig.axes[0]
    lines = ax.get_lines()
    assert lines[3].get_marker() == "s"
    assert lines[3].get_markerfacecolor() == "none"
    assert lines[3].get_linestyle() == "--"
    assert [line.get_marker() for line in lines[:3]] == ["o", "None", "o"]
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts == [
        "generic", "generic bound", "relabeling",
        "relabeling bound (same line as \u201cgeneric bound\u201d)",
    ]
    # The line keeps its own label; only the legend names the line it lies on.
    assert lines[3].get_label() == "relabeling bound"
    plt.close(fig)
    # Apart (by 5e-6 relative): not marked.
    figure["series"][3]["points"] = [[1, 20], [64, 200.001]]
    assert privpac.plot.coinciding(figure) == [None, None, None, None]
    fig = privpac.plot.draw(figure)
    assert fig.axes[0].get_lines()[3].get_marker() == "None"
    assert all("same line" not in t.get_text() for t in fig.axes[0].get_legend().get_texts())
    plt.close(fig)


@pytest.mark.parametrize("report", REPORTS, ids=lambda p: p.name)
def test_coinciding_curves_match_the_svg_legends(report):
    """Every committed figure names the same coinciding lines in its matplotlib legend as
    in its SVG legend (the committed reports have some)."""
    results = json.loads((report / "results.json").read_text())
    for figure in experiment.figures(results["experiment"], results["rows"]):
        svg = (report / figure["file"]).read_text()
        fig = privpac.plot.draw(figure)
        texts = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
        marked = [t for t in texts if "(same line as" in t]
        assert len(marked) == svg.count("(same line as"), figure["file"]
        for text in marked:
            assert f">\n{text}\n</text>" in svg, text
        plt.close(fig)
