//! The user's uncommitted work in the main checkout is never lost, whatever
//! happens to a landing: killed (`kill -9`, `GIT_LOOP_TEST_CRASH`) at each
//! of its points, it leaves the main checkout's files (a local change in a
//! path the landing does not touch, a staged change, an untracked file),
//! its index, `refs/stash` and the target ref as docs/landing.md says.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::common::{TestRepo, commit, git_line, git_ok, kill_9_at, snapshot};

/// Every point a landing with `--push` passes, in order, whether the
/// target ref has moved and whether the remote has when it is reached.
/// `land-built`: built, persisted and gated, nothing moved;
/// `land-before-push`: checked, nothing pushed, the local ref not moved;
/// `land-before-ref`: pushed, the local ref not moved; `land-after-ref`:
/// the ref moved, the checkout not updated (index at the old tip);
/// `land-after-checkout`: both done, the run not yet marked.
const POINTS: [(&str, bool, bool); 5] = [
    ("land-built", false, false),
    ("land-before-push", false, false),
    ("land-before-ref", false, true),
    ("land-after-ref", true, true),
    ("land-after-checkout", true, true),
];

/// What is kept of the main checkout: every file but `.loop-worktrees/`,
/// the index's bytes, its entries, and the stash.
#[derive(Debug, PartialEq)]
struct Checkout {
    files: BTreeMap<String, (String, Vec<u8>)>,
    index: Vec<u8>,
    entries: BTreeMap<String, String>,
    stash: String,
    stash_log: Vec<u8>,
}

fn checkout(repo: &TestRepo) -> Checkout {
    let mut files = snapshot(&repo.root);
    files.retain(|path, _| !path.starts_with(".loop-worktrees"));
    let entries = git_ok(repo, &repo.root, &["ls-files", "-s"])
        .lines()
        .map(|l| {
            let (stage, path) = l.split_once('\t').unwrap();
            (path.to_owned(), stage.to_owned())
        })
        .collect();
    Checkout {
        files,
        index: std::fs::read(repo.root.join(".git/index")).unwrap(),
        entries,
        stash: git_line(repo, &repo.root, &["rev-parse", "refs/stash"]),
        stash_log: std::fs::read(repo.root.join(".git/logs/refs/stash")).unwrap(),
    }
}

/// A repository whose `main` tracks a bare remote, a run `r` changing
/// `a.txt` and adding `r.txt`, and a main checkout holding work of every
/// kind outside those paths: a stash, a change not staged (`README`), a
/// staged change (`staged.txt`), an untracked file (`notes.txt`). Returns
/// the remote's path and `main`'s tip.
fn fixture(repo: &TestRepo) -> (PathBuf, String) {
    commit(repo, &repo.root, "a.txt", "a\n");
    commit(repo, &repo.root, "staged.txt", "one\n");
    let remote = repo.base().join("remote.git");
    repo.git(["clone", "-q", "--bare", ".", remote.to_str().unwrap()]);
    repo.git(["remote", "add", "origin", remote.to_str().unwrap()]);
    repo.git(["fetch", "-q", "origin"]);
    repo.git(["branch", "-q", "--set-upstream-to=origin/main", "main"]);
    repo.create("r");
    let wt = repo.wt("r");
    commit(repo, &wt, "a.txt", "a\nfrom the run\n");
    commit(repo, &wt, "r.txt", "r\n");

    std::fs::write(repo.root.join("README"), "hello\nstashed\n").unwrap();
    repo.git(["stash", "push", "-q", "-m", "kept aside"]);
    std::fs::write(repo.root.join("README"), "hello\nnot staged\n").unwrap();
    std::fs::write(repo.root.join("staged.txt"), "one\nstaged\n").unwrap();
    repo.git(["add", "staged.txt"]);
    std::fs::write(repo.root.join("notes.txt"), "my notes\n").unwrap();
    let old = git_line(repo, &repo.root, &["rev-parse", "main"]);
    (remote, old)
}

#[test]
fn a_landing_killed_at_any_point_loses_nothing_of_the_main_checkout() {
    for (point, moved, pushed) in POINTS {
        let repo = TestRepo::new();
        let (remote, old) = fixture(&repo);
        let remote_tip = git_line(&repo, &remote, &["rev-parse", "main"]);
        let before = checkout(&repo);

        kill_9_at(&repo, point, &["land", "r", "--push"]);

        let after = checkout(&repo);
        let main = git_line(&repo, &repo.root, &["rev-parse", "main"]);
        assert_eq!(after.stash, before.stash, "{point}: refs/stash");
        assert_eq!(
            after.stash_log, before.stash_log,
            "{point}: the stash's reflog"
        );
        assert!(
            !repo.root.join(".git/index.lock").exists(),
            "{point}: index.lock left"
        );
        let remote_now = git_line(&repo, &remote, &["rev-parse", "main"]);
        if pushed {
            // The landing is on the remote: the run's two commits on `old`.
            let base = git_line(&repo, &remote, &["rev-parse", "main~2"]);
            assert_eq!(base, old, "{point}: the remote is not the landing");
        } else {
            assert_eq!(remote_now, remote_tip, "{point}: the remote moved");
        }
        if !moved {
            assert_eq!(main, old, "{point}: the target moved");
            assert_eq!(after, before, "{point}: the main checkout changed");
            continue;
        }
        assert_eq!(
            main, remote_now,
            "{point}: the local target is not what was pushed"
        );
        // The target moved to the landing: the run's two commits on `old`.
        assert_eq!(
            git_line(&repo, &repo.root, &["rev-parse", "main~2"]),
            old,
            "{point}: main is not the landing on the old tip"
        );
        assert_eq!(
            git_ok(&repo, &repo.root, &["show", "main:a.txt"]),
            "a\nfrom the run\n"
        );
        if point == "land-after-ref" {
            // The checkout not updated yet: files and index as they were
            // (`git status` shows the landing reversed); docs/landing.md's
            // way to finish it keeps every local change.
            assert_eq!(after, before, "{point}: the main checkout changed");
            git_ok(&repo, &repo.root, &["read-tree", "-m", "-u", &old, &main]);
            let finished = checkout(&repo);
            assert_kept_and_updated(point, &before, &finished, &repo);
            continue;
        }
        assert_kept_and_updated(point, &before, &after, &repo);
    }
}

/// The checkout was carried to the landing: the landed paths are the
/// landing's, everything else (files, index entries) is as it was.
fn assert_kept_and_updated(point: &str, before: &Checkout, after: &Checkout, repo: &TestRepo) {
    let landed = ["a.txt", "r.txt"];
    for (path, file) in &before.files {
        if !landed.contains(&path.as_str()) {
            assert_eq!(after.files.get(path), Some(file), "{point}: {path}");
        }
    }
    for (path, entry) in &before.entries {
        if !landed.contains(&path.as_str()) {
            assert_eq!(
                after.entries.get(path),
                Some(entry),
                "{point}: index entry of {path}"
            );
        }
    }
    assert_eq!(after.files["a.txt"].1, b"a\nfrom the run\n", "{point}");
    assert_eq!(after.files["r.txt"].1, b"r\n", "{point}");
    for path in landed {
        let blob = git_line(repo, &repo.root, &["rev-parse", &format!("main:{path}")]);
        assert!(
            after.entries[path].contains(&blob),
            "{point}: index entry of {path}: {}",
            after.entries[path]
        );
    }
    assert_eq!(after.files["notes.txt"].1, b"my notes\n", "{point}");
    assert_eq!(after.files["README"].1, b"hello\nnot staged\n", "{point}");
}

/// After a kill before the target moved, the next `land` lands the run:
/// nothing the crash left (a run lock, built objects) stands in its way,
/// and the local work is still kept.
#[test]
fn a_landing_killed_before_the_ref_moved_lands_next_time() {
    for point in ["land-built", "land-before-ref"] {
        let repo = TestRepo::new();
        let (_remote, old) = fixture(&repo);
        kill_9_at(&repo, point, &["land", "r"]);
        let run = repo.run(["land", "r"]);
        run.ok();
        assert_eq!(
            git_line(&repo, &repo.root, &["rev-parse", "main~2"]),
            old,
            "{point}"
        );
        assert_eq!(
            std::fs::read_to_string(repo.root.join("README")).unwrap(),
            "hello\nnot staged\n"
        );
        assert_eq!(
            std::fs::read_to_string(repo.root.join("notes.txt")).unwrap(),
            "my notes\n"
        );
        assert_eq!(
            git_ok(&repo, &repo.root, &["diff", "--cached", "--name-only"]),
            "staged.txt\n",
            "{point}: the staged change"
        );
    }
}
