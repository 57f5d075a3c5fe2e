//! The levels of an experiment file, one per scale: checking each (its errors start "in
//! the SCALE scale: "), and keeping the errors of the levels a run at another scale does
//! not need, so that such a run proceeds and a run at a broken scale is refused with its
//! own error.

use crate::{Error, Result, Scale};

/// A scale whose level fails its checks, with the error's file, line, key and message.
pub(crate) type Broken = (Scale, String, usize, String, String);

/// The tiny, quick and full levels, each checked by `check` from its table of `raw`; a
/// level failing its checks is an error if it is `needed` (or `needed` is `None`), else
/// `empty()` in its place with its error in the list of broken scales.
pub(crate) fn scale_levels<R, L>(
    needed: Option<Scale>,
    check: impl Fn(Scale, Option<&R>) -> Result<L>,
    raw: Option<[Option<&R>; 3]>,
    empty: impl Fn() -> L,
) -> Result<([L; 3], Vec<Broken>)> {
    let raw = raw.unwrap_or([None; 3]);
    let mut broken = Vec::new();
    let mut levels = Vec::new();
    for (scale, table) in [Scale::Tiny, Scale::Quick, Scale::Full]
        .into_iter()
        .zip(raw)
    {
        match check(scale, table) {
            Ok(level) => levels.push(level),
            Err(Error::BadExperimentFile {
                origin,
                line,
                key,
                message,
            }) if needed.is_some_and(|n| n != scale) => {
                broken.push((scale, origin, line, key, message));
                levels.push(empty());
            }
            Err(e) => return Err(e),
        }
    }
    let mut levels = levels.into_iter();
    match (levels.next(), levels.next(), levels.next()) {
        (Some(t), Some(q), Some(f)) => Ok(([t, q, f], broken)),
        _ => unreachable!("one level per scale"),
    }
}

/// The error of `scale` if it is among the `broken` ones (see [`crate::Sweep::check_scale`]).
pub(crate) fn check_broken(broken: &[Broken], scale: Scale) -> Result<()> {
    match broken.iter().find(|b| b.0 == scale) {
        None => Ok(()),
        Some((_, origin, line, key, message)) => Err(Error::BadExperimentFile {
            origin: origin.clone(),
            line: *line,
            key: key.clone(),
            message: message.clone(),
        }),
    }
}

/// The `broken` scales with their errors ("line N, key `K`: in the full scale: …").
pub(crate) fn describe_broken(broken: &[Broken]) -> Vec<(Scale, String)> {
    broken
        .iter()
        .map(|(scale, _, line, key, message)| {
            (*scale, format!("line {line}, key `{key}`: {message}"))
        })
        .collect()
}

/// `e` with its message starting "in the SCALE scale: ".
pub(crate) fn in_scale(scale: Scale, e: Error) -> Error {
    match e {
        Error::BadExperimentFile {
            origin,
            line,
            key,
            message,
        } => Error::BadExperimentFile {
            origin,
            line,
            key,
            message: format!("in the {scale} scale: {message}"),
        },
        other => other,
    }
}
