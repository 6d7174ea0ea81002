//! Completion through git aliases: `git lm <TAB>` with
//! `git config alias.lm 'loop mark'` completes as `git loop mark <TAB>`, in
//! bash, zsh and fish.
//!
//! - bash: git's completion resolves the alias to its first word and calls
//!   `_git_loop` with the alias's name still in the line; the script reads
//!   the alias (`git config alias.<name>`, following aliases of aliases) and
//!   completes its words after `loop` as if typed.
//! - zsh: `_git` itself replaces the alias by its words before calling
//!   `_git-loop`; nothing in our script is needed, and this test keeps it so.
//! - fish: git's completion does not hand aliases to `git-*` commands; the
//!   conf.d hook expands them as bash's script does.

use crate::common::TestRepo;

use super::{
    IDS_AND_STATUSES, STATUSES_AND_BETA, bash_completions, fish_completer, fixture, zsh_completer,
};

const CREATE_FLAGS: [&str; 14] = [
    "--attempts",
    "--base",
    "--claim",
    "--color",
    "--fetch",
    "--from",
    "--help",
    "--json",
    "--pattern",
    "--ports",
    "--quiet",
    "--repo",
    "--reuse",
    "--sparse",
];
const LIST_FLAGS: [&str; 11] = [
    "--color",
    "--disk",
    "--fleet",
    "--help",
    "--json",
    "--long",
    "--quiet",
    "--repo",
    "--salvaged",
    "--status",
    "--task",
];

/// The README's aliases, in the repository's own config.
fn aliased() -> (TestRepo, String) {
    let (repo, path) = fixture();
    for (name, value) in [
        ("lc", "loop create"),
        ("lm", "loop mark"),
        ("ll", "loop list"),
    ] {
        repo.git(["config", &format!("alias.{name}"), value]);
    }
    (repo, path)
}

#[test]
fn bash_completes_through_git_aliases_as_the_expanded_command() {
    let (repo, path) = aliased();
    // An alias of an alias, with a git option at its head.
    repo.git(["config", "alias.mk", "-c core.pager=cat lm"]);
    let got = bash_completions(
        &repo,
        &path,
        &[
            "git lm ",
            "git lm alpha ",
            "git ll --",
            "git lc --",
            "git --no-pager lm ",
            "git mk alpha ",
            "git loop mark ",
        ],
    );
    assert_eq!(got["git lm "], IDS_AND_STATUSES);
    assert_eq!(got["git lm alpha "], STATUSES_AND_BETA);
    assert_eq!(got["git ll --"], LIST_FLAGS);
    assert_eq!(got["git lc --"], CREATE_FLAGS);
    assert_eq!(got["git --no-pager lm "], IDS_AND_STATUSES);
    assert_eq!(got["git mk alpha "], STATUSES_AND_BETA);
    assert_eq!(got["git loop mark "], IDS_AND_STATUSES);
}

#[test]
fn zsh_completes_through_git_aliases_as_the_expanded_command() {
    let (repo, path) = aliased();
    let complete = zsh_completer(&repo, &path);
    assert_eq!(complete("git lm "), IDS_AND_STATUSES);
    assert_eq!(complete("git lm alpha "), STATUSES_AND_BETA);
    assert_eq!(complete("git ll --"), LIST_FLAGS);
    assert_eq!(complete("git lc --"), CREATE_FLAGS);
}

#[test]
fn fish_completes_through_git_aliases_as_the_expanded_command() {
    let (repo, path) = aliased();
    repo.git(["config", "alias.mk", "-c core.pager=cat lm"]);
    let complete = fish_completer(&repo, &path);
    assert_eq!(complete("git lm "), IDS_AND_STATUSES);
    assert_eq!(complete("git lm alpha "), STATUSES_AND_BETA);
    assert_eq!(complete("git ll --"), LIST_FLAGS);
    assert_eq!(complete("git lc --"), CREATE_FLAGS);
    assert_eq!(complete("git -C . lm "), IDS_AND_STATUSES);
    assert_eq!(complete("git mk alpha "), STATUSES_AND_BETA);
    assert_eq!(complete("git loop mark "), IDS_AND_STATUSES);
}
