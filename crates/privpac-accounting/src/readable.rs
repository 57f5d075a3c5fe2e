//! Numbers a person reads: an upper bound printed rounded *up* to a few significant digits.
//!
//! The rules compute ε and δ as f64s rounded up; printing them in full (`0.5000000000000001`,
//! `0.9999999997239273`) buries the digits that matter. [`RoundedUp`] prints such a bound
//! with at most [`READABLE_DIGITS`] significant digits, rounded toward +∞, so that what is
//! printed is still an upper bound:
//!
//! - a value whose shortest round-trip decimal (Rust's `{}`) has at most that many
//!   significant digits prints as that decimal (`0.5`, `1e-6`, `0.1`): the text names the
//!   very same f64;
//! - any other value prints as the smallest decimal of that many significant digits that is
//!   at least its exact binary value (`0.5000000000000001` → `0.500001`,
//!   `0.9999999997239273` → `1`).
//!
//! Either way the printed text, read back as an f64, is at least the value. The
//! `Display` impls of [`crate::Privacy`] and [`crate::Guarantee`] print their numbers this
//! way; serialization (JSON) keeps the exact f64s, and [`crate::Privacy::exact`] prints them
//! in full where a figure is compared digit by digit with a request.

/// The significant digits [`RoundedUp`] keeps.
pub const READABLE_DIGITS: usize = 6;

/// Displays an upper bound rounded up to [`READABLE_DIGITS`] significant digits (see the
/// module documentation): `{}` prints it like an f64's `{}` (`0.500001`; in exponent form
/// below 10⁻¹⁵ and from 10²¹ on, `5e-324` rather than 300 digits), `{:e}` like an f64's
/// `{:e}` (`1.00001e-6`). Zero, negative and non-finite values follow the same rule
/// (rounded toward +∞; NaN and ±∞ print as the f64 does).
///
/// # Example
/// ```
/// use privpac_accounting::RoundedUp;
/// assert_eq!(RoundedUp(0.5).to_string(), "0.5");
/// assert_eq!(RoundedUp(0.5000000000000001).to_string(), "0.500001");
/// assert_eq!(RoundedUp(0.9999999997239273).to_string(), "1");
/// assert_eq!(format!("{:e}", RoundedUp(1.0000000000000002e-6)), "1.00001e-6");
/// assert_eq!(RoundedUp(f64::from_bits(1)).to_string(), "5e-324");
/// assert!("0.500001".parse::<f64>().unwrap() >= 0.5000000000000001);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RoundedUp(pub f64);

impl RoundedUp {
    /// The f64 whose shortest decimal is the printed text: `value` itself when it is
    /// already short, else the rounded-up decimal read back (at least `value`, since a
    /// decimal of at most 15 significant digits that is ≥ `value` reads back as an f64 ≥
    /// `value`).
    pub fn value(self) -> f64 {
        round_up(self.0, READABLE_DIGITS)
    }
}

impl std::fmt::Display for RoundedUp {
    /// As the f64's `{}`, except below 10⁻¹⁵ (and from 10²¹ on), where a plain decimal runs
    /// to many digits (300 for the smallest subnormal): there as `{:e}` (`5e-324`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let value = self.value();
        if value != 0.0 && value.is_finite() && (value.abs() < 1e-15 || value.abs() >= 1e21) {
            std::fmt::LowerExp::fmt(&value, f)
        } else {
            std::fmt::Display::fmt(&value, f)
        }
    }
}

impl std::fmt::LowerExp for RoundedUp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::LowerExp::fmt(&self.value(), f)
    }
}

/// `value` rounded toward +∞ to `digits` (1 to 15) significant decimal digits, as the f64
/// that decimal reads as; `value` itself when its shortest decimal already has at most
/// `digits` significant digits (or it is zero, NaN or infinite).
pub(crate) fn round_up(value: f64, digits: usize) -> f64 {
    debug_assert!((1..=15).contains(&digits));
    if value == 0.0 || !value.is_finite() {
        return value;
    }
    let shortest = format!("{value:e}");
    if significant(split_exp(&shortest).0) <= digits {
        return value;
    }
    // The exact decimal expansion (an f64 has at most 767 significant digits), cut after
    // `digits` significant digits; a positive value whose cut-off tail is not all zeros
    // steps its last kept digit up (a negative one is already rounded toward +∞ by the cut).
    let exact = format!("{:.800e}", value.abs());
    let (mantissa, exponent) = split_exp(&exact);
    let all: Vec<u8> = mantissa.bytes().filter(u8::is_ascii_digit).collect();
    let (kept, tail) = all.split_at(digits);
    let mut kept = kept.to_vec();
    let mut exponent: i32 = exponent.parse().expect("an f64's exponent");
    if value > 0.0 && tail.iter().any(|&d| d != b'0') {
        let mut i = kept.len();
        loop {
            if i == 0 {
                // 99…9 + 1: one digit more, a power of ten.
                kept.insert(0, b'1');
                kept.pop();
                exponent += 1;
                break;
            }
            i -= 1;
            if kept[i] == b'9' {
                kept[i] = b'0';
            } else {
                kept[i] += 1;
                break;
            }
        }
    }
    let text = format!(
        "{}{}.{}e{exponent}",
        if value < 0.0 { "-" } else { "" },
        kept[0] as char,
        std::str::from_utf8(&kept[1..]).expect("ASCII digits")
    );
    let rounded: f64 = text.parse().expect("a decimal in scientific notation");
    // Above f64::MAX the decimal reads as ∞: print the value in full instead.
    if rounded.is_finite() { rounded } else { value }
}

/// Splits `d.ddde±x` into mantissa and exponent.
fn split_exp(text: &str) -> (&str, &str) {
    text.split_once('e').unwrap_or((text, "0"))
}

/// The significant digits of a mantissa `d.ddd` in Rust's shortest form (no trailing zeros).
fn significant(mantissa: &str) -> usize {
    mantissa.bytes().filter(u8::is_ascii_digit).count()
}

#[cfg(test)]
mod tests;
