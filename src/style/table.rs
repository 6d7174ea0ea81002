//! Tables: [`write_table`], and [`write_rows`] for rows made as they are
//! written.

use std::borrow::Cow;
use std::io::Write;

use super::Color;

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
    color: Color<'_>,
) -> std::io::Result<()> {
    write_rows(w, header, || rows.iter(), color)
}

/// [`write_table`] of rows made as they are written, never all held at
/// once (10,000 rows of `list` were 2.4 MB): `rows` is called twice, to
/// measure the columns, then to write them.
pub fn write_rows<'c, const N: usize, R, I>(
    w: &mut dyn std::io::Write,
    header: [&str; N],
    rows: impl Fn() -> I,
    color: Color<'_>,
) -> std::io::Result<()>
where
    R: std::borrow::Borrow<[Cell<'c>; N]>,
    I: Iterator<Item = R>,
{
    let color = color.on();
    let mut widths = header.map(|h| h.chars().count());
    for row in rows() {
        for (width, (text, _)) in widths.iter_mut().zip(row.borrow()) {
            *width = (*width).max(text.chars().count());
        }
    }
    // Written into one buffer, handed on 64 KiB at a time: 10,000 rows
    // through `write!` and the writer's vtable cell by cell cost more than
    // making them.
    let mut buf: Vec<u8> = Vec::with_capacity(64 << 10);
    let mut line = |cells: &mut dyn Iterator<Item = (&str, &str)>| {
        for (i, (text, sgr)) in cells.enumerate() {
            if color && !sgr.is_empty() {
                write!(buf, "\x1b[{sgr}m{text}\x1b[0m")?;
            } else {
                buf.extend_from_slice(text.as_bytes());
            }
            if i + 1 < N {
                buf.resize(buf.len() + widths[i] + 2 - text.chars().count(), b' ');
            }
        }
        buf.push(b'\n');
        if buf.len() >= 60 << 10 {
            w.write_all(&buf)?;
            buf.clear();
        }
        Ok::<(), std::io::Error>(())
    };
    line(&mut header.iter().map(|h| (*h, "1")))?;
    for row in rows() {
        line(&mut row.borrow().iter().map(|(text, sgr)| (text.as_ref(), *sgr)))?;
    }
    w.write_all(&buf)
}
