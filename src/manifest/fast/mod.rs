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
//!
//! Neither holds the whole text: [`read`] parses the file as it is read,
//! through a 64 KiB window, and [`write_to`] writes 64 KiB at a time. At
//! 10,000 entries the text is 2–2.5 MB, and memory a process touches for
//! the first time costs a page fault each 4 KiB: that, more than parsing,
//! was the time of `list`, `path` and `mark` (measured with `perf`: the
//! kernel's share of `list` was 44%).

use super::{CreatedAt, Entry, LOOP_DIR, Manifest, Status, derived};
use crate::runid::{self, RunId};

mod write;
pub(super) use write::{write, write_to};

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

#[cfg(test)]
mod tests;
