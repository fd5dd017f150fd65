//! The header fields of a book that say how it was made, and when: the start, turns,
//! limits and threads, the command that made it, its version and commit, the time it was
//! built and how many of its positions are exact.

use kalah_core::Position;

/// How a book was made, as [`about`] states it.
#[derive(Clone, Debug)]
pub struct Made<'a> {
    /// The start position of the book.
    pub start: &'a Position,
    /// Turns from the start that the book covers.
    pub turns: u32,
    /// The analysis limits of each entry, in words ([`super::build::limits_text`]).
    pub limits: &'a str,
    /// The search threads asked for (`None`: all cores).
    pub threads: Option<u32>,
    /// The arguments of the command that made it, after the program's name.
    pub args: &'a [String],
    /// The program's version.
    pub version: &'a str,
    /// The commit it was built from, or `unknown`.
    pub commit: &'a str,
    /// When it was built, in seconds since 1970-01-01 00:00 UTC.
    pub unix_secs: u64,
    /// How long the build took, in seconds.
    pub seconds: f64,
    /// Its positions, and how many of them are exact.
    pub positions: usize,
    /// How many of its positions are exact.
    pub exact: usize,
}

/// The header fields of a book made as `made` says: start, turns, limits, threads,
/// command (arguments with whitespace quoted), version, commit, built and positions.
pub fn about(made: &Made) -> Vec<(String, String)> {
    let command: Vec<String> = made
        .args
        .iter()
        .map(|a| match a.contains(char::is_whitespace) {
            true => format!("'{a}'"),
            false => a.clone(),
        })
        .collect();
    let threads = made
        .threads
        .map_or("all cores".to_string(), |t| t.to_string());
    let fields = [
        ("start", made.start.to_string()),
        ("turns", made.turns.to_string()),
        ("limits", made.limits.to_string()),
        ("threads", threads),
        ("command", format!("kalah {}", command.join(" "))),
        ("version", format!("kalah {}", made.version)),
        ("commit", made.commit.to_string()),
        (
            "built",
            format!(
                "{} (this run: {:.0} s)",
                utc_text(made.unix_secs),
                made.seconds
            ),
        ),
        (
            "positions",
            format!("{} ({} exact)", made.positions, made.exact),
        ),
    ];
    fields
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
}

/// A time in seconds since 1970-01-01 00:00 UTC as `2026-12-05 12:34 UTC`.
pub fn utc_text(unix_secs: u64) -> String {
    let (days, rest) = ((unix_secs / 86_400) as i64, unix_secs % 86_400);
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC",
        rest / 3600,
        rest % 3600 / 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_core::{Game, Rules};

    #[test]
    fn civil_dates_across_leap_days_and_centuries() {
        assert_eq!(utc_text(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc_text(951_782_400 + 3600 + 60), "2000-02-29 01:01 UTC");
        assert_eq!(utc_text(951_868_800), "2000-03-01 00:00 UTC");
        assert_eq!(utc_text(1_798_761_599), "2026-12-31 23:59 UTC");
    }

    #[test]
    fn the_command_quotes_arguments_with_whitespace() {
        let game = Game::new(Rules::kalah(6, 4)).unwrap();
        let start = game.start();
        let args = [
            "book".to_string(),
            "build".into(),
            "--moves".into(),
            "3 6".into(),
        ];
        let made = Made {
            start: &start,
            turns: 2,
            limits: "time 1 s",
            threads: None,
            args: &args,
            version: "1.0",
            commit: "abc",
            unix_secs: 0,
            seconds: 12.4,
            positions: 7,
            exact: 3,
        };
        let about = about(&made);
        let field = |k: &str| about.iter().find(|(n, _)| n == k).unwrap().1.clone();
        assert_eq!(field("command"), "kalah book build --moves '3 6'");
        assert_eq!(field("threads"), "all cores");
        assert_eq!(field("built"), "1970-01-01 00:00 UTC (this run: 12 s)");
        assert_eq!(field("positions"), "7 (3 exact)");
        assert_eq!(about[0], ("start".to_string(), start.to_string()));
    }
}
