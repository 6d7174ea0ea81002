//! The manifest's common shape read and written by hand, byte for byte what
//! serde reads and writes, for the everyday reads (`list`, `path`) and
//! `mark` at 10,000 entries: serde's field matching, borrowed-string
//! bookkeeping and pretty printer cost more than the bytes themselves.
//!
//! [`parse`] takes only the shape git-loop writes — `version` then
//! `worktrees`, each entry's seven keys in [`Manifest::to_json`]'s order,
//! strings without an escape or a control character, any JSON whitespace —
//! and says `None` for anything else (another key order, an escape, an
//! error of any kind): serde then reads the text, so what is accepted, and
//! every refusal's message, is serde's. [`write`] writes what
//! `serde_json::to_string_pretty` writes; a string with a character JSON
//! escapes is written by serde_json. Tests compare both with serde on
//! generated manifests.

use std::fmt::Write as _;

use super::{CreatedAt, Entry, LOOP_DIR, Manifest, Status, derived};
use crate::runid::{self, RunId};

/// The manifest, when `text` has the common shape and every value is valid;
/// `None` otherwise (then serde decides).
pub(super) fn parse(text: &str) -> Option<Manifest> {
    let mut r = Reader {
        text,
        b: text.as_bytes(),
        at: 0,
    };
    r.token(b'{')?;
    r.key("version")?;
    r.ws();
    // Only `1` (serde refuses any other version, with its own message).
    r.literal(b"1")?;
    r.token(b',')?;
    r.key("worktrees")?;
    r.token(b'[')?;
    // At least 180 bytes an entry (250 as written): one allocation, and
    // what is reserved beyond the last entry is never touched.
    let mut worktrees = Vec::with_capacity(text.len() / 128);
    r.ws();
    if r.peek() == Some(b']') {
        r.at += 1;
    } else {
        loop {
            worktrees.push(r.entry()?);
            r.ws();
            match r.next()? {
                b',' => continue,
                b']' => break,
                _ => return None,
            }
        }
    }
    r.token(b'}')?;
    r.ws();
    if r.at != r.b.len() {
        return None;
    }
    Some(Manifest {
        version: 1,
        worktrees,
    })
}

struct Reader<'a> {
    text: &'a str,
    b: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.at).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.at += 1;
        Some(c)
    }

    /// JSON's whitespace: space, tab, newline, carriage return.
    fn ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    fn literal(&mut self, text: &[u8]) -> Option<()> {
        let end = self.at + text.len();
        (self.b.get(self.at..end)? == text).then(|| self.at = end)
    }

    /// `c` after whitespace.
    fn token(&mut self, c: u8) -> Option<()> {
        self.ws();
        (self.next()? == c).then_some(())
    }

    /// `"name"` then `:`, after whitespace.
    fn key(&mut self, name: &str) -> Option<()> {
        (self.string()? == name).then_some(())?;
        self.token(b':')
    }

    /// A string after whitespace, when it holds no escape and no control
    /// character (serde refuses those raw, and unescapes the others).
    fn string(&mut self) -> Option<&'a str> {
        self.ws();
        if self.next()? != b'"' {
            return None;
        }
        let start = self.at;
        let end = start + stop(&self.b[start..])?;
        if self.b[end] != b'"' {
            return None;
        }
        self.at = end + 1;
        // Between two quotes, which are never inside a UTF-8 character.
        self.text.get(start..end)
    }

    /// `"name": "value"` (and the comma before it, unless `first`).
    fn field(&mut self, name: &str, first: bool) -> Option<&'a str> {
        if !first {
            self.token(b',')?;
        }
        self.key(name)?;
        self.string()
    }

    /// One entry, its keys in the order they are written, checked as
    /// `Entry`'s `Deserialize` checks them.
    fn entry(&mut self) -> Option<Entry> {
        self.token(b'{')?;
        let id = self.field("id", true)?;
        let path = self.field("path", false)?;
        let branch = self.field("branch", false)?;
        let base_branch = self.field("baseBranch", false)?;
        let pattern = self.field("pattern", false)?;
        let created_at = self.field("createdAt", false)?;
        let status = self.field("status", false)?;
        self.token(b'}')?;
        let id = RunId::parse(id).ok()?;
        if !derived(path, LOOP_DIR, &id) || !derived(branch, runid::BRANCH_PREFIX, &id) {
            return None;
        }
        Some(Entry {
            id,
            base_branch: base_branch.to_owned(),
            pattern: pattern.to_owned(),
            created_at: CreatedAt::from_text(created_at).ok()?,
            status: Status::parse(status)?,
        })
    }
}

/// Where the first quote, backslash or control character of `b` is: eight
/// bytes at a time (the strings are short, too short for memchr's set-up).
fn stop(b: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    // Each byte's high bit set where it is zero (exact for the lowest such
    // byte, which is the one taken).
    let zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    let mut at = 0;
    while let Some(chunk) = b.get(at..at + 8) {
        let v = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        let hit = zero(v ^ (ONES * u64::from(b'"')))
            | zero(v ^ (ONES * u64::from(b'\\')))
            | (v.wrapping_sub(ONES * 0x20) & !v & HIGH);
        if hit != 0 {
            return Some(at + hit.trailing_zeros() as usize / 8);
        }
        at += 8;
    }
    b[at..]
        .iter()
        .position(|&c| c == b'"' || c == b'\\' || c < 0x20)
        .map(|i| at + i)
}

/// `manifest` as `serde_json::to_string_pretty` writes it (2-space
/// indent), and a final newline.
pub(super) fn write(manifest: &Manifest) -> String {
    if manifest.worktrees.is_empty() {
        return format!(
            "{{\n  \"version\": {},\n  \"worktrees\": []\n}}\n",
            manifest.version
        );
    }
    let mut out = String::with_capacity(64 + manifest.worktrees.len() * 256);
    let _ = write!(
        out,
        "{{\n  \"version\": {},\n  \"worktrees\": [\n",
        manifest.version
    );
    for (i, e) in manifest.worktrees.iter().enumerate() {
        if i > 0 {
            out.push_str(",\n");
        }
        for (key, prefix, value) in [
            ("    {\n      \"id\": \"", "", e.id.as_str()),
            ("\",\n      \"path\": \"", LOOP_DIR, &e.id),
            ("\",\n      \"branch\": \"", runid::BRANCH_PREFIX, &e.id),
            ("\",\n      \"baseBranch\": \"", "", &e.base_branch),
            ("\",\n      \"pattern\": \"", "", &e.pattern),
        ] {
            out.push_str(key);
            if !prefix.is_empty() {
                out.push_str(prefix);
                out.push('/');
            }
            contents(&mut out, value);
        }
        let _ = write!(
            out,
            "\",\n      \"createdAt\": \"{}\",\n      \"status\": \"{}\"\n    }}",
            e.created_at.0,
            e.status.as_str()
        );
    }
    out.push_str("\n  ]\n}\n");
    out
}

/// `text` inside a JSON string: as is when JSON escapes none of its
/// characters, else as serde_json escapes it.
fn contents(out: &mut String, text: &str) {
    if text.bytes().any(|c| c == b'"' || c == b'\\' || c < 0x20) {
        let quoted = serde_json::to_string(text).expect("a string serializes");
        out.push_str(&quoted[1..quoted.len() - 1]);
    } else {
        out.push_str(text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// serde's reading of `text`, validated: the reference.
    fn by_serde(text: &str) -> Result<Manifest, String> {
        let m: Manifest = serde_json::from_str(text).map_err(|e| e.to_string())?;
        m.validate()?;
        Ok(m)
    }

    fn entry() -> impl Strategy<Value = Entry> {
        // Ids plain and not (a quote, a non-ASCII letter), labels of any
        // character (quotes, backslashes, control characters), instants
        // with and without a fraction.
        let id = prop_oneof![
            "[a-z][a-z0-9._-]{0,12}[a-z0-9]",
            "[a-z]{1,4}[\"'é#%&]{1,3}[a-z]{1,4}",
        ];
        let text = prop_oneof!["[a-z/._-]{1,12}", "\\PC{1,12}", ".{1,8}"];
        (
            id,
            text.clone(),
            text,
            0i64..4_000_000_000,
            0i32..1_000_000_000,
            0usize..5,
        )
            .prop_filter_map("a valid entry", |(id, base, pattern, secs, nanos, s)| {
                let nanos = [0, nanos, nanos / 1000 * 1000][s % 3];
                let ts = jiff::Timestamp::new(secs, nanos).ok()?;
                let mut e = Entry::new(RunId::parse(&id).ok()?.as_str(), &base, &pattern, ts);
                e.status = Status::ALL[s];
                let m = Manifest {
                    version: 1,
                    worktrees: vec![e.clone()],
                };
                m.validate().ok().map(|()| e)
            })
    }

    fn manifest() -> impl Strategy<Value = Manifest> {
        proptest::collection::vec(entry(), 0..6).prop_map(|mut worktrees| {
            worktrees.dedup_by(|a, b| a.id == b.id);
            let mut seen = std::collections::HashSet::new();
            worktrees.retain(|e| seen.insert(e.id.clone()));
            Manifest {
                version: 1,
                worktrees,
            }
        })
    }

    proptest! {
        /// Written byte for byte as serde_json's pretty printer writes it.
        #[test]
        fn writes_what_serde_writes(m in manifest()) {
            let serde = serde_json::to_string_pretty(&m).unwrap() + "\n";
            prop_assert_eq!(write(&m), serde);
        }

        /// What it reads, serde reads the same; and it reads every manifest
        /// git-loop writes whose strings need no escape.
        #[test]
        fn reads_what_serde_reads(m in manifest()) {
            let text = write(&m);
            let plain = !text.contains('\\');
            prop_assert_eq!(parse(&text).is_some(), plain);
            for text in [text, serde_json::to_string(&m).unwrap()] {
                if let Some(fast) = parse(&text) {
                    prop_assert_eq!(&fast, &m);
                }
                prop_assert_eq!(Manifest::parse(&text), Ok(m.clone()));
            }
        }

        /// A text changed anywhere (a byte dropped, or replaced by one of
        /// JSON's own): whatever the hand reader accepts, serde accepts as
        /// the same manifest.
        #[test]
        fn accepts_nothing_serde_refuses(
            m in manifest(),
            at in any::<prop::sample::Index>(),
            with in prop::sample::select(&[None, Some(b'"'), Some(b','), Some(b'}'), Some(b' '), Some(b'0'), Some(b'1'), Some(b'Z'), Some(b'\\'), Some(b'\n'), Some(b'/')][..]),
        ) {
            let mut bytes = write(&m).into_bytes();
            let i = at.index(bytes.len());
            match with {
                None => { bytes.remove(i); }
                Some(c) => bytes[i] = c,
            }
            let Ok(text) = String::from_utf8(bytes) else { return Ok(()) };
            if let Some(fast) = parse(&text) {
                prop_assert_eq!(Ok(fast), by_serde(&text));
            }
        }
    }

    /// The eight-byte scan stops where a byte-by-byte one does.
    #[test]
    fn stop_is_the_first_quote_backslash_or_control_character() {
        for len in 0..24 {
            for at in 0..len {
                for c in 0..=255u8 {
                    for next in [b'a', b'"', 0x1f, 0x80] {
                        let mut b = vec![b'a'; len];
                        b[at] = c;
                        if at + 1 < len {
                            b[at + 1] = next;
                        }
                        let slow = b.iter().position(|&c| c == b'"' || c == b'\\' || c < 0x20);
                        assert_eq!(stop(&b), slow, "{b:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn other_shapes_go_to_serde() {
        let good = r#"{"version":1,"worktrees":[{"id":"a","path":".loop-worktrees/a","branch":"loop/a","baseBranch":"main","pattern":"p","createdAt":"2026-11-30T14:44:32Z","status":"active"}]}"#;
        assert!(parse(good).is_some());
        for other in [
            // Keys in another order, an escape, a second version.
            good.replace(
                r#""id":"a","path":".loop-worktrees/a""#,
                r#""path":".loop-worktrees/a","id":"a""#,
            ),
            good.replace(r#""pattern":"p""#, r#""pattern":"\u0070""#),
            good.replace(r#""version":1,"#, r#""version":1,"version":1,"#),
            good.replace(r#""version":1"#, r#""version":01"#),
            good.to_owned() + "x",
        ] {
            assert!(parse(&other).is_none(), "{other}");
        }
        assert_eq!(
            parse(&good.replace(r#""pattern":"p""#, r#""pattern":"\u0070""#)).map(|_| ()),
            None
        );
        assert!(
            Manifest::parse(&good.replace(r#""pattern":"p""#, r#""pattern":"\u0070""#)).is_ok()
        );
    }
}
