//! git-loop as part of git: completions through git's own completion in bash,
//! zsh and fish; man pages found by `man` and `git help`; generated files
//! kept in step with the clap definitions.
//!
//! The shared drivers (one TAB in bash, zsh and fish, through git's own
//! completion) are here; `drift` holds the per-shell regressions of the
//! generated scripts, `aliases` completion through git aliases, `generated`
//! the man pages and the generated files' freshness, `tmux` TAB pressed in
//! real interactive shells (what the line then reads), `install` the one
//! install command and its uninstall, `tasks` what `judge`, `pick` and
//! `list --task` complete.

mod aliases;
mod drift;
mod generated;
mod install;
mod tasks;
mod tmux;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use crate::common::{BIN, TestRepo};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const DEBIAN_GIT_BASH_COMPLETION: &str = "/usr/share/bash-completion/completions/git";

/// Fail unless `tool` is on PATH. A shell test never skips: a missing shell
/// must not make a green run, so the failure says what to install.
#[track_caller]
fn require(tool: &str) {
    let found = Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        missing(tool, package_of(tool));
    }
}

/// Fail unless the file `path` (from the Debian package `package`) exists.
#[track_caller]
fn require_file(path: &str, package: &str) {
    if !Path::new(path).exists() {
        missing(path, package);
    }
}

/// The Debian package that provides the program `tool`.
fn package_of(tool: &str) -> &str {
    match tool {
        "man" => "man-db",
        other => other,
    }
}

/// The command that installs `package`: `apt-get` as root, else with `sudo`.
fn install_command(package: &str) -> String {
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.trim_ascii() == b"0");
    let sudo = if root { "" } else { "sudo " };
    format!("{sudo}apt-get install -y {package}")
}

/// The failure for a missing program or file: its first line names it, its
/// package and the exact command that installs it.
fn missing_message(what: &str, package: &str) -> String {
    format!(
        "{what} is missing: install it with `{}` (Debian package {package}), \
         or run scripts/install-test-deps for every package the tests drive\n\
         (shell tests fail, never skip, when a program they drive is absent)",
        install_command(package)
    )
}

#[track_caller]
fn missing(what: &str, package: &str) -> ! {
    panic!("{}", missing_message(what, package))
}

#[test]
fn a_missing_shell_fails_with_one_line_naming_it_and_its_install_command() {
    let caught = std::panic::catch_unwind(|| require("git-loop-no-such-shell"))
        .expect_err("a missing program fails the test");
    let message = caught.downcast_ref::<String>().unwrap();
    let first = message.lines().next().unwrap();
    assert!(
        first.starts_with("git-loop-no-such-shell is missing: install it with `"),
        "{message}"
    );
    assert!(
        first.contains("apt-get install -y git-loop-no-such-shell`"),
        "{message}"
    );
    assert!(
        missing_message("man", package_of("man")).contains("apt-get install -y man-db`"),
        "man comes from man-db"
    );
}

/// A repo with runs `alpha` and `beta`, and a PATH that finds `git-loop`.
fn fixture() -> (TestRepo, String) {
    let repo = TestRepo::new();
    repo.create("alpha");
    repo.create("beta");
    let bin_dir = Path::new(BIN).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    (repo, path)
}

/// The fixture's run ids, and the statuses, sorted as candidates are.
const IDS: [&str; 2] = ["alpha", "beta"];
/// After `mark alpha`: the other run id or the status, never `alpha` again.
const STATUSES_AND_BETA: [&str; 6] = ["active", "beta", "escalated", "merged", "rejected", "stale"];
/// At `mark`'s first word: a run id or the status.
const IDS_AND_STATUSES: [&str; 7] = [
    "active",
    "alpha",
    "beta",
    "escalated",
    "merged",
    "rejected",
    "stale",
];

fn shell(repo: &TestRepo, path: &str, program: &str, args: &[&str]) -> String {
    let mut cmd = Command::new("timeout");
    crate::common::hermetic(&mut cmd, &repo.home);
    let out = cmd
        .env("PATH", path)
        .current_dir(&repo.root)
        .arg("60")
        .arg(program)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{program} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The candidates, one a line, sorted; the space that ends a finished word
/// through git's bash completion (as `__gitcomp` adds it) is dropped here:
/// `tmux` checks what the shell inserts.
fn sorted(text: &str) -> Vec<String> {
    let mut v: Vec<String> = text
        .lines()
        .map(|l| l.split('\t').next().unwrap().trim_end().to_owned())
        .filter(|l| !l.is_empty())
        .collect();
    v.sort();
    v.dedup();
    v
}

/// Simulate one press of TAB at the end of `line`: the function registered
/// with `complete -F` for the command (loaded on demand through
/// bash-completion's loader when it is present) fills COMPREPLY.
const BASH_COMP_DRIVER: &str = r#"
comp() {
    local line="$1"
    COMP_LINE="$line"; COMP_POINT=${#line}
    read -ra COMP_WORDS <<< "$line"
    [[ "$line" == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
    COMPREPLY=()
    if ! complete -p "${COMP_WORDS[0]}" >/dev/null 2>&1; then
        declare -F _completion_loader >/dev/null && _completion_loader "${COMP_WORDS[0]}"
    fi
    local fn
    fn=$(complete -p "${COMP_WORDS[0]}" | sed 's/.*-F \([^ ]*\) .*/\1/')
    "$fn" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
    printf '%s\n' "== $line" "${COMPREPLY[@]}"
}
"#;

/// One TAB at the end of each of `lines`, in one bash with git's completion
/// and the generated script sourced: the sorted candidates, by line.
fn bash_completions(repo: &TestRepo, path: &str, lines: &[&str]) -> BTreeMap<String, Vec<String>> {
    require("bash");
    require_file(DEBIAN_GIT_BASH_COMPLETION, "git");
    let calls: String = lines.iter().map(|l| format!("comp \"{l}\"\n")).collect();
    let script = format!(
        r#"
source {DEBIAN_GIT_BASH_COMPLETION}
source {ROOT}/completions/git-loop.bash
{BASH_COMP_DRIVER}
{calls}"#
    );
    let out = shell(repo, path, "bash", &["--norc", "-c", &script]);
    let blocks: BTreeMap<String, Vec<String>> = out
        .split("== ")
        .filter(|b| !b.is_empty())
        .map(|b| {
            let (line, rest) = b.split_once('\n').unwrap();
            (line.to_owned(), sorted(rest))
        })
        .collect();
    assert_eq!(blocks.len(), lines.len(), "{out}");
    blocks
}

#[test]
fn bash_completes_git_loop_through_gits_own_completion() {
    let (repo, path) = fixture();
    let got = bash_completions(
        &repo,
        &path,
        &[
            "git loop ma",
            "git loop ",
            "git loop mark ",
            "git loop mark alpha ",
            "git loop run ",
            "git --no-pager loop --json path ",
            "git loop reconcile --remove-orphan ",
            "git loop cleanup --status rejected,es",
            "git loop cleanup --status rejected,escalated,merged,stale,",
            "git loop list --status rejected,escalated,merged,stale,",
            "git loop create --",
            "git-loop ma",
            "git-loop mark ",
            "git-loop -C . path ",
        ],
    );
    let get = |line: &str| got[line].clone();
    let ids = vec!["alpha".to_owned(), "beta".to_owned()];
    assert_eq!(get("git loop ma"), ["mark"]);
    assert_eq!(
        get("git loop "),
        [
            "activity",
            "branches",
            "claim",
            "claude-hook",
            "cleanup",
            "completion",
            "config",
            "conflicts",
            "create",
            "env",
            "handoff",
            "help",
            "judge",
            "land",
            "list",
            "log",
            "mark",
            "mcp",
            "path",
            "pick",
            "pool",
            "publish",
            "reconcile",
            "remove",
            "restore",
            "run",
            "schema",
            "sync",
            "trash",
            "trust",
            "watch"
        ]
    );
    assert_eq!(get("git loop mark "), IDS_AND_STATUSES);
    assert_eq!(get("git loop run "), ids);
    assert_eq!(get("git loop mark alpha "), STATUSES_AND_BETA);
    assert_eq!(get("git --no-pager loop --json path "), ids);
    assert_eq!(get("git loop reconcile --remove-orphan "), ids);
    assert_eq!(
        get("git loop cleanup --status rejected,es"),
        ["rejected,escalated"]
    );
    // cleanup never removes an active run: it does not offer `active`;
    // list does.
    assert!(
        get("git loop cleanup --status rejected,escalated,merged,stale,").is_empty(),
        "{:?}",
        get("git loop cleanup --status rejected,escalated,merged,stale,")
    );
    assert_eq!(
        get("git loop list --status rejected,escalated,merged,stale,"),
        ["rejected,escalated,merged,stale,active"]
    );
    assert_eq!(
        get("git loop create --"),
        [
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
            "--sparse"
        ]
    );
    assert_eq!(get("git-loop ma"), ["mark"]);
    assert_eq!(get("git-loop mark "), IDS_AND_STATUSES);
    assert_eq!(get("git-loop -C . path "), ids);
}

/// The README's bash install step: the file in the user completion directory,
/// found by bash-completion's loader when git's completion asks for `git-loop`.
#[test]
fn bash_completion_loader_finds_the_installed_file_for_git_loop() {
    require("bash");
    let loader = "/usr/share/bash-completion/bash_completion";
    require_file(loader, "bash-completion");
    let (repo, path) = fixture();
    let dir = repo.home.join(".local/share/bash-completion/completions");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        format!("{ROOT}/completions/git-loop.bash"),
        dir.join("git-loop"),
    )
    .unwrap();
    let script = format!(
        r#"
source {loader}
{BASH_COMP_DRIVER}
declare -F _git_loop >/dev/null && echo "preloaded"
comp "git loop mark "
comp "git-loop ma"
"#
    );
    let out = shell(&repo, &path, "bash", &["--norc", "-c", &script]);
    assert!(!out.contains("preloaded"));
    let (git_loop, dashed) = out
        .strip_prefix("== git loop mark \n")
        .and_then(|rest| rest.split_once("== git-loop ma\n"))
        .unwrap_or_else(|| panic!("{out}"));
    assert_eq!(sorted(git_loop), IDS_AND_STATUSES, "{out}");
    assert_eq!(sorted(dashed), ["mark"], "{out}");
}

/// One TAB at the end of a line in an interactive zsh (on a pty) whose
/// fpath holds the generated `_git-loop`: the sorted candidates.
fn zsh_completer<'a>(repo: &'a TestRepo, path: &'a str) -> impl Fn(&str) -> Vec<String> + 'a {
    require("zsh");
    let fpath = repo.base().join("zfunc");
    std::fs::create_dir_all(&fpath).unwrap();
    std::fs::copy(
        format!("{ROOT}/completions/_git-loop"),
        fpath.join("_git-loop"),
    )
    .unwrap();
    let capture = format!("{ROOT}/tests/integration/zsh-capture.zsh");
    move |line: &str| {
        sorted(&shell(
            repo,
            path,
            "zsh",
            &["-f", &capture, fpath.to_str().unwrap(), line],
        ))
    }
}

#[test]
fn zsh_completes_git_loop_through_its_git_completion() {
    let (repo, path) = fixture();
    let complete = zsh_completer(&repo, &path);
    assert_eq!(complete("git loop ma"), ["mark"]);
    assert_eq!(complete("git loop mark "), IDS_AND_STATUSES);
    assert_eq!(complete("git loop mark alpha "), STATUSES_AND_BETA);
    assert_eq!(
        complete("git loop reconcile --remove-orphan "),
        ["alpha", "beta"]
    );
    assert_eq!(complete("git-loop path "), ["alpha", "beta"]);
}

/// `complete -C LINE` in a fish whose config holds the generated
/// completions and conf.d hook, as the README installs them: the sorted
/// candidates.
fn fish_completer<'a>(repo: &'a TestRepo, path: &'a str) -> impl Fn(&str) -> Vec<String> + 'a {
    require("fish");
    let config = repo.base().join("fishconfig");
    std::fs::create_dir_all(config.join("fish/completions")).unwrap();
    std::fs::create_dir_all(config.join("fish/conf.d")).unwrap();
    std::fs::copy(
        format!("{ROOT}/completions/git-loop.fish"),
        config.join("fish/completions/git-loop.fish"),
    )
    .unwrap();
    std::fs::copy(
        format!("{ROOT}/completions/git-loop.conf.fish"),
        config.join("fish/conf.d/git-loop.fish"),
    )
    .unwrap();
    move |line: &str| {
        let mut cmd = Command::new("timeout");
        crate::common::hermetic(&mut cmd, &repo.home);
        let out = cmd
            .env("PATH", path)
            .env("XDG_CONFIG_HOME", &config)
            .current_dir(&repo.root)
            .args(["60", "fish", "-c", &format!("complete -C '{line}'")])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        sorted(&String::from_utf8(out.stdout).unwrap())
    }
}

#[test]
fn fish_completes_git_loop_through_its_git_completion() {
    let (repo, path) = fixture();
    let complete = fish_completer(&repo, &path);
    assert_eq!(complete("git loo"), ["loop"]);
    assert_eq!(complete("git loop ma"), ["mark"]);
    assert_eq!(complete("git loop mark "), IDS_AND_STATUSES);
    assert_eq!(complete("git -C . loop path "), ["alpha", "beta"]);
    assert_eq!(
        complete("git loop reconcile --remove-orphan "),
        ["alpha", "beta"]
    );
    assert_eq!(complete("git-loop mark "), IDS_AND_STATUSES);
    assert_eq!(complete("git loop mark alpha "), STATUSES_AND_BETA);
}
