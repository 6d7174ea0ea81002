//! `list --disk`'s columns (DISK, UNIQUE) and its total line; the sizes are
//! read by [`crate::ops::disk`].

use serde::Serialize;

use super::{Listed, push, table};
use crate::output::Out;
use crate::style::{Cell, human_bytes};

/// What `--disk` adds to a run, and the totals (`null`: no worktree).
#[derive(Debug, Default, Clone, Copy, Serialize, schemars::JsonSchema)]
pub struct Disk {
    /// Bytes allocated on disk to everything in the worktree, ignored files
    /// included (as `du -s`; symlinks never followed, one filesystem).
    #[serde(rename = "diskBytes")]
    pub disk_bytes: Option<u64>,
    /// Those not shared by reflink with another file (the main checkout, the
    /// pool, another worktree): what removing it gives back.
    #[serde(rename = "uniqueBytes")]
    pub unique_bytes: Option<u64>,
}

impl Disk {
    fn cells(self) -> [Cell<'static>; 2] {
        let cell = |b: Option<u64>| (b.map_or_else(|| "-".to_owned(), human_bytes).into(), "");
        [cell(self.disk_bytes), cell(self.unique_bytes)]
    }
}

/// The table with `--disk`'s DISK and UNIQUE columns (`D` is `N + 2`, `M` is `D + 1`).
pub(super) fn disk_table<const N: usize, const N1: usize, const D: usize, const M: usize>(
    out: &mut Out<'_>,
    header: [&str; N],
    rows: Vec<[Cell<'_>; N]>,
    listed: &[Listed],
) -> std::io::Result<()> {
    let header: [&str; D] = push::<_, N1, D>(push::<_, N, N1>(header, "DISK"), "UNIQUE");
    let rows: Vec<[Cell<'_>; D]> = rows
        .into_iter()
        .zip(listed)
        .map(|(row, l)| {
            let [disk, unique] = l.disk.as_deref().copied().unwrap_or_default().cells();
            push::<_, N1, D>(push::<_, N, N1>(row, disk), unique)
        })
        .collect();
    table::<D, M>(out, header, rows, listed)?;
    let total = listed
        .iter()
        .filter_map(|l| l.disk.as_deref())
        .fold((0, 0), |(d, u), x| {
            (
                d + x.disk_bytes.unwrap_or(0),
                u + x.unique_bytes.unwrap_or(0),
            )
        });
    writeln!(
        out.stdout,
        "total: {} on disk, {} unique",
        human_bytes(total.0),
        human_bytes(total.1)
    )
}
