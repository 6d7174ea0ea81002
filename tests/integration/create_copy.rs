//! `create.copy`: untracked and ignored files copied into a new worktree.

use std::fs;

use crate::common::TestRepo;

fn copied(v: &serde_json::Value) -> Vec<String> {
    v["copy"]["copied"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_owned())
        .collect()
}

/// A repository with ignored and untracked files of several kinds.
fn fixture() -> TestRepo {
    let repo = TestRepo::new();
    fs::write(
        repo.root.join(".gitignore"),
        ".env\n.env.local\nnode_modules/\n*.log\n",
    )
    .unwrap();
    fs::create_dir_all(repo.root.join("config")).unwrap();
    fs::write(repo.root.join("config/app.toml"), "tracked\n").unwrap();
    repo.git(["add", ".gitignore", "config/app.toml"]);
    repo.git(["commit", "-q", "-m", "ignore"]);
    fs::write(repo.root.join(".env"), "SECRET=1\n").unwrap();
    fs::write(repo.root.join(".env.local"), "LOCAL=1\n").unwrap();
    fs::write(repo.root.join("config/.env"), "NESTED=1\n").unwrap();
    fs::write(
        repo.root.join("config/app.local"),
        "untracked, not ignored\n",
    )
    .unwrap();
    fs::write(repo.root.join("debug.log"), "noise\n").unwrap();
    fs::create_dir_all(repo.root.join("node_modules/pkg")).unwrap();
    fs::write(repo.root.join("node_modules/pkg/index.js"), "x\n").unwrap();
    repo
}

#[test]
fn matching_ignored_and_untracked_files_are_copied() {
    let repo = fixture();
    fs::write(
        repo.root.join(".git-loop.toml"),
        "[create]\ncopy = [\".env\", \".env.local\", \"/config/*.local\", \"node_modules/\"]\n",
    )
    .unwrap();
    // Untrusted, the repository's file copies nothing (`create.copy` widens
    // what is copied: it weakens a guard), and a note says so.
    let run = repo.run(["--json", "create", "r0", "--pattern", "p"]);
    run.ok();
    assert!(run.json()["copy"].is_null(), "{}", run.json());
    assert!(!repo.wt("r0").join(".env").exists());
    assert!(run.stderr.contains("create.copy"), "{}", run.stderr);
    repo.run(["trust"]).ok();
    let run = repo.run(["--json", "create", "r1", "--pattern", "p"]);
    run.ok();
    let v = run.json();
    assert_eq!(
        copied(&v),
        [
            ".env",
            ".env.local",
            "config/.env",
            "config/app.local",
            "node_modules/pkg/index.js"
        ]
    );
    assert_eq!(v["copy"]["skipped"], serde_json::json!([]));
    let wt = repo.wt("r1");
    assert_eq!(fs::read_to_string(wt.join(".env")).unwrap(), "SECRET=1\n");
    assert_eq!(
        fs::read_to_string(wt.join("config/.env")).unwrap(),
        "NESTED=1\n"
    );
    assert!(wt.join("node_modules/pkg/index.js").exists());
    assert!(!wt.join("debug.log").exists(), "not selected");
    // A copied ignored file does not make the worktree dirty for git.
    let status = repo.git_in(&wt, ["status", "--porcelain"]);
    assert_eq!(
        String::from_utf8_lossy(&status.stdout),
        "?? config/app.local\n"
    );

    // Human output names what was copied.
    let run = repo.run(["create", "r2", "--pattern", "p"]);
    run.ok();
    assert!(
        run.stderr.contains("copied 5 files (create.copy)"),
        "{}",
        run.stderr
    );
}

#[test]
fn copy_never_overwrites_and_never_copies_tracked_or_loop_files() {
    let repo = fixture();
    // `notes.txt` is untracked here, but tracked on branch `other`.
    repo.git(["checkout", "-q", "-b", "other"]);
    fs::write(repo.root.join("notes.txt"), "from other\n").unwrap();
    repo.git(["add", "notes.txt"]);
    repo.git(["commit", "-q", "-m", "notes"]);
    repo.git(["checkout", "-q", "main"]);
    fs::write(repo.root.join("notes.txt"), "local notes\n").unwrap();
    repo.create("first");
    fs::write(repo.wt("first").join("scratch.txt"), "in a worktree\n").unwrap();

    // `*` selects everything untracked or ignored — but never what git
    // tracks, never .loop-worktrees/ (other runs), never over a file.
    repo.git(["config", "loop.createCopy", "*"]);
    let run = repo.run([
        "--json",
        "create",
        "r1",
        "--pattern",
        "p",
        "--base",
        "other",
    ]);
    run.ok();
    let v = run.json();
    let list = copied(&v);
    assert!(list.contains(&".env".to_owned()), "{list:?}");
    assert!(
        list.iter().all(|p| !p.starts_with(".loop-worktrees")),
        "{list:?}"
    );
    assert!(!list.contains(&"README".to_owned()));
    assert_eq!(
        v["copy"]["skipped"],
        serde_json::json!([{"path":"notes.txt","reason":"exists"}])
    );
    assert_eq!(
        fs::read_to_string(repo.wt("r1").join("notes.txt")).unwrap(),
        "from other\n",
        "the checked-out file is not overwritten"
    );
    assert!(!repo.wt("r1").join(".loop-worktrees").exists());
    assert!(!repo.wt("r1").join("scratch.txt").exists());
}

#[test]
fn negation_multivalued_git_config_and_symlinks() {
    let repo = fixture();
    std::os::unix::fs::symlink("/nonexistent/target", repo.root.join(".env.link")).unwrap();
    // git config multivar: every value is a pattern; `!` excludes.
    repo.git(["config", "--add", "loop.createCopy", ".env*"]);
    repo.git(["config", "--add", "loop.createCopy", "!.env.local"]);
    let run = repo.run(["--json", "create", "r1", "--pattern", "p"]);
    run.ok();
    assert_eq!(copied(&run.json()), [".env", ".env.link", "config/.env"]);
    let link = repo.wt("r1").join(".env.link");
    assert_eq!(
        fs::read_link(&link).unwrap(),
        std::path::PathBuf::from("/nonexistent/target"),
        "a symlink is copied as a symlink"
    );
    let config = repo.run(["--json", "config"]);
    assert_eq!(
        config.json()["create.copy"]["value"],
        serde_json::json!([".env*", "!.env.local"])
    );
    // An empty value clears the values before it (git's convention).
    repo.git(["config", "--add", "loop.createCopy", ""]);
    let run = repo.run(["--json", "create", "r2", "--pattern", "p"]);
    run.ok();
    assert!(run.json().get("copy").is_none());
    assert!(!repo.wt("r2").join(".env").exists());
}

#[test]
fn a_pattern_reaching_outside_is_refused_and_nothing_is_created() {
    let repo = fixture();
    fs::write(
        repo.root.join(".git-loop.toml"),
        "[create]\ncopy = [\"../secrets\"]\n",
    )
    .unwrap();
    let run = repo.run(["--json", "create", "r1", "--pattern", "p"]);
    run.code(1);
    let v = run.json();
    assert_eq!(v["error"]["code"], "invalid-config");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("../secrets"),
        "{v}"
    );
    assert!(!repo.wt("r1").exists());
    assert!(!repo.branch_exists("loop/r1"));
}

#[test]
fn copy_never_writes_through_a_symlink_in_the_new_worktree() {
    let repo = TestRepo::new();
    let outside = repo.base().join("outside");
    fs::create_dir(&outside).unwrap();
    // Tracked: `conf` is a symlink to a directory outside the repository.
    std::os::unix::fs::symlink(&outside, repo.root.join("conf")).unwrap();
    repo.git(["add", "conf"]);
    repo.git(["commit", "-q", "-m", "conf link"]);
    // In the main worktree, replace the link by a real directory holding an
    // untracked file that the pattern selects.
    fs::remove_file(repo.root.join("conf")).unwrap();
    fs::create_dir(repo.root.join("conf")).unwrap();
    fs::write(repo.root.join("conf/secret.local"), "x").unwrap();
    repo.git(["config", "loop.createCopy", "*.local"]);
    let run = repo.run(["--json", "create", "r1", "--pattern", "p"]);
    run.ok();
    let v = run.json();
    assert_eq!(v["copy"]["copied"], serde_json::json!([]), "{v}");
    assert_eq!(v["copy"]["skipped"][0]["path"], "conf/secret.local");
    assert!(
        !outside.join("secret.local").exists(),
        "written outside the repository"
    );
}
