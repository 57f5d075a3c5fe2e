//! SVG line plots (plotters, SVG backend only, no font files: text is laid out with
//! plotters' built-in size estimate and rendered by the viewer). Log axes are drawn by
//! plotting log₁₀ of the values and labelling the ticks with the values.

use plotters::prelude::*;

use super::{Error, Result};

/// One line of a plot.
#[derive(Debug, Clone)]
pub(super) struct Series {
    pub(super) label: String,
    pub(super) points: Vec<(f64, f64)>,
    pub(super) dashed: bool,
}

const COLORS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(23, 190, 207),
];

fn plot_error(name: &str, reason: impl std::fmt::Display) -> Error {
    Error::Plot {
        name: name.into(),
        reason: reason.to_string(),
    }
}

/// A line plot of `series` as SVG text. Solid and dashed series alternate colours in
/// pairs (a measured line and its bound share a colour). Non-positive values are dropped
/// on log axes.
pub(super) fn line_plot(
    name: &str,
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
    log_x: bool,
    log_y: bool,
) -> Result<String> {
    let tx = |v: f64| if log_x { v.log10() } else { v };
    let ty = |v: f64| if log_y { v.log10() } else { v };
    let keep = |&(x, y): &(f64, f64)| (!log_x || x > 0.0) && (!log_y || y > 0.0);
    let lines: Vec<(&Series, Vec<(f64, f64)>)> = series
        .iter()
        .map(|s| {
            let points = s
                .points
                .iter()
                .filter(|p| keep(p))
                .map(|&(x, y)| (tx(x), ty(y)))
                .collect();
            (s, points)
        })
        .collect();
    let all: Vec<(f64, f64)> = lines.iter().flat_map(|(_, p)| p.iter().copied()).collect();
    let (mut x0, mut x1, mut y0, mut y1) = all.iter().fold(
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
    let pad = |lo: f64, hi: f64| {
        let span = (hi - lo).max(1e-9);
        (lo - 0.05 * span, hi + 0.05 * span)
    };
    let (x0, x1) = pad(x0, x1);
    let (y0, y1) = pad(y0, y1);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (760, 480)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| plot_error(name, e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(42)
            .y_label_area_size(64)
            .build_cartesian_2d(x0..x1, y0..y1)
            .map_err(|e| plot_error(name, e))?;
        let fmt = |log: bool| {
            move |v: &f64| {
                if log {
                    let value = 10f64.powf(*v);
                    if value >= 10.0 {
                        format!("{value:.0}")
                    } else {
                        format!("{value:.2}")
                    }
                } else {
                    format!("{v:.0}")
                }
            }
        };
        let x_fmt = fmt(log_x);
        let y_fmt = fmt(log_y);
        chart
            .configure_mesh()
            .x_desc(x_label)
            .y_desc(y_label)
            .x_label_formatter(&x_fmt)
            .y_label_formatter(&y_fmt)
            .draw()
            .map_err(|e| plot_error(name, e))?;
        let mut colour = 0;
        for (i, (s, points)) in lines.iter().enumerate() {
            if i > 0 && !s.dashed {
                colour += 1;
            }
            let color = COLORS[colour % COLORS.len()];
            let style = ShapeStyle::from(&color).stroke_width(2);
            if s.dashed {
                chart
                    .draw_series(DashedLineSeries::new(points.iter().copied(), 6, 4, style))
                    .map_err(|e| plot_error(name, e))?
                    .label(s.label.clone())
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 8, y)], ShapeStyle::from(&color))
                    });
            } else {
                chart
                    .draw_series(LineSeries::new(points.iter().copied(), style))
                    .map_err(|e| plot_error(name, e))?
                    .label(s.label.clone())
                    .legend(move |(x, y)| {
                        PathElement::new(
                            vec![(x, y), (x + 16, y)],
                            ShapeStyle::from(&color).stroke_width(2),
                        )
                    });
                chart
                    .draw_series(points.iter().map(|&p| Circle::new(p, 3, color.filled())))
                    .map_err(|e| plot_error(name, e))?;
            }
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperLeft)
            .draw()
            .map_err(|e| plot_error(name, e))?;
        root.present().map_err(|e| plot_error(name, e))?;
    }
    Ok(svg)
}
