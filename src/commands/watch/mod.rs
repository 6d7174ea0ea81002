//! `git loop watch [--once]`: the adapter to [`crate::ops::watch`] (what is
//! read, when, and when the bell rings). [`frame`] lays one frame out;
//! [`screen`] draws it full-screen and takes the keys; [`sync_key`] is
//! `s`, the selected run synced as `git loop sync <id>` syncs it.
//!
//! `--fleet` shows every machine's published runs instead ([`fleet`]):
//! `list --fleet`'s table, read again every [`crate::ops::watch::FULL_REFRESH`];
//! with `--once`, `list --fleet` itself.
//!
//! `--once` prints one frame on stdout (no terminal needed: a pipe, a test)
//! at the width `COLUMNS` says, else 80 on a terminal and no limit into a
//! pipe or a file, coloured as `list` is. Without
//! `--once`, the view needs a terminal on stdin (its keys) and stderr (where
//! it is drawn, so that stdout carries only the path `o` chooses, for
//! `cd "$(git loop watch)"`): without one it refuses, exit 2, pointing at
//! `--once`, before the repository is opened. When stdout is the terminal
//! too (a plain `git loop watch`), `o` prints the path and a hint saying
//! what it is for.

mod fleet;
mod frame;
mod screen;
mod sync_key;
mod terminal;

use std::io::IsTerminal;
use std::path::Path;

use crate::cli::WatchArgs;
use crate::ctx::Ctx;
use crate::output::{Fail, Out};

/// `watch --once`'s width when `COLUMNS` does not say.
const DEFAULT_WIDTH: usize = 80;

pub fn exec(repo: Option<&Path>, args: &WatchArgs, out: &mut Out<'_>) -> Result<(), Fail> {
    if args.fleet && args.once {
        let ctx = Ctx::open(repo)?;
        return crate::output::emit(super::shared::fleet_list::exec(&ctx)?, out);
    }
    if args.once {
        let ctx = Ctx::open(repo)?;
        let runs = crate::ops::watch::read(&ctx, Vec::new(), true)?;
        // A terminal is as wide as `COLUMNS` says, else 80; a pipe or a
        // file has no width: nothing is cut (`COLUMNS` still cuts it).
        let unlimited = if out.stdout_is_terminal {
            DEFAULT_WIDTH
        } else {
            usize::MAX
        };
        let width = std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.trim().parse().ok())
            .filter(|&w: &usize| w > 0)
            .unwrap_or(unlimited);
        let built = frame::build(&runs, crate::time::now());
        out.stdout
            .write_all(frame::plain(&built, width, out.color.on()).as_bytes())?;
        return Ok(());
    }
    if !(std::io::stdin().is_terminal() && out.stderr_is_terminal) {
        writeln!(
            out.stderr,
            "error: git loop watch needs a terminal (on stdin and stderr), and there is none\n  help: `git loop watch --once` prints one frame and exits, for a pipe or a script"
        )?;
        return Err(Fail::Exit(2));
    }
    let ctx = Ctx::open(repo)?;
    if args.fleet {
        return Ok(fleet::show(&ctx)?);
    }
    let bell = ctx.settings()?.watch_bell.value;
    // Drawn on stderr's terminal: colour as that terminal would have it.
    let color = out.color.on_stream(true);
    if let Some(path) = screen::show(&ctx, bell, color)? {
        crate::style::write_path_line(out.stdout, &path)?;
        if out.stdout_is_terminal {
            // Not under `dir=$(git loop watch)`: the path went to the
            // screen, and the person may have expected to be taken there.
            writeln!(
                out.stderr,
                "hint: o prints the selected run's path, for `dir=$(git loop watch) && cd \"$dir\"`, which goes there"
            )?;
        }
    }
    Ok(())
}
