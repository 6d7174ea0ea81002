//! Generated files: man pages (`man/`) and shell completions (`completions/`).
//!
//! Everything here is derived from the clap definitions in `git_loop::cli`.
//! The files are checked in. This module is build-time only: it lives with
//! the `generate` example, so the `git-loop` binary links neither
//! clap_complete nor clap_mangen (both are dev-dependencies).
//! - `cargo run --features generate --example generate` refreshes the files (`main.rs` writes
//!   what this module returns);
//! - the integration test `shell::generated::generated_files_are_up_to_date` includes
//!   this same file as a module (`#[path = …] mod generator;`), regenerates
//!   in memory and compares byte for byte. So the module reaches the library
//!   only through its crate name, `git_loop`, and uses nothing but the
//!   library, clap, clap_complete and clap_mangen.
//!
//! Completions work both for `git-loop <TAB>` and, through git's own
//! completion, for `git loop <TAB>`:
//! - **bash**: emitted here from the clap tree (clap_complete's bash script
//!   breaks subcommand options for a hyphenated binary name, assumes no global
//!   option before the subcommand, and completes CSV values as file names). It
//!   defines `_git_loop`, the function git's bash completion calls for
//!   `git loop`; bash-completion's loader finds the file as `git-loop`.
//! - **zsh, fish, elvish, powershell**: clap_complete, with run ids and status
//!   values completed dynamically (zsh, fish). zsh's `_git` calls `_git-loop`
//!   for `git loop`; fish's git completion hands `git loop …` to `git-loop`'s
//!   completions.
//!
//! Run ids come from `git-loop list --ids` (a hidden flag: one id a line);
//! `restore`'s, the salvaged ids, `trash restore`'s, the trash entries, and
//! `--base`'s branches from `git for-each-ref` (refs/loop/salvage/,
//! refs/loop/trash/, refs/heads/ and refs/remotes/); `judge`'s and `list
//! --task`'s task names and `pick`'s attempts from the run ids of the form
//! `<TASK>.<n>`. A nested subcommand
//! (`trash empty`) completes its own options and values; `mark`, which
//! takes several run ids and then a status, offers both after its first
//! word ([`positions`]). A run id already typed on the line is never
//! offered again (`mark a <TAB>`: the statuses and the other ids).
//! In bash through `git loop`, a finished word ends with a space, as git's own
//! `__gitcomp` ends it (git registers its completion with `-o nospace`).

#[path = "bash.rs"]
mod bash;
#[path = "fish.rs"]
mod fish;
#[path = "zsh.rs"]
mod zsh;

use clap::{Arg, ArgAction, Command, CommandFactory};

use git_loop::manifest::Status;

/// The clap command as the generators see it.
pub fn command() -> Command {
    let mut cmd = git_loop::cli::Cli::command();
    cmd.build();
    cmd
}

/// Man pages: `git-loop.1` and one `git-loop-<sub>.1` per visible subcommand.
pub fn man_pages() -> Vec<(String, Vec<u8>)> {
    fn walk(cmd: &Command, out: &mut Vec<(String, Vec<u8>)>) {
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            walk(sub, out);
        }
        let man = clap_mangen::Man::new(cmd.clone());
        out.push((man.get_filename(), man_page(cmd)));
    }
    let mut cmd = git_loop::cli::Cli::command().disable_help_subcommand(true);
    cmd.build();
    let mut out = Vec::new();
    walk(&cmd, &mut out);
    out.sort();
    out
}

/// One man page. clap_mangen's sections, except two: DESCRIPTION is the long
/// help without its first paragraph (that is the `about`, already the NAME
/// line), and left out when nothing remains; the `after_help` examples are an
/// EXAMPLES section (clap_mangen calls it EXTRA and fills its lines), set as
/// they are written, without their `Example:` heading line.
fn man_page(cmd: &Command) -> Vec<u8> {
    let about = cmd.get_about().map(|s| s.to_string()).unwrap_or_default();
    let long = cmd
        .get_long_about()
        .map(|s| s.to_string())
        .unwrap_or_default();
    let description = long
        .strip_prefix(about.as_str())
        .unwrap_or(&long)
        .trim()
        .to_owned();
    let mut page_cmd = cmd
        .clone()
        .after_help(None::<&str>)
        .after_long_help(None::<&str>);
    if !description.is_empty() {
        page_cmd = page_cmd.long_about(description.clone());
    }
    let man = clap_mangen::Man::new(page_cmd);
    let section = |render: &dyn Fn(&mut Vec<u8>) -> std::io::Result<()>| {
        let mut buf = Vec::new();
        render(&mut buf).expect("render to memory");
        String::from_utf8(buf).expect("utf-8 page")
    };
    // Every section clap_mangen renders starts with the same roff preamble.
    let title = section(&|w| man.render_title(w));
    let preamble = &title[..title.find(".TH").expect("a title line")];
    let body = |text: String| text.strip_prefix(preamble).unwrap_or(&text).to_owned();
    let mut page = title.clone();
    page += &body(section(&|w| man.render_name_section(w)));
    page += &body(section(&|w| man.render_synopsis_section(w)));
    if !description.is_empty() {
        // As clap_mangen's, but an indented block (a list, a table) is set
        // as written rather than filled into the paragraph.
        page += ".SH DESCRIPTION\n";
        let mut verbatim = false;
        for line in description.lines() {
            let indented = line.starts_with("  ");
            if indented != verbatim {
                page += if indented { ".nf\n" } else { ".fi\n" };
                verbatim = indented;
            }
            page += &if line.trim().is_empty() {
                ".PP".to_owned()
            } else {
                roff_line(line)
            };
            page += "\n";
        }
        if verbatim {
            page += ".fi\n";
        }
    }
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        page += &body(section(&|w| man.render_options_section(w)));
    }
    if cmd.get_subcommands().any(|s| !s.is_hide_set()) {
        page += &body(section(&|w| man.render_subcommands_section(w)));
    }
    if let Some(examples) = cmd.get_after_long_help().or_else(|| cmd.get_after_help()) {
        let examples = examples.to_string();
        let mut lines = examples.lines().peekable();
        if lines.peek().is_some_and(|l| l.starts_with("Example")) {
            lines.next();
        }
        page += ".SH EXAMPLES\n.nf\n";
        for line in lines {
            page += &roff_line(line.strip_prefix("  ").unwrap_or(line));
            page += "\n";
        }
        page += ".fi\n";
    }
    if cmd.get_version().is_some() || cmd.get_long_version().is_some() {
        page += &body(section(&|w| man.render_version_section(w)));
    }
    let page: Vec<String> = page.lines().map(code_in_bold).collect();
    (page.join("\n") + "\n").into_bytes()
}

/// A line with each `code` span of the help text (backticks, markdown's)
/// set in bold, as man pages set what is typed, instead of showing the
/// backticks. A line with an odd number of them is left as it is.
fn code_in_bold(line: &str) -> String {
    let parts: Vec<&str> = line.split('`').collect();
    if parts.len() < 3 || parts.len().is_multiple_of(2) {
        return line.to_owned();
    }
    let mut out = String::new();
    for (i, part) in parts.iter().enumerate() {
        if i % 2 == 1 {
            out.push_str("\\fB");
            out.push_str(part);
            out.push_str("\\fR");
        } else {
            out.push_str(part);
        }
    }
    out
}

/// A line of text as roff reads it literally (as the roff crate escapes one).
fn roff_line(line: &str) -> String {
    let text = line
        .replace('\\', "\\\\")
        .replace('-', "\\-")
        .replace('\'', "\\*(Aq");
    if text.starts_with('.') {
        format!("\\&{text}")
    } else {
        text
    }
}

/// Completion scripts, by file name under `completions/`.
pub fn completions() -> Vec<(String, Vec<u8>)> {
    use clap_complete::Shell;
    let dynamic = dynamic_args();
    let hidden = hidden_flags();
    let mut out = vec![("git-loop.bash".to_owned(), bash::script().into_bytes())];
    for (shell, file) in [
        (Shell::Zsh, "_git-loop"),
        (Shell::Fish, "git-loop.fish"),
        (Shell::Elvish, "git-loop.elv"),
        (Shell::PowerShell, "_git-loop.ps1"),
    ] {
        let mut cmd = git_loop::cli::Cli::command().bin_name("git-loop");
        let mut buf = Vec::new();
        clap_complete::generate(shell, &mut cmd, "git-loop", &mut buf);
        let text = String::from_utf8(buf).expect("utf-8 script");
        let text = match shell {
            Shell::Zsh => zsh::fixup(&text, &dynamic, &hidden),
            Shell::Fish => fish::fixup(&text, &dynamic, &hidden),
            _ => text,
        };
        out.push((file.to_owned(), text.into_bytes()));
    }
    out.push((
        "git-loop.conf.fish".to_owned(),
        fish::GIT_HOOK.as_bytes().to_vec(),
    ));
    out.sort();
    out
}

fn statuses() -> String {
    Status::ALL.map(Status::as_str).join(" ")
}

/// The statuses `cleanup` removes: every one but `active`, which it never
/// removes (offering it would offer a value it ignores).
fn removable_statuses() -> String {
    let all = Status::ALL.into_iter().filter(|s| *s != Status::Active);
    all.map(Status::as_str).collect::<Vec<_>>().join(" ")
}

/// How the value of an argument is completed. `sub` is the subcommand, a
/// nested one as `<parent>/<name>` (`trash/restore`).
fn value_kind(sub: &str, arg: &Arg) -> &'static str {
    let name = arg
        .get_value_names()
        .and_then(|n| n.first())
        .map(|n| n.as_str())
        .unwrap_or("");
    match name {
        // `restore` takes a salvaged run, not one the manifest records.
        "RUN_ID" if sub == "restore" => "salvaged",
        // `trash restore` takes a trash entry's name.
        "NAME" if sub == "trash/restore" => "trash",
        // `pick` takes an attempt, <TASK>.<n>; `judge` and `list --task` a task.
        "ID" if sub == "pick" => "attempts",
        "TASK" => "tasks",
        "RUN_ID" | "ID" if arg.get_id() != "new_run_id" => "ids",
        "BRANCH" => "branches",
        "CSV" if sub == "cleanup" => "removable_statuses",
        "CSV" => "statuses",
        "DIR" => "dirs",
        _ if !arg.get_possible_values().is_empty() => "choices",
        _ => "none",
    }
}

/// Where each visible positional argument of `sub` is completed: its
/// position among the positionals, from 0, and whether also at every
/// position after it. A positional taking several values (`mark`'s and
/// `remove`'s run ids) is completed from its position on; so is the one
/// after it (`mark`'s status), from the position after the first value, or
/// from the same position when those values are optional.
fn positions(sub: &Command) -> Vec<(&Arg, usize, bool)> {
    let mut out = Vec::new();
    let mut next = 0;
    let mut after_many = false;
    for arg in sub
        .get_arguments()
        .filter(|a| a.is_positional() && !a.is_hide_set())
    {
        let many = arg.get_num_args().is_some_and(|n| n.max_values() > 1);
        out.push((arg, next, many || after_many));
        if many {
            after_many = true;
            if !arg.is_required_set() {
                continue;
            }
        }
        next += 1;
    }
    out
}

/// Every visible subcommand, with its name as the scripts key it: the
/// nested ones (`trash empty`) as `<parent>/<name>`.
fn subcommands(cmd: &Command) -> Vec<(String, &Command)> {
    let visible = |s: &&Command| !s.is_hide_set() && s.get_name() != "help";
    let mut out = Vec::new();
    for sub in cmd.get_subcommands().filter(visible) {
        out.push((sub.get_name().to_owned(), sub));
        for nested in sub.get_subcommands().filter(visible) {
            out.push((format!("{}/{}", sub.get_name(), nested.get_name()), nested));
        }
    }
    out
}

fn takes_value(arg: &Arg) -> bool {
    matches!(arg.get_action(), ArgAction::Set | ArgAction::Append)
}

fn flags_of(arg: &Arg) -> Vec<String> {
    let mut flags = Vec::new();
    if let Some(s) = arg.get_short() {
        flags.push(format!("-{s}"));
    }
    if let Some(l) = arg.get_long() {
        flags.push(format!("--{l}"));
    }
    flags
}

/// What git-loop completes itself for an argument (clap_complete cannot).
#[derive(Debug)]
enum Completion {
    /// Run ids, from `git-loop list --ids`.
    Ids,
    /// Salvaged run ids, from refs/loop/salvage/ (what `restore` takes).
    Salvaged,
    /// Trash entries' names, from refs/loop/trash/ (what `trash restore` takes).
    Trash,
    /// Task names: the run ids of attempts, `<TASK>.<n>`, without `.<n>`,
    /// each once (what `judge` and `list --task` take).
    Tasks,
    /// The run ids of attempts, `<TASK>.<n>` (what `pick` takes).
    Attempts,
    /// Branch names, local and remote-tracking.
    Branches,
    /// Status values, comma-separated.
    Statuses,
    /// Status values but `active`, comma-separated (`cleanup --status`).
    RemovableStatuses,
    /// A positional argument's possible values.
    Choices(Vec<String>),
}

/// An argument of a subcommand whose values git-loop completes itself.
#[derive(Debug)]
struct Dynamic<'a> {
    /// The subcommand; a nested one as `<parent>/<name>` (`trash/restore`).
    sub: String,
    arg: &'a Arg,
    /// Its position among the subcommand's positionals, from 0; None for an option.
    position: Option<usize>,
    /// A positional completed at every position from `position` on (see
    /// [`positions`]).
    rest: bool,
    completion: Completion,
}

/// Every argument of a visible subcommand (nested ones too) whose values
/// git-loop completes. The clap tree is leaked: the generator runs once per
/// process.
fn dynamic_args() -> Vec<Dynamic<'static>> {
    let cmd: &'static Command = Box::leak(Box::new(command()));
    let mut out = Vec::new();
    for (name, sub) in subcommands(cmd) {
        let positions = positions(sub);
        for arg in sub.get_arguments().filter(|a| !a.is_hide_set()) {
            let at = positions
                .iter()
                .find(|(a, _, _)| a.get_id() == arg.get_id())
                .map(|&(_, at, rest)| (at, rest));
            let completion = match value_kind(&name, arg) {
                "ids" => Completion::Ids,
                "salvaged" => Completion::Salvaged,
                "trash" => Completion::Trash,
                "tasks" => Completion::Tasks,
                "attempts" => Completion::Attempts,
                "branches" if !arg.is_positional() => Completion::Branches,
                "statuses" if !arg.is_positional() => Completion::Statuses,
                "removable_statuses" if !arg.is_positional() => Completion::RemovableStatuses,
                "choices" if arg.is_positional() => Completion::Choices(
                    arg.get_possible_values()
                        .iter()
                        .map(|v| v.get_name().to_owned())
                        .collect(),
                ),
                _ => continue,
            };
            out.push(Dynamic {
                sub: name.clone(),
                arg,
                position: at.map(|(at, _)| at),
                rest: at.is_some_and(|(_, rest)| rest),
                completion,
            });
        }
    }
    out
}

/// Hidden flags (`list --ids`), as (subcommand, long flag): never offered.
fn hidden_flags() -> Vec<(String, String)> {
    let cmd = command();
    let mut out = Vec::new();
    for sub in cmd.get_subcommands() {
        for arg in sub.get_arguments().filter(|a| a.is_hide_set()) {
            if let Some(long) = arg.get_long() {
                out.push((sub.get_name().to_owned(), long.to_owned()));
            }
        }
    }
    out
}

/// The flags that take a value: global ones (`-C`, `--repo`), and the
/// others as `<subcommand>:<flag>`.
fn takes_value_flags() -> (Vec<String>, Vec<String>) {
    let cmd = command();
    let global = cmd
        .get_arguments()
        .filter(|a| takes_value(a))
        .flat_map(flags_of)
        .collect();
    let mut per_sub = Vec::new();
    for sub in cmd.get_subcommands() {
        for arg in sub.get_arguments() {
            if takes_value(arg) && !arg.is_global_set() && !arg.is_positional() {
                for flag in flags_of(arg) {
                    per_sub.push(format!("{}:{flag}", sub.get_name()));
                }
            }
        }
    }
    (global, per_sub)
}
