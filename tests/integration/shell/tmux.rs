//! Completion as a person meets it: TAB pressed in a real interactive bash,
//! zsh and fish, each in a tmux pane, with the completions installed where
//! the README's install puts them. What the line reads after the TAB and a
//! marker typed right after it shows what the shell inserted: the candidate
//! and whether a space follows it (`git loop mark @1@`, not `git loop
//! mark@1@`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common::TestRepo;

use super::{DEBIAN_GIT_BASH_COMPLETION, ROOT, fixture, require, require_file};

/// A tmux server of its own (its socket in the test's directory) running one
/// interactive shell.
struct Pane {
    socket: PathBuf,
    home: PathBuf,
    path: String,
    marks: std::cell::Cell<u32>,
}

impl Pane {
    /// Start `shell` (a command line) in a 200-column pane, in the
    /// repository, with the fixture's hermetic environment plus `env`.
    fn start(repo: &TestRepo, path: &str, shell: &str, env: &[(&str, &Path)]) -> Pane {
        require("tmux");
        let pane = Pane {
            socket: repo.base().join("tmux.sock"),
            home: repo.home.clone(),
            path: path.to_owned(),
            marks: std::cell::Cell::new(0),
        };
        let mut cmd = pane.tmux();
        for (key, value) in env {
            cmd.env(key, value);
        }
        let status = cmd
            .current_dir(&repo.root)
            .args(["new-session", "-d", "-x", "200", "-y", "50", shell])
            .status()
            .unwrap();
        assert!(status.success(), "tmux new-session failed");
        pane.wait_for(
            |screen| screen.lines().any(|l| l.starts_with('$')),
            "a prompt",
        );
        pane
    }

    fn tmux(&self) -> Command {
        let mut cmd = Command::new("tmux");
        crate::common::hermetic(&mut cmd, &self.home);
        cmd.env("PATH", &self.path)
            .env("TERM", "xterm-256color")
            .arg("-f")
            .arg("/dev/null")
            .arg("-S")
            .arg(&self.socket);
        cmd
    }

    fn send(&self, keys: &[&str]) {
        let status = self
            .tmux()
            .args(["send-keys", "-t", "0"])
            .args(keys)
            .status()
            .unwrap();
        assert!(status.success(), "tmux send-keys {keys:?} failed");
    }

    fn screen(&self) -> String {
        let out = self
            .tmux()
            .args(["capture-pane", "-p", "-t", "0"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn wait_for(&self, done: impl Fn(&str) -> bool, what: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if done(&screen) {
                return screen;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "no {what} in the pane after 30 s:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Type `line`, press TAB, type a marker: the line as it then reads,
    /// the marker shown as `@`, less the prompt. The line is then cleared
    /// (Ctrl-C).
    fn tab(&self, line: &str) -> String {
        let n = self.marks.get() + 1;
        self.marks.set(n);
        let mark = format!("@{n}@");
        self.send(&["-l", line]);
        self.send(&["Tab"]);
        self.send(&["-l", &mark]);
        let screen = self.wait_for(|s| s.contains(&mark), "marker");
        let got = screen
            .lines()
            .rev()
            .find(|l| l.contains(&mark))
            .unwrap()
            .trim_end()
            .strip_prefix("$ ")
            .unwrap_or_else(|| panic!("no prompt before the line:\n{screen}"))
            .replace(&mark, "@");
        // Clear the line and wait for the fresh prompt: keys typed before
        // the shell has handled the interrupt are lost.
        self.send(&["C-c"]);
        self.wait_for(
            |s| s.lines().rev().find(|l| !l.trim().is_empty()) == Some("$"),
            "fresh prompt",
        );
        got
    }
}

impl Drop for Pane {
    fn drop(&mut self) {
        let _ = self.tmux().arg("kill-server").status();
    }
}

/// A trash entry's name, as `trash restore` takes it.
const TRASH_ENTRY: &str = "20260101T000000Z/merged-ancestor/heads/loop/gone";

/// The fixture (runs alpha and beta), a salvaged run `saved`, a trash entry
/// [`TRASH_ENTRY`] and a branch `feature`.
fn repo_for_tab() -> (TestRepo, String) {
    let (repo, path) = fixture();
    repo.git(["update-ref", "refs/loop/salvage/saved", "HEAD"]);
    let entry = format!("refs/loop/trash/{TRASH_ENTRY}");
    repo.git(["update-ref", entry.as_str(), "HEAD"]);
    repo.git(["branch", "feature"]);
    (repo, path)
}

/// What one TAB makes of each line, the same in every shell: a finished
/// word is followed by a space; `restore` offers the salvaged ids; `pool`
/// and `claude-hook` their subcommands; `--base` the branches; a status
/// list its next member, never one already given; `mark` run ids and
/// statuses after its first run id (it takes several, then a status); a
/// nested subcommand (`trash empty`) its own options, and `trash restore`
/// the trash entries.
fn assert_completes_like_git(shell: &str, pane: &Pane) {
    let trash_restore = format!("git loop trash restore {TRASH_ENTRY} @");
    let cases = [
        ("git loop ma", "git loop mark @"),
        ("git loop mark al", "git loop mark alpha @"),
        ("git loop mark alpha esc", "git loop mark alpha escalated @"),
        ("git loop mark alpha be", "git loop mark alpha beta @"),
        (
            "git loop mark alpha beta esc",
            "git loop mark alpha beta escalated @",
        ),
        (
            "git loop trash empty --dr",
            "git loop trash empty --dry-run @",
        ),
        ("git loop trash restore ", trash_restore.as_str()),
        (
            "git loop trash restore x --as fea",
            "git loop trash restore x --as feature @",
        ),
        ("git loop restore ", "git loop restore saved @"),
        ("git loop pool dr", "git loop pool drain @"),
        ("git loop claude-hook rem", "git loop claude-hook remove @"),
        (
            "git loop create x --base fea",
            "git loop create x --base feature @",
        ),
        (
            "git loop list --status rejected,escalated,merged,stale,",
            "git loop list --status rejected,escalated,merged,stale,active",
        ),
        ("git loop completion fi", "git loop completion fish @"),
        ("git-loop ma", "git-loop mark @"),
    ];
    let mut failed = Vec::new();
    for (line, want) in cases {
        let got = pane.tab(line);
        // A status list may go on: the shell may add a space, or (zsh) the
        // separator, which a space then removes.
        let ok = got == want
            || (want.ends_with("active")
                && got
                    .strip_prefix(want)
                    .is_some_and(|rest| ["@", " @", ",@"].contains(&rest)));
        if !ok {
            failed.push(format!("{line:?}: got {got:?}, want {want:?}"));
        }
    }
    assert!(failed.is_empty(), "{shell}:\n{}", failed.join("\n"));
}

#[test]
fn bash_tab_completes_git_loop_as_git_completes_its_own_commands() {
    require("bash");
    let loader = "/usr/share/bash-completion/bash_completion";
    require_file(loader, "bash-completion");
    require_file(DEBIAN_GIT_BASH_COMPLETION, "git");
    let (repo, path) = repo_for_tab();
    // Installed as the README says; bash-completion's loader finds both
    // git's completion and this file.
    let dir = repo.home.join(".local/share/bash-completion/completions");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        format!("{ROOT}/completions/git-loop.bash"),
        dir.join("git-loop"),
    )
    .unwrap();
    let rc = repo.base().join("bashrc");
    std::fs::write(&rc, format!("source {loader}\nPS1='$ '\n")).unwrap();
    let pane = Pane::start(
        &repo,
        &path,
        &format!("bash --noprofile --rcfile {} -i", rc.display()),
        &[],
    );
    // git's own, for comparison: `git comm<TAB>` gives `git commit `.
    assert_eq!(pane.tab("git comm"), "git commit @");
    assert_completes_like_git("bash", &pane);
}

#[test]
fn zsh_tab_completes_git_loop_as_git_completes_its_own_commands() {
    require("zsh");
    let (repo, path) = repo_for_tab();
    let zdot = repo.base().join("zdot");
    std::fs::create_dir_all(zdot.join("zfunc")).unwrap();
    std::fs::copy(
        format!("{ROOT}/completions/_git-loop"),
        zdot.join("zfunc/_git-loop"),
    )
    .unwrap();
    std::fs::write(
        zdot.join(".zshrc"),
        "fpath=(\"$ZDOTDIR/zfunc\" $fpath)\nautoload -U compinit\ncompinit -u -D\nPS1='$ '\nRPROMPT=''\n",
    )
    .unwrap();
    let pane = Pane::start(&repo, &path, "zsh -i", &[("ZDOTDIR", &zdot)]);
    assert_completes_like_git("zsh", &pane);
}

#[test]
fn fish_tab_completes_git_loop_as_git_completes_its_own_commands() {
    require("fish");
    let (repo, path) = repo_for_tab();
    let config = repo.home.join(".config/fish");
    std::fs::create_dir_all(config.join("completions")).unwrap();
    std::fs::create_dir_all(config.join("conf.d")).unwrap();
    std::fs::copy(
        format!("{ROOT}/completions/git-loop.fish"),
        config.join("completions/git-loop.fish"),
    )
    .unwrap();
    std::fs::copy(
        format!("{ROOT}/completions/git-loop.conf.fish"),
        config.join("conf.d/git-loop.fish"),
    )
    .unwrap();
    std::fs::write(
        config.join("config.fish"),
        "set -g fish_greeting ''\nset -g fish_autosuggestion_enabled 0\nfunction fish_prompt; echo -n '$ '; end\nfunction fish_right_prompt; end\n",
    )
    .unwrap();
    let pane = Pane::start(&repo, &path, "fish -i", &[]);
    assert_eq!(pane.tab("git comm"), "git commit @");
    assert_completes_like_git("fish", &pane);
}
