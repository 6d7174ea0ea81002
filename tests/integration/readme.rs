//! The README's Quick start, run as written on a fresh repository: it ends
//! with the run's commit on main and nothing left behind.

use crate::common::{BIN, TestRepo};

/// The Quick start's shell lines, between its heading and the block's end.
fn quick_start() -> Vec<String> {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let section = readme
        .split("## Quick start")
        .nth(1)
        .expect("a Quick start");
    let block = section.split("```sh\n").nth(1).expect("a sh block");
    let block = block.split("```").next().unwrap();
    block.lines().map(str::to_owned).collect()
}

#[test]
fn quick_start_lands_the_work() {
    let repo = TestRepo::new();
    let lines = quick_start();
    // What a reader does by hand: install (the binary under test is on PATH
    // instead), go to their repository, work and commit.
    let mut script = vec!["set -eu".to_owned()];
    for line in &lines {
        let shell = if line.starts_with("scripts/install") {
            continue;
        } else if line.starts_with("cd /path/to/your/repo") {
            format!("cd '{}'", repo.root.display())
        } else if line.starts_with("# … work, commit …") {
            "echo fixed > login.txt && git add login.txt && git commit -q -m 'Fix login'".to_owned()
        } else {
            line.clone()
        };
        script.push(shell);
    }
    assert!(
        script.iter().any(|l| l.contains("git loop land")),
        "the Quick start lands its run: {lines:#?}"
    );
    let bin_dir = std::path::Path::new(BIN).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut sh = std::process::Command::new("sh");
    crate::common::hermetic(&mut sh, &repo.home);
    sh.env("PATH", path)
        .arg("-c")
        .arg(script.join("\n"))
        .current_dir(&repo.root);
    let out = sh.output().unwrap();
    assert!(
        out.status.success(),
        "the Quick start failed:\n{}\nstdout: {}\nstderr: {}",
        script.join("\n"),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // The commit is on main, in the main checkout.
    assert_eq!(
        repo.git(["log", "-1", "--format=%s", "main"]).trim(),
        "Fix login"
    );
    assert_eq!(
        std::fs::read_to_string(repo.root.join("login.txt")).unwrap(),
        "fixed\n"
    );
    // Nothing left behind: no worktree, no branch, no entry.
    assert!(!repo.wt("fix-login").exists());
    assert!(!repo.branch_exists("loop/fix-login"));
    assert!(repo.ids().is_empty(), "{:?}", repo.ids());
    assert_eq!(repo.registered(), std::slice::from_ref(&repo.root));
}
