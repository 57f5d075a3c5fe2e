//! Multi-learners: learning k concepts at once from k-labeled data.
#![doc(test(attr(deny(warnings))))]

pub mod bounds;
mod direct_sum;
mod error;
pub mod gf2;
mod learner;
mod parity;
mod point;
mod sample;

pub use direct_sum::{DirectSum, LearnerFactory, compose_privacy, split_budget};
pub use error::{Error, Result};
pub use learner::MultiLearner;
pub use parity::{
    DEFAULT_EXTRA_POINTS, ParityLearner, ParityOutcome, Vote, most_frequent_distribution,
    parity_dimension, select_most_frequent,
};
pub use point::{
    HeavyLabelScores, PointLearner, PointOutcome, check_points_class, heavy_label_scores,
    heavy_labels_distribution, select_heavy_labels,
};
pub use sample::{
    MultiLabeledSample, column_errors, empirical_excess_multi_error, empirical_multi_error,
    multi_error,
};

#[cfg(test)]
mod tests;
