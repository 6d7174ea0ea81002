//! Human output: colour (only on a terminal, never with `NO_COLOR`), the
//! escaping of untrusted text, and the short codes that summarize why entries
//! were skipped.
//!
//! Every value git-loop prints for a person may come from somewhere a person
//! did not type it: a manifest or event log written by hand or by an older
//! version, a cloned `.git-loop.toml`, a file name in a cloned tree, git's own
//! messages. Printed raw, such text can drive the terminal (an OSC 52
//! clipboard write, a screen clear), break a table with a newline, or reorder
//! what is shown with a bidi override. [`escape`] makes it inert; every human
//! rendering of a stored or foreign value goes through it. JSON output does
//! not: serde_json escapes control characters itself, and JSON consumers get
//! the value as stored.

use std::borrow::Cow;

/// Write `path` and a newline, byte for byte (not lossily, not escaped): a
/// path printed for the shell (`cd "$(git loop path x)"`) must be the path,
/// whatever bytes it holds.
pub fn write_path_line(w: &mut dyn std::io::Write, path: &std::path::Path) -> std::io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    w.write_all(path.as_os_str().as_bytes())?;
    w.write_all(b"\n")
}

/// Whether `c` must not reach a terminal as it is: a control character
/// (`char::is_control`: C0 including newline and tab, DEL, C1), a bidi
/// formatting character (U+061C, U+200E, U+200F, U+202A–U+202E,
/// U+2066–U+2069), or a line/paragraph separator (U+2028, U+2029).
pub fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
                | '\u{2028}'
                | '\u{2029}'
        )
}

/// `text` made safe to print on a terminal: each character that
/// [`needs_escape`] is written the way Rust writes it in a string literal —
/// `\n`, `\r`, `\t`, and `\u{…}` (lowercase hex, no padding) for every other
/// one, so ESC reads `\u{1b}` and a right-to-left override `\u{202e}`.
/// Everything else, backslashes included, is kept as it is: the result is
/// for reading, not for parsing back (JSON output is for that), and escaping
/// twice changes nothing. Borrows when there is nothing to escape.
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if needs_escape(c) => {
                use std::fmt::Write;
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Should stdout be coloured? As anstream decides: never when `NO_COLOR` is
/// set to anything non-empty (no-color.org; it wins over everything), always
/// when `CLICOLOR_FORCE` is (even when stdout is not a terminal), never when
/// `CLICOLOR=0`; otherwise only on a terminal, and not for `TERM=dumb`.
pub fn want_color(stdout_is_terminal: bool) -> bool {
    if anstyle_query::no_color() {
        return false;
    }
    if anstyle_query::clicolor_force() {
        return true;
    }
    stdout_is_terminal
        && anstyle_query::clicolor() != Some(false)
        && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
}

/// One table cell: its text (already escaped) and the SGR parameters it is
/// drawn with (`""` for none).
pub type Cell<'a> = (Cow<'a, str>, &'static str);

/// Write a table: `header` in bold, then `rows`, one line each. A column is
/// as wide as its widest cell in visible characters (`char`s), plus two
/// spaces; the last column is not padded. Colour codes wrap the text only,
/// so columns stay aligned on a terminal, and are written only when `color`.
pub fn write_table<const N: usize>(
    w: &mut dyn std::io::Write,
    header: [&str; N],
    rows: &[[Cell<'_>; N]],
    color: bool,
) -> std::io::Result<()> {
    let mut widths = header.map(|h| h.chars().count());
    for row in rows {
        for (width, (text, _)) in widths.iter_mut().zip(row) {
            *width = (*width).max(text.chars().count());
        }
    }
    let mut line = |cells: &mut dyn Iterator<Item = (&str, &str)>| {
        for (i, (text, sgr)) in cells.enumerate() {
            let pad = if i + 1 == N {
                0
            } else {
                widths[i] + 2 - text.chars().count()
            };
            if color && !sgr.is_empty() {
                write!(w, "\x1b[{sgr}m{text}\x1b[0m{:pad$}", "")?;
            } else {
                write!(w, "{text}{:pad$}", "")?;
            }
        }
        writeln!(w)
    };
    line(&mut header.iter().map(|h| (*h, "1")))?;
    for row in rows {
        line(&mut row.iter().map(|(text, sgr)| (text.as_ref(), *sgr)))?;
    }
    Ok(())
}

/// "removed 3, skipped 2 (1 dirty, 1 locked)".
pub fn summary(verb: &str, removed: usize, skipped: &[&str]) -> String {
    format!(
        "{verb} {removed}, skipped {}{}",
        skipped.len(),
        skip_detail(skipped)
    )
}

/// " (dirty)", " (2 dirty, 1 locked)", or "" when nothing was skipped.
pub fn skip_detail(codes: &[&str]) -> String {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for code in codes {
        match counts.iter_mut().find(|(c, _)| c == code) {
            Some((_, n)) => *n += 1,
            None => counts.push((code, 1)),
        }
    }
    match counts.as_slice() {
        [] => String::new(),
        [(only, _)] => format!(" ({only})"),
        many => {
            let parts: Vec<String> = many.iter().map(|(c, n)| format!("{n} {c}")).collect();
            format!(" ({})", parts.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_control_and_bidi_characters() {
        assert!(matches!(escape("plain \\ text é"), Cow::Borrowed(_)));
        assert_eq!(escape("a\nb\tc\rd"), "a\\nb\\tc\\rd");
        assert_eq!(escape("\u{1b}]52;c;aGk=\u{7}"), "\\u{1b}]52;c;aGk=\\u{7}");
        assert_eq!(escape("\u{1b}[2J\u{7f}\u{9b}"), "\\u{1b}[2J\\u{7f}\\u{9b}");
        assert_eq!(
            escape("x\u{202e}y\u{2066}\u{200f}\u{61c}"),
            "x\\u{202e}y\\u{2066}\\u{200f}\\u{61c}"
        );
        for s in ["\u{1b}[2J\n", "a\u{202e}b", "\\u{1b}"] {
            let once = escape(s).into_owned();
            assert_eq!(escape(&once), once, "escaping is idempotent");
            assert!(!once.chars().any(needs_escape));
        }
    }

    #[test]
    fn tables_pad_by_visible_width_and_leave_the_last_column() {
        let rows = [
            [(Cow::from("é"), ""), (Cow::from("x"), "32")],
            [(Cow::from("abc"), "2"), (Cow::from("yz"), "")],
        ];
        let mut plain = Vec::new();
        write_table(&mut plain, ["A", "B"], &rows, false).unwrap();
        assert_eq!(
            String::from_utf8(plain).unwrap(),
            "A    B\né    x\nabc  yz\n"
        );
        let mut coloured = Vec::new();
        write_table(&mut coloured, ["A", "B"], &rows[..1], true).unwrap();
        assert_eq!(
            String::from_utf8(coloured).unwrap(),
            "\x1b[1mA\x1b[0m  \x1b[1mB\x1b[0m\né  \x1b[32mx\x1b[0m\n"
        );
    }

    #[test]
    fn summaries() {
        assert_eq!(
            summary("removed", 3, &["dirty"]),
            "removed 3, skipped 1 (dirty)"
        );
        assert_eq!(summary("removed", 0, &[]), "removed 0, skipped 0");
        assert_eq!(
            summary("removed", 1, &["dirty", "locked", "dirty"]),
            "removed 1, skipped 3 (2 dirty, 1 locked)"
        );
    }
}
