//! The removal promise, "no work is ever deleted", against what cleanup,
//! remove and reconcile could miss: changes git hides (`core.ignorecase`
//! twins, assume-unchanged, skip-worktree, `status.showUntrackedFiles=no`, a
//! lying fsmonitor), commits only a detached HEAD or a stopped rebase
//! reaches, nested repositories (also bare, or behind a gitfile), files git
//! cannot delete (and the half-removed run such a failure leaves), git's
//! refusal text read with the run id inside it, a hostile filesystem (a
//! foreign worktree or a symlink where a run should be), and ids that look
//! like options. The destroying call sites themselves: kernel.rs.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::{JsonExt, TestRepo, git_ok, long_of, skipped};

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
    /// `chattr +i` on `path`; the test fails, saying why, when the
    /// filesystem or the user cannot (the tests that need it are ignored
    /// unless asked for: scripts/test runs them, as root).
    fn make(path: &Path) -> Immutable {
        let out = std::process::Command::new("chattr")
            .arg("+i")
            .arg(path)
            .output();
        let why = match out {
            Ok(o) if o.status.success() => return Immutable(path.to_path_buf()),
            Ok(o) => String::from_utf8_lossy(&o.stderr).into_owned(),
            Err(e) => e.to_string(),
        };
        panic!("chattr +i failed (this test needs root and a filesystem that has it): {why}");
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
fn undeletable_run(repo: &TestRepo, id: &str) -> Immutable {
    commit_files(repo, &[(".gitignore", "target/\n")], "ignore target");
    repo.create(id);
    let target = repo.wt(id).join("target");
    fs::create_dir_all(&target).unwrap();
    fs::write(target.join("a-first.o"), "built\n").unwrap();
    fs::write(target.join("stuck.o"), "built\n").unwrap();
    let guard = Immutable::make(&target.join("stuck.o"));
    repo.run(["mark", id, "rejected"]).ok();
    guard
}

#[test]
#[ignore = "needs root for chattr +i; scripts/test runs it"]
fn a_file_git_cannot_delete_keeps_the_run_untouched() {
    let repo = TestRepo::new();
    let _guard = undeletable_run(&repo, "locked");
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
#[ignore = "needs root for chattr +i; scripts/test runs it"]
fn a_half_removed_run_is_reported_listed_and_finished_once_all_in_git() {
    let repo = TestRepo::new();
    let guard = undeletable_run(&repo, "half");
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

/// A change git does not look at — a tracked file flagged assume-unchanged
/// or skip-worktree, then edited — makes `git worktree remove` (never
/// forced) delete it silently. Removal and recycling must keep it.
#[test]
fn a_change_hidden_by_assume_unchanged_or_skip_worktree_is_never_removed() {
    let repo = TestRepo::new();
    for (id, flag) in [("au", "--assume-unchanged"), ("sw", "--skip-worktree")] {
        repo.create(id);
        let wt = repo.wt(id);
        git_ok(&repo, &wt, &["update-index", flag, "README"]);
        fs::write(wt.join("README"), "hidden work\n").unwrap();
        repo.run(["mark", id, "rejected"]).ok();
    }
    repo.run(["remove", "au"]);
    repo.run(["remove", "--salvage", "au"]);
    repo.git(["config", "loop.poolSize", "2"]);
    repo.run(["cleanup", "--recycle"]);
    for id in ["au", "sw"] {
        assert_eq!(
            fs::read_to_string(repo.wt(id).join("README")).unwrap(),
            "hidden work\n",
            "{id}"
        );
    }
}

/// `status.showUntrackedFiles=no` hides untracked files from the `git
/// status` that `git worktree remove` asks, which then deletes them. The
/// removal must still refuse (`untracked`), on every path that removes.
#[test]
fn untracked_files_hidden_by_show_untracked_files_no_are_never_removed() {
    let repo = TestRepo::new();
    repo.git(["config", "status.showUntrackedFiles", "no"]);
    for id in ["a", "b", "c"] {
        repo.create(id);
        fs::write(repo.wt(id).join("precious"), "work\n").unwrap();
        repo.run(["mark", id, "rejected"]).ok();
    }
    let run = repo.run(["--json", "remove", "a"]);
    assert!(run.stdout.contains("untracked"), "{}", run.stdout);
    repo.run(["cleanup"]);
    repo.git(["config", "loop.poolSize", "2"]);
    repo.run(["cleanup", "--recycle"]);
    for id in ["a", "b", "c"] {
        assert_eq!(
            fs::read_to_string(repo.wt(id).join("precious")).unwrap(),
            "work\n",
            "{id}"
        );
    }
}

/// A `core.fsmonitor` that hides a change (here a hook that always answers
/// "nothing changed since the last token", as a crashed or stale watcher
/// can) blinds the `git status` that `git worktree remove` asks: git then
/// deleted a modified tracked file. The removal runs with the monitor off.
#[test]
fn a_change_hidden_by_a_lying_fsmonitor_is_never_removed() {
    use std::os::unix::fs::PermissionsExt;
    let repo = TestRepo::new();
    let hook = repo.base().join("fsmonitor-lies.sh");
    fs::write(&hook, "#!/bin/sh\nprintf 'token\\0'\n").unwrap();
    fs::set_permissions(&hook, fs::Permissions::from_mode(0o755)).unwrap();
    repo.git(["config", "core.fsmonitor", hook.to_str().unwrap()]);
    repo.create("f");
    let wt = repo.wt("f");
    // A first status records the monitor's token in the index.
    git_ok(&repo, &wt, &["status", "--porcelain"]);
    fs::write(wt.join("README"), "work the monitor never reported\n").unwrap();
    // The lie: git's own status sees nothing.
    assert_eq!(git_ok(&repo, &wt, &["status", "--porcelain"]), "");
    repo.run(["mark", "f", "rejected"]).ok();
    let run = repo.run(["--json", "cleanup"]);
    assert_eq!(
        run.json().arr("skipped")[0]["code"],
        "dirty",
        "{}",
        run.stdout
    );
    assert_eq!(
        fs::read_to_string(wt.join("README")).unwrap(),
        "work the monitor never reported\n"
    );
}

fn commit_in(repo: &TestRepo, dir: &Path, file: &str, text: &str) -> String {
    fs::write(dir.join(file), text).unwrap();
    for args in [vec!["add", file], vec!["commit", "-qm", file]] {
        let out = repo.git_in(dir, &args);
        assert!(out.status.success(), "{out:?}");
    }
    let out = repo.git_in(dir, ["rev-parse", "HEAD"]);
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

fn exists_commit(repo: &TestRepo, sha: &str) -> bool {
    repo.git_in(&repo.root, ["cat-file", "-e", &format!("{sha}^{{commit}}")])
        .status
        .success()
}

fn unreachable(repo: &TestRepo) -> String {
    repo.git(["fsck", "--unreachable", "--no-reflogs"])
}

#[test]
fn commits_on_a_detached_head_keep_the_worktree() {
    let repo = TestRepo::new();
    repo.create("d");
    let wt = repo.wt("d");
    assert!(
        repo.git_in(&wt, ["checkout", "-q", "--detach"])
            .status
            .success()
    );
    let sha = commit_in(&repo, &wt, "lost", "only here\n");
    repo.run(["mark", "d", "rejected"]).ok();

    let long = long_of(&repo, "d");
    assert_eq!(long["unreachableCommits"], 1, "{long}");
    let table = repo.run(["list", "--long"]);
    assert!(table.stdout.contains("unreachable"), "{}", table.stdout);

    let dry = repo.run(["--json", "cleanup", "--dry-run"]).json();
    assert_eq!(skipped(&dry, "d")["code"], "unreachable-commits");
    let run = repo.run(["--json", "cleanup"]);
    run.ok();
    let v = run.json();
    assert_eq!(skipped(&v, "d")["code"], "unreachable-commits", "{v}");
    assert!(v["removed"].as_array().unwrap().is_empty());
    assert!(wt.join("lost").exists());
    assert!(!unreachable(&repo).contains(&sha));

    // Once a branch holds the commit, the worktree goes, and the commit stays.
    repo.git(["branch", "keep", &sha]);
    let v = repo.run(["--json", "cleanup"]).json();
    assert_eq!(v["removed"][0]["id"], "d", "{v}");
    assert!(!wt.exists() && exists_commit(&repo, &sha));
}

#[test]
fn a_worktree_stopped_mid_rebase_is_kept() {
    let repo = TestRepo::new();
    repo.create("r");
    let wt = repo.wt("r");
    commit_in(&repo, &wt, "one", "1\n");
    commit_in(&repo, &wt, "two", "2\n");
    let mut rebase = std::process::Command::new("git");
    crate::common::hermetic(&mut rebase, &repo.home);
    let out = rebase
        .current_dir(&wt)
        .env("GIT_SEQUENCE_EDITOR", "sed -i 1s/^pick/edit/")
        .args(["rebase", "-q", "-i", "HEAD~2"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let out = repo.git_in(&wt, ["commit", "-q", "--amend", "-m", "amended"]);
    assert!(out.status.success(), "{out:?}");
    let amended = String::from_utf8(repo.git_in(&wt, ["rev-parse", "HEAD"]).stdout).unwrap();
    repo.run(["mark", "r", "rejected"]).ok();

    assert_eq!(long_of(&repo, "r")["operation"], "rebase");
    let v = repo.run(["--json", "cleanup"]).json();
    assert_eq!(skipped(&v, "r")["code"], "operation-in-progress", "{v}");
    assert!(wt.join("one").exists());
    assert!(exists_commit(&repo, amended.trim()));
    assert!(!unreachable(&repo).contains(amended.trim()));
}

#[test]
fn reconcile_keeps_the_last_reference_to_commits_of_a_deleted_detached_worktree() {
    let repo = TestRepo::new();
    repo.create("gone");
    let wt = repo.wt("gone");
    assert!(
        repo.git_in(&wt, ["checkout", "-q", "--detach"])
            .status
            .success()
    );
    let sha = commit_in(&repo, &wt, "lost", "only here\n");
    fs::remove_dir_all(&wt).unwrap();

    let v = repo.run(["--json", "reconcile"]).json();
    assert_eq!(skipped(&v, "gone")["code"], "unreachable-commits", "{v}");
    assert!(v["dropped"].as_array().unwrap().is_empty());
    assert_eq!(repo.ids(), ["gone"], "the entry stays");
    assert!(
        repo.git(["worktree", "list", "--porcelain"]).contains(&sha),
        "the registration (the commit's last reference) stays"
    );
    assert!(!unreachable(&repo).contains(&sha));
}

#[test]
fn a_nested_repository_keeps_the_worktree_ignored_or_not() {
    let repo = TestRepo::new();
    fs::write(repo.root.join(".gitignore"), "vendor/\n").unwrap();
    repo.git(["add", ".gitignore"]);
    repo.git(["commit", "-qm", "ignore vendor"]);
    for (id, dir) in [("ign", "vendor/lib"), ("unign", "tools/lib")] {
        repo.create(id);
        let nested = repo.wt(id).join(dir);
        fs::create_dir_all(&nested).unwrap();
        assert!(repo.git_in(&nested, ["init", "-q"]).status.success());
        commit_in(&repo, &nested, "work", "unpushed\n");
        repo.run(["mark", id, "rejected"]).ok();
    }
    let long = long_of(&repo, "ign");
    assert_eq!(
        long["nestedRepos"],
        serde_json::json!(["vendor/lib"]),
        "{long}"
    );
    assert_eq!(long["dirty"], false);

    let dry = repo.run(["--json", "cleanup", "--dry-run"]).json();
    assert_eq!(skipped(&dry, "ign")["code"], "nested-repo");
    let v = repo.run(["--json", "cleanup"]).json();
    for (id, dir) in [("ign", "vendor/lib"), ("unign", "tools/lib")] {
        let s = skipped(&v, id);
        assert_eq!(s["code"], "nested-repo", "{v}");
        assert!(s["reason"].as_str().unwrap().contains(dir));
        assert!(repo.wt(id).join(dir).join("work").exists());
    }
}

#[test]
fn hostile_filesystem_is_refused_and_nothing_changes() {
    let repo = TestRepo::new();
    repo.create("mine");
    // A worktree of another clone sitting at .loop-worktrees/foreign.
    let other = repo.foreign_worktree("foreign", "theirs");
    fs::write(repo.wt("foreign").join("their-work"), "x").unwrap();
    // A symlink at .loop-worktrees/link pointing outside, recorded as a run.
    let outside = repo.base().join("outside");
    fs::create_dir(&outside).unwrap();
    fs::write(outside.join("keep"), "x").unwrap();
    std::os::unix::fs::symlink(&outside, repo.wt("link")).unwrap();
    let mut m = repo.manifest();
    for (id, status) in [("foreign", "rejected"), ("link", "rejected")] {
        let mut e = m["worktrees"][0].clone();
        e["id"] = id.into();
        e["path"] = format!(".loop-worktrees/{id}").into();
        e["branch"] = format!("loop/{id}").into();
        e["status"] = status.into();
        m["worktrees"].as_array_mut().unwrap().push(e);
    }
    repo.write_manifest(&m.to_string());

    // create over either path is refused.
    for id in ["foreign", "link"] {
        repo.run(["mark", id, "merged"]).ok();
        let before = fs::read(repo.manifest_path()).unwrap();
        let run = repo.run(["create", id, "--pattern", "p"]);
        run.code(1);
        assert!(run.stderr.contains("already exists"), "{}", run.stderr);
        assert_eq!(fs::read(repo.manifest_path()).unwrap(), before);
        repo.run(["mark", id, "rejected"]).ok();
    }
    assert!(!repo.branch_exists("loop/foreign") && !repo.branch_exists("loop/link"));
    let before = fs::read(repo.manifest_path()).unwrap();
    // cleanup skips both, naming why; reconcile will not remove them.
    let v = repo.run(["--json", "cleanup"]).json();
    assert_eq!(v["removed"], serde_json::json!([]));
    assert_eq!(v["skipped"].as_array().unwrap().len(), 2, "{v}");
    for s in v["skipped"].as_array().unwrap() {
        assert_eq!(s["code"], "foreign-clone", "{s}");
    }
    for id in ["foreign", "link"] {
        let run = repo.run(["--json", "reconcile", "--remove-orphan", id]);
        run.code(1);
        assert_eq!(run.json()["error"]["code"], "not-an-orphan");
    }
    assert!(repo.wt("foreign").join("their-work").exists());
    assert!(outside.join("keep").exists());
    assert!(
        String::from_utf8(repo.git_in(&other, ["worktree", "list"]).stdout)
            .unwrap()
            .contains("foreign")
    );
    assert_eq!(fs::read(repo.manifest_path()).unwrap(), before);

    // A symlinked .gitignore is never written through.
    let target = repo.base().join("elsewhere-ignore");
    fs::write(&target, "x\n").unwrap();
    std::os::unix::fs::symlink(&target, repo.root.join(".gitignore")).ok();
    let fresh = TestRepo::new();
    std::os::unix::fs::symlink(&target, fresh.root.join(".gitignore")).unwrap();
    let run = fresh.run(["create", "a", "--pattern", "p"]);
    run.code(1);
    assert!(
        run.stderr.contains(".gitignore") && run.stderr.contains("symlink"),
        "{}",
        run.stderr
    );
    assert_eq!(fs::read_to_string(&target).unwrap(), "x\n");
    assert!(!fresh.loop_dir().exists());
}

#[test]
fn option_injection_is_impossible() {
    let repo = TestRepo::new();
    for id in ["-f", "--force", "-b", "--detach"] {
        repo.run(["create", "--pattern", "p", "--", id]).code(2);
        repo.run(["reconcile", "--remove-orphan", id]).code(2);
    }
    // A base that looks like an option is only ever a revision to resolve.
    let run = repo.run(["create", "x", "--pattern", "p", "--base=--orphan"]);
    run.code(1);
    assert!(run.stderr.contains("--orphan"));
    assert!(!repo.branch_exists("loop/x"));
    assert_eq!(repo.registered().len(), 1);
}
