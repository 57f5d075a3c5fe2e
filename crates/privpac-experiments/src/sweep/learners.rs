//! The learners of an experiment file: which of them can run in a sweep, the privacy
//! parameter δ of the (ε, δ) learners (the file's `delta` key), the per-learner caps on
//! the domain axis (`max_log2_domain`), and the domain sizes of the `domains` axis.
//!
//! δ applies only to the learners that take one ([`takes_delta`]: `interior-point`,
//! `sanitizer:point` and `sanitizer:treelog-quantiles`, which need δ > 0); the pure learners of the same file run at δ = 0.
//! A unit of a learner that takes δ states it in its `delta` column, so δ is part of the
//! unit's parameters and of every record's fingerprint ([`crate::UnitRecord::params`]):
//! a resume reruns, and a merge refuses, a record made at another δ.

use std::collections::BTreeMap;

use toml::Spanned;

use super::{Checker, Level};
use crate::Result;
use privpac_toolkit::{LearnerSpec, SanitizerSpec};

/// Whether the learner `spec` takes the file's δ: the (ε, δ) learners, which need δ > 0
/// (`interior-point`, `sanitizer:point`, `sanitizer:treelog-quantiles`). Every other learner is pure (or not private) and
/// runs at δ = 0.
pub(crate) fn takes_delta(spec: &str) -> bool {
    matches!(
        spec.parse::<LearnerSpec>(),
        Ok(LearnerSpec::InteriorPoint
            | LearnerSpec::Sanitizer(SanitizerSpec::Point | SanitizerSpec::TreelogQuantiles))
    )
}

/// The number of points of the `domains` axis' entry `k`: 2^k, and for k = 64 the largest
/// ordered domain privpac represents, 2^64 − 1 points (ids are `u64`).
pub(crate) fn domain_size(k: u32) -> u64 {
    if k >= 64 { u64::MAX } else { 1u64 << k }
}

impl Checker<'_> {
    /// The file's `delta`: 0 when absent; else in (0, 1), and refused unless some learner
    /// takes it ([`takes_delta`]).
    pub(super) fn delta(
        &self,
        raw: Option<&Spanned<f64>>,
        learners: &[Spanned<String>],
    ) -> Result<f64> {
        let Some(raw) = raw else { return Ok(0.0) };
        let delta = *raw.get_ref();
        if !(delta > 0.0 && delta < 1.0) {
            return Err(self.err(
                raw.span(),
                "delta",
                format!("{delta}: need 0 < δ < 1 (leave the key out for pure learners)"),
            ));
        }
        if !learners.iter().any(|l| takes_delta(l.get_ref())) {
            return Err(self.err(
                raw.span(),
                "delta",
                "no learner of this file takes δ (only the (ε, δ) learners interior-point and sanitizer:point do; the others are pure)",
            ));
        }
        Ok(delta)
    }

    /// The file's `max_log2_domain`: learner spec → the largest `log2` of the `domains`
    /// axis its units run at. Every key must be one of the file's learners.
    pub(super) fn max_log2_domain(
        &self,
        raw: Option<&Spanned<BTreeMap<String, u32>>>,
        learners: &[Spanned<String>],
    ) -> Result<Vec<(String, u32)>> {
        let Some(raw) = raw else {
            return Ok(Vec::new());
        };
        let mut caps = Vec::new();
        for (learner, &cap) in raw.get_ref() {
            if !learners.iter().any(|l| l.get_ref() == learner) {
                return Err(self.err(
                    raw.span(),
                    "max_log2_domain",
                    format!("{learner:?} is not one of the file's learners"),
                ));
            }
            caps.push((learner.clone(), cap));
        }
        Ok(caps)
    }

    /// Refuses, before anything runs, a learner that would fail in every unit of a level:
    /// the (ε, δ) learners without the file's `delta`, `improper-point` beside a class that
    /// is not `points:N`; and a `max_log2_domain` on a level without the `domains` axis.
    pub(super) fn learners_fit(
        &self,
        learners: &[Spanned<String>],
        levels: &[Level],
        delta: f64,
        capped: bool,
    ) -> Result<()> {
        for learner in learners {
            let refuse = |why: String| {
                Err(self.err(
                    learner.span(),
                    "learners",
                    format!("{:?} cannot run in a sweep: {why}", learner.get_ref()),
                ))
            };
            match learner.get_ref().parse::<LearnerSpec>() {
                Ok(LearnerSpec::Sanitizer(SanitizerSpec::Point)) if delta == 0.0 => {
                    return refuse(
                        "the point sanitizer needs δ > 0: give the file's `delta` (it applies to the (ε, δ) learners only), or use sanitizer:mwem, pmw, blr or tree".into(),
                    );
                }
                Ok(LearnerSpec::Sanitizer(SanitizerSpec::TreelogQuantiles)) if delta == 0.0 => {
                    return refuse(
                        "the TreeLog quantile sanitizer needs δ > 0: give the file's `delta` (it applies to the (ε, δ) learners only)".into(),
                    );
                }
                Ok(LearnerSpec::InteriorPoint) if delta == 0.0 => {
                    return refuse(
                        "the interior-point learner needs δ > 0: give the file's `delta` (it applies to the (ε, δ) learners only)".into(),
                    );
                }
                Ok(LearnerSpec::ImproperPoint) => {
                    let classes = levels.iter().flat_map(|l| &l.classes);
                    if let Some(class) = classes
                        .into_iter()
                        .find(|c| !c.trim().starts_with("points"))
                    {
                        return refuse(format!(
                            "it learns point functions (points:N), not {class}"
                        ));
                    }
                }
                _ => {}
            }
        }
        if capped && levels.iter().any(|l| l.log2_domains.is_none()) {
            return Err(self.err(
                0..0,
                "max_log2_domain",
                "caps the `domains` axis; this level gives `classes` instead",
            ));
        }
        Ok(())
    }
}
