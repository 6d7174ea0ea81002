//! git-loop as part of git: completions through git's own completion in bash,
//! zsh and fish; man pages found by `man` and `git help`; generated files
//! kept in step with the clap definitions.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{BIN, TestRepo};

/// The generation code of `cargo run --example generate`, included as it is
/// (see its module doc): the files it returns are the checked-in ones.
#[path = "../../examples/generate/generator.rs"]
mod generator;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const DEBIAN_GIT_BASH_COMPLETION: &str = "/usr/share/bash-completion/completions/git";

fn require(tool: &str) {
    let found = Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        found,
        "{tool} is not installed: run scripts/install-test-deps (Debian packages)"
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

fn sorted(text: &str) -> Vec<String> {
    let mut v: Vec<String> = text
        .lines()
        .map(|l| l.split('\t').next().unwrap().to_owned())
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

#[test]
fn bash_completes_git_loop_through_gits_own_completion() {
    require("bash");
    assert!(
        Path::new(DEBIAN_GIT_BASH_COMPLETION).exists(),
        "Debian's git package ships {DEBIAN_GIT_BASH_COMPLETION}"
    );
    let (repo, path) = fixture();
    let script = format!(
        r#"
source {DEBIAN_GIT_BASH_COMPLETION}
source {ROOT}/completions/git-loop.bash
{BASH_COMP_DRIVER}
comp "git loop ma"
comp "git loop "
comp "git loop mark "
comp "git loop mark alpha "
comp "git loop run "
comp "git --no-pager loop --json path "
comp "git loop reconcile --remove-orphan "
comp "git loop cleanup --status rejected,es"
comp "git loop create --"
comp "git-loop ma"
comp "git-loop mark "
comp "git-loop -C . path "
"#
    );
    let out = shell(&repo, &path, "bash", &["--norc", "-c", &script]);
    let blocks: Vec<(String, Vec<String>)> = out
        .split("== ")
        .filter(|b| !b.is_empty())
        .map(|b| {
            let (line, rest) = b.split_once('\n').unwrap();
            (line.to_owned(), sorted(rest))
        })
        .collect();
    let get = |line: &str| {
        blocks
            .iter()
            .find(|(l, _)| l == line)
            .unwrap_or_else(|| panic!("{line}: {out}"))
            .1
            .clone()
    };
    let ids = vec!["alpha".to_owned(), "beta".to_owned()];
    assert_eq!(get("git loop ma"), ["mark"]);
    assert_eq!(
        get("git loop "),
        [
            "cleanup",
            "config",
            "create",
            "help",
            "list",
            "log",
            "mark",
            "path",
            "reconcile",
            "run",
            "trust"
        ]
    );
    assert_eq!(get("git loop mark "), ids);
    assert_eq!(get("git loop run "), ids);
    assert_eq!(
        get("git loop mark alpha "),
        ["active", "escalated", "merged", "rejected", "stale"]
    );
    assert_eq!(get("git --no-pager loop --json path "), ids);
    assert_eq!(get("git loop reconcile --remove-orphan "), ids);
    assert_eq!(
        get("git loop cleanup --status rejected,es"),
        ["rejected,escalated"]
    );
    assert_eq!(
        get("git loop create --"),
        [
            "--base",
            "--help",
            "--json",
            "--pattern",
            "--quiet",
            "--repo",
            "--reuse"
        ]
    );
    assert_eq!(get("git-loop ma"), ["mark"]);
    assert_eq!(get("git-loop mark "), ids);
    assert_eq!(get("git-loop -C . path "), ids);
}

/// The README's bash install step: the file in the user completion directory,
/// found by bash-completion's loader when git's completion asks for `git-loop`.
#[test]
fn bash_completion_loader_finds_the_installed_file_for_git_loop() {
    require("bash");
    let loader = "/usr/share/bash-completion/bash_completion";
    assert!(
        Path::new(loader).exists(),
        "Debian's bash-completion package: run scripts/install-test-deps"
    );
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
    assert_eq!(sorted(git_loop), ["alpha", "beta"], "{out}");
    assert_eq!(sorted(dashed), ["mark"], "{out}");
}

#[test]
fn zsh_completes_git_loop_through_its_git_completion() {
    require("zsh");
    let (repo, path) = fixture();
    let fpath = repo.base().join("zfunc");
    std::fs::create_dir(&fpath).unwrap();
    std::fs::copy(
        format!("{ROOT}/completions/_git-loop"),
        fpath.join("_git-loop"),
    )
    .unwrap();
    let capture = format!("{ROOT}/tests/integration/zsh-capture.zsh");
    let complete = |line: &str| {
        sorted(&shell(
            &repo,
            &path,
            "zsh",
            &["-f", &capture, fpath.to_str().unwrap(), line],
        ))
    };
    assert_eq!(complete("git loop ma"), ["mark"]);
    assert_eq!(complete("git loop mark "), ["alpha", "beta"]);
    assert_eq!(
        complete("git loop mark alpha "),
        ["active", "escalated", "merged", "rejected", "stale"]
    );
    assert_eq!(
        complete("git loop reconcile --remove-orphan "),
        ["alpha", "beta"]
    );
    assert_eq!(complete("git-loop path "), ["alpha", "beta"]);
}

#[test]
fn fish_completes_git_loop_through_its_git_completion() {
    require("fish");
    let (repo, path) = fixture();
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
    let complete = |line: &str| {
        let mut cmd = Command::new("timeout");
        crate::common::hermetic(&mut cmd, &repo.home);
        let out = cmd
            .env("PATH", &path)
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
    };
    assert_eq!(complete("git loo"), ["loop"]);
    assert_eq!(complete("git loop ma"), ["mark"]);
    assert_eq!(complete("git loop mark "), ["alpha", "beta"]);
    assert_eq!(complete("git -C . loop path "), ["alpha", "beta"]);
    assert_eq!(
        complete("git loop reconcile --remove-orphan "),
        ["alpha", "beta"]
    );
    assert_eq!(complete("git-loop mark "), ["alpha", "beta"]);
}

/// Install as the README says (binary in <prefix>/bin, pages in
/// <prefix>/share/man/man1) and ask man and git.
#[test]
fn man_and_git_help_find_the_pages_after_install() {
    require("man");
    let repo = TestRepo::new();
    let prefix = repo.base().join("prefix");
    std::fs::create_dir_all(prefix.join("bin")).unwrap();
    std::fs::create_dir_all(prefix.join("share/man/man1")).unwrap();
    std::os::unix::fs::symlink(BIN, prefix.join("bin/git-loop")).unwrap();
    for page in std::fs::read_dir(format!("{ROOT}/man")).unwrap() {
        let page = page.unwrap().path();
        std::fs::copy(
            &page,
            prefix
                .join("share/man/man1")
                .join(page.file_name().unwrap()),
        )
        .unwrap();
    }
    let path = format!(
        "{}:/usr/local/bin:/usr/bin:/bin",
        prefix.join("bin").display()
    );
    let run = |args: &[&str]| {
        let mut cmd = Command::new(args[0]);
        crate::common::hermetic(&mut cmd, &repo.home);
        let out = cmd
            .env("PATH", &path)
            .env("MANPAGER", "cat")
            .env("PAGER", "cat")
            .env("MANWIDTH", "80")
            .current_dir(&repo.root)
            .args(&args[1..])
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (ok, where_) = run(&["man", "-w", "git-loop"]);
    assert!(ok);
    assert_eq!(
        PathBuf::from(where_.trim()),
        prefix.join("share/man/man1/git-loop.1")
    );
    let (ok, page) = run(&["git", "help", "loop"]);
    assert!(
        ok && page.contains("git-loop") && page.contains("SYNOPSIS"),
        "{page}"
    );
    let (ok, page) = run(&["git", "loop", "--help"]);
    assert!(ok && page.contains("SYNOPSIS"), "{page}");
    let (ok, page) = run(&["man", "git-loop-mark"]);
    assert!(ok && page.contains("git loop mark"), "{page}");
    // -h stays clap's short help.
    let (ok, short) = run(&["git", "loop", "-h"]);
    assert!(
        ok && short.starts_with("Give every parallel run") && !short.contains("SYNOPSIS"),
        "{short}"
    );
}

#[test]
fn generated_files_are_up_to_date() {
    let mut stale = Vec::new();
    for (dir, files) in [
        ("man", generator::man_pages()),
        ("completions", generator::completions()),
    ] {
        for (name, bytes) in files {
            let path = Path::new(ROOT).join(dir).join(&name);
            if std::fs::read(&path).ok().as_deref() != Some(&bytes[..]) {
                stale.push(format!("{dir}/{name}"));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "generated files differ from the clap definitions: {stale:?}\nrefresh them with: cargo run --example generate"
    );
}
