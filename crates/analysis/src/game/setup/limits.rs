//! The limits of an analysis as a front end reads them: a time limit in seconds, checked
//! and turned into a [`Duration`], within the largest time and node counts taken.

use std::time::Duration;

/// The longest time limit taken, in seconds (about eleven days).
pub const MAX_SECONDS: f64 = 1e6;
/// The largest node limit taken.
pub const MAX_NODES: u64 = 1_000_000_000_000_000;

/// A time limit in seconds: a number above 0 and at most [`MAX_SECONDS`]; refused with a
/// message that says what is taken.
pub fn parse_seconds(s: &str) -> Result<Duration, String> {
    let secs: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds (say 1 or 0.5)"))?;
    if !secs.is_finite() || secs <= 0.0 {
        return Err(format!(
            "the time limit must be more than 0 seconds, not {s}"
        ));
    }
    if secs > MAX_SECONDS {
        return Err(format!(
            "a time limit of {s} seconds is more than the {MAX_SECONDS} taken"
        ));
    }
    Ok(Duration::from_secs_f64(secs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_take_decimals_and_spaces() {
        assert_eq!(parse_seconds("0.5"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_seconds(" 2 "), Ok(Duration::from_secs(2)));
        assert_eq!(parse_seconds("1e6"), Ok(Duration::from_secs(1_000_000)));
    }

    #[test]
    fn seconds_refused_say_why() {
        assert_eq!(
            parse_seconds("x"),
            Err("`x` is not a number of seconds (say 1 or 0.5)".to_string())
        );
        for s in ["0", "-1", "inf", "NaN"] {
            assert_eq!(
                parse_seconds(s),
                Err(format!(
                    "the time limit must be more than 0 seconds, not {s}"
                ))
            );
        }
        assert_eq!(
            parse_seconds("1000001"),
            Err("a time limit of 1000001 seconds is more than the 1000000 taken".to_string())
        );
    }
}
