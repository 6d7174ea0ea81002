//! `remove --reap` / `cleanup --reap`: processes left working in a run's
//! worktree are terminated (SIGTERM, then SIGKILL after the grace period)
//! and the worktree removed; a process on a terminal (a shell in tmux)
//! keeps the run `in-use` and lives; a process outside is untouched; each
//! process terminated is logged (`reap`). Without `--reap`, `in-use` is a
//! skip as ever.

use std::fs;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{JsonExt, TestRepo, skipped};

/// `setsid sh -c <script>` in `dir`: a process in a session of its own,
/// with no terminal, as an agent's background job is.
fn background(dir: &Path, script: &str) -> Child {
    Command::new("setsid")
        .args(["sh", "-c", script])
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// Whether `child` is still running (not even a zombie).
fn alive(child: &mut Child) -> bool {
    child.try_wait().unwrap().is_none()
}

/// The signal `child` died of, waiting up to 5 s.
fn died_of(child: &mut Child) -> Option<i32> {
    let until = Instant::now() + Duration::from_secs(5);
    while Instant::now() < until {
        if let Some(status) = child.try_wait().unwrap() {
            return status.signal();
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    None
}

/// Wait until `pid`'s working directory is `dir` (the shell has exec'd).
fn wait_cwd(pid: u32, dir: &Path) {
    let until = Instant::now() + Duration::from_secs(5);
    let dir = dir.canonicalize().unwrap();
    while Instant::now() < until {
        if fs::read_link(format!("/proc/{pid}/cwd")).is_ok_and(|c| c == dir) {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("pid {pid} never worked in {}", dir.display());
}

/// A rejected run `id` with a background `sleep` working in its worktree.
fn rejected_with_sleeper(repo: &TestRepo, id: &str, script: &str) -> Child {
    repo.create(id).ok();
    repo.run(["mark", id, "rejected"]).ok();
    let child = background(&repo.wt(id), script);
    wait_cwd(child.id(), &repo.wt(id));
    std::thread::sleep(Duration::from_millis(100));
    child
}

fn events(repo: &TestRepo) -> String {
    fs::read_to_string(repo.loop_dir().join("events.jsonl")).unwrap()
}

#[test]
fn reap_terminates_a_background_process_and_removes_the_worktree() {
    let repo = TestRepo::new();
    let mut inside = rejected_with_sleeper(&repo, "r", "exec sleep 1000");
    let mut outside = background(&repo.root, "exec sleep 1000");
    // Without --reap: skipped in-use, as ever.
    let kept = repo.run(["--json", "cleanup"]);
    kept.ok();
    assert_eq!(skipped(&kept.json(), "r")["code"], "in-use");
    assert!(repo.wt("r").exists());
    assert!(alive(&mut inside));
    // With it: terminated, removed, logged with pid and command.
    let run = repo.run(["--json", "cleanup", "--reap"]);
    run.ok();
    let doc = run.json();
    let removed = doc.find_id("removed", "r");
    assert!(
        removed
            .text("note")
            .contains(&format!("pid {}", inside.id())),
        "{removed}"
    );
    assert!(!repo.wt("r").exists());
    assert_eq!(died_of(&mut inside), Some(15), "SIGTERM");
    let log = events(&repo);
    let reap = log
        .lines()
        .find(|l| l.contains("\"reap\""))
        .unwrap_or_else(|| panic!("no reap event: {log}"));
    assert!(
        reap.contains(&format!("pid {}", inside.id())) && reap.contains("sleep 1000"),
        "{reap}"
    );
    assert!(reap.contains("SIGTERM"), "{reap}");
    // The one outside lives.
    assert!(alive(&mut outside));
    outside.kill().unwrap();
    outside.wait().unwrap();
}

#[test]
fn a_process_ignoring_sigterm_is_killed_after_the_grace_period() {
    let repo = TestRepo::new();
    let mut stubborn = rejected_with_sleeper(&repo, "s", "trap '' TERM; exec sleep 1000");
    let started = Instant::now();
    let run = repo.run(["--json", "remove", "s", "--reap"]);
    run.ok();
    assert!(
        started.elapsed() >= Duration::from_secs(2),
        "no grace period"
    );
    assert!(!repo.wt("s").exists());
    assert_eq!(died_of(&mut stubborn), Some(9), "SIGKILL");
    let log = events(&repo);
    assert!(
        log.lines()
            .any(|l| l.contains("\"reap\"") && l.contains("SIGKILL")),
        "{log}"
    );
}

/// A tmux server on a socket of the test's own; killed when dropped.
struct Tmux {
    socket: std::path::PathBuf,
}

impl Tmux {
    fn cmd(&self) -> Command {
        let mut c = Command::new("tmux");
        c.arg("-S").arg(&self.socket);
        c
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd().arg("kill-server").status();
    }
}

#[test]
fn a_process_on_a_terminal_keeps_the_run_in_use_even_with_reap() {
    let repo = TestRepo::new();
    repo.create("t").ok();
    repo.run(["mark", "t", "rejected"]).ok();
    let tmux = Tmux {
        socket: repo.base().join("tmux.sock"),
    };
    let started = tmux
        .cmd()
        .args(["new-session", "-d", "-x", "80", "-y", "24", "-c"])
        .arg(repo.wt("t"))
        .arg("exec sleep 1000")
        .status()
        .expect("tmux (scripts/install-test-deps installs it)");
    assert!(started.success(), "tmux new-session failed");
    let pane = tmux
        .cmd()
        .args(["list-panes", "-F", "#{pane_pid}"])
        .output()
        .unwrap();
    let pid: u32 = String::from_utf8(pane.stdout)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    wait_cwd(pid, &repo.wt("t"));
    let run = repo.run(["--json", "remove", "t", "--reap"]);
    run.code(1);
    let skip = skipped(&run.json(), "t").clone();
    assert_eq!(skip["code"], "in-use", "{skip}");
    assert!(skip.text("reason").contains("terminal"), "{skip}");
    assert!(repo.wt("t").exists());
    assert!(
        Path::new(&format!("/proc/{pid}")).exists(),
        "the process on a terminal was killed"
    );
    assert!(!events(&repo).contains("\"reap\""));
}
