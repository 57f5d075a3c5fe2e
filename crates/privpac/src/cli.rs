//! Command-line syntax (clap derive). Values are parsed here and validated by the library
//! types they are handed to.

use clap::{Args, Parser, Subcommand};

/// privpac: differentially private PAC learning, runnable.
#[derive(Debug, Parser)]
#[command(name = "privpac", version, about, long_about = None)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// A short tour of what privpac can do today.
    Demo(DemoArgs),
    /// Run a single privacy mechanism.
    #[command(subcommand)]
    Mech(MechCommand),
    /// Exact VC and Littlestone dimensions of a class, with witnesses.
    Dim(DimArgs),
    /// Play an online-learning game and count mistakes against the bound.
    Online(OnlineArgs),
    /// Learn a concept from labeled data (CSV rows x,y).
    Learn(LearnArgs),
    /// Measure a learner's empirical sample complexity and compare it with the bound.
    SampleComplexity(SampleComplexityArgs),
    /// Release private synthetic data for the counting queries of a class.
    Sanitize(SanitizeArgs),
    /// Learn k concepts at once from k-labeled data (CSV rows x,y1,...,yk).
    MultiLearn(MultiLearnArgs),
    /// Run the fingerprinting attack of the multi-learning lower bounds against a
    /// multi-learner and print the ε lower bound it implies beside the claimed ε.
    Attack(AttackArgs),
    /// Audit a mechanism of the zoo black-box and print the certified ε lower bound beside
    /// the claimed ε.
    Audit(AuditArgs),
    /// Compose a list of mechanism runs (--step KIND:PARAMS[@RATE][xCOUNT], or a --file of
    /// steps) and print the total under every composition rule and the rule the accountant
    /// picks.
    // The bracketed step syntax is clap help text, not intra-doc links.
    #[allow(rustdoc::broken_intra_doc_links)]
    Account(AccountArgs),
    /// Run a named, seeded experiment (`list` names them) or an experiment file (`run
    /// FILE.toml`), or one shard of it, or `merge` shards; writes CSV, JSON, SVG plots and
    /// a Markdown report into docs/experiments/NAME/ (full scale) or
    /// docs/experiments/SCALE/NAME/ (quick, tiny).
    Experiment(ExperimentArgs),
}

/// The fingerprinting codes of `privpac attack`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum CodeArg {
    /// Boneh–Shaw (realizable attack, Theorem 4.3; needs a threshold-compatible class).
    BonehShaw,
    /// Tardos (agnostic attack, Theorem 4.7; any class with two concepts).
    Tardos,
}

#[derive(Debug, Args)]
pub(crate) struct AttackArgs {
    /// The multi-learner: erm (per-column ERM, not private), direct-sum or direct-sum:INNER (INNER a
    /// `learn` learner, default generic; the total ε is split over the k columns), parity
    /// (Algorithm 4, parities:D only), or point (Algorithm 5, points:N only).
    #[arg(long)]
    pub(crate) learner: String,
    #[arg(long, help = CLASS_HELP)]
    pub(crate) class: String,
    /// Label columns k (at least the code's length for n users at security ξ).
    #[arg(long)]
    pub(crate) k: usize,
    /// Users n (rows of the database before padding).
    #[arg(long)]
    pub(crate) n: usize,
    /// The fingerprinting code.
    #[arg(long, value_enum, default_value_t = CodeArg::BonehShaw)]
    pub(crate) code: CodeArg,
    /// Trials of each experiment (full coalition, and one user replaced).
    #[arg(long, default_value_t = 100)]
    pub(crate) trials: usize,
    /// The code's security ξ.
    #[arg(long, default_value_t = 0.1, allow_negative_numbers = true)]
    pub(crate) xi: f64,
    /// The learner's total privacy parameter ε (private learners).
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
    pub(crate) epsilon: f64,
    /// The learner's total δ (parity and point need δ > 0; direct-sum is pure at 0).
    #[arg(long, default_value_t = 1e-6, allow_negative_numbers = true)]
    pub(crate) delta: f64,
    /// The point learner's accuracy α.
    #[arg(long, default_value_t = 0.1, allow_negative_numbers = true)]
    pub(crate) alpha: f64,
    /// Pad the database for accuracy α (Remarks 4.4 / 4.8): ⌈n/(3α)⌉ − n junk rows.
    #[arg(long, allow_negative_numbers = true)]
    pub(crate) padding: Option<f64>,
    /// Confidence of the ε lower bound (Clopper–Pearson).
    #[arg(long, default_value_t = 0.95, allow_negative_numbers = true)]
    pub(crate) confidence: f64,
    #[command(flatten)]
    pub(crate) common: Common,
}

#[derive(Debug, Args)]
pub(crate) struct AuditArgs {
    /// The mechanism (a zoo name; `privpac audit --all` audits every one).
    #[arg(long, required_unless_present = "all", conflicts_with = "all")]
    pub(crate) mechanism: Option<String>,
    /// Audit every mechanism of the zoo, shipped and broken.
    #[arg(long)]
    pub(crate) all: bool,
    /// The claimed ε the mechanism is built with and audited against.
    #[arg(long, default_value_t = 0.5, allow_negative_numbers = true)]
    pub(crate) epsilon: f64,
    /// Certification runs per input of each certified pair (fresh runs, never used to
    /// choose the event).
    #[arg(long, default_value_t = 100_000)]
    pub(crate) runs: u64,
    /// Selection runs per input of every finalist pair (half propose events, half rank
    /// them); default: `--runs`.
    #[arg(long)]
    pub(crate) selection_runs: Option<u64>,
    /// Screening runs per input of every pair, when there are more pairs than finalists
    /// (2 per certified pair); default: an eighth of `--runs`.
    #[arg(long)]
    pub(crate) screening_runs: Option<u64>,
    /// How many pairs, the best on the selection runs, are certified (the confidence is
    /// split over these only).
    #[arg(long, default_value_t = 1)]
    pub(crate) certified_pairs: usize,
    /// The probability that every certified bound holds.
    #[arg(long, default_value_t = 0.99, allow_negative_numbers = true)]
    pub(crate) confidence: f64,
    #[command(flatten)]
    pub(crate) common: Common,
}

#[derive(Debug, Args)]
pub(crate) struct AccountArgs {
    /// A step, repeatable: KIND:PARAMS[@RATE][xCOUNT] with KIND:PARAMS one of
    /// eps-delta:EPS[,DELTA] (any (ε, δ)-DP mechanism; δ default 0), bounded-range:EPS (an
    /// ε-bounded-range mechanism, e.g. the exponential mechanism at ε), or
    /// discrete-laplace:SCALE[,SENSITIVITY] (scale b, integer sensitivity Δ, default 1);
    /// @RATE runs it on a Poisson subsample of rate q in (0, 1] (neighbours: add or remove
    /// one row); xCOUNT repeats it (default 1; at most 10^6 runs in all). Example:
    /// discrete-laplace:2@0.005x3000.
    #[allow(rustdoc::broken_intra_doc_links)]
    #[arg(long = "step", value_name = "STEP", allow_hyphen_values = true)]
    pub(crate) steps: Vec<String>,
    /// A file of steps, one per line in the --step syntax (`#` starts a comment, blank
    /// lines are skipped); its steps come before those of --step.
    #[arg(long)]
    pub(crate) file: Option<std::path::PathBuf>,
    /// The slack δ′ of the advanced, optimal and PLD rules (each reports its own total δ).
    #[arg(long, default_value_t = 1e-6, allow_negative_numbers = true)]
    pub(crate) delta_prime: f64,
    /// The accuracy of the PLD rule: its rigorous lower and upper bounds on ε are at most
    /// this far apart (default: the larger of 0.01 and 1% of ε); its total is the upper one.
    #[arg(long, allow_negative_numbers = true)]
    pub(crate) epsilon_error: Option<f64>,
    #[command(flatten)]
    pub(crate) common: Common,
}

#[derive(Debug, Args)]
pub(crate) struct ExperimentArgs {
    /// `NAME` (run it), `run FILE.toml` (run an experiment file), `list`, or
    /// `merge NAME|FILE.toml RESULTS...` (combine shard results files; records computed
    /// under other settings than the file's now are refused, naming the key).
    #[arg(required = true, num_args = 1..)]
    pub(crate) args: Vec<String>,
    /// The quick configuration (the committed example outputs).
    #[arg(long)]
    pub(crate) quick: bool,
    /// The configuration: tiny, quick or full (default full, or quick with --quick).
    #[arg(long)]
    pub(crate) scale: Option<String>,
    /// Run only shard I of N (`I/N`, 0-based): units i with i mod N = I.
    #[arg(long)]
    pub(crate) shard: Option<String>,
    /// Output directory (default docs/experiments/NAME for the full scale,
    /// docs/experiments/SCALE/NAME otherwise).
    #[arg(long)]
    pub(crate) out: Option<std::path::PathBuf>,
    /// Results file the finished units are appended to (a rerun resumes from it). A run
    /// holds FILE.lock while it writes: a second run on the same file is refused (naming
    /// the PID holding it); the lock of a run that is no longer alive is taken over. Each
    /// record states the parameters it was computed under (settings such as trials, beta,
    /// label_noise, search.max_size, and the privpac version): a rerun drops the records
    /// of other parameters and runs their units again (a notice names the key that changed
    /// and how many), and `merge` refuses them (an error names the file, line and key).
    #[arg(long)]
    pub(crate) results: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub(crate) common: Common,
}

/// Parameters of the sanitizers (shared by `sanitize` and `learn --learner sanitizer:NAME`).
#[derive(Debug, Args, Clone, Copy)]
pub(crate) struct SanitizerOptions {
    /// Target accuracy α for the point, PMW and treelog-quantiles sanitizers.
    #[arg(long, default_value_t = 0.1)]
    pub(crate) alpha: f64,
    /// Rounds T of MWEM.
    #[arg(long, default_value_t = 20)]
    pub(crate) rounds: usize,
    /// Database size m of Blum–Ligett–Roth.
    #[arg(long, default_value_t = 4)]
    pub(crate) database_size: usize,
}

#[derive(Debug, Args)]
pub(crate) struct SanitizeArgs {
    #[arg(long, help = CLASS_HELP)]
    pub(crate) class: String,
    /// The sanitizer: point (thresholded noisy histogram, (ε, δ), needs --delta > 0), blr
    /// (Blum–Ligett–Roth, tiny domains), pmw (private multiplicative weights), mwem, or tree
    /// (binary-tree mechanism for thresholds).
    #[arg(long)]
    pub(crate) sanitizer: String,
    /// Privacy parameter ε.
    #[arg(long, allow_negative_numbers = true)]
    pub(crate) epsilon: f64,
    /// Privacy parameter δ (the point and treelog-quantiles sanitizers need δ > 0).
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub(crate) delta: f64,
    /// Data: CSV with one point per line (a second column, e.g. a label, is ignored), or `-`
    /// for standard input; a UTF-8 byte-order mark is skipped; see --columns for other
    /// headers.
    #[arg(long)]
    pub(crate) data: std::path::PathBuf,
    #[command(flatten)]
    pub(crate) data_file: DataFileArgs,
    /// Print at most this many support points of the synthetic database.
    #[arg(long, default_value_t = 20)]
    pub(crate) show: usize,
    #[command(flatten)]
    pub(crate) options: SanitizerOptions,
    #[command(flatten)]
    pub(crate) common: Common,
}

#[derive(Debug, Args)]
pub(crate) struct LearnArgs {
    #[arg(long, help = CLASS_HELP)]
    pub(crate) class: String,
    #[arg(long, help = LEARNER_HELP)]
    pub(crate) learner: String,
    /// Privacy target ε: the guarantee reported is at most ε (differential privacy of the
    /// model, or the ε of each prediction for private-prediction, voting, relabeling and
    /// dagan-feldman). Not for stable, which is not private (see --em-epsilon).
    #[arg(long, allow_negative_numbers = true)]
    pub(crate) epsilon: Option<f64>,
    /// Privacy parameter δ: interior-point needs δ > 0; the other learners here are pure,
    /// so only 0.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub(crate) delta: f64,
    /// Labeled data: CSV rows x,y (x a point index, or a bit string for hypercube classes;
    /// y 0 or 1), optional header line x,y, or `-` for standard input; a UTF-8 byte-order
    /// mark is skipped; see --columns for other headers and extra columns.
    #[arg(long)]
    pub(crate) data: std::path::PathBuf,
    #[command(flatten)]
    pub(crate) data_file: DataFileArgs,
    #[command(flatten)]
    pub(crate) tuning: LearnerTuning,
    #[command(flatten)]
    pub(crate) options: SanitizerOptions,
    #[command(flatten)]
    pub(crate) common: Common,
}

/// Parameters of the stable and private-prediction learners.
#[derive(Debug, Clone, Copy, Args)]
pub(crate) struct LearnerTuning {
    /// For stable (required) and private-prediction (optional): the inner exponential
    /// mechanism's ε, a tuning knob and not a guarantee (private-prediction then sizes its
    /// subset to meet --epsilon per prediction; without it both are solved).
    #[arg(long, allow_negative_numbers = true)]
    pub(crate) em_epsilon: Option<f64>,
    /// For stable learners: the size of the random subset T (default ⌈√n⌉ for stable;
    /// solved to meet --epsilon for private-prediction).
    #[arg(long)]
    pub(crate) subset_size: Option<usize>,
    /// For private prediction and Dagan–Feldman: the label flip probability η [default:
    /// α/2, with α of `sample-complexity`, or --alpha for `learn` and `multi-learn`; the
    /// flip alone costs excess error η, so η ≥ α would leave only exact hypotheses
    /// α-accurate].
    #[arg(long)]
    pub(crate) flip_probability: Option<f64>,
    /// For voting and relabeling: the number of voters (blocks) k.
    #[arg(long, default_value_t = 7)]
    pub(crate) voters: usize,
    /// For relabeling: the vote's ε₂ (the subsample term of the guarantee grows with it).
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
    pub(crate) vote_epsilon: f64,
    /// For improper-point: the number of hash buckets m [default: ⌈16/(αβ)⌉, with α and β
    /// of `sample-complexity`, or --alpha and β = 0.1 for `learn` and `multi-learn`].
    #[arg(long)]
    pub(crate) buckets: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum DistributionName {
    /// Uniform over the domain.
    Uniform,
    /// Zipf with exponent 1 over the domain's order.
    Zipf,
    /// Mass 2α on the target's first positive point (or point 0), the rest uniform; with
    /// --k (point functions only): five points with masses 0.4, 0.3, 0.2, 0.05, 0.05, drawn
    /// with --seed, the k targets cycling over them.
    Point,
}

impl DistributionName {
    /// `--distribution` as given, or the default for the class spec: `point` for point
    /// functions, `uniform` otherwise.
    pub(crate) fn or_default_for(given: Option<Self>, class_spec: &str) -> Self {
        given.unwrap_or(if class_spec.trim().starts_with("points") {
            DistributionName::Point
        } else {
            DistributionName::Uniform
        })
    }
}

#[derive(Debug, Args)]
pub(crate) struct SampleComplexityArgs {
    #[arg(long, help = CLASS_HELP)]
    pub(crate) class: String,
    /// The learner (as for `learn`; sanitizer learners use the default sanitizer settings).
    /// Learners with a subsample are rebuilt for every size n tried (stable: t =
    /// --subset-size or ⌈√n⌉; private-prediction, relabeling, dagan-feldman: sized to meet
    /// ε per prediction at n).
    #[arg(long)]
    pub(crate) learner: String,
    /// Privacy target ε (as for `learn`: the reported guarantee is at most ε; not for
    /// stable, which takes --em-epsilon). With --k, the total ε of the k-tuple.
    #[arg(long, allow_negative_numbers = true)]
    pub(crate) epsilon: Option<f64>,
    /// Accuracy α: success means excess error at most α, i.e. true error at most OPT + α
    /// (OPT = --label-noise, the target's own error; 0 when realizable). A scenario that a
    /// constant hypothesis already solves is reported trivial and not searched.
    #[arg(long, allow_negative_numbers = true)]
    pub(crate) alpha: f64,
    /// Confidence β: the target success rate is 1 − β.
    #[arg(long, allow_negative_numbers = true)]
    pub(crate) beta: f64,
    /// The distribution of examples [default: point for point functions (under the uniform
    /// distribution the all-zero hypothesis already has error 1/|X|), uniform otherwise].
    #[arg(long, value_enum)]
    pub(crate) distribution: Option<DistributionName>,
    /// The target concept: a concept id, or for the ordered classes the concept itself:
    /// threshold:T (1 on x ≤ T, thresholds:N), point:P (1 only at x = P, points:N),
    /// interval:LOW,HIGH (1 on LOW ≤ x ≤ HIGH, inclusive) or interval:empty (intervals:N;
    /// an interval whose id is above 2^64 − 1, far right over more than about 6·10^9
    /// points, is refused: not implemented). Default: the middle of the class when at least
    /// a quarter of the domain takes each label, as for thresholds and parities, else the
    /// most balanced of 64 concepts evenly spaced in id order: for intervals one covering
    /// about half the domain, for both(thresholds:N) a threshold near N/2; so a constant
    /// hypothesis does not solve the default scenario at α below 1/4.
    #[arg(long)]
    pub(crate) target: Option<privpac_toolkit::TargetSpec>,
    /// Probability η that a label is flipped (0: realizable; > 0: agnostic: OPT = η is
    /// reported, success means true error at most OPT + α, and the agnostic bound, which is
    /// for that accuracy, is shown).
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub(crate) label_noise: f64,
    /// Trials per sample size.
    #[arg(long, default_value_t = 100)]
    pub(crate) trials: usize,
    /// Give up above this sample size.
    #[arg(long, default_value_t = 1 << 20)]
    pub(crate) max_size: usize,
    /// Multi-learners: the numbers of concepts k to measure, separated by commas (e.g.
    /// 1,4,16,64). --learner is then a multi-learner (as for `multi-learn`), the k targets
    /// are drawn from the class with --seed, and the fitted log-log slope of n against k is
    /// reported with its 95% confidence interval when two or more k are given.
    #[arg(long, value_delimiter = ',')]
    pub(crate) k: Option<Vec<usize>>,
    /// Privacy parameter δ: of an (ε, δ) learner's guarantee (sanitizer:point needs δ > 0;
    /// the pure learners refuse δ > 0), or with --k of the total guarantee (parity and point
    /// need δ > 0).
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub(crate) delta: f64,
    #[command(flatten)]
    pub(crate) tuning: LearnerTuning,
    #[command(flatten)]
    pub(crate) common: Common,
}

#[derive(Debug, Args)]
pub(crate) struct MultiLearnArgs {
    #[arg(long, help = CLASS_HELP)]
    pub(crate) class: String,
    #[arg(long, help = MULTI_LEARNER_HELP)]
    pub(crate) learner: String,
    /// Privacy parameter ε of the whole k-tuple of hypotheses.
    #[arg(long, allow_negative_numbers = true)]
    pub(crate) epsilon: f64,
    /// Privacy parameter δ of the whole k-tuple (parity and point need δ > 0).
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub(crate) delta: f64,
    /// k-labeled data: CSV rows x,y1,...,yk (x a point index, or a bit string for hypercube
    /// classes; labels 0 or 1), optional header line x,y1,...,yk; k is the number of label
    /// columns (with --columns FEATURE,LABEL1,...,LABELk: the number of labels named; the
    /// output then names each column by its name in the header, else y1…yk). `-` reads
    /// standard input; a UTF-8 byte-order mark is skipped.
    #[arg(long)]
    pub(crate) data: std::path::PathBuf,
    #[command(flatten)]
    pub(crate) data_file: DataFileArgs,
    #[command(flatten)]
    pub(crate) tuning: LearnerTuning,
    #[command(flatten)]
    pub(crate) options: SanitizerOptions,
    #[command(flatten)]
    pub(crate) common: Common,
}

/// The multi-learners accepted by --learner of `multi-learn` and `sample-complexity --k`.
pub(crate) const MULTI_LEARNER_HELP: &str = "The multi-learner: direct-sum[:NAME] (a \
single-concept learner NAME, default generic, once per column, the total budget split over \
the k columns; for a prediction learner the k predictions, one per model, compose to at most \
the total ε; stable, not private, is refused), generic[:SANITIZER] (Algorithm 2: sanitize once with SANITIZER, default \
mwem, then one exponential-mechanism selection per column; ε split evenly), parity (parities \
under the uniform distribution; needs δ > 0), or point (point functions; needs δ > 0; \
accuracy --alpha)";

/// The learners accepted by --learner.
const LEARNER_HELP: &str = "The learner: erm (not private), generic (ε-DP exponential \
mechanism over the class), stable (uniformly stable, not private: random subset, cover, \
exponential mechanism with --em-epsilon; takes no --epsilon), private-prediction (stable with \
randomized labels; ε per prediction, its subset and mechanism solved to meet it), voting (ERM \
on blocks, noisy vote; ε per prediction), relabeling (agnostic private prediction: subsample \
sized to meet the per-prediction ε, exponential mechanism over its dichotomies, relabel, vote; \
its privacy is proven, its accuracy guarantee is a conjecture), dagan-feldman (Dagan–Feldman \
Theorem 2 as far as its text can be read: relabel the whole sample, vote, flip; ε is the \
per-prediction target; accuracy unproven for our parameter rule), improper-point (point \
functions only: ε-DP, improper, a sample size independent of |X|; Beimel–Nissim–Stemmer's \
hash buckets, see --buckets), interior-point (thresholds only: proper and (ε, δ)-DP through \
TreeLog's interior point, needs --delta > 0; --alpha sets the share of the sample it uses), or \
sanitizer[:NAME] with NAME \
one of point, blr, pmw, mwem (default), tree, treelog-quantiles (ε split evenly between the \
sanitizer and the selection step)";

/// Class specs accepted by --class.
const CLASS_HELP: &str = "Class spec: points:N, thresholds:N, intervals:N, parities:D, \
halfspaces:K, all:N, matrix:PATH (one concept per line, 0/1 values separated by commas or \
written together), xor(SPEC), zero(SPEC), not(SPEC) (the complements), both(SPEC) (SPEC and \
its complements: both(thresholds:N) is thresholds in both orientations)";

#[derive(Debug, Args)]
pub(crate) struct DimArgs {
    #[arg(long, help = CLASS_HELP)]
    pub(crate) class: String,
    /// Littlestone engine: the pruned default, or the plain memoized recursion (reference).
    #[arg(long, value_enum, default_value_t = EngineArg::Pruned)]
    pub(crate) engine: EngineArg,
    /// Largest number of memoized version spaces before giving up with an error.
    #[arg(long)]
    pub(crate) max_states: Option<u64>,
    #[command(flatten)]
    pub(crate) common: Common,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum EngineArg {
    Pruned,
    Plain,
}

#[derive(Debug, Args)]
pub(crate) struct OnlineArgs {
    #[arg(long, help = CLASS_HELP)]
    pub(crate) class: String,
    /// The online learner.
    #[arg(long, value_enum)]
    pub(crate) learner: LearnerArg,
    /// Where examples come from: a Littlestone tree walked adversarially, or random points
    /// labeled by a random target.
    #[arg(long, value_enum)]
    pub(crate) adversary: AdversaryArg,
    /// Number of rounds.
    #[arg(long)]
    pub(crate) rounds: usize,
    /// Label predicted on ties.
    #[arg(long, value_enum, default_value_t = TieArg::One)]
    pub(crate) tie: TieArg,
    #[command(flatten)]
    pub(crate) common: Common,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum LearnerArg {
    Soa,
    Halving,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum AdversaryArg {
    Tree,
    Random,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum TieArg {
    One,
    Zero,
}

#[derive(Debug, Args)]
pub(crate) struct DemoArgs {
    #[command(flatten)]
    pub(crate) common: Common,
}

/// How --data is read: its row limit, and real-valued points.
#[derive(Debug, Args, Clone)]
pub(crate) struct DataFileArgs {
    /// The columns of --data to read, for files with other headers or extra columns (a
    /// pandas or spreadsheet export): FEATURE,LABEL for `learn`, FEATURE,LABEL1,…,LABELk for
    /// `multi-learn` (k label columns, in that order), FEATURE for `sanitize`; each a name
    /// from the header or a 0-based index (for files without a header). Other columns are
    /// ignored. Without it the columns are x,y (x,y1,…,yk; x) in that order.
    #[arg(long, value_name = "FEATURE,LABEL,...")]
    pub(crate) columns: Option<String>,
    /// Most lines read from --data (header, comment and blank lines included); a longer
    /// file (or an endless pipe) is refused with an error naming the line. Lines are also
    /// limited to 1 MiB each.
    #[arg(long, default_value_t = privpac_toolkit::DEFAULT_MAX_ROWS)]
    pub(crate) max_rows: u64,
    /// Real-valued points: public bounds LOW:HIGH, cut into --bins equal bins (the class's
    /// domain, e.g. thresholds:BINS); each x goes to its bin, finite values outside the
    /// bounds are clipped. NaN, inf, -inf and values that overflow (1e400) are not clipped:
    /// they are errors naming their line. The bounds must be public (chosen without looking
    /// at the data) for the privacy guarantee to hold.
    #[arg(
        long,
        requires = "bins",
        allow_hyphen_values = true,
        value_name = "LOW:HIGH"
    )]
    pub(crate) bounds: Option<String>,
    /// Number of bins of --bounds: the size of the class's ordered domain.
    #[arg(long, requires = "bounds")]
    pub(crate) bins: Option<u64>,
}

/// Options shared by every command.
#[derive(Debug, Args, Clone, Copy)]
pub(crate) struct Common {
    /// Seed for the random generator, ChaCha8 (reproducible runs). Anyone who knows the seed can
    /// recompute the noise, so never publish outputs made with a known seed. Default: OS
    /// entropy, except for `experiment`, which uses the experiment file's `seed` key, else 1
    /// (so that experiments are reproducible and resumable).
    #[arg(long, global = true)]
    pub(crate) seed: Option<u64>,
    /// Print JSON instead of a table.
    #[arg(long, global = true)]
    pub(crate) json: bool,
}

#[derive(Debug, Subcommand)]
pub(crate) enum MechCommand {
    /// The exponential mechanism: choose an index with probability ∝ exp(ε·score/(2Δ)).
    Exponential(ExponentialArgs),
    /// The Laplace mechanism: value + noise of scale Δ/ε (exact discrete noise with
    /// --discrete).
    Laplace(LaplaceArgs),
}

#[derive(Debug, Args)]
pub(crate) struct ExponentialArgs {
    /// Candidate scores, higher is better, separated by commas (e.g. 3,1,0 or -2,-5).
    #[arg(long, allow_hyphen_values = true)]
    pub(crate) scores: String,
    /// Privacy parameter ε (> 0).
    #[arg(long, allow_negative_numbers = true)]
    pub(crate) epsilon: f64,
    /// Sensitivity Δ of the scores.
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
    pub(crate) sensitivity: f64,
    /// Print the exact output probabilities instead of sampling.
    #[arg(long)]
    pub(crate) probabilities: bool,
    #[command(flatten)]
    pub(crate) common: Common,
}

#[derive(Debug, Args)]
pub(crate) struct LaplaceArgs {
    /// The true query answer.
    #[arg(long, allow_negative_numbers = true)]
    pub(crate) value: String,
    /// Privacy parameter ε (> 0).
    #[arg(long, allow_negative_numbers = true)]
    pub(crate) epsilon: f64,
    /// Sensitivity Δ of the query (a positive integer with --discrete).
    #[arg(long, default_value = "1", allow_negative_numbers = true)]
    pub(crate) sensitivity: String,
    /// Use exact discrete Laplace noise (integer value and sensitivity required).
    #[arg(long)]
    pub(crate) discrete: bool,
    /// How many independent releases to draw (each one spends ε; the total is their basic
    /// composition).
    #[arg(long, default_value_t = 1)]
    pub(crate) count: usize,
    #[command(flatten)]
    pub(crate) common: Common,
}
