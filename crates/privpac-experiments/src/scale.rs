//! How much of an experiment a run covers: its [`Scale`] (tiny, quick or full) and the
//! [`Shard`] of its units (`I/N`) that one machine runs.

use serde::{Deserialize, Serialize};

use crate::{Error, Result};

/// How big a run is: `Tiny` for tests (seconds), `Quick` for the committed example
/// outputs (a minute or so), `Full` for the real thing (not part of `cargo test`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scale {
    /// Tests.
    Tiny,
    /// The committed example outputs.
    Quick,
    /// Full runs.
    Full,
}

impl std::str::FromStr for Scale {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "tiny" => Ok(Scale::Tiny),
            "quick" => Ok(Scale::Quick),
            "full" => Ok(Scale::Full),
            other => Err(Error::UnknownScale { name: other.into() }),
        }
    }
}

impl std::fmt::Display for Scale {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Scale::Tiny => "tiny",
            Scale::Quick => "quick",
            Scale::Full => "full",
        })
    }
}

/// A slice `index/count` of the units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    index: usize,
    count: usize,
}

impl Shard {
    /// Shard `index` of `count` (0-based).
    ///
    /// # Errors
    /// [`Error::InvalidShard`] for `count` = 0 or `index ≥ count`.
    pub fn new(index: usize, count: usize) -> Result<Self> {
        if count == 0 || index >= count {
            return Err(Error::InvalidShard { index, count });
        }
        Ok(Shard { index, count })
    }

    /// All units.
    pub fn whole() -> Self {
        Shard { index: 0, count: 1 }
    }

    /// Whether unit `unit` belongs to this shard.
    pub fn contains(&self, unit: usize) -> bool {
        unit % self.count == self.index
    }
}

impl std::str::FromStr for Shard {
    type Err = Error;
    /// Parses `I/N`.
    fn from_str(s: &str) -> Result<Self> {
        let bad = || Error::MalformedShard {
            text: s.to_string(),
        };
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        Shard::new(
            i.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        )
    }
}
