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
    let mut m = Machine::new(text.len() as u64);
    match m.feed(text, true) {
        (Fed::Done, _) => Some(m.manifest()),
        _ => None,
    }
}

/// How much of the file is in memory at once when [`read`] reads it.
const WINDOW: usize = 64 << 10;

/// The manifest read from `file` as [`parse`] reads its text, through a
/// [`WINDOW`] of it at a time (10,000 entries: 2 MB never held, nor the
/// pages for it faulted in). `Ok(None)`: not the common shape, not UTF-8,
/// or longer than `cap` (then the caller reads the whole text again for
/// serde, which decides). `len` is the file's length, to size the entries.
pub(super) fn read(
    file: &mut dyn std::io::Read,
    len: u64,
    cap: u64,
) -> std::io::Result<Option<Manifest>> {
    read_through(file, len, cap, WINDOW)
}

/// [`read`] through a window of `window` bytes.
fn read_through(
    file: &mut dyn std::io::Read,
    len: u64,
    cap: u64,
    window: usize,
) -> std::io::Result<Option<Manifest>> {
    let mut m = Machine::new(len);
    let mut buf: Vec<u8> = Vec::with_capacity(window);
    let (mut total, mut eof) = (0u64, false);
    loop {
        while buf.len() < window && !eof {
            let filled = buf.len();
            buf.resize(window, 0);
            let n = loop {
                match file.read(&mut buf[filled..]) {
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    read => break read?,
                }
            };
            buf.truncate(filled + n);
            total += n as u64;
            eof = n == 0;
        }
        if total > cap {
            return Ok(None);
        }
        // The window's text up to a character cut at its end, if any.
        let valid = match std::str::from_utf8(&buf) {
            Ok(_) => buf.len(),
            Err(e) if e.error_len().is_none() && !eof => e.valid_up_to(),
            Err(_) => return Ok(None),
        };
        let text = std::str::from_utf8(&buf[..valid]).expect("checked just above");
        match m.feed(text, eof) {
            (Fed::Done, _) => return Ok(Some(m.manifest())),
            (Fed::Invalid, _) => return Ok(None),
            // More is needed than a whole window holds: not the common shape.
            (Fed::More, 0) if buf.len() == window => return Ok(None),
            (Fed::More, used) => {
                buf.drain(..used);
            }
        }
    }
}

/// What [`Machine::feed`] made of the text it was given.
enum Fed {
    /// The whole manifest, and nothing after it but whitespace.
    Done,
    /// The text ends inside it: more of the same text is needed.
    More,
    /// Not the common shape, or a value that is not valid.
    Invalid,
}

/// Where [`Machine`] is in the manifest.
#[derive(Clone, Copy)]
enum Step {
    /// Before `{"version":1,"worktrees":[`.
    Head,
    /// Before an entry, or the `]` of an empty array.
    First,
    /// Before an entry.
    Entry,
    /// After an entry: `,` or `]`.
    After,
    /// Before the closing `}`.
    Close,
    /// After it: whitespace to the end.
    Tail,
}

/// The manifest's common shape, read from text given piece by piece (each
/// piece the rest of the last one's unused text and what follows it).
struct Machine {
    step: Step,
    worktrees: Vec<Entry>,
}

impl Machine {
    fn new(len: u64) -> Machine {
        // At least 180 bytes an entry (250 as written): one allocation, and
        // what is reserved beyond the last entry is never touched.
        Machine {
            step: Step::Head,
            worktrees: Vec::with_capacity((len / 128) as usize),
        }
    }

    fn manifest(self) -> Manifest {
        Manifest {
            version: 1,
            worktrees: self.worktrees,
        }
    }

    /// Read as far into `text` as it can: what that made of it, and how many
    /// bytes of it are used (what follows is given again with more).
    /// `end`: nothing follows `text`.
    fn feed(&mut self, text: &str, end: bool) -> (Fed, usize) {
        let mut r = Reader {
            text,
            b: text.as_bytes(),
            at: 0,
            short: false,
        };
        let mut used = 0;
        loop {
            let next = match self.step {
                Step::Head => r.head().map(|()| Step::First),
                Step::First => {
                    r.ws();
                    match r.peek() {
                        Some(b']') => {
                            r.at += 1;
                            Some(Step::Close)
                        }
                        Some(_) => Some(Step::Entry),
                        None => None,
                    }
                }
                Step::Entry => r.entry().map(|e| {
                    self.worktrees.push(e);
                    Step::After
                }),
                Step::After => {
                    r.ws();
                    match r.next() {
                        Some(b',') => Some(Step::Entry),
                        Some(b']') => Some(Step::Close),
                        _ => None,
                    }
                }
                Step::Close => r.token(b'}').map(|()| Step::Tail),
                Step::Tail => {
                    r.ws();
                    if r.at < r.b.len() {
                        return (Fed::Invalid, used);
                    }
                    if end {
                        return (Fed::Done, r.at);
                    }
                    return (Fed::More, r.at);
                }
            };
            match next {
                Some(step) => {
                    self.step = step;
                    used = r.at;
                }
                None if r.short && !end => return (Fed::More, used),
                None => return (Fed::Invalid, used),
            }
        }
    }
}

struct Reader<'a> {
    text: &'a str,
    b: &'a [u8],
    at: usize,
    /// A read ran past the end of the text (more of it may be coming).
    short: bool,
}

impl<'a> Reader<'a> {
    fn peek(&mut self) -> Option<u8> {
        let c = self.b.get(self.at).copied();
        self.short |= c.is_none();
        c
    }

    /// `{"version":1,"worktrees":[`, any whitespace between.
    fn head(&mut self) -> Option<()> {
        self.token(b'{')?;
        self.key("version")?;
        self.ws();
        // Only `1` (serde refuses any other version, with its own message).
        self.literal(b"1")?;
        self.token(b',')?;
        self.key("worktrees")?;
        self.token(b'[')
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
        let Some(here) = self.b.get(self.at..end) else {
            self.short = true;
            return None;
        };
        (here == text).then(|| self.at = end)
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
        let Some(len) = stop(&self.b[start..]) else {
            self.short = true;
            return None;
        };
        let end = start + len;
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
    let mut out = Vec::new();
    write_to(manifest, &mut out).expect("a Vec takes every write");
    String::from_utf8(out).expect("the text written is UTF-8")
}

/// [`write`] to `w`, a [`WINDOW`] at a time (10,000 entries: 2.5 MB never
/// held).
pub(super) fn write_to(manifest: &Manifest, w: &mut dyn std::io::Write) -> std::io::Result<()> {
    if manifest.worktrees.is_empty() {
        return write!(
            w,
            "{{\n  \"version\": {},\n  \"worktrees\": []\n}}\n",
            manifest.version
        );
    }
    let mut out = String::with_capacity(WINDOW + 1024);
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
        if out.len() >= WINDOW {
            w.write_all(out.as_bytes())?;
            out.clear();
        }
    }
    out.push_str("\n  ]\n}\n");
    w.write_all(out.as_bytes())
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

    /// Reads of any size, up to `sizes` bytes each in turn.
    struct Trickle<'a> {
        text: &'a [u8],
        sizes: Vec<usize>,
        n: usize,
    }

    impl std::io::Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let size = self.sizes[self.n % self.sizes.len()]
                .min(buf.len())
                .min(self.text.len());
            self.n += 1;
            buf[..size].copy_from_slice(&self.text[..size]);
            self.text = &self.text[size..];
            Ok(size)
        }
    }

    proptest! {
        /// Read through a window, in reads of any size, what is read is
        /// what the whole text parses to; `None` only where the whole text
        /// gives `None` or an entry is longer than the window.
        #[test]
        fn reads_through_a_window_what_the_whole_text_gives(
            m in manifest(),
            compact in any::<bool>(),
            window in 1usize..400,
            sizes in proptest::collection::vec(1usize..50, 1..4),
        ) {
            let text = if compact { serde_json::to_string(&m).unwrap() } else { write(&m) };
            let mut file = Trickle { text: text.as_bytes(), sizes, n: 0 };
            let read = read_through(&mut file, text.len() as u64, 1 << 20, window).unwrap();
            let whole = parse(&text);
            match read {
                Some(read) => prop_assert_eq!(Some(read), whole),
                None => prop_assert!(whole.is_none() || window < 300),
            }
            // A window wider than any entry reads what the whole text gives.
            let mut file = Trickle { text: text.as_bytes(), sizes: vec![7], n: 0 };
            let read = read_through(&mut file, text.len() as u64, 1 << 20, 1024).unwrap();
            prop_assert_eq!(read, parse(&text));
            // Past the cap: left to the whole read.
            let mut file = Trickle { text: text.as_bytes(), sizes: vec![64], n: 0 };
            let cap = text.len() as u64 - 1;
            prop_assert_eq!(read_through(&mut file, text.len() as u64, cap, 1024).unwrap(), None);
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
