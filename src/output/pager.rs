//! The pager a long human output goes through on a terminal, chosen and run
//! as git runs its own (`pager.c`): `git loop log` pages as `git log` does.
//!
//! # Which pager
//!
//! Only when stdout is a terminal (never with `--json`, never into a pipe or
//! a file), and not when git already pages git-loop (`GIT_PAGER_IN_USE`:
//! `git -p loop …`, or `pager.loop` set to a command, makes git start the
//! pager itself and hand git-loop its pipe). Then the first of:
//! 1. `GIT_PAGER`;
//! 2. `core.pager`, from `git -c` (`GIT_CONFIG_PARAMETERS`) or git's
//!    configuration files as the repository sees them (the caller reads it:
//!    this module knows nothing of git);
//! 3. `PAGER`;
//! 4. `less`.
//!
//! An empty value or `cat` means no pager. `git --no-pager loop …` and
//! `pager.loop=false` reach git-loop as `GIT_PAGER=cat` (git sets it for
//! the external command it runs), so both are honoured by rule 1; git-loop
//! has no `--no-pager` of its own (`GIT_PAGER=cat git-loop log` is the same).
//!
//! # How it runs
//!
//! `sh -c <pager>`, with `LESS=FRX` and `LV=-c` when they are unset (as git
//! sets them: `less` then quits at once when the text fits one screen,
//! passes colour through and leaves the text on the screen). Its stdin is
//! a pipe git-loop writes into; its stdout and stderr are the terminal's.
//! git-loop waits for it before exiting, so the shell's prompt comes back
//! after the pager, not under it. A pager that quits before reading
//! everything (`q` in `less`) closes the pipe: the write fails with a broken
//! pipe, which is not an error (exit 0, nothing said, as everywhere).
//! While the pager runs, Ctrl-C is for the pager (`less` takes it to stop a
//! search): git-loop ignores SIGINT and SIGQUIT until the pager has exited,
//! as git waits for its pager before dying of a signal. A pager that cannot
//! be started is a warning, and the text goes to stdout.

use std::io::{BufWriter, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The pager command for stdout, by the rules above; `None`: no pager.
/// `core_pager` reads `core.pager` (asked only when `GIT_PAGER` is unset).
pub fn choose(
    stdout_is_terminal: bool,
    core_pager: impl FnOnce() -> Option<String>,
) -> Option<String> {
    if !stdout_is_terminal || std::env::var_os("GIT_PAGER_IN_USE").is_some_and(|v| v == "true") {
        return None;
    }
    let command = std::env::var("GIT_PAGER")
        .ok()
        .or_else(core_pager)
        .or_else(|| std::env::var("PAGER").ok())
        .unwrap_or_else(|| "less".to_owned());
    (!command.is_empty() && command != "cat").then_some(command)
}

/// A running pager: write into [`Pager::stdin`], then [`Pager::finish`].
pub struct Pager {
    child: Child,
    stdin: Option<BufWriter<ChildStdin>>,
    /// SIGINT and SIGQUIT handlers that only set a flag, so neither kills
    /// git-loop while the pager runs; removed by `finish`.
    ignored: Vec<signal_hook::SigId>,
}

impl Pager {
    /// Start `sh -c <command>`; the error names the command.
    pub fn spawn(command: &str) -> Result<Pager, String> {
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(command)
            .arg(command)
            .stdin(Stdio::piped());
        for (key, value) in [("LESS", "FRX"), ("LV", "-c")] {
            if std::env::var_os(key).is_none() {
                cmd.env(key, value);
            }
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("could not start the pager {command:?}: {e}"))?;
        // Piped above, so present.
        let stdin = child
            .stdin
            .take()
            .map(|s| BufWriter::with_capacity(64 * 1024, s));
        let flag = Arc::new(AtomicBool::new(false));
        let ignored = [signal_hook::consts::SIGINT, signal_hook::consts::SIGQUIT]
            .into_iter()
            .filter_map(|signal| signal_hook::flag::register(signal, flag.clone()).ok())
            .collect();
        Ok(Pager {
            child,
            stdin,
            ignored,
        })
    }

    /// The pipe into the pager (buffered).
    pub fn stdin(&mut self) -> &mut dyn Write {
        self.stdin.as_mut().expect("taken only when dropped")
    }

    /// Close the pipe and wait for the pager to exit (also what dropping
    /// it does).
    pub fn finish(self) {}
}

impl Drop for Pager {
    /// What is still buffered is written first (a pager that has quit is
    /// not an error), then the pipe is closed, so the pager sees the end.
    fn drop(&mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = stdin.flush();
        }
        let _ = self.child.wait();
        for id in self.ignored.drain(..) {
            signal_hook::low_level::unregister(id);
        }
    }
}
