//! git-loop: one git worktree and branch per parallel run of work, an audit
//! manifest of what each run became, and a cleanup that never destroys work
//! that is not safe to destroy.
//!
//! [`invoke`] is the crate's one entry: it parses arguments, runs one command
//! handler, and renders the handler's report as text or JSON on the writers it
//! is given. Handlers never print; they return a report.
//!
//! # Layers
//!
//! Bottom up; a module uses only modules of the layers below its own, and
//! `tests/integration/layout.rs` holds the code to this list (each line's
//! modules are the names before its colon):
//! - `style`, `time`, `crash`, `signals`, `fanout`, `test_git`, `vocab`: the
//!   ground (`vocab`: every closed vocabulary's one definition; `crash`: the test switches; `signals`, handed what to undo, knows nothing
//!   else; `fanout`: the thread fan-out; `test_git`: the unit tests' git);
//! - `error`: the one error type;
//! - `fsx`, `runid`, `output`: file access that never follows a symlink, run
//!   ids, the writers a report is rendered on;
//! - `lock`: every lock, and the one order they are taken in;
//! - `manifest`: the record of runs, written under the mutex;
//! - `git`: reads through gix (refs through its `refs` layer), and the only
//!   places that spawn `git`;
//! - `config`, `safety`: the settings; the kernel, the only maker of the
//!   permit every destroying primitive asks for;
//! - `events`: the audit log (its lines name the kernel's outcomes);
//! - `worktree`, `copy`, `configured_command`, `cli`: removing a run's
//!   worktree and finishing interrupted removals; `create.copy`; the commands
//!   a configuration has git-loop run, and their trust; the arguments;
//! - `ctx`: what every operation is handed;
//! - `ops`: the operations;
//! - `mcp`: the MCP server, over the operations;
//! - `commands`: one thin adapter per command (`mcp` among them);
//! - `schema`: the generator, above them all.

// Public: `cli` (examples/generate builds man pages and completions from
// it), `manifest`, `runid` and `time` (property tests), and [`invoke`] with
// [`Terminal`] and [`StdStreams`] (the binary), `schema` (with the `generate` feature only:
// examples/generate writes schema/ with it). Everything else is the crate's own.
pub mod cli;
pub(crate) mod commands;
pub(crate) mod config;
pub(crate) mod configured_command;
pub(crate) mod copy;
pub(crate) mod crash;
pub(crate) mod ctx;
pub(crate) mod error;
pub(crate) mod events;
pub(crate) mod fanout;
pub(crate) mod fsx;
pub(crate) mod git;
pub(crate) mod lock;
pub mod manifest;
pub(crate) mod mcp;
pub(crate) mod ops;
pub(crate) mod output;
pub mod runid;
pub(crate) mod safety;
#[cfg(feature = "generate")]
pub mod schema;
pub(crate) mod signals;
pub(crate) mod style;
#[cfg(test)]
pub(crate) mod test_git;
pub mod time;
pub(crate) mod vocab;
pub(crate) mod worktree;

use std::ffi::OsString;
use std::io::Write;

use clap::Parser;

use crate::error::Error;
use crate::output::{Fail, Out};
pub use crate::output::{StdStreams, Terminal};

/// Every setting's names, for `tests/integration/docs_sync.rs`.
#[doc(hidden)]
pub use config::keys::names as settings;

/// Every closed vocabulary by its name in the docs, with its values in
/// order: what `tests/integration/docs_sync.rs` holds each list in docs/ to.
/// (A status's name is a skip code too, for a run marked again after cleanup
/// selected it: the docs say so apart from the list.)
#[doc(hidden)]
pub fn vocabularies() -> Vec<(&'static str, Vec<String>)> {
    vec![
        (
            "statuses",
            manifest::Status::ALL.map(|s| s.as_str().into()).to_vec(),
        ),
        (
            "event kinds",
            events::EventKind::ALL.map(|k| k.as_str().into()).to_vec(),
        ),
        (
            "skip codes",
            safety::skip::SkipCode::FIXED
                .map(|c| c.as_str().into())
                .to_vec(),
        ),
        (
            "land codes",
            ops::land::Code::ALL.map(|c| c.as_str().into()).to_vec(),
        ),
        (
            "sync codes",
            ops::sync::Code::ALL.map(|c| c.as_str().into()).to_vec(),
        ),
        (
            "activities",
            events::Activity::ALL.map(|a| a.as_str().into()).to_vec(),
        ),
        (
            "fleet codes",
            ops::fleet::FleetCode::ALL
                .map(|c| c.as_str().into())
                .to_vec(),
        ),
        (
            "trash reasons",
            safety::trash::Reason::ALL
                .map(|r| r.as_str().into())
                .to_vec(),
        ),
        (
            "error codes",
            error::ErrorCode::ALL.map(|c| c.as_str().into()).to_vec(),
        ),
    ]
}

fn wants_json(args: &[OsString]) -> bool {
    args.iter()
        .skip(1)
        .take_while(|a| *a != "--")
        .any(|a| a == "--json")
}

/// Run git-loop with `args` (including the program name); returns the exit code.
pub fn invoke(
    args: Vec<OsString>,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
    terminal: Terminal,
) -> i32 {
    // Fixed before anything is done: nothing this command makes is older.
    time::started();
    let cli = match cli::Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) => return refused_command_line(&e, &args, stdout, stderr),
    };
    // git's checkout progress reaches a terminal (see `git::progress`).
    git::progress::pass_through(terminal.stderr && !cli.quiet);
    let repo = cli.repo.clone();
    // `--color` first, as git's commands take it; else the settings.
    let flag = cli.color;
    let color = style::ColorChoice::new(terminal.stdout, move || match flag {
        Some(when) => Ok(Some(when)),
        None => color_setting(repo.as_deref()),
    });
    let mut out = Out {
        stdout,
        stderr,
        json: cli.json,
        quiet: cli.quiet,
        color: if cli.json {
            style::Color::OFF
        } else {
            color.handle()
        },
        stderr_is_terminal: terminal.stderr,
        stdout_is_terminal: terminal.stdout,
    };
    let code = match commands::dispatch(&cli, &mut out) {
        Ok(()) => 0,
        Err(Fail::Pipe) => 0,
        Err(Fail::Exit(code)) => code,
        Err(Fail::Error(e)) => {
            render_error(&e, out.stderr);
            if cli.json {
                print_json_error(out.stdout, e.code(), &e.to_string());
            }
            e.exit_code()
        }
    };
    for note in config::take_notes() {
        out.note(format_args!("{note}"));
    }
    if let Some(note) = git::repo::take_walk_note() {
        out.note(format_args!("{note}"));
    }
    if let Some(bad) = color.take_warning() {
        out.note(format_args!("warning: {bad}"));
    }
    code
}

/// A command line clap did not take (or help and version, which it
/// renders as errors): what it says, written where it goes, and the exit
/// code.
fn refused_command_line(
    e: &clap::Error,
    args: &[OsString],
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> i32 {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let _ = write!(stdout, "{}", e.render());
        return 0;
    }
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = write!(stderr, "{}", e.render());
        return 2;
    }
    // A value our own parser refused (a run id, a status list, a
    // cutoff): report it as git-loop's error, with its own code.
    if e.kind() == ErrorKind::ValueValidation
        && let Some(ours) = std::error::Error::source(e).and_then(|s| s.downcast_ref::<Error>())
    {
        render_error(ours, stderr);
        if wants_json(args) {
            print_json_error(stdout, ours.code(), &ours.to_string());
        }
        // Typed on the command line: a usage error, whatever it is.
        return 2;
    }
    let mut message = e.render().to_string();
    if let Some(first) = mark_missing_status(e, args) {
        let rest = message.split_once('\n').map_or("", |(_, rest)| rest);
        message = format!("{first}\n{rest}");
    }
    let _ = write!(stderr, "{message}");
    if wants_json(args) {
        print_json_error(
            stdout,
            error::ErrorCode::Usage.as_str(),
            &usage_one_line(&message),
        );
    }
    2
}

/// `color.loop`, else `color.ui`, as git reads them: `git -c` (through
/// `GIT_CONFIG_PARAMETERS`, its last value) over git's configuration files
/// seen from the repository at `-C` or the current directory (only the
/// files outside a repository). `Err`: the key and a value git would refuse.
/// See [`style`]'s "Colour" for what the values mean.
fn color_setting(repo: Option<&std::path::Path>) -> Result<Option<style::ColorWhen>, String> {
    let params = std::env::var("GIT_CONFIG_PARAMETERS")
        .map(|p| config::git::parse_config_parameters(&p))
        .unwrap_or_default();
    let start = repo
        .map(std::path::Path::to_path_buf)
        .or_else(|| std::env::current_dir().ok());
    let found = start.and_then(|dir| git::repo::Repo::discover(&dir).ok());
    let files = found.as_ref().map(|r| r.config());
    for key in ["color.loop", "color.ui"] {
        let from_command_line = params
            .iter()
            .rev()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.clone());
        let value = from_command_line.or_else(|| {
            let files = files.as_ref()?;
            let value = files.string(key)?.to_string();
            // `[color] ui` without `=`: git's implicit true.
            Some(match (value.is_empty(), files.boolean(key)) {
                (true, Some(true)) => "true".to_owned(),
                _ => value,
            })
        });
        if let Some(value) = value {
            return style::ColorWhen::parse(&value).map(Some).ok_or_else(|| {
                // Escaped by the note that prints it.
                format!(
                    "{key}: \"{value}\" is not never, auto, always or a boolean; colour is left to the terminal"
                )
            });
        }
    }
    Ok(None)
}

/// clap's message as one line for JSON: everything above its `Usage:`
/// footer, without the `error: ` prefix; a list under a line ending in `:`
/// is joined with commas, other lines with `; `. E.g. `the following
/// required arguments were not provided: --pattern <LABEL>, <RUN_ID>`.
fn usage_one_line(message: &str) -> String {
    let mut line = String::new();
    let mut in_list = false;
    for raw in message
        .lines()
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
    {
        let text = raw.trim();
        if text.is_empty() {
            in_list = false;
            continue;
        }
        let item = in_list && raw.starts_with(' ');
        match () {
            _ if line.is_empty() => line.push_str(text.trim_start_matches("error: ")),
            _ if item && line.ends_with(':') => {
                line.push(' ');
                line.push_str(text);
            }
            _ if item => {
                line.push_str(", ");
                line.push_str(text);
            }
            _ => {
                line.push_str("; ");
                line.push_str(text);
            }
        }
        if text.ends_with(':') {
            in_list = true;
        }
    }
    line
}

/// Where the subcommand is in `args`: the first word that is neither a
/// global flag nor the value of -C/--repo.
fn subcommand_at(args: &[OsString]) -> Option<usize> {
    let mut words = args.iter().enumerate().skip(1);
    loop {
        let (i, word) = words.next()?;
        if word == "--" {
            return None;
        }
        if word == "-C" || word == "--repo" {
            words.next();
        } else if !word.to_string_lossy().starts_with('-') {
            return Some(i);
        }
    }
}

/// `git loop mark <one word>` where the word is no status: the status is
/// what is missing (the word is a run id, most likely), so the error says
/// that, not "invalid value" for the status; the line that replaces
/// clap's first.
fn mark_missing_status(e: &clap::Error, args: &[OsString]) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let arg = e.get(ContextKind::InvalidArg);
    if e.kind() != ErrorKind::InvalidValue
        || !matches!(arg, Some(ContextValue::String(a)) if a == "<STATUS>")
    {
        return None;
    }
    let at = subcommand_at(args)?;
    if args[at] != "mark" {
        return None;
    }
    let words: Vec<String> = args[at + 1..]
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .filter(|a| !a.starts_with('-'))
        .collect();
    let [word] = words.as_slice() else {
        return None;
    };
    // clap's next line lists the statuses.
    Some(
        style::escape(&format!(
            "error: missing <STATUS> after '{word}': git loop mark {word} <STATUS>"
        ))
        .into_owned(),
    )
}

fn print_json_error(stdout: &mut dyn Write, code: &str, message: &str) {
    let doc = serde_json::json!({"error": {"code": code, "message": message}});
    let _ = writeln!(stdout, "{doc}");
}

/// The human diagnostic: one line, and its help; both escaped, since an
/// error names values from files, git and the command line.
fn render_error(e: &Error, stderr: &mut dyn Write) {
    let _ = writeln!(stderr, "error: {}", style::escape(&e.to_string()));
    if let Some(help) = miette::Diagnostic::help(e) {
        let _ = writeln!(stderr, "  help: {}", style::escape(&help.to_string()));
    }
}
