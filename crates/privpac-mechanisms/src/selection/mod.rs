//! Private selection from a finite set of candidates: the exponential mechanism (general,
//! integer and count-weighted paths), report-noisy-max, and stability-based selection
//! (A_dist), and the choosing mechanism for qualities of bounded growth.

mod choosing;
mod exponential;
mod report_noisy_max;
mod stable;

pub use choosing::ChoosingMechanism;
pub use exponential::{
    COUNTED_PATH_MIN, ExponentialMechanism, FLOAT_ERROR_BUDGET, HugeLevelChoice, HugeScoreLevel,
    LevelChoice, MAX_TOTAL_COUNT, MIN_EPSILON, SCORE_CLAMP, ScoreLevel, WideLevelChoice,
    WideScoreLevel, exponential_mechanism_range,
};
pub use report_noisy_max::ReportNoisyMax;
pub use stable::{StableSelection, StableSelectionOutcome};
