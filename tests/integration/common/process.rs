//! Running git-loop as a process: spawned and left running, paused at a
//! crash point, signalled, or run under a watchdog with its output as bytes.

use std::ffi::OsStr;
use std::io::BufRead;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::{BIN, TestRepo, hermetic};

/// Start git-loop paused at the crash point `point` (GIT_LOOP_TEST_CRASH) and
/// return once it is there.
pub fn spawn_paused(repo: &TestRepo, point: &str, args: &[&str]) -> std::process::Child {
    use std::io::BufRead;
    let mut child = repo
        .command()
        .env("GIT_LOOP_TEST_CRASH", format!("{point}:pause"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let reached = std::io::BufReader::new(stderr)
        .lines()
        .map_while(Result::ok)
        .any(|line| line.contains(&format!("paused at {point}")));
    if !reached {
        let _ = child.kill();
        let _ = child.wait();
        panic!("exited before reaching {point}");
    }
    child
}

/// What a run printed, as bytes (a non-UTF-8 path is not a `String`).
pub struct Raw {
    pub code: i32,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

impl Raw {
    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }
    pub fn both(&self) -> String {
        format!("{}{}", self.stdout(), self.stderr())
    }
    pub fn code(&self, code: i32) -> &Self {
        assert_eq!(
            self.code,
            code,
            "expected exit {code}\nstdout: {}\nstderr: {}",
            self.stdout(),
            self.stderr()
        );
        self
    }
    /// stdout parses as exactly one JSON document.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "stdout is not exactly one JSON document ({e}): {:?}",
                self.stdout()
            )
        })
    }
}

/// Run git-loop in `dir` (hermetic, HOME = `home`) under a watchdog: a run
/// still going after `limit` is killed and the test fails (a read without
/// bound, or a blocking open of a FIFO, must not hang the suite).
pub fn run_in(dir: &Path, home: &Path, args: &[&OsStr], envs: &[(&str, &OsStr)]) -> Raw {
    let limit = Duration::from_secs(20);
    let out = tempfile::tempdir().unwrap();
    let (stdout_path, stderr_path) = (out.path().join("stdout"), out.path().join("stderr"));
    let mut cmd = Command::new(BIN);
    hermetic(&mut cmd, home);
    cmd.current_dir(dir)
        .args(args)
        .stdout(Stdio::from(std::fs::File::create(&stdout_path).unwrap()))
        .stderr(Stdio::from(std::fs::File::create(&stderr_path).unwrap()));
    for (k, v) in envs {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("git-loop {args:?} still running after {limit:?}: killed");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Raw {
        code: status.code().unwrap_or(-1),
        stdout: std::fs::read(&stdout_path).unwrap(),
        stderr: std::fs::read(&stderr_path).unwrap(),
    }
}

/// [`run_in`] the repository's root, without extra environment.
pub fn run_raw(repo: &TestRepo, args: &[&str]) -> Raw {
    let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    run_in(&repo.root, &repo.home, &args, &[])
}

/// Start git-loop with `envs`, and return once it printed `wait_for` on
/// stderr (or panic if it exits first).
pub fn spawn_until(repo: &TestRepo, envs: &[(&str, &str)], args: &[&str], wait_for: &str) -> Child {
    let mut cmd = repo.command();
    cmd.envs(envs.iter().copied())
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let stderr = child.stderr.take().unwrap();
    let mut lines = std::io::BufReader::new(stderr).lines();
    let reached = lines
        .by_ref()
        .map_while(Result::ok)
        .any(|line| line.contains(wait_for));
    if !reached {
        let _ = child.kill();
        let _ = child.wait();
        panic!("exited before printing {wait_for:?}");
    }
    // Keep draining stderr so the child never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    child
}

/// Send `sig` (`TERM`, `KILL`, ...) to `child` with kill(1).
pub fn kill(child: &Child, sig: &str) {
    let status = std::process::Command::new("kill")
        .args([&format!("-{sig}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Start git-loop in the root with stdout and stderr piped.
pub fn spawn<S: AsRef<OsStr>>(repo: &TestRepo, args: &[S]) -> Child {
    repo.command()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Start git-loop paused at `point`, then kill -9 it there.
pub fn kill_9_at(repo: &TestRepo, point: &str, args: &[&str]) {
    let mut child = spawn_paused(repo, point, args);
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
}
