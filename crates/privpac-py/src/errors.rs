//! Rust errors as Python exceptions: one conversion function per crate error type, choosing
//! the exception class by the variant.
//!
//! The classes live in `privpac.errors` (Python, so that two of them can also subclass
//! `ValueError`): `PrivpacError` (the base), `InvalidParameterError` (a privacy parameter,
//! count or option out of range; also a `ValueError`), `BadInputError` (data that do not fit:
//! a point outside the domain, a ragged matrix, a non-finite score; also a `ValueError`) and
//! `TooLargeError` (a size above a documented limit, or an exact computation over its state
//! budget). Every message is the Rust error's `Display` text. No binding panics: every
//! failure reaches Python through these functions.

#![allow(
    dead_code,
    reason = "conversions for crates whose bindings come in the next commits"
)]

use std::fmt::Display;

use pyo3::PyErr;

mod classes {
    //! The exception classes, imported lazily from `privpac.errors`.
    #![allow(missing_docs, missing_debug_implementations, unreachable_pub)]
    pyo3::import_exception!(privpac.errors, PrivpacError);
    pyo3::import_exception!(privpac.errors, InvalidParameterError);
    pyo3::import_exception!(privpac.errors, BadInputError);
    pyo3::import_exception!(privpac.errors, TooLargeError);
}

pub(crate) use classes::{BadInputError, InvalidParameterError, PrivpacError, TooLargeError};

/// The kind of a failure, which picks the exception class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `InvalidParameterError`.
    InvalidParameter,
    /// `BadInputError`.
    BadInput,
    /// `TooLargeError`.
    TooLarge,
    /// `PrivpacError` itself.
    Other,
}

/// The exception of `kind` with `message`.
pub(crate) fn raise(kind: Kind, message: impl Display) -> PyErr {
    let message = message.to_string();
    match kind {
        Kind::InvalidParameter => InvalidParameterError::new_err(message),
        Kind::BadInput => BadInputError::new_err(message),
        Kind::TooLarge => TooLargeError::new_err(message),
        Kind::Other => PrivpacError::new_err(message),
    }
}

/// An invalid argument of a binding itself (not of a Rust library call).
pub(crate) fn invalid(message: impl Display) -> PyErr {
    raise(Kind::InvalidParameter, message)
}

/// Input data a binding rejects itself (shape, dtype, values).
pub(crate) fn bad_input(message: impl Display) -> PyErr {
    raise(Kind::BadInput, message)
}

fn mechanisms_kind(error: &privpac_mechanisms::Error) -> Kind {
    use privpac_mechanisms::Error as E;
    match error {
        E::InvalidEpsilon { .. }
        | E::InvalidDelta { .. }
        | E::InvalidSensitivity { .. }
        | E::InvalidScale { .. }
        | E::EpsilonTooSmall { .. }
        | E::UnrepresentableScale { .. }
        | E::InvalidProbability { .. }
        | E::InvalidCount { .. }
        | E::InvalidGridExponent { .. }
        | E::InvalidParameter { .. } => Kind::InvalidParameter,
        E::EmptyCandidates
        | E::NonFiniteScore { .. }
        | E::ZeroCount { .. }
        | E::TooFewCandidates { .. }
        | E::NonFiniteQuery { .. }
        | E::QueryOutOfRange { .. } => Kind::BadInput,
        E::TooManyCandidates { .. } | E::Overflow => Kind::TooLarge,
        E::Accounting(inner) => accounting_kind(inner),
        _ => Kind::Other,
    }
}

fn accounting_kind(error: &privpac_accounting::Error) -> Kind {
    use privpac_accounting::Error as E;
    match error {
        E::InvalidEpsilon { .. }
        | E::InvalidDelta { .. }
        | E::InvalidSensitivity { .. }
        | E::InvalidScale { .. }
        | E::InvalidProbability { .. }
        | E::InvalidCount { .. }
        | E::NotDifferentiallyPrivate { .. }
        | E::InvalidParameter { .. }
        | E::MixedGuarantees { .. }
        | E::VacuousGuarantee { .. } => Kind::InvalidParameter,
        _ => Kind::Other,
    }
}

/// A `privpac_audit::Error` as a Python exception: a failing mechanism is bad input,
/// everything else a bad parameter of the audit.
pub(crate) fn audit(error: privpac_audit::Error) -> PyErr {
    let kind = match &error {
        privpac_audit::Error::Mechanism { .. } => Kind::BadInput,
        _ => Kind::InvalidParameter,
    };
    raise(kind, error)
}

/// A `privpac_mechanisms::Error`, or a `privpac_accounting::Error` (which the mechanisms'
/// error carries unchanged), as a Python exception.
pub(crate) fn mechanisms(error: impl Into<privpac_mechanisms::Error>) -> PyErr {
    let error = error.into();
    raise(mechanisms_kind(&error), error)
}

fn classes_kind(error: &privpac_classes::Error) -> Kind {
    use privpac_classes::Error as E;
    match error {
        E::InvalidDomain { .. } | E::InvalidClass { .. } | E::BadSpec { .. } => {
            Kind::InvalidParameter
        }
        E::PointOutsideDomain { .. }
        | E::ConceptOutOfRange { .. }
        | E::LengthMismatch { .. }
        | E::EmptySample
        | E::EmptyMatrix
        | E::RaggedMatrix { .. }
        | E::BadMatrixCell { .. }
        | E::InvalidWitness { .. }
        | E::NotRealizable { .. }
        | E::InvalidVersionSpace { .. } => Kind::BadInput,
        E::TooLarge { .. } | E::StateBudgetExceeded { .. } => Kind::TooLarge,
        _ => Kind::Other,
    }
}

/// A `privpac_classes::Error` as a Python exception.
pub(crate) fn classes(error: privpac_classes::Error) -> PyErr {
    raise(classes_kind(&error), error)
}

fn learners_kind(error: &privpac_learners::Error) -> Kind {
    use privpac_learners::Error as E;
    match error {
        E::Class(inner) => classes_kind(inner),
        E::Mechanism(inner) => mechanisms_kind(inner),
        E::Accounting(inner) => accounting_kind(inner),
        E::SanitizerFailed(inner) => sanitizers_kind(inner),
        E::InvalidParameter { .. } | E::InvalidHypothesis { .. } => Kind::InvalidParameter,
        E::EmptySample | E::NotRealizable { .. } | E::SampleTooSmall { .. } => Kind::BadInput,
        _ => Kind::Other,
    }
}

/// A `privpac_learners::Error` as a Python exception.
pub(crate) fn learners(error: privpac_learners::Error) -> PyErr {
    raise(learners_kind(&error), error)
}

fn sanitizers_kind(error: &privpac_sanitizers::Error) -> Kind {
    use privpac_sanitizers::Error as E;
    match error {
        E::Class(inner) => classes_kind(inner),
        E::Mechanism(inner) => mechanisms_kind(inner),
        E::Accounting(inner) => accounting_kind(inner),
        E::DeltaRequired { .. }
        | E::PureRequired { .. }
        | E::InvalidParameter { .. }
        | E::UnsupportedDomain { .. }
        | E::TooManyRounds { .. } => Kind::InvalidParameter,
        E::EmptyData
        | E::NoQueries
        | E::InvalidWeight { .. }
        | E::EmptySynthetic
        | E::HistogramLength { .. }
        | E::DomainMismatch { .. } => Kind::BadInput,
        E::TooLarge { .. } => Kind::TooLarge,
        _ => Kind::Other,
    }
}

/// A `privpac_sanitizers::Error` as a Python exception.
pub(crate) fn sanitizers(error: privpac_sanitizers::Error) -> PyErr {
    raise(sanitizers_kind(&error), error)
}

fn multi_kind(error: &privpac_multi::Error) -> Kind {
    use privpac_multi::Error as E;
    match error {
        E::Class(inner) => classes_kind(inner),
        E::Mechanism(inner) => mechanisms_kind(inner),
        E::Accounting(inner) => accounting_kind(inner),
        E::Sanitizer(inner) => sanitizers_kind(inner),
        E::Learner(inner) => learners_kind(inner),
        E::NotHypercube { .. }
        | E::UnsupportedClass { .. }
        | E::DeltaRequired { .. }
        | E::BudgetTooSmall { .. }
        | E::InnerNotPrivate { .. }
        | E::InvalidParameter { .. } => Kind::InvalidParameter,
        E::NoLabelColumns
        | E::RaggedRow { .. }
        | E::RaggedColumn { .. }
        | E::RowCount { .. }
        | E::BitMatrixLength { .. }
        | E::LabelCountMismatch { .. }
        | E::DomainMismatch { .. }
        | E::EmptySample
        | E::HypothesisCount { .. } => Kind::BadInput,
        _ => Kind::Other,
    }
}

/// A `privpac_multi::Error` as a Python exception.
pub(crate) fn multi(error: privpac_multi::Error) -> PyErr {
    raise(multi_kind(&error), error)
}

fn attacks_kind(error: &privpac_attacks::Error) -> Kind {
    use privpac_attacks::Error as E;
    match error {
        E::Multi(inner) => multi_kind(inner),
        E::Class(inner) => classes_kind(inner),
        E::IncompatibleCode { .. } | E::CodeTooShort { .. } | E::InvalidParameter { .. } => {
            Kind::InvalidParameter
        }
        E::HypothesisCount { .. } | E::CodeMismatch { .. } => Kind::BadInput,
        E::CodebookTooLarge { .. } | E::TooManyUsers { .. } | E::TooLarge { .. } => Kind::TooLarge,
        _ => Kind::Other,
    }
}

/// A `privpac_attacks::Error` as a Python exception.
pub(crate) fn attacks(error: privpac_attacks::Error) -> PyErr {
    raise(attacks_kind(&error), error)
}

fn lab_kind(error: &privpac_toolkit::Error) -> Kind {
    use privpac_toolkit::Error as E;
    match error {
        E::Class(inner) => classes_kind(inner),
        E::Learner(inner) => learners_kind(inner),
        E::Sanitizer(inner) => sanitizers_kind(inner),
        E::Multi(inner) => multi_kind(inner),
        E::Mechanism(inner) => mechanisms_kind(inner),
        E::Accounting(inner) => accounting_kind(inner),
        E::InvalidParameter { .. }
        | E::UnknownMultiLearner { .. }
        | E::UnknownLearner { .. }
        | E::UnknownSanitizer { .. }
        | E::MissingParameter { .. }
        | E::UnknownDistribution { .. }
        | E::NotApplicable { .. }
        | E::TargetUnreachable { .. }
        | E::PureOnly { .. } => Kind::InvalidParameter,
        E::BadDataLine { .. } | E::EmptyData => Kind::BadInput,
        E::TooLarge { .. } | E::DomainTooLarge { .. } | E::FileTooLarge { .. } => Kind::TooLarge,
        _ => Kind::Other,
    }
}

/// A `privpac_toolkit::Error` as a Python exception.
pub(crate) fn lab(error: privpac_toolkit::Error) -> PyErr {
    raise(lab_kind(&error), error)
}
