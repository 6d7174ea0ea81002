//! Time: the one place the clock is read, and the cutoff parser.
//!
//! `now()` honours `GIT_LOOP_TEST_NOW` (an RFC 3339 timestamp) so tests can pin
//! the clock; nothing else reads it. It is a test-only switch, documented in the
//! README.

use jiff::{SignedDuration, Timestamp};

/// The current time (or `GIT_LOOP_TEST_NOW`, when set and valid).
pub fn now() -> Timestamp {
    if let Some(pinned) = std::env::var_os("GIT_LOOP_TEST_NOW")
        && let Some(ts) = pinned.to_str().and_then(|s| s.parse().ok())
    {
        return ts;
    }
    Timestamp::now()
}

static STARTED: std::sync::OnceLock<Timestamp> = std::sync::OnceLock::new();

/// When this command started, to the second (the trash names entries to
/// the second): [`crate::invoke`] reads it first thing, so it is fixed before
/// anything is done. What a command made is never older than this.
pub fn started() -> Timestamp {
    *STARTED.get_or_init(|| Timestamp::from_second(now().as_second()).unwrap_or(Timestamp::MIN))
}

/// A stored timestamp at one width, to the second (`2026-11-30T19:30:50Z`),
/// for columns that line up. Text that is not a timestamp is returned as it
/// is (the log is text anyone can write).
pub fn fixed_width(stored: &str) -> std::borrow::Cow<'_, str> {
    match stored.parse::<Timestamp>() {
        Ok(ts) => ts.strftime("%Y-%m-%dT%H:%M:%SZ").to_string().into(),
        Err(_) => stored.into(),
    }
}

/// Parse a cutoff of the form `<n><s|m|h|d>` (e.g. `24h`). Returns `None` for
/// anything else: no sign, no fraction, no other unit, no overflow.
pub fn parse_cutoff(text: &str) -> Option<SignedDuration> {
    let unit = text.chars().last()?;
    let digits = &text[..text.len() - unit.len_utf8()];
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: i64 = digits.parse().ok()?;
    let per: i64 = match unit {
        's' => 1,
        'm' => 60,
        'h' => 3600,
        'd' => 86_400,
        _ => return None,
    };
    let secs = n.checked_mul(per)?;
    // Beyond jiff's whole timestamp range a cutoff means nothing; call it overflow.
    if secs > 2 * 253_402_300_799 {
        return None;
    }
    Some(SignedDuration::from_secs(secs))
}

/// `now - cutoff`, saturating at the earliest representable instant.
pub fn cutoff_instant(now: Timestamp, cutoff: SignedDuration) -> Timestamp {
    now.checked_sub(cutoff).unwrap_or(Timestamp::MIN)
}

/// "3h ago", "2d ago", "just now".
pub fn age(now: Timestamp, then: Timestamp) -> String {
    let mut text = String::new();
    write_age(&mut text, now, then);
    text
}

/// [`age`], written at the end of `out` (10,000 rows of `list`: no string
/// each).
pub fn write_age(out: &mut String, now: Timestamp, then: Timestamp) {
    use std::fmt::Write;
    let secs = now.as_second().saturating_sub(then.as_second());
    let _ = match secs {
        s if s < 5 => out.write_str("just now"),
        s if s < 60 => write!(out, "{s}s ago"),
        s if s < 3600 => write!(out, "{}m ago", s / 60),
        s if s < 86_400 => write!(out, "{}h ago", s / 3600),
        s => write!(out, "{}d ago", s / 86_400),
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_width_times() {
        assert_eq!(fixed_width("2026-11-30T19:30:50Z"), "2026-11-30T19:30:50Z");
        assert_eq!(
            fixed_width("2026-11-30T19:30:50.123456789Z"),
            "2026-11-30T19:30:50Z"
        );
        assert_eq!(
            fixed_width("2026-11-30T19:30:50.5+01:00"),
            "2026-11-30T18:30:50Z"
        );
        assert_eq!(fixed_width("yesterday"), "yesterday");
    }

    #[test]
    fn cutoffs() {
        assert_eq!(parse_cutoff("24h"), Some(SignedDuration::from_hours(24)));
        assert_eq!(parse_cutoff("0s"), Some(SignedDuration::ZERO));
        assert_eq!(
            parse_cutoff("3d"),
            Some(SignedDuration::from_secs(3 * 86_400))
        );
        assert_eq!(parse_cutoff("90m"), Some(SignedDuration::from_mins(90)));
        for bad in [
            "",
            "24",
            "h",
            "1w",
            "-1h",
            "+1h",
            "1.5h",
            " 1h",
            "1h ",
            "1H",
            "99999999999999999999s",
            "9223372036854775807d",
            "1é",
        ] {
            assert_eq!(parse_cutoff(bad), None, "{bad:?}");
        }
    }
}
