//! Holes in the removal promise: what `git worktree remove` would delete or
//! strand that git-loop's checks did not see — an untracked file hidden by
//! `core.ignorecase`, a bare repository in an ignored directory, a file git
//! cannot delete (and the half-removed run such a failure leaves), and git's
//! refusal text read with the run id inside it.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::{JsonExt, TestRepo, long_of, skipped};

/// Commit `files` (path, content) to the main worktree's `main`.
fn commit_files(repo: &TestRepo, files: &[(&str, &str)], message: &str) {
    for (path, content) in files {
        let p = repo.root.join(path);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, content).unwrap();
        repo.git(["add", "--", path]);
    }
    repo.git(["commit", "-qm", message]);
}

#[test]
fn an_untracked_case_twin_under_ignorecase_is_untracked_and_kept() {
    let repo = TestRepo::new();
    commit_files(&repo, &[("a.txt", "tracked\n")], "a.txt");
    // A repository copied from macOS or Windows, on a case-sensitive
    // filesystem: git would match A.TXT against a.txt.
    repo.git(["config", "core.ignorecase", "true"]);
    repo.create("twin");
    let twin = repo.wt("twin").join("A.TXT");
    fs::write(&twin, "only copy\n").unwrap();
    repo.run(["mark", "twin", "rejected"]).ok();

    let long = long_of(&repo, "twin");
    assert_eq!(long["untracked"], true, "{long}");
    let dry = repo.run(["--json", "cleanup", "--dry-run"]).json();
    assert_eq!(skipped(&dry, "twin")["code"], "untracked", "{dry}");
    let v = repo.run(["--json", "cleanup"]).json();
    assert_eq!(skipped(&v, "twin")["code"], "untracked", "{v}");
    assert_eq!(fs::read_to_string(&twin).unwrap(), "only copy\n");

    let v = repo.run(["--json", "remove", "twin", "--salvage"]).json();
    let saved = repo.git(["show", "refs/loop/salvage/twin:A.TXT"]);
    assert_eq!(saved, "only copy\n", "{v}");
    assert_eq!(
        repo.git(["show", "refs/loop/salvage/twin:a.txt"]),
        "tracked\n"
    );
}

#[test]
fn a_bare_repository_or_a_gitfile_in_an_ignored_dir_is_a_nested_repo() {
    let repo = TestRepo::new();
    commit_files(&repo, &[(".gitignore", "build/\n")], "ignore build");
    repo.create("bare");
    let store = repo.wt("bare").join("build/store.git");
    fs::create_dir_all(store.parent().unwrap()).unwrap();
    assert!(
        repo.git_in(
            &repo.wt("bare"),
            ["init", "-q", "--bare", "build/store.git"]
        )
        .status
        .success()
    );
    // A commit that exists only in the bare repository.
    let git_dir = format!("--git-dir={}", store.display());
    let tree =
        String::from_utf8(repo.git_in(&repo.root, [git_dir.as_str(), "mktree"]).stdout).unwrap();
    let commit = repo.git_in(
        &repo.root,
        [
            git_dir.as_str(),
            "commit-tree",
            tree.trim(),
            "-m",
            "only here",
        ],
    );
    let commit = String::from_utf8(commit.stdout).unwrap().trim().to_owned();
    assert_eq!(commit.len(), 40, "{commit:?}");
    repo.git_in(
        &repo.root,
        [git_dir.as_str(), "update-ref", "refs/heads/main", &commit],
    );

    repo.create("gitfile");
    let vendored = repo.wt("gitfile").join("build/lib");
    fs::create_dir_all(&vendored).unwrap();
    fs::write(vendored.join(".git"), "gitdir: /nowhere/modules/lib\n").unwrap();
    for id in ["bare", "gitfile"] {
        repo.run(["mark", id, "rejected"]).ok();
    }

    let long = long_of(&repo, "bare");
    assert_eq!(long["nestedRepos"], serde_json::json!(["build/store.git"]));
    let dry = repo.run(["--json", "cleanup", "--dry-run"]).json();
    assert_eq!(skipped(&dry, "bare")["code"], "nested-repo", "{dry}");
    let v = repo.run(["--json", "cleanup"]).json();
    for (id, dir) in [("bare", "build/store.git"), ("gitfile", "build/lib")] {
        let s = skipped(&v, id);
        assert_eq!(s["code"], "nested-repo", "{v}");
        assert!(s.text("reason").contains(dir), "{s}");
    }
    let cat = repo.git_in(&repo.root, [git_dir.as_str(), "cat-file", "-t", &commit]);
    assert_eq!(String::from_utf8(cat.stdout).unwrap().trim(), "commit");
    assert!(vendored.join(".git").is_file());
}

/// A file made immutable (`chattr +i`), made mutable again when dropped so
/// the temporary directory can go.
struct Immutable(PathBuf);

impl Immutable {
    /// `chattr +i` on `path`; `None` (the test is skipped) when the
    /// filesystem or the user cannot, a panic under `GIT_LOOP_REQUIRE_XFS=1`
    /// (CI: the test must run there).
    fn make(path: &Path) -> Option<Immutable> {
        let out = std::process::Command::new("chattr")
            .arg("+i")
            .arg(path)
            .output();
        let why = match out {
            Ok(o) if o.status.success() => return Some(Immutable(path.to_path_buf())),
            Ok(o) => String::from_utf8_lossy(&o.stderr).into_owned(),
            Err(e) => e.to_string(),
        };
        if std::env::var_os("GIT_LOOP_REQUIRE_XFS").is_some_and(|v| v == "1") {
            panic!("GIT_LOOP_REQUIRE_XFS=1 but chattr +i failed: {why}");
        }
        eprintln!("skipped: chattr +i is not possible here: {why}");
        None
    }
}

impl Drop for Immutable {
    fn drop(&mut self) {
        let _ = std::process::Command::new("chattr")
            .arg("-i")
            .arg(&self.0)
            .status();
    }
}

/// An ignored `target/` holding a file nobody may delete, in a run named
/// `locked` (whose id is in every message git prints about it).
fn undeletable_run(repo: &TestRepo, id: &str) -> Option<Immutable> {
    commit_files(repo, &[(".gitignore", "target/\n")], "ignore target");
    repo.create(id);
    let target = repo.wt(id).join("target");
    fs::create_dir_all(&target).unwrap();
    fs::write(target.join("a-first.o"), "built\n").unwrap();
    fs::write(target.join("stuck.o"), "built\n").unwrap();
    let guard = Immutable::make(&target.join("stuck.o"))?;
    repo.run(["mark", id, "rejected"]).ok();
    Some(guard)
}

#[test]
fn a_file_git_cannot_delete_keeps_the_run_untouched() {
    let repo = TestRepo::new();
    let Some(_guard) = undeletable_run(&repo, "locked") else {
        return;
    };
    let dry = repo.run(["--json", "cleanup", "--dry-run"]).json();
    assert_eq!(skipped(&dry, "locked")["code"], "undeletable", "{dry}");
    let v = repo.run(["--json", "cleanup"]).json();
    let s = skipped(&v, "locked");
    assert_eq!(s["code"], "undeletable", "{v}");
    assert!(s.text("reason").contains("target/stuck.o"), "{s}");
    // Nothing touched: files, .git file, registration.
    let wt = repo.wt("locked");
    assert!(wt.join("target/a-first.o").is_file());
    assert!(wt.join(".git").is_file());
    assert!(repo.registered().contains(&wt.canonicalize().unwrap()));
    let v = repo.run(["--json", "remove", "locked", "--salvage"]).json();
    assert_eq!(skipped(&v, "locked")["code"], "undeletable", "{v}");
    assert!(repo.git(["for-each-ref", "refs/loop/salvage/"]).is_empty());
}

#[test]
fn a_dirty_run_named_locked_is_dirty() {
    let repo = TestRepo::new();
    commit_files(&repo, &[("a.txt", "one\n")], "a.txt");
    repo.create("locked");
    fs::write(repo.wt("locked").join("a.txt"), "changed\n").unwrap();
    repo.run(["mark", "locked", "rejected"]).ok();
    let v = repo.run(["--json", "cleanup"]).json();
    assert_eq!(skipped(&v, "locked")["code"], "dirty", "{v}");
}

#[test]
fn a_refusal_naming_a_run_called_locked_is_not_a_lock() {
    let repo = TestRepo::new();
    repo.create("locked");
    let wt = repo.wt("locked");
    // git cannot validate it ("'…/locked/.git' does not exist"), and it
    // holds a file that is not in git: left, as git refused it.
    fs::remove_file(wt.join(".git")).unwrap();
    fs::write(wt.join("notes"), "mine\n").unwrap();
    repo.run(["mark", "locked", "rejected"]).ok();
    let v = repo.run(["--json", "cleanup"]).json();
    let s = skipped(&v, "locked");
    assert_eq!(s["code"], "git-refused", "{v}");
    assert!(wt.join("notes").is_file());
}

#[test]
fn a_half_removed_run_is_reported_listed_and_finished_once_all_in_git() {
    let repo = TestRepo::new();
    let Some(guard) = undeletable_run(&repo, "half") else {
        return;
    };
    let wt = repo.wt("half");
    // What an older git-loop (or a user) did: git deletes files until the
    // immutable one, then the registration anyway.
    let out = repo.git_in(
        &repo.root,
        ["worktree", "remove", "--", ".loop-worktrees/half"],
    );
    assert!(!out.status.success(), "git removed it all");
    assert!(!repo.registered().iter().any(|p| p.ends_with("half")));
    assert!(wt.join("target/stuck.o").is_file());

    let v = repo.run(["--json", "cleanup"]).json();
    let s = skipped(&v, "half");
    assert_eq!(s["code"], "half-removed", "{v}");
    assert!(s.text("reason").contains("target/"), "{s}");
    assert!(wt.join("target/stuck.o").is_file());
    let v = repo.run(["--json", "reconcile"]).json();
    assert_eq!(skipped(&v, "half")["code"], "half-removed", "{v}");
    assert_eq!(repo.status_of("half").as_deref(), Some("rejected"));

    // Once what is not in git is gone, what is left is finished.
    drop(guard);
    fs::remove_dir_all(wt.join("target")).unwrap();
    let dry = repo.run(["--json", "cleanup", "--dry-run"]).json();
    assert_eq!(dry.ids("removed"), ["half"], "{dry}");
    assert!(wt.is_dir());
    let v = repo.run(["--json", "cleanup"]).json();
    assert_eq!(v.ids("removed"), ["half"], "{v}");
    assert!(!wt.exists());
    assert_eq!(repo.status_of("half"), None);
}

#[test]
fn a_directory_the_user_may_not_delete_from_keeps_the_run_untouched() {
    use std::os::unix::fs::PermissionsExt;
    let repo = TestRepo::new();
    commit_files(&repo, &[(".gitignore", "target/\n")], "ignore target");
    repo.create("ro");
    let target = repo.wt("ro").join("target");
    fs::create_dir_all(&target).unwrap();
    fs::write(target.join("out.o"), "built\n").unwrap();
    repo.run(["mark", "ro", "rejected"]).ok();
    let uid = std::process::Command::new("id").arg("-u").output().unwrap();
    let root = String::from_utf8_lossy(&uid.stdout).trim() == "0";
    let mut cmd = if root {
        // As a container build leaves it: target/ is root's, and git-loop
        // runs as the user who owns everything else.
        let base = repo.base().to_str().unwrap().to_owned();
        let chown = |args: &[&str]| {
            assert!(
                std::process::Command::new("chown")
                    .args(args)
                    .status()
                    .unwrap()
                    .success()
            );
        };
        chown(&["-R", "65534:65534", &base]);
        chown(&["-R", "0:0", target.to_str().unwrap()]);
        let mut cmd = std::process::Command::new("setpriv");
        cmd.args(["--reuid", "65534", "--regid", "65534", "--clear-groups"])
            .arg(crate::common::BIN);
        cmd
    } else {
        fs::set_permissions(&target, fs::Permissions::from_mode(0o555)).unwrap();
        std::process::Command::new(crate::common::BIN)
    };
    crate::common::hermetic(&mut cmd, &repo.home);
    let out = cmd
        .current_dir(&repo.root)
        .args(["--json", "cleanup"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let s = skipped(&v, "ro");
    assert_eq!(s["code"], "undeletable", "{v}");
    assert!(s.text("reason").contains("target"), "{s}");
    let wt = repo.wt("ro");
    assert!(wt.join("README").is_file() && wt.join(".git").is_file());
    assert!(target.join("out.o").is_file());
    // (root reads a repository another user owns only as a safe directory)
    let list = repo.git(["-c", "safe.directory=*", "worktree", "list", "--porcelain"]);
    assert!(list.contains(".loop-worktrees/ro\n"), "{list}");
    if !root {
        fs::set_permissions(&target, fs::Permissions::from_mode(0o755)).unwrap();
    }
}
