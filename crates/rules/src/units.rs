//! The few units the settings speak in: ages (`14d`), sizes (`100MB`), calendar dates
//! (`2026-06-30`) and UTC timestamps. Written out here rather than taken from a date crate:
//! the hook needs a handful of conversions, not time zones.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A calendar date, compared as written (UTC).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Date {
    pub year: i64,
    pub month: u32,
    pub day: u32,
}

impl Date {
    /// `YYYY-MM-DD`, a real day of the calendar.
    pub fn parse(text: &str) -> Option<Date> {
        let mut parts = text.splitn(3, '-');
        let (y, m, d) = (parts.next()?, parts.next()?, parts.next()?);
        if y.len() != 4 || m.len() != 2 || d.len() != 2 {
            return None;
        }
        let date = Date {
            year: y.parse().ok()?,
            month: m.parse().ok()?,
            day: d.parse().ok()?,
        };
        let valid = (1..=12).contains(&date.month)
            && date.day >= 1
            && date.day <= days_in_month(date.year, date.month);
        valid.then_some(date)
    }

    /// Today in UTC.
    pub fn today() -> Date {
        civil(unix_seconds(SystemTime::now()).div_euclid(86_400))
    }
}

impl std::fmt::Display for Date {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// The date of a day counted from 1970-01-01 (Howard Hinnant's `civil_from_days`).
pub fn civil(days: i64) -> Date {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    Date { year, month, day }
}

/// Days from 1970-01-01 to `date` (`days_from_civil`).
fn days(date: Date) -> i64 {
    let y = date.year - i64::from(date.month <= 2);
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = i64::from(date.month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(date.day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn unix_seconds(time: SystemTime) -> i64 {
    match time.duration_since(UNIX_EPOCH) {
        Ok(d) => d.as_secs() as i64,
        Err(e) => -(e.duration().as_secs() as i64) - 1,
    }
}

/// `2026-01-02T03:04:05.678Z`: what the audit log and the snapshots record.
pub fn timestamp(time: SystemTime) -> String {
    let since = time.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs() as i64;
    let date = civil(secs.div_euclid(86_400));
    let rest = secs.rem_euclid(86_400);
    format!(
        "{date}T{:02}:{:02}:{:02}.{:03}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60,
        since.subsec_millis()
    )
}

/// Reads back a [`timestamp`] (fractional seconds optional).
pub fn parse_timestamp(text: &str) -> Option<SystemTime> {
    let (date, time) = text.strip_suffix('Z')?.split_once('T')?;
    let date = Date::parse(date)?;
    let (hms, fraction) = match time.split_once('.') {
        Some((hms, f)) => (hms, f),
        None => (time, ""),
    };
    let mut parts = hms.splitn(3, ':').map(|p| p.parse::<u64>().ok());
    let (h, m, s) = (parts.next()??, parts.next()??, parts.next()??);
    if h > 23 || m > 59 || s > 60 {
        return None;
    }
    let millis = if fraction.is_empty() {
        0
    } else {
        let digits: String = fraction.chars().chain("000".chars()).take(3).collect();
        digits.parse::<u64>().ok()?
    };
    let days = u64::try_from(days(date)).ok()?;
    Some(
        UNIX_EPOCH
            + Duration::from_secs(days * 86_400 + h * 3600 + m * 60 + s)
            + Duration::from_millis(millis),
    )
}

/// An age or a span of time: `90s`, `30m`, `12h`, `14d`, `2w`, or several (`1h30m`).
pub fn parse_duration(text: &str) -> Option<Duration> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    let mut total = 0u64;
    let mut number = String::new();
    for c in text.chars() {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        let unit = match c {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            'd' => 86_400,
            'w' => 604_800,
            _ => return None,
        };
        let n: u64 = std::mem::take(&mut number).parse().ok()?;
        total = total.checked_add(n.checked_mul(unit)?)?;
    }
    number.is_empty().then_some(Duration::from_secs(total))
}

/// `14d`, `3h`, `1w2d`: a duration as [`parse_duration`] reads it, largest units first.
pub fn format_duration(duration: Duration) -> String {
    let mut secs = duration.as_secs();
    if secs == 0 {
        return "0s".into();
    }
    let mut out = String::new();
    for (unit, size) in [
        ("w", 604_800),
        ("d", 86_400),
        ("h", 3600),
        ("m", 60),
        ("s", 1),
    ] {
        if secs >= size {
            out.push_str(&format!("{}{unit}", secs / size));
            secs %= size;
        }
    }
    out
}

/// A size in bytes: `1048576`, `512KB`, `100MB`, `2GB` (powers of 1024; `KiB` spellings too).
pub fn parse_size(text: &str) -> Option<u64> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let number: u64 = number.parse().ok()?;
    let factor: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        _ => return None,
    };
    number.checked_mul(factor)
}

/// `12 KB`, `3.4 MB`: a size for people.
pub fn format_size(bytes: u64) -> String {
    let mut value = bytes as f64;
    let mut unit = "bytes";
    for larger in ["KB", "MB", "GB"] {
        if value < 1024.0 {
            break;
        }
        value /= 1024.0;
        unit = larger;
    }
    if unit == "bytes" {
        format!("{bytes} bytes")
    } else if value >= 10.0 || value.fract() == 0.0 {
        format!("{value:.0} {unit}")
    } else {
        format!("{value:.1} {unit}")
    }
}

/// `5m`, `3h`, `2d`: how long ago, roughly.
pub fn age(time: SystemTime) -> String {
    let secs = SystemTime::now()
        .duration_since(time)
        .map_or(0, |d| d.as_secs());
    match secs {
        0..60 => format!("{secs}s"),
        60..3600 => format!("{}m", secs / 60),
        3600..86_400 => format!("{}h", secs / 3600),
        _ => format!("{}d", secs / 86_400),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_round_trip_through_day_counts() {
        for (text, day) in [
            ("1970-01-01", 0),
            ("2000-02-29", 11_016),
            ("2026-12-31", 20_818),
            ("1969-12-31", -1),
        ] {
            let date = Date::parse(text).expect(text);
            assert_eq!(days(date), day, "{text}");
            assert_eq!(civil(day), date, "{text}");
            assert_eq!(date.to_string(), text);
        }
    }

    #[test]
    fn only_real_dates_parse() {
        for bad in [
            "2026-02-30",
            "2025-02-29",
            "2026-13-01",
            "2026-1-01",
            "26-01-01",
            "x",
        ] {
            assert_eq!(Date::parse(bad), None, "{bad}");
        }
        assert!(Date::parse("2024-02-29").is_some());
    }

    #[test]
    fn timestamps_round_trip() {
        let time = UNIX_EPOCH + Duration::from_millis(1_767_323_045_678);
        let text = timestamp(time);
        assert_eq!(text, "2026-01-02T03:04:05.678Z");
        assert_eq!(parse_timestamp(&text), Some(time));
        assert_eq!(
            parse_timestamp("2026-01-02T03:04:05Z"),
            Some(UNIX_EPOCH + Duration::from_secs(1_767_323_045))
        );
        assert_eq!(parse_timestamp("2026-01-02 03:04:05Z"), None);
    }

    #[test]
    fn durations_and_sizes() {
        let table: [(&str, Option<u64>); 8] = [
            ("90s", Some(90)),
            ("30m", Some(1800)),
            ("14d", Some(1_209_600)),
            ("1h30m", Some(5400)),
            ("2w", Some(1_209_600)),
            ("10", None),
            ("5y", None),
            ("", None),
        ];
        for (text, secs) in table {
            assert_eq!(
                parse_duration(text),
                secs.map(Duration::from_secs),
                "{text}"
            );
        }
        assert_eq!(
            format_duration(Duration::from_secs(1_209_600 + 3600)),
            "2w1h"
        );
        assert_eq!(parse_size("100MB"), Some(100 << 20));
        assert_eq!(parse_size("512 KiB"), Some(512 << 10));
        assert_eq!(parse_size("7"), Some(7));
        assert_eq!(parse_size("1TB"), None);
        assert_eq!(format_size(100 << 20), "100 MB");
        assert_eq!(format_size(1536), "1.5 KB");
        assert_eq!(format_size(12), "12 bytes");
    }
}
