//! `createdAt`: an ISO-8601 UTC instant written with a `Z` suffix, and the
//! fast parser for its common shape.

use jiff::Timestamp;
use jiff::tz::TimeZone;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An ISO-8601 UTC instant written with a `Z` suffix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct CreatedAt(pub Timestamp);

/// The common shape `YYYY-MM-DDTHH:MM:SS[.f{1,9}]Z`, parsed without jiff's
/// general parser (10,000 entries). Anything else — or anything this does not
/// handle, like a leap second — returns `None` and goes to jiff, so what is
/// accepted is exactly what jiff accepts (checked by a property test).
pub fn parse_utc_fast(text: &str) -> Option<Timestamp> {
    let b = text.as_bytes();
    if b.len() < 20
        || b[4] != b'-'
        || b[7] != b'-'
        || b[10] != b'T'
        || b[13] != b':'
        || b[16] != b':'
    {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        b[r].iter().try_fold(0i64, |acc, c| {
            c.is_ascii_digit().then(|| acc * 10 + i64::from(c - b'0'))
        })
    };
    let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (hour, minute, second) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let nanos = match (b[19], b.len()) {
        (b'Z', 20) => 0,
        (b'.', n) if (22..=30).contains(&n) && b[n - 1] == b'Z' => {
            let digits = n - 21;
            num(20..n - 1)? * 10i64.pow(9 - digits as u32)
        }
        _ => return None,
    };
    let date = jiff::civil::Date::new(
        i16::try_from(year).ok()?,
        i8::try_from(month).ok()?,
        i8::try_from(day).ok()?,
    )
    .ok()?;
    // The ranges are checked above, so `at` cannot panic.
    let time = date.at(hour as i8, minute as i8, second as i8, nanos as i32);
    TimeZone::UTC.to_timestamp(time).ok()
}

impl Serialize for CreatedAt {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

impl CreatedAt {
    /// `createdAt`'s text read: an ISO-8601 UTC instant ending in `Z`.
    pub(super) fn from_text(text: &str) -> std::result::Result<CreatedAt, String> {
        if !text.ends_with('Z') || !text.contains('T') {
            return Err(format!(
                "createdAt {text:?} is not an ISO-8601 UTC timestamp ending in Z"
            ));
        }
        if let Some(ts) = parse_utc_fast(text) {
            return Ok(CreatedAt(ts));
        }
        text.parse::<Timestamp>()
            .map(CreatedAt)
            .map_err(|e| format!("createdAt {text:?} is not a valid timestamp: {e}"))
    }
}

impl<'de> Deserialize<'de> for CreatedAt {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        // Borrowed from the input when it has no escapes: no allocation.
        let text = std::borrow::Cow::<'de, str>::deserialize(d)?;
        CreatedAt::from_text(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `cargo test --release --lib -- --ignored --nocapture timestamp_speed`
    #[test]
    #[ignore = "a timing, not a check"]
    fn timestamp_speed() {
        let texts: Vec<String> = (0..100_000i64)
            .map(|i| {
                let ts =
                    Timestamp::new(1_700_000_000 + i * 7919, (i % 3) as i32 * 123_456_789).unwrap();
                ts.to_string()
            })
            .collect();
        for (name, f) in [
            (
                "fast",
                (|t: &str| parse_utc_fast(t)) as fn(&str) -> Option<Timestamp>,
            ),
            ("jiff", |t: &str| t.parse::<Timestamp>().ok()),
        ] {
            let start = std::time::Instant::now();
            let ok = texts
                .iter()
                .filter(|t| std::hint::black_box(f(t)).is_some())
                .count();
            assert_eq!(ok, texts.len());
            eprintln!("{name}: 100,000 parses in {:?}", start.elapsed());
        }
    }
}
