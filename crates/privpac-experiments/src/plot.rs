//! SVG line plots for the experiment reports (plotters, SVG backend only, no font files:
//! text is laid out with plotters' built-in size estimate and rendered by the viewer).
//!
//! What makes them printable: tick positions are chosen here, not by the backend (1-2-5
//! multiples of a power of ten on logarithmic axes, a 1-2-5 step on linear ones) and
//! labelled with just enough digits that no two labels coincide; the legend sits in its
//! own panel to the right of the data; bounds are drawn dashed in the colour of the
//! measurement they belong to, and standalone references (a claimed ε, a diagonal) dashed
//! in grey; a series on exactly the line of an earlier one (two equal bounds) is marked with
//! hollow squares and its legend entry names the line it lies on, so neither is hidden.
//! Log axes plot log₁₀ of the values; non-positive values are dropped there.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use serde::{Deserialize, Serialize};

use super::{Error, Result};

/// How a series is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Style {
    /// A measurement: solid line with markers, in the next colour.
    Measured,
    /// A bound or guide for the measurement before it: dashed, the same colour.
    Bound,
    /// A standalone reference line: dashed, grey.
    Reference,
}

/// One line of a figure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Series {
    /// The legend entry.
    pub label: String,
    /// The points `(x, y)` in data units, in drawing order.
    pub points: Vec<(f64, f64)>,
    /// How the line is drawn.
    pub style: Style,
}

impl Series {
    /// A measured series.
    pub fn measured(label: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        Series {
            label: label.into(),
            points,
            style: Style::Measured,
        }
    }

    /// A bound or guide drawn in the colour of the preceding measured series.
    pub fn bound(label: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        Series {
            label: label.into(),
            points,
            style: Style::Bound,
        }
    }

    /// A standalone reference line.
    pub fn reference(label: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        Series {
            label: label.into(),
            points,
            style: Style::Reference,
        }
    }
}

/// A figure as data: what [`Figure::to_svg`] draws, and what any other renderer (the
/// Python package's matplotlib helper) needs to draw the same figure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Figure {
    /// The file name the experiment writes it to (`….svg`).
    pub file: String,
    /// The title.
    pub title: String,
    /// The x axis description.
    pub x_label: String,
    /// The y axis description.
    pub y_label: String,
    /// The lines, in legend order.
    pub series: Vec<Series>,
    /// Whether the x axis is logarithmic.
    pub log_x: bool,
    /// Whether the y axis is logarithmic.
    pub log_y: bool,
}

/// One axis of a figure's [`Layout`], in data units.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Axis {
    /// The lower end of the drawn range.
    pub lo: f64,
    /// The upper end of the drawn range.
    pub hi: f64,
    /// Whether the axis is logarithmic.
    pub log: bool,
    /// The ticks: `(value, label)`, labels distinct.
    pub ticks: Vec<(f64, String)>,
}

/// Where a figure's axes run, where they tick, and each series' colour: the decisions
/// every renderer shares, made once here.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Layout {
    /// The x axis.
    pub x: Axis,
    /// The y axis.
    pub y: Axis,
    /// Each series' colour as `#rrggbb`, in series order.
    pub colours: Vec<String>,
}

const COLORS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(23, 190, 207),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
];

const GREY: RGBColor = RGBColor(110, 110, 110);
const GRID: RGBColor = RGBColor(225, 225, 225);

const WIDTH: u32 = 960;
const HEIGHT: u32 = 500;
const FONT: u32 = 13;

fn plot_error(name: &str, reason: impl std::fmt::Display) -> Error {
    Error::Plot {
        name: name.into(),
        reason: reason.to_string(),
    }
}

/// One tick: its position on the (possibly log₁₀-transformed) axis and its label.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Tick {
    pub(super) at: f64,
    pub(super) label: String,
}

/// Ticks for the axis range `[lo, hi]` (in plot coordinates: log₁₀ of the values on a log
/// axis). Log axes tick at 1, 2, 5 × 10^e (only at powers of ten when that would give more
/// than 12 ticks, and at every integer multiple when the range holds fewer than 3);
/// linear axes at multiples of a 1-2-5 step giving 4 to 10 ticks.
pub(super) fn ticks(lo: f64, hi: f64, log: bool) -> Vec<Tick> {
    if !(lo.is_finite() && hi.is_finite() && lo < hi) {
        return Vec::new();
    }
    if log {
        log_ticks(lo, hi)
    } else {
        linear_ticks(lo, hi)
    }
}

fn log_ticks(lo: f64, hi: f64) -> Vec<Tick> {
    let first = lo.floor() as i32 - 1;
    let last = hi.ceil() as i32 + 1;
    let within = |mantissas: &[f64]| -> Vec<f64> {
        (first..=last)
            .flat_map(|e| mantissas.iter().map(move |&m| m * 10f64.powi(e)))
            .filter(|v| (lo..=hi).contains(&v.log10()))
            .collect()
    };
    let mut values = within(&[1.0, 2.0, 5.0]);
    if values.len() > 12 {
        values = within(&[1.0]);
    } else if values.len() < 3 {
        values = within(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]);
    }
    if values.len() < 3 {
        // Less than a factor of ~3 across: evenly spaced values, placed logarithmically.
        return linear_ticks(10f64.powf(lo), 10f64.powf(hi))
            .into_iter()
            .filter(|t| t.at > 0.0)
            .map(|t| Tick {
                at: t.at.log10(),
                label: t.label,
            })
            .collect();
    }
    values
        .into_iter()
        .map(|v| Tick {
            at: v.log10(),
            label: format_value(v),
        })
        .collect()
}

fn linear_ticks(lo: f64, hi: f64) -> Vec<Tick> {
    let raw = (hi - lo) / 6.0;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * magnitude);
    let decimals = (-step.log10().floor()).max(0.0) as usize;
    let start = (lo / step).ceil() as i64;
    let end = (hi / step).floor() as i64;
    (start..=end)
        .map(|i| {
            let v = i as f64 * step;
            Tick {
                at: v,
                label: format!("{:.*}", decimals, v + 0.0),
            }
        })
        .collect()
}

/// A positive tick value with the digits it needs: integers as integers (powers of ten
/// from 10⁶ as `1e6`), fractions with as many decimals as their leading digit needs.
fn format_value(v: f64) -> String {
    if v >= 1e6 {
        let e = v.log10().floor();
        let m = (v / 10f64.powf(e)).round();
        return format!("{m}e{e}");
    }
    if v >= 1.0 {
        return format!("{}", v.round());
    }
    let decimals = (-v.log10().floor()) as usize;
    format!("{v:.decimals$}")
}

impl Figure {
    /// The axes' ranges (the data's range padded by 5% of its span, a decade around a
    /// single value on a log axis), their ticks and the series' colours.
    pub fn layout(&self) -> Layout {
        let (_, (x0, x1), (y0, y1)) = self.plot_coordinates();
        let from_plot = |v: f64, log: bool| if log { 10f64.powf(v) } else { v };
        let axis = |lo: f64, hi: f64, log: bool| Axis {
            lo: from_plot(lo, log),
            hi: from_plot(hi, log),
            log,
            ticks: ticks(lo, hi, log)
                .into_iter()
                .map(|t| (from_plot(t.at, log), t.label))
                .collect(),
        };
        Layout {
            x: axis(x0, x1, self.log_x),
            y: axis(y0, y1, self.log_y),
            colours: colours(&self.series)
                .into_iter()
                .map(|RGBColor(r, g, b)| format!("#{r:02x}{g:02x}{b:02x}"))
                .collect(),
        }
    }

    /// The drawable points of each series in plot coordinates (log₁₀ on log axes,
    /// non-finite and, on log axes, non-positive values dropped) and the padded ranges.
    #[allow(clippy::type_complexity)]
    fn plot_coordinates(&self) -> (Vec<Vec<(f64, f64)>>, (f64, f64), (f64, f64)) {
        let (log_x, log_y) = (self.log_x, self.log_y);
        let tx = |v: f64| if log_x { v.log10() } else { v };
        let ty = |v: f64| if log_y { v.log10() } else { v };
        let keep = |&(x, y): &(f64, f64)| {
            x.is_finite() && y.is_finite() && (!log_x || x > 0.0) && (!log_y || y > 0.0)
        };
        let lines: Vec<Vec<(f64, f64)>> = self
            .series
            .iter()
            .map(|s| {
                s.points
                    .iter()
                    .filter(|p| keep(p))
                    .map(|&(x, y)| (tx(x), ty(y)))
                    .collect()
            })
            .collect();
        let (mut x0, mut x1, mut y0, mut y1) = lines.iter().flatten().fold(
            (
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64::INFINITY,
                f64::NEG_INFINITY,
            ),
            |(a, b, c, d), &(x, y)| (a.min(x), b.max(x), c.min(y), d.max(y)),
        );
        if !(x0.is_finite() && y0.is_finite()) {
            (x0, x1, y0, y1) = (0.0, 1.0, 0.0, 1.0);
        }
        let pad = |lo: f64, hi: f64, log: bool| {
            // A degenerate range gets a window around its value: a decade on a log axis.
            let span = if hi > lo {
                hi - lo
            } else if log {
                2.0
            } else {
                lo.abs().max(1.0)
            };
            (lo - 0.05 * span, hi + 0.05 * span)
        };
        (lines, pad(x0, x1, log_x), pad(y0, y1, log_y))
    }

    /// The figure as SVG text; see the module docs for the conventions.
    ///
    /// # Errors
    /// [`Error::Plot`] when the backend fails.
    pub fn to_svg(&self) -> Result<String> {
        let name = self.file.as_str();
        let (title, x_label, y_label) = (&self.title, &self.x_label, &self.y_label);
        let (log_x, log_y, series) = (self.log_x, self.log_y, &self.series);
        let (points, (x0, x1), (y0, y1)) = self.plot_coordinates();
        let lines: Vec<(&Series, Vec<(f64, f64)>)> = series.iter().zip(points).collect();
        let same = coinciding(&lines);
        let legend_width = legend_width(
            &(0..series.len())
                .map(|i| legend_label(series, i, same[i]))
                .collect::<Vec<_>>(),
        );
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
            root.fill(&WHITE).map_err(|e| plot_error(name, e))?;
            let root = root
                .titled(title, ("sans-serif", 17))
                .map_err(|e| plot_error(name, e))?;
            let (plot_area, legend_area) = root.split_horizontally(WIDTH - legend_width);
            let mut chart = ChartBuilder::on(&plot_area)
                .margin(10)
                .x_label_area_size(44)
                .y_label_area_size(70)
                .build_cartesian_2d(x0..x1, y0..y1)
                .map_err(|e| plot_error(name, e))?;
            // Axes and their descriptions from plotters; ticks, labels and grid from here.
            chart
                .configure_mesh()
                .disable_mesh()
                .x_labels(0)
                .y_labels(0)
                .x_desc(x_label)
                .y_desc(y_label)
                .axis_desc_style(("sans-serif", FONT + 1))
                .draw()
                .map_err(|e| plot_error(name, e))?;
            let x_ticks = ticks(x0, x1, log_x);
            let y_ticks = ticks(y0, y1, log_y);
            let label_style = TextStyle::from(("sans-serif", FONT).into_font()).color(&BLACK);
            // `backend_coord` is absolute; text on the panel is relative to its corner.
            let (base_x, base_y) = plot_area.get_base_pixel();
            for tick in &x_ticks {
                chart
                    .draw_series(LineSeries::new(
                        [(tick.at, y0), (tick.at, y1)],
                        ShapeStyle::from(&GRID).stroke_width(1),
                    ))
                    .map_err(|e| plot_error(name, e))?;
                let (px, py) = chart.backend_coord(&(tick.at, y0));
                let style = label_style.pos(Pos::new(HPos::Center, VPos::Top));
                plot_area
                    .draw(&Text::new(
                        tick.label.clone(),
                        (px - base_x, py - base_y + 6),
                        style,
                    ))
                    .map_err(|e| plot_error(name, e))?;
            }
            for tick in &y_ticks {
                chart
                    .draw_series(LineSeries::new(
                        [(x0, tick.at), (x1, tick.at)],
                        ShapeStyle::from(&GRID).stroke_width(1),
                    ))
                    .map_err(|e| plot_error(name, e))?;
                let (px, py) = chart.backend_coord(&(x0, tick.at));
                let style = label_style.pos(Pos::new(HPos::Right, VPos::Center));
                plot_area
                    .draw(&Text::new(
                        tick.label.clone(),
                        (px - base_x - 6, py - base_y),
                        style,
                    ))
                    .map_err(|e| plot_error(name, e))?;
            }
            let colours = colours(series);
            for (((s, points), &color), same) in lines.iter().zip(&colours).zip(&same) {
                let style = ShapeStyle::from(&color).stroke_width(2);
                if same.is_some() {
                    // A dashed line on top of another: hollow squares mark it, so both
                    // colours show (and the legend names the line it lies on).
                    chart
                        .draw_series(points.iter().map(|&p| {
                            EmptyElement::at(p) + Rectangle::new([(-4, -4), (4, 4)], style)
                        }))
                        .map_err(|e| plot_error(name, e))?;
                }
                match s.style {
                    Style::Measured => {
                        chart
                            .draw_series(LineSeries::new(points.iter().copied(), style))
                            .map_err(|e| plot_error(name, e))?;
                        chart
                            .draw_series(points.iter().map(|&p| Circle::new(p, 3, color.filled())))
                            .map_err(|e| plot_error(name, e))?;
                    }
                    Style::Bound | Style::Reference => {
                        chart
                            .draw_series(DashedLineSeries::new(points.iter().copied(), 7, 5, style))
                            .map_err(|e| plot_error(name, e))?;
                    }
                }
            }
            draw_legend(&legend_area, series, &colours, &same).map_err(|e| plot_error(name, e))?;
            root.present().map_err(|e| plot_error(name, e))?;
        }
        Ok(svg)
    }
}

/// The colour of each series: a new one per measured series, the previous one for a
/// bound, grey for a reference.
fn colours(series: &[Series]) -> Vec<RGBColor> {
    let mut next = 0;
    let mut current = COLORS[0];
    series
        .iter()
        .map(|s| match s.style {
            Style::Measured => {
                current = COLORS[next % COLORS.len()];
                next += 1;
                current
            }
            Style::Bound => current,
            Style::Reference => GREY,
        })
        .collect()
}

/// The legend panel's width: room for the longest label at about 0.6 em per character.
fn legend_width(labels: &[String]) -> u32 {
    let longest = labels
        .iter()
        .map(|label| label.chars().count())
        .max()
        .unwrap_or(0) as u32;
    (48 + longest * FONT * 6 / 10).clamp(140, 380)
}

/// For each series, the index of an earlier series it coincides with (the same drawable
/// points, to 1e-9 of the axes' plot coordinates), if any: a bound equal to another
/// bound would otherwise hide it.
fn coinciding<S>(lines: &[(S, Vec<(f64, f64)>)]) -> Vec<Option<usize>> {
    let close = |a: &[(f64, f64)], b: &[(f64, f64)]| {
        !a.is_empty()
            && a.len() == b.len()
            && a.iter().zip(b).all(|(p, q)| {
                (p.0 - q.0).abs() <= 1e-9 * (1.0 + p.0.abs())
                    && (p.1 - q.1).abs() <= 1e-9 * (1.0 + p.1.abs())
            })
    };
    (0..lines.len())
        .map(|i| (0..i).find(|&j| close(&lines[i].1, &lines[j].1)))
        .collect()
}

/// A legend entry: the label, and for a series drawn on top of an earlier one, the name
/// of that one (`… (same line as “…”)`).
fn legend_label(series: &[Series], i: usize, same: Option<usize>) -> String {
    match same {
        Some(j) => format!("{} (same line as “{}”)", series[i].label, series[j].label),
        None => series[i].label.clone(),
    }
}

fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    series: &[Series],
    colours: &[RGBColor],
    same: &[Option<usize>],
) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let style = TextStyle::from(("sans-serif", FONT).into_font())
        .color(&BLACK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    for (i, (s, &color)) in series.iter().zip(colours).enumerate() {
        let y = 24 + 20 * i as i32;
        let stroke = ShapeStyle::from(&color).stroke_width(2);
        match s.style {
            Style::Measured => {
                area.draw(&PathElement::new(vec![(6, y), (34, y)], stroke))?;
                area.draw(&Circle::new((20, y), 3, color.filled()))?;
            }
            Style::Bound | Style::Reference => {
                for (a, b) in [(6, 13), (17, 24), (28, 34)] {
                    area.draw(&PathElement::new(vec![(a, y), (b, y)], stroke))?;
                }
            }
        }
        if same[i].is_some() {
            area.draw(&(EmptyElement::at((20, y)) + Rectangle::new([(-4, -4), (4, 4)], stroke)))?;
        }
        let label = legend_label(series, i, same[i]);
        area.draw(&Text::new(label, (42, y), style.clone()))?;
    }
    Ok(())
}

/// A dashed guide of slope `exponent` on log-log axes through the first point of
/// `points` (sorted by x), over the same x range: `y = y₀·(x/x₀)^exponent`.
pub(super) fn slope_guide(points: &[(f64, f64)], exponent: f64) -> Vec<(f64, f64)> {
    let positive: Vec<(f64, f64)> = points
        .iter()
        .copied()
        .filter(|&(x, y)| x > 0.0 && y > 0.0)
        .collect();
    let (Some(&(x0, y0)), Some(x1)) = (
        positive.iter().min_by(|a, b| a.0.total_cmp(&b.0)),
        positive.iter().map(|p| p.0).max_by(f64::total_cmp),
    ) else {
        return Vec::new();
    };
    if !exponent.is_finite() || x1 <= x0 {
        return Vec::new();
    }
    vec![(x0, y0), (x1, y0 * (x1 / x0).powf(exponent))]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(lo: f64, hi: f64, log: bool) -> Vec<String> {
        ticks(lo, hi, log).into_iter().map(|t| t.label).collect()
    }

    /// Over many ranges, linear and logarithmic, the tick labels are distinct, in range
    /// and at least three (the tracing plot once read "0, 0, 1, 2, 2, 2, 3, 4, 4, 4").
    #[test]
    fn tick_labels_are_distinct() {
        let mut ranges = vec![(0.0, 4.5), (-0.3, 4.8), (0.0, 1.0), (0.9, 1.1), (-7.0, 3.0)];
        for e in -6..7 {
            let base = 10f64.powi(e);
            ranges.push((0.0, 3.7 * base));
            ranges.push((base, 1.5 * base));
            ranges.push((-base, 9.0 * base));
        }
        for &(lo, hi) in &ranges {
            let t = labels(lo, hi, false);
            assert!(t.len() >= 3, "{lo}..{hi}: {t:?}");
            let mut sorted = t.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), t.len(), "{lo}..{hi}: {t:?}");
        }
        for lo in [-6.0, -3.3, -1.0, -0.2, 0.0, 0.7, 2.0, 5.5] {
            for width in [0.1, 0.35, 1.0, 2.2, 4.0, 9.0] {
                let t = labels(lo, lo + width, true);
                assert!(t.len() >= 2, "{lo}+{width}: {t:?}");
                let mut sorted = t.clone();
                sorted.sort();
                sorted.dedup();
                assert_eq!(sorted.len(), t.len(), "{lo}+{width}: {t:?}");
            }
        }
    }

    /// Log axes tick at 1-2-5 values: over 0.1 … 7 they are 0.1, 0.2, 0.5, 1, 2, 5, not
    /// the 0.16, 0.40, 0.63 of evenly spaced exponents.
    #[test]
    fn log_ticks_are_one_two_five() {
        assert_eq!(
            labels(0.1f64.log10(), 7f64.log10(), true),
            ["0.1", "0.2", "0.5", "1", "2", "5"]
        );
        // Six decades: powers of ten only.
        assert_eq!(
            labels(0.0, 6.0, true),
            ["1", "10", "100", "1000", "10000", "100000", "1e6"]
        );
        assert_eq!(labels(0.0, 4.5, false), ["0", "1", "2", "3", "4"]);
        assert_eq!(
            labels(0.0, 0.25, false),
            ["0.00", "0.05", "0.10", "0.15", "0.20", "0.25"]
        );
    }

    #[test]
    fn guides_follow_their_exponent() {
        let g = slope_guide(&[(4.0, 10.0), (1.0, 5.0), (64.0, 80.0)], 0.5);
        assert_eq!(g, vec![(1.0, 5.0), (64.0, 40.0)]);
        assert!(slope_guide(&[(1.0, 5.0)], 0.5).is_empty());
        assert!(slope_guide(&[], 0.5).is_empty());
    }

    /// The legend is outside the data: every legend label is drawn right of the plotting
    /// panel, and bounds share their measurement's colour.
    #[test]
    fn legend_sits_outside_the_data_and_bounds_share_colours() {
        let series = [
            Series::measured("measured", vec![(1.0, 1.0), (10.0, 3.0)]),
            Series::bound("its bound", vec![(1.0, 2.0), (10.0, 6.0)]),
            Series::measured("other", vec![(1.0, 4.0), (10.0, 5.0)]),
            Series::reference("claim", vec![(1.0, 4.5), (10.0, 4.5)]),
        ];
        let c = colours(&series);
        assert_eq!(c[0], c[1]);
        assert_ne!(c[0], c[2]);
        assert_eq!(c[3], GREY);
        let figure = Figure {
            file: "t.svg".into(),
            title: "title".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            series: series.to_vec(),
            log_x: true,
            log_y: false,
        };
        let svg = figure.to_svg().unwrap();
        let labels: Vec<String> = series.iter().map(|s| s.label.clone()).collect();
        let panel = WIDTH - legend_width(&labels);
        for label in ["measured", "its bound", "other", "claim"] {
            let at = svg
                .find(&format!(">\n{label}\n</text>"))
                .unwrap_or_else(|| panic!("{label} missing"));
            let tag = &svg[svg[..at].rfind("<text").unwrap()..at];
            let x: f64 = tag
                .split("x=\"")
                .nth(1)
                .and_then(|r| r.split('"').next())
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("no x in {tag}"));
            assert!(x > f64::from(panel), "{label} at x = {x}, panel at {panel}");
        }
    }

    /// Two bounds on the same line (the same points): the second is marked with hollow
    /// squares in its colour and its legend entry names the line it lies on; bounds on
    /// different lines are not marked.
    #[test]
    fn coinciding_curves_stay_distinguishable() {
        let figure = |second: Vec<(f64, f64)>| Figure {
            file: "t.svg".into(),
            title: "title".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            series: vec![
                Series::measured("generic", vec![(1.0, 1.0), (10.0, 3.0)]),
                Series::bound("generic bound", vec![(1.0, 2.0), (10.0, 6.0)]),
                Series::measured("relabeling", vec![(1.0, 1.5), (10.0, 2.0)]),
                Series::bound("relabeling bound", second),
            ],
            log_x: true,
            log_y: true,
        };
        let same = figure(vec![(1.0, 2.0), (10.0, 6.0)]).to_svg().unwrap();
        assert!(
            same.contains("relabeling bound (same line as “generic bound”)"),
            "{same}"
        );
        let apart = figure(vec![(1.0, 2.5), (10.0, 7.0)]).to_svg().unwrap();
        assert!(!apart.contains("same line as"));
        // The squares: one per point of the coinciding series, plus one in the legend.
        let squares = |svg: &str| svg.matches("<rect").count();
        assert_eq!(squares(&same), squares(&apart) + 3);
    }

    /// The layout other renderers use is the SVG's: the ticks are the SVG's tick labels,
    /// in data units, inside the padded range; colours are the SVG's.
    #[test]
    fn layout_matches_the_svg() {
        let figure = Figure {
            file: "t.svg".into(),
            title: "t".into(),
            x_label: "k".into(),
            y_label: "n".into(),
            series: vec![
                Series::measured("m", vec![(1.0, 120.0), (64.0, 900.0), (0.0, 5.0)]),
                Series::bound("b", vec![(1.0, 150.0), (64.0, 1200.0)]),
            ],
            log_x: true,
            log_y: true,
        };
        let layout = figure.layout();
        let svg = figure.to_svg().unwrap();
        // (0, 5) is dropped on the log x axis, so y starts near 120, not 5.
        assert!(layout.y.lo > 100.0 && layout.y.hi > 1200.0);
        assert!(layout.x.lo < 1.0 && layout.x.hi > 64.0);
        for axis in [&layout.x, &layout.y] {
            assert!(axis.ticks.len() >= 3);
            for (value, label) in &axis.ticks {
                assert!((axis.lo..=axis.hi).contains(value), "{value} outside");
                assert!(
                    svg.contains(&format!(">\n{label}\n</text>")),
                    "{label} not drawn"
                );
            }
        }
        assert_eq!(layout.colours, ["#1f77b4", "#1f77b4"]);
        assert!(svg.contains("#1F77B4") || svg.contains("#1f77b4"));
    }
}
