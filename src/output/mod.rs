//! What a command hands back and where it writes: [`Out`] (the writers and
//! the output mode), [`Report`] (a command's result, rendered as text or
//! JSON), [`Fail`] (how a command ends when it does not succeed), and
//! [`Terminal`] (what the standard streams are connected to); [`pager`]
//! (`log` on a terminal, as `git log`), [`Progress`] (a count on a
//! terminal's stderr for a step that takes over a second) and [`live`] (a
//! line redrawn while a gate runs).
//!
//! Commands depend on this module, not on the crate root, so the root's
//! [`crate::invoke`] can call [`crate::commands`] without a cycle.
//!
//! # The order of what a person reads
//!
//! Data goes to stdout, notes (progress, summaries, warnings, errors) to
//! stderr, and a person reading both on one screen must see them in the
//! order they were written: `cleanup`'s `removed s1 (…)` lines before its
//! `removed 1, skipped 1` summary. [`StdStreams`] buffers stdout so that
//! this holds and a piped stdout stays one buffered document:
//! - stdout is a terminal: line-buffered, as C's stdio (and so git) does
//!   it: each line is written when it is complete;
//! - stdout and stderr are the same open file (`2>&1`, `&>log`: the same
//!   device and inode, a pipe or a file), or stdout is a terminal: stdout's
//!   buffer is flushed before each write to stderr, so a note lands after
//!   the data written before it;
//! - otherwise (stdout a pipe or a file of its own): one 64 KiB buffer,
//!   written when full and when the command ends — a 10,000-row list is a
//!   handful of writes, and a JSON document is written whole.
//!
//! git flushes stdout after each record unless stdout is a regular file
//! (`maybe_flush_or_die`), and leaves `2>&1` to stdio's buffering, so its
//! own `git … >log 2>&1` can read out of order; comparing the two streams'
//! files instead costs two `fstat`s at start and is right in that case too.
//! A child that writes to an inherited descriptor (a hook, `git loop run`'s
//! command) is outside this: its output is ordered by when it runs.

pub mod live;
pub mod pager;

use std::cell::RefCell;
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
    /// Colour on stdout, decided on first use ([`style::Color::on`]; the
    /// rules are in [`style`]'s "Colour").
    pub color: style::Color<'a>,
    /// stderr is a terminal: progress lines may be drawn there.
    pub stderr_is_terminal: bool,
    /// stdout is a terminal: a long output may go through a pager
    /// ([`emit_paged`]).
    pub stdout_is_terminal: bool,
}

/// What the process's standard streams are connected to.
#[derive(Debug, Clone, Copy, Default)]
pub struct Terminal {
    pub stdout: bool,
    pub stderr: bool,
}

/// The process's stdout and stderr, buffered as the module doc says; see
/// [`StdStreams::stdout`] and [`StdStreams::stderr`] for the writers.
pub struct StdStreams {
    stdout: RefCell<Box<dyn Write>>,
    /// Flush stdout before each write to stderr.
    flush_first: bool,
    /// What the streams are connected to.
    pub terminal: Terminal,
}

impl StdStreams {
    pub fn new() -> StdStreams {
        use std::io::IsTerminal;
        let (stdout, stderr) = (io::stdout(), io::stderr());
        let terminal = Terminal {
            stdout: stdout.is_terminal(),
            stderr: stderr.is_terminal(),
        };
        let buffered: Box<dyn Write> = if terminal.stdout {
            // std's stdout is line-buffered.
            Box::new(stdout.lock())
        } else {
            Box::new(io::BufWriter::with_capacity(64 * 1024, stdout.lock()))
        };
        StdStreams {
            stdout: RefCell::new(buffered),
            flush_first: terminal.stdout || same_file(&io::stdout(), &io::stderr()),
            terminal,
        }
    }

    /// The writer for stdout. Commands flush it before returning (a broken
    /// pipe is then seen, and is not an error).
    pub fn stdout(&self) -> impl Write + '_ {
        Stdout(&self.stdout)
    }

    /// The writer for stderr: unbuffered, and flushing stdout first when
    /// the two could be read together.
    pub fn stderr(&self) -> impl Write + '_ {
        Stderr {
            stderr: io::stderr().lock(),
            stdout: self.flush_first.then_some(&self.stdout),
        }
    }

    /// Write what stdout still holds.
    pub fn flush(&self) {
        if let Ok(mut stdout) = self.stdout.try_borrow_mut() {
            let _ = stdout.flush();
        }
    }
}

impl Default for StdStreams {
    fn default() -> Self {
        StdStreams::new()
    }
}

/// Whether `a` and `b` are the same open file (device and inode).
fn same_file(a: &impl std::os::fd::AsFd, b: &impl std::os::fd::AsFd) -> bool {
    match (rustix::fs::fstat(a), rustix::fs::fstat(b)) {
        (Ok(a), Ok(b)) => a.st_dev == b.st_dev && a.st_ino == b.st_ino,
        _ => false,
    }
}

struct Stdout<'a>(&'a RefCell<Box<dyn Write>>);

impl Write for Stdout<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().write(buf)
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.0.borrow_mut().write_all(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.0.borrow_mut().flush()
    }
}

struct Stderr<'a> {
    stderr: io::StderrLock<'static>,
    stdout: Option<&'a RefCell<Box<dyn Write>>>,
}

impl Stderr<'_> {
    fn flush_stdout(&self) {
        // A stdout that cannot be written (a closed pipe) is reported by
        // the command's own flush; a note still goes to stderr.
        if let Some(mut stdout) = self.stdout.and_then(|s| s.try_borrow_mut().ok()) {
            let _ = stdout.flush();
        }
    }
}

impl Write for Stderr<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.flush_stdout();
        self.stderr.write(buf)
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.flush_stdout();
        self.stderr.write_all(buf)
    }
    fn write_fmt(&mut self, args: std::fmt::Arguments<'_>) -> io::Result<()> {
        self.flush_stdout();
        self.stderr.write_fmt(args)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.stderr.flush()
    }
}

/// What an operation may say while it works: notes and progress lines on
/// stderr, never stdout (which holds the command's report, built from the
/// operation's outcome last). [`Out::notes`] hands it out.
pub struct Notes<'a> {
    pub stderr: &'a mut dyn Write,
    /// `--json`: the report will be a document (notes still go to stderr).
    pub json: bool,
    pub quiet: bool,
    /// stderr is a terminal: progress lines may be drawn there.
    pub stderr_is_terminal: bool,
}

impl Out<'_> {
    /// The operation's narrow handle: stderr and how to speak there.
    pub fn notes(&mut self) -> Notes<'_> {
        Notes {
            stderr: &mut *self.stderr,
            json: self.json,
            quiet: self.quiet,
            stderr_is_terminal: self.stderr_is_terminal,
        }
    }

    /// A note on stderr ([`Notes::note`]).
    pub fn note(&mut self, line: std::fmt::Arguments<'_>) {
        self.notes().note(line);
    }
}

impl Notes<'_> {
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

/// A count of a long step's progress on a terminal's stderr
/// ([`Out::progress`]: nothing when stderr is not a terminal or with
/// `--quiet`), drawn only once the step has taken longer than the progress
/// delay — so a step that is quick, as most are, draws nothing — and erased
/// by [`Progress::done`].
///
/// The delay is git's own `GIT_PROGRESS_DELAY` (seconds), which also delays
/// the progress of the git commands git-loop runs; unset (or not a number),
/// it is one second, where git waits two: git-loop's steps are counted per
/// run, and a second of silence is already long.
pub struct Progress {
    started: std::time::Instant,
    delay: std::time::Duration,
    drawn: bool,
}

impl Progress {
    /// The step starts now.
    pub fn start() -> Progress {
        Progress {
            started: std::time::Instant::now(),
            delay: Progress::delay(),
            drawn: false,
        }
    }

    /// `GIT_PROGRESS_DELAY`, else one second (see the type's doc).
    pub fn delay() -> std::time::Duration {
        let seconds = std::env::var("GIT_PROGRESS_DELAY")
            .ok()
            .and_then(|s| s.trim().parse::<u64>().ok())
            .unwrap_or(1);
        std::time::Duration::from_secs(seconds)
    }

    /// Draw `line` in place of the last one, if the step has taken longer
    /// than the delay.
    pub fn show(&mut self, out: &mut Notes<'_>, line: std::fmt::Arguments<'_>) {
        if self.drawn || self.started.elapsed() >= self.delay {
            out.progress(Some(line));
            self.drawn = true;
        }
    }

    /// Erase the line, if one was drawn (before the step's result, or the
    /// error that ends it, is written).
    pub fn done(&mut self, out: &mut Notes<'_>) {
        if std::mem::take(&mut self.drawn) {
            out.progress(None);
        }
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
            "error: {}",
            crate::style::escape(&failure.message)
        )?;
        if let Some(help) = &failure.help {
            writeln!(out.stderr, "  help: {}", crate::style::escape(help))?;
        }
        return Err(Fail::Exit(1));
    }
    Ok(())
}

/// [`emit`] through `pager` when there is one (see [`pager`]: the caller
/// chose it, so it is `None` with `--json` and off a terminal): the report
/// is written into the pager's pipe, and the pager is waited for. A pager
/// that quits early ends the report with a broken pipe, which is not an
/// error; one that cannot be started is a warning, and the report goes to
/// stdout.
pub fn emit_paged<R: Report>(
    report: R,
    out: &mut Out<'_>,
    pager: Option<&str>,
) -> std::result::Result<(), Fail> {
    let Some(command) = pager else {
        return emit(report, out);
    };
    let mut pager = match pager::Pager::spawn(command) {
        Ok(pager) => pager,
        Err(why) => {
            out.note(format_args!("warning: {why}"));
            return emit(report, out);
        }
    };
    let result = emit(
        report,
        &mut Out {
            stdout: pager.stdin(),
            stderr: &mut *out.stderr,
            json: out.json,
            quiet: out.quiet,
            color: out.color,
            stderr_is_terminal: out.stderr_is_terminal,
            stdout_is_terminal: true,
        },
    );
    pager.finish();
    result
}
