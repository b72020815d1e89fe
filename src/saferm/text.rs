//! Times, ages, sizes and durations as people read and type them.
//!
//! Kept in-house so that the few numbers `rm`, `trash` and `claims` show do not pull a date
//! or formatting crate into a binary that is mostly a hook and must start fast.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::units;

/// Seconds since the Unix epoch, now. A clock before 1970 reads as 0 rather than failing:
/// the worst it does is make an entry look old.
pub fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// `2026-10-07 14:22:33 UTC`.
pub fn utc(secs: u64) -> String {
    let (date, time) = civil(secs);
    format!("{date} {time} UTC")
}

/// `20261007-142233`: sorts by time and is safe in a file name.
pub fn stamp(secs: u64) -> String {
    let (date, time) = civil(secs);
    format!("{}-{}", date.replace('-', ""), time.replace(':', ""))
}

/// Calendar date and wall-clock time (UTC) of a Unix time.
fn civil(secs: u64) -> (String, String) {
    let date = units::civil((secs / 86_400) as i64);
    let rest = secs % 86_400;
    (
        date.to_string(),
        format!(
            "{:02}:{:02}:{:02}",
            rest / 3_600,
            rest % 3_600 / 60,
            rest % 60
        ),
    )
}

/// How long ago `then` was, coarsely: `just now`, `5m ago`, `3h ago`, `2d ago`.
pub fn ago(then: u64, now: u64) -> String {
    let secs = now.saturating_sub(then);
    if secs < 60 {
        return "just now".into();
    }
    format!("{} ago", span(secs))
}

/// A length of time in its largest whole unit: `45s`, `5m`, `3h`, `2d`.
pub fn span(secs: u64) -> String {
    match secs {
        s if s < 60 => format!("{s}s"),
        s if s < 3_600 => format!("{}m", s / 60),
        s if s < 86_400 => format!("{}h", s / 3_600),
        s => format!("{}d", s / 86_400),
    }
}

/// A size for people, the same way everywhere in the tool.
pub fn size(bytes: u64) -> String {
    units::format_size(bytes)
}

/// `1 entry`, `3 entries`.
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `3 files (a, b, c)`, `5 files (a, b, c, ... 2 more)`: a few names from a longer list.
pub fn sample(items: &[String], one: &str, many: &str) -> String {
    let shown: Vec<&str> = items.iter().take(3).map(String::as_str).collect();
    let more = match items.len() {
        n if n > 3 => format!(", ... {} more", n - 3),
        _ => String::new(),
    };
    format!(
        "{} ({}{more})",
        count(items.len() as u64, one, many),
        shown.join(", ")
    )
}

/// Parses a duration the way people write one on a command line (`90s`, `30m`, `12h`,
/// `7d`, `2w`), with an error that says how to write one.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    units::parse_duration(text).ok_or_else(|| {
        format!(
            "`{}` is not a duration; write a number and a unit: 90s, 30m, 12h, 7d, 2w",
            text.trim()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_come_out_in_utc() {
        assert_eq!(utc(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(utc(951_782_400), "2000-02-29 00:00:00 UTC");
        assert_eq!(utc(1_791_383_753), "2026-10-07 14:35:53 UTC");
        assert_eq!(stamp(1_791_383_753), "20261007-143553");
    }

    #[test]
    fn sizes_and_ages_read_naturally() {
        assert_eq!(size(12), "12 bytes");
        assert_eq!(size(3 * 1024 + 512), "3.5 KB");
        assert_eq!(size(5 * 1024 * 1024), "5 MB");
        assert_eq!(ago(100, 110), "just now");
        assert_eq!(ago(0, 7_200), "2h ago");
        assert_eq!(span(3 * 86_400), "3d");
        assert_eq!(count(1, "entry", "entries"), "1 entry");
        let names: Vec<String> = ["a", "b", "c", "d", "e"].map(String::from).to_vec();
        assert_eq!(
            sample(&names, "file", "files"),
            "5 files (a, b, c, ... 2 more)"
        );
        assert_eq!(sample(&names[..1], "file", "files"), "1 file (a)");
    }

    #[test]
    fn durations_need_a_number_and_a_unit() {
        assert_eq!(parse_duration("7d"), Ok(Duration::from_secs(7 * 86_400)));
        assert_eq!(parse_duration("90s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("2w"), Ok(Duration::from_secs(14 * 86_400)));
        for bad in ["", "7", "d", "7 days", "-1d", "1.5h"] {
            assert!(parse_duration(bad).is_err(), "{bad:?}");
        }
    }
}
