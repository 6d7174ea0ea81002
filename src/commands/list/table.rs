//! The tables of `list`, with the ACTIVITY column last once any listed run
//! has an activity.

use super::Listed;
use crate::output::Out;
use crate::style::{Cell, write_rows};

/// Whether any listed run has an activity: only then is the ACTIVITY column
/// shown (a repository whose agents never say lists as it always did).
fn any_activity(listed: &[Listed]) -> bool {
    listed.iter().any(|l| l.activity.is_some())
}

/// `row` with `cell` after its last column.
pub(super) fn push<T, const N: usize, const M: usize>(row: [T; N], cell: T) -> [T; M] {
    let mut cells = row.into_iter().chain([cell]);
    std::array::from_fn(|_| cells.next().expect("M is N + 1"))
}

/// The table, with the ACTIVITY column last when any run has one.
pub(super) fn table<const N: usize, const M: usize>(
    out: &mut Out<'_>,
    header: [&str; N],
    rows: Vec<[Cell<'_>; N]>,
    listed: &[Listed],
) -> std::io::Result<()> {
    table_rows::<N, M, _>(out, header, || rows.iter().cloned(), listed)
}

/// [`table`] of rows made as they are written, never all held at once
/// (see [`write_rows`]: `rows` is called twice).
pub(super) fn table_rows<'c, const N: usize, const M: usize, I>(
    out: &mut Out<'_>,
    header: [&str; N],
    rows: impl Fn() -> I,
    listed: &[Listed],
) -> std::io::Result<()>
where
    I: Iterator<Item = [Cell<'c>; N]>,
{
    if !any_activity(listed) {
        return write_rows(out.stdout, header, rows, out.color);
    }
    let now = crate::time::now();
    let header: [&str; M] = push(header, "ACTIVITY");
    let rows = || {
        rows()
            .zip(listed)
            .map(|(row, l)| push(row, l.activity_cell(now)))
    };
    write_rows(out.stdout, header, rows, out.color)
}
