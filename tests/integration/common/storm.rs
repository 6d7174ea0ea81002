//! What the storms (storm.rs, storm_land.rs, storm_sync.rs) share: a seeded
//! random number generator (a seed replays a worker's choices), sizes read
//! from the environment, blob ids as git computes them, signals sent with
//! kill(1), and a killed holder's mutex aged past its stale time.

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::{TestRepo, age_file};

/// xorshift64*: enough randomness for a storm, no dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    pub fn pct(&mut self, p: u64) -> bool {
        self.next() % 100 < p
    }
}

/// The number in the environment variable `name`, else `default`.
pub fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// `STORM_SEED`, else one from the clock (printed by the storm, to replay).
pub fn seed_from_env() -> u64 {
    env_or(
        "STORM_SEED",
        std::time::SystemTime::now()
            .duration_since(std::time::SystemTime::UNIX_EPOCH)
            .unwrap()
            .as_nanos() as u64,
    )
}

/// Blob ids of `contents`, as git would store them.
pub fn blob_ids(repo: &TestRepo, dir: &Path, contents: &[&str]) -> Vec<String> {
    fs::create_dir_all(dir).unwrap();
    let paths: Vec<PathBuf> = contents
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let p = dir.join(format!("{i}"));
            fs::write(&p, c).unwrap();
            p
        })
        .collect();
    hash_paths(repo, &paths)
}

pub fn hash_paths(repo: &TestRepo, paths: &[PathBuf]) -> Vec<String> {
    if paths.is_empty() {
        return Vec::new();
    }
    let mut cmd = std::process::Command::new("git");
    super::hermetic(&mut cmd, &repo.home);
    let mut child = cmd
        .current_dir(&repo.root)
        .args(["hash-object", "--no-filters", "--stdin-paths"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let list: String = paths
        .iter()
        .map(|p| format!("{}\n", p.to_str().unwrap()))
        .collect();
    let feeder = std::thread::spawn(move || stdin.write_all(list.as_bytes()));
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// kill(1): `signal` (`INT`, `KILL`) to `target`, a pid or `-<pgid>`.
pub fn send(signal: &str, target: &str) {
    let _ = Command::new("kill")
        .args([&format!("-{signal}"), "--", target])
        .status();
}

/// A process that is gone (or a zombie).
pub fn dead(pid: u32) -> bool {
    match fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z')),
        Err(_) => true,
    }
}

/// A mutex whose holder was killed is broken by the next waiter once 30 s
/// old: let the 30 s pass at once (its holder is dead, so no one else can
/// change it meanwhile).
pub fn age_dead_holders(repo: &TestRepo) {
    let mutex = repo.mutex_path();
    let token = fs::read_to_string(&mutex).unwrap_or_default();
    let pid = token
        .strip_prefix("git-loop pid ")
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|p| p.parse::<u32>().ok());
    if let Some(pid) = pid
        && dead(pid)
        && fs::read_to_string(&mutex).unwrap_or_default() == token
    {
        age_file(&mutex, 120);
    }
}
