//! Targets named in the data's terms: a [`TargetSpec`] is a concept id (`17`) or, for the
//! ordered classes, the concept itself (`threshold:T` for `1 on x ≤ T` of `thresholds:N`,
//! `point:P` for `1 only at x = P` of `points:N`, `interval:LOW,HIGH` for `1 on LOW ≤ x ≤ HIGH`
//! and `interval:empty` of `intervals:N`), resolved against the class to the id a
//! scenario uses.
//!
//! An interval's id is `1 + S(a) + (b − a)` with `S(a) = a·N − a(a − 1)/2` (ids run
//! a-major, [`privpac_classes::Intervals`]), so over N > 6,074,000,999 points the intervals
//! starting far enough right have ids beyond `u64::MAX`: over 2^40 points only those with
//! `LOW` below about 2^24 have one. A scenario names its target by a 64-bit id, so such a
//! target is refused with [`TargetError`] saying so (not implemented: the scenario would
//! need to carry the interval's ends), rather than wrapped to another interval.

use std::fmt;
use std::str::FromStr;

use privpac_classes::{ConceptClass, Domain, Intervals};
use serde::{Deserialize, Serialize};

/// A target concept: an id, or a concept of an ordered class named by its parameters (see
/// the module documentation).
///
/// # Example
/// ```
/// use privpac_toolkit::{ClassSpec, TargetSpec};
/// let class = "intervals:100".parse::<ClassSpec>()?.build()?;
/// let target: TargetSpec = "interval:3,7".parse()?;
/// let id = target.resolve(class.as_ref())?;
/// assert_eq!(class.describe(id), "1 on [3, 7]");
/// assert_eq!("42".parse::<TargetSpec>()?, TargetSpec::Id(42));
/// // Over 2^40 points an interval far to the right has no 64-bit id: a clear refusal.
/// let wide = "intervals:1099511627776".parse::<ClassSpec>()?.build()?;
/// let far: TargetSpec = "interval:1000000000000,1000000000005".parse()?;
/// assert!(far.resolve(wide.as_ref()).unwrap_err().to_string().contains("64-bit"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum TargetSpec {
    /// The concept with this id (any class).
    Id(u64),
    /// `threshold:T`: the threshold `1 on x ≤ T` of `thresholds:N` (T < N).
    Threshold(u64),
    /// `point:P`: the point function `1 only at x = P` of `points:N` (P < N).
    Point(u64),
    /// `interval:LOW,HIGH`: the interval `1 on LOW ≤ x ≤ HIGH` of `intervals:N`
    /// (LOW ≤ HIGH < N).
    Interval {
        /// The first point labelled 1.
        low: u64,
        /// The last point labelled 1.
        high: u64,
    },
    /// `interval:empty`: the empty interval (all zeros) of `intervals:N`.
    EmptyInterval,
}

/// Why a target was refused: its text and the reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("target {text:?}: {reason}")]
pub struct TargetError {
    /// The target as given.
    pub text: String,
    /// What is wrong with it.
    pub reason: String,
}

const SYNTAX: &str =
    "expected a concept id, threshold:T, point:P, interval:LOW,HIGH or interval:empty";

impl FromStr for TargetSpec {
    type Err = TargetError;

    fn from_str(text: &str) -> Result<Self, TargetError> {
        let error = |reason: String| TargetError {
            text: text.to_string(),
            reason,
        };
        let number = |field: &str, what: &str| -> Result<u64, TargetError> {
            let field = field.trim();
            if field.is_empty() || !field.bytes().all(|b| b.is_ascii_digit()) {
                return Err(error(format!(
                    "{what} {field:?} is not a non-negative integer ({SYNTAX})"
                )));
            }
            field
                .parse()
                .map_err(|_| error(format!("{what} {field} is above 2^64 − 1")))
        };
        let text = text.trim();
        if text.bytes().all(|b| b.is_ascii_digit()) && !text.is_empty() {
            return Ok(TargetSpec::Id(number(text, "concept id")?));
        }
        let Some((kind, rest)) = text.split_once(':') else {
            return Err(error(SYNTAX.to_string()));
        };
        match kind.trim().to_ascii_lowercase().as_str() {
            "threshold" => Ok(TargetSpec::Threshold(number(rest, "threshold")?)),
            "point" => Ok(TargetSpec::Point(number(rest, "point")?)),
            "interval" if rest.trim().eq_ignore_ascii_case("empty") => {
                Ok(TargetSpec::EmptyInterval)
            }
            "interval" => {
                let Some((low, high)) = rest.split_once(',') else {
                    return Err(error(
                        "an interval is interval:LOW,HIGH (its first and last points labelled 1) or interval:empty".to_string(),
                    ));
                };
                let (low, high) = (number(low, "LOW")?, number(high, "HIGH")?);
                if low > high {
                    return Err(error(format!(
                        "LOW = {low} is above HIGH = {high} (for the empty interval write interval:empty)"
                    )));
                }
                Ok(TargetSpec::Interval { low, high })
            }
            other => Err(error(format!("unknown kind {other:?}; {SYNTAX}"))),
        }
    }
}

impl fmt::Display for TargetSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TargetSpec::Id(id) => write!(f, "{id}"),
            TargetSpec::Threshold(t) => write!(f, "threshold:{t}"),
            TargetSpec::Point(p) => write!(f, "point:{p}"),
            TargetSpec::Interval { low, high } => write!(f, "interval:{low},{high}"),
            TargetSpec::EmptyInterval => f.write_str("interval:empty"),
        }
    }
}

impl TryFrom<String> for TargetSpec {
    type Error = TargetError;

    fn try_from(text: String) -> Result<Self, TargetError> {
        text.parse()
    }
}

impl From<TargetSpec> for String {
    fn from(spec: TargetSpec) -> String {
        spec.to_string()
    }
}

impl TargetSpec {
    /// The id of this target in `class`: the id itself for [`TargetSpec::Id`] (the
    /// scenario checks it), else the concept of the named kind, which the class must be
    /// (`thresholds:N`, `points:N` or `intervals:N` over an ordered domain, not wrapped in a
    /// combinator).
    ///
    /// # Errors
    /// [`TargetError`] for a class of another kind, a parameter outside the domain, or an
    /// interval whose id is beyond `u64::MAX` (see the module documentation).
    pub fn resolve(&self, class: &dyn ConceptClass) -> Result<u64, TargetError> {
        let error = |reason: String| TargetError {
            text: self.to_string(),
            reason,
        };
        let (family, wanted) = match self {
            TargetSpec::Id(id) => return Ok(*id),
            TargetSpec::Threshold(_) => ("thresholds", "a threshold"),
            TargetSpec::Point(_) => ("points", "a point function"),
            TargetSpec::Interval { .. } | TargetSpec::EmptyInterval => ("intervals", "an interval"),
        };
        let name = class.name();
        let size = match class.domain() {
            Domain::Ordered { size } if name == format!("{family}:{size}") => *size,
            _ => {
                return Err(error(format!(
                    "names {wanted}, which is a concept of {family}:N, but the class is {name}; give a concept id instead"
                )));
            }
        };
        let inside = |what: &str, value: u64| {
            if value < size {
                Ok(value)
            } else {
                Err(error(format!(
                    "{what} = {value} is outside the domain (points 0 to {}, inclusive)",
                    size - 1
                )))
            }
        };
        match *self {
            TargetSpec::Id(id) => Ok(id),
            TargetSpec::Threshold(t) => inside("T", t),
            TargetSpec::Point(p) => {
                inside("P", p)?;
                class
                    .domain()
                    .index_of(p)
                    .ok_or_else(|| error(format!("point {p} is not in the domain")))
            }
            TargetSpec::EmptyInterval => Ok(0),
            TargetSpec::Interval { low, high } => {
                inside("HIGH", high)?;
                let intervals = Intervals::new(size).map_err(|e| error(e.to_string()))?;
                intervals.checked_id_of(low, high).ok_or_else(|| {
                    error(format!(
                        "this interval's id (1 + LOW·N − LOW(LOW − 1)/2 + HIGH − LOW) is above 2^64 − 1, and a scenario names its target by a 64-bit id: targets beyond that id are not implemented (over {size} points, intervals starting left enough have 64-bit ids)"
                    ))
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(spec: &str) -> Box<dyn ConceptClass> {
        spec.parse::<crate::ClassSpec>().unwrap().build().unwrap()
    }

    #[test]
    fn targets_parse_print_and_round_trip() {
        for text in [
            "0",
            "17",
            "threshold:5",
            "point:9",
            "interval:3,7",
            "interval:empty",
        ] {
            let spec: TargetSpec = text.parse().unwrap();
            assert_eq!(spec.to_string(), text);
            let json = serde_json::to_string(&spec).unwrap();
            assert_eq!(serde_json::from_str::<TargetSpec>(&json).unwrap(), spec);
        }
        assert_eq!(
            " interval: 3 , 7 ".parse::<TargetSpec>().unwrap(),
            TargetSpec::Interval { low: 3, high: 7 }
        );
        for (bad, reason) in [
            ("", "expected a concept id"),
            ("-1", "expected a concept id"),
            ("square:3", "unknown kind"),
            ("threshold:x", "not a non-negative integer"),
            ("interval:7", "interval:LOW,HIGH"),
            ("interval:7,3", "LOW = 7 is above HIGH = 3"),
            ("point:99999999999999999999", "above 2^64 − 1"),
        ] {
            let error = bad.parse::<TargetSpec>().unwrap_err();
            assert!(error.to_string().contains(reason), "{bad}: {error}");
        }
    }

    /// Every readable target resolves to the concept it names: the resolved id labels every
    /// point of a small domain as the description says.
    #[test]
    fn readable_targets_name_their_concepts() {
        let n = 12u64;
        let thresholds = class(&format!("thresholds:{n}"));
        let points = class(&format!("points:{n}"));
        let intervals = class(&format!("intervals:{n}"));
        for t in 0..n {
            let id = TargetSpec::Threshold(t)
                .resolve(thresholds.as_ref())
                .unwrap();
            assert!((0..n).all(|x| thresholds.eval(id, x) == (x <= t)));
            let id = TargetSpec::Point(t).resolve(points.as_ref()).unwrap();
            assert!((0..n).all(|x| points.eval(id, x) == (x == t)));
            for high in t..n {
                let spec = TargetSpec::Interval { low: t, high };
                let id = spec.resolve(intervals.as_ref()).unwrap();
                assert!(
                    (0..n).all(|x| intervals.eval(id, x) == (t <= x && x <= high)),
                    "{spec}"
                );
            }
        }
        let empty = TargetSpec::EmptyInterval
            .resolve(intervals.as_ref())
            .unwrap();
        assert!((0..n).all(|x| !intervals.eval(empty, x)));
        assert_eq!(TargetSpec::Id(5).resolve(intervals.as_ref()), Ok(5));
    }

    #[test]
    fn targets_of_another_class_or_outside_the_domain_are_refused() {
        let cases = [
            ("threshold:3", "points:16", "the class is points:16"),
            (
                "point:3",
                "both(thresholds:16)",
                "the class is both(thresholds:16)",
            ),
            ("interval:1,2", "thresholds:16", "concept of intervals:N"),
            ("threshold:16", "thresholds:16", "points 0 to 15, inclusive"),
            ("interval:3,16", "intervals:16", "HIGH = 16 is outside"),
            ("point:3", "parities:4", "the class is parities:4"),
        ];
        for (target, spec, reason) in cases {
            let error = target
                .parse::<TargetSpec>()
                .unwrap()
                .resolve(class(spec).as_ref())
                .unwrap_err();
            assert!(
                error.to_string().contains(reason),
                "{target} on {spec}: {error}"
            );
        }
    }

    /// Over 2^40 points the intervals starting near 0 have 64-bit ids and resolve exactly;
    /// those starting far right do not, and are refused (not wrapped to another interval).
    #[test]
    fn intervals_beyond_a_64_bit_id_are_refused_not_wrapped() {
        let wide = class("intervals:1099511627776");
        let near = TargetSpec::Interval {
            low: 1000,
            high: 1 << 39,
        };
        let id = near.resolve(wide.as_ref()).unwrap();
        assert_eq!(wide.describe(id), "1 on [1000, 549755813888]");
        let far = TargetSpec::Interval {
            low: 1 << 39,
            high: (1 << 39) + 5,
        };
        let error = far.resolve(wide.as_ref()).unwrap_err().to_string();
        assert!(error.contains("not implemented"), "{error}");
    }
}
