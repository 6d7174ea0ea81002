//! `git loop <command> --help` opens that command's man page, as git's own
//! commands do (`git commit --help` is `git help commit`, which runs `man
//! git-commit`); `-h` stays clap's short help.
//!
//! git itself turns `git loop --help` into `git help loop` before git-loop
//! runs; for `git loop land --help` (and `git-loop … --help` run directly,
//! and `git loop help land`, as `git help commit`) git-loop does what `git help` would: it runs `man git-loop-land` with
//! its own standard streams, so man finds the page by `MANPATH` or, unset,
//! by the directories beside `PATH`'s (where the install script puts the
//! pages), pages it on a terminal and writes it plain into a pipe; its exit
//! is git-loop's. `help.format` is not read: git-loop ships man pages only,
//! no HTML or info. When there is no such page (`man -w` finds none) or no
//! `man`, a one-line note on stderr says so and clap's full help follows on
//! stdout, exit 0.
//!
//! Only the binary does this ([`open`] from `main`): [`crate::invoke`], the
//! library entry, writes help to its writers as it always did.

use std::ffi::OsString;
use std::process::{Command, Stdio};

use clap::CommandFactory;

/// When `args` ask for `--help` (not `-h`), the man page of the command
/// they name shown by `man`: `Some(its exit code)`. `None` (after a note
/// on stderr when the page or `man` is missing) when the run goes on as
/// usual, clap printing its help.
pub fn open(args: &[OsString]) -> Option<i32> {
    let page = page_asked(args)?;
    let found = Command::new("man")
        .arg("-w")
        .arg(&page)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    match found {
        Ok(status) if status.success() => {}
        Ok(_) => {
            eprintln!(
                "note: no man page {page} is installed (git-loop's install script installs them); the full help follows"
            );
            return None;
        }
        Err(_) => {
            eprintln!("note: man is not installed, so no man page {page}; the full help follows");
            return None;
        }
    }
    match Command::new("man").arg(&page).status() {
        Ok(status) => Some(status.code().unwrap_or(128)),
        Err(e) => {
            eprintln!("note: could not run man ({e}); the full help follows");
            None
        }
    }
}

/// The man page `args` (the program's name first) ask for with `--help`
/// or the `help` command: `git-loop`, `git-loop-land`, `git-loop-pool-fill`:
/// the subcommands named before the first word that is not one; `None`
/// without either (before any `--`).
pub fn page_asked(args: &[OsString]) -> Option<String> {
    // Most runs ask no help: decided without building the parser.
    let before_dashes = args.iter().skip(1).take_while(|a| *a != "--");
    if !before_dashes
        .into_iter()
        .any(|a| a == "--help" || a == "help")
    {
        return None;
    }
    let mut cmd = super::Cli::command();
    cmd.build();
    let mut page = vec![cmd.get_name().to_owned()];
    let (mut long, mut descending) = (false, true);
    let mut words = args.iter().skip(1);
    while let Some(word) = words.next() {
        let Some(word) = word.to_str() else {
            descending = false;
            continue;
        };
        if word == "--" {
            break;
        }
        if word == "--help" {
            long = true;
        } else if let Some(name) = word.strip_prefix("--") {
            let takes = cmd.get_arguments().find(|a| {
                a.get_long() == Some(name)
                    || a.get_all_aliases().is_some_and(|all| all.contains(&name))
            });
            if takes.is_some_and(takes_next_word) {
                words.next();
            }
        } else if let Some(shorts) = word.strip_prefix('-').filter(|s| !s.is_empty()) {
            // `-qC dir`: the first short that takes a value takes the rest
            // of the word, or the next word when it is the last.
            for (at, c) in shorts.char_indices() {
                let takes = cmd.get_arguments().find(|a| a.get_short() == Some(c));
                if takes.is_some_and(takes_next_word) {
                    if at + c.len_utf8() == shorts.len() {
                        words.next();
                    }
                    break;
                }
            }
        } else if descending && word == "help" && page.len() == 1 {
            // `git loop help land`, as `git help commit`.
            long = true;
        } else if descending {
            match cmd.find_subcommand(word) {
                Some(sub) => {
                    page.push(sub.get_name().to_owned());
                    let sub = sub.clone();
                    cmd = sub;
                }
                None => descending = false,
            }
        }
    }
    long.then(|| page.join("-"))
}

/// An option whose value may be the next word (`-C dir`, `--gate cmd`;
/// not `--color`, whose value is given only with `=`).
fn takes_next_word(arg: &clap::Arg) -> bool {
    arg.get_action().takes_values() && !arg.is_require_equals_set()
}

#[cfg(test)]
mod tests {
    use super::page_asked;

    fn page(args: &[&str]) -> Option<String> {
        let args: Vec<std::ffi::OsString> = args.iter().map(Into::into).collect();
        page_asked(&args)
    }

    #[test]
    fn the_page_is_the_commands_named_before_help() {
        assert_eq!(
            page(&["git-loop", "land", "--help"]).as_deref(),
            Some("git-loop-land")
        );
        assert_eq!(page(&["git-loop", "--help"]).as_deref(), Some("git-loop"));
        assert_eq!(
            page(&["git-loop", "pool", "fill", "--help"]).as_deref(),
            Some("git-loop-pool-fill")
        );
        assert_eq!(
            page(&["git-loop", "-C", "land", "mark", "r1", "--help"]).as_deref(),
            Some("git-loop-mark")
        );
        assert_eq!(
            page(&["git-loop", "--color", "land", "--help"]).as_deref(),
            Some("git-loop-land")
        );
        assert_eq!(
            page(&["git-loop", "land", "--gate", "list", "--help"]).as_deref(),
            Some("git-loop-land")
        );
    }

    #[test]
    fn the_help_command_opens_the_page_of_the_commands_after_it() {
        assert_eq!(
            page(&["git-loop", "help", "land"]).as_deref(),
            Some("git-loop-land")
        );
        assert_eq!(page(&["git-loop", "help"]).as_deref(), Some("git-loop"));
        assert_eq!(page(&["git-loop", "mark", "help", "merged"]), None);
    }

    #[test]
    fn short_help_and_words_after_dashes_open_no_page() {
        assert_eq!(page(&["git-loop", "land", "-h"]), None);
        assert_eq!(page(&["git-loop", "land"]), None);
        assert_eq!(page(&["git-loop", "run", "r1", "--", "ls", "--help"]), None);
    }
}
