//! What a command hands back and where it writes: [`Out`] (the writers and
//! the output mode), [`Report`] (a command's result, rendered as text or
//! JSON), [`Fail`] (how a command ends when it does not succeed), and
//! [`Terminal`] (what the standard streams are connected to).
//!
//! Commands depend on this module, not on the crate root, so the root's
//! [`crate::run`] can call [`crate::commands`] without a cycle.

use std::io::{self, Write};

use serde::Serialize;

use crate::error::Error;
use crate::style;

/// Where a command writes: data on stdout, notes and errors on stderr.
pub struct Out<'a> {
    pub stdout: &'a mut dyn Write,
    pub stderr: &'a mut dyn Write,
    pub json: bool,
    pub quiet: bool,
    /// Colour on stdout (a terminal, and `NO_COLOR` unset).
    pub color: bool,
    /// stderr is a terminal: progress lines may be drawn there.
    pub stderr_is_terminal: bool,
}

/// What the process's standard streams are connected to.
#[derive(Debug, Clone, Copy, Default)]
pub struct Terminal {
    pub stdout: bool,
    pub stderr: bool,
}

impl Out<'_> {
    /// A progress, summary or warning line on stderr; silenced by `--quiet`.
    /// The line is one line, made inert with [`style::escape`] (it names ids,
    /// paths, file names and git's messages, none of which may drive the
    /// terminal).
    pub fn note(&mut self, line: std::fmt::Arguments<'_>) {
        if !self.quiet {
            let _ = writeln!(self.stderr, "{}", style::escape(&line.to_string()));
        }
    }

    /// A progress line on a terminal's stderr, redrawn in place; `None`
    /// clears it. Nothing when stderr is not a terminal or with `--quiet`.
    pub fn progress(&mut self, line: Option<std::fmt::Arguments<'_>>) {
        if self.quiet || !self.stderr_is_terminal {
            return;
        }
        let _ = match line {
            Some(line) => write!(self.stderr, "\r\x1b[K{}", style::escape(&line.to_string())),
            None => write!(self.stderr, "\r\x1b[K"),
        };
        let _ = self.stderr.flush();
    }
}

/// What a command returns: one value rendered either as text or as JSON, so the
/// two renderings cannot drift apart.
///
/// `human` escapes every stored or foreign value it prints with
/// [`style::escape`], except absolute paths meant for the shell
/// (`cd "$(git loop path x)"`), which are printed byte for byte.
pub trait Report: Serialize {
    fn human(&self, out: &mut Out<'_>) -> io::Result<()>;

    /// Whether the report can be written as JSON; checked before any of it
    /// is written. A report holding an absolute path refuses a path that is
    /// not UTF-8 (JSON strings are Unicode), naming it.
    fn check_json(&self) -> Result<(), Error> {
        Ok(())
    }

    /// The failure part way through, for a report that lists what was done
    /// before it (cleanup, remove, reconcile, branches): written after the
    /// report, on stderr, and the command exits 1.
    fn failed_part_way(&self) -> Option<&crate::error::Failure> {
        None
    }
}

/// A command either fails with an [`Error`] or finds its stdout closed (e.g.
/// `git loop list | head`), which is not a failure.
#[derive(Debug)]
pub enum Fail {
    Error(Error),
    Pipe,
    /// Exit with this code and say nothing (`git loop run` passing its
    /// command's exit code through).
    Exit(i32),
}

impl From<Error> for Fail {
    fn from(e: Error) -> Self {
        Fail::Error(e)
    }
}

impl From<io::Error> for Fail {
    fn from(e: io::Error) -> Self {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Fail::Pipe
        } else {
            Fail::Error(Error::io("could not write", "standard output", e))
        }
    }
}

/// Write `report` as text or JSON. JSON is exactly one document: the report
/// is checked ([`Report::check_json`]) and serialized whole into a buffer,
/// and only a complete document is written; on failure nothing is, and the
/// caller prints the error document instead.
pub fn emit<R: Report>(report: R, out: &mut Out<'_>) -> std::result::Result<(), Fail> {
    if out.json {
        report.check_json()?;
        let mut doc = serde_json::to_vec(&report).map_err(std::io::Error::from)?;
        doc.push(b'\n');
        out.stdout.write_all(&doc)?;
    } else {
        report.human(out)?;
    }
    out.stdout.flush()?;
    // A failure part way: the report above lists what was done before it.
    if let Some(failure) = report.failed_part_way() {
        writeln!(
            out.stderr,
            "git-loop: error: {}",
            crate::style::escape(&failure.message)
        )?;
        return Err(Fail::Exit(1));
    }
    Ok(())
}
