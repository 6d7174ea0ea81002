//! The hand reader and writer against serde, on generated manifests.

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
    assert!(Manifest::parse(&good.replace(r#""pattern":"p""#, r#""pattern":"\u0070""#)).is_ok());
}
