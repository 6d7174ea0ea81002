//! Crashes and failed writes: git-loop killed with SIGKILL at every crash
//! point of a mutation leaves the old or the new manifest, never a partial
//! one, and what the next command recovers; a failed manifest write keeps
//! the old manifest and releases the mutex.

use std::fs;

use crate::common::{TestRepo, age_file, kill_9_at, leftovers};

/// For every crash point of a mutation: the manifest is the old or the new
/// one, never partial; the next commands recover; no work is removed.
#[test]
fn kill_9_at_every_point_of_mark_leaves_old_or_new_manifest() {
    for point in [
        "holding-mutex",
        "before-manifest-write",
        "before-manifest-rename",
        "after-manifest-rename",
    ] {
        let repo = TestRepo::new();
        repo.create("a");
        fs::write(repo.wt("a").join("work"), "precious").unwrap();
        let old = fs::read_to_string(repo.manifest_path()).unwrap();
        kill_9_at(&repo, point, &["mark", "a", "merged"]);
        let now = fs::read_to_string(repo.manifest_path()).unwrap();
        let status = repo.status_of("a").unwrap();
        if point == "after-manifest-rename" {
            assert_eq!(status, "merged", "{point}: the new manifest");
        } else {
            assert_eq!(now, old, "{point}: the old manifest, byte for byte");
        }
        assert!(
            repo.mutex_path().exists(),
            "{point}: kill -9 leaves the mutex"
        );
        // Reads are unaffected; the next mutation breaks the mutex once stale.
        TestRepo::output(repo.command().arg("list")).ok();
        age_file(&repo.mutex_path(), 31);
        repo.run(["mark", "a", "stale"]).ok();
        assert_eq!(repo.status_of("a").unwrap(), "stale");
        assert!(
            leftovers(&repo).is_empty(),
            "{point}: {:?}",
            leftovers(&repo)
        );
        assert_eq!(
            fs::read_to_string(repo.wt("a").join("work")).unwrap(),
            "precious"
        );
    }
}

#[test]
fn kill_9_during_create_leaves_an_orphan_reconcile_reports_and_no_lock() {
    // `holding-mutex` twice: in the first mutex phase (taken only while the
    // `.gitignore` line is missing, so it is removed first), before git runs;
    // and in the recording phase, after git ran.
    for (point, first_phase) in [
        ("after-worktree-add", false),
        ("holding-mutex", true),
        ("holding-mutex", false),
        ("before-manifest-rename", false),
    ] {
        let repo = TestRepo::new();
        repo.create("first");
        if first_phase {
            fs::remove_file(repo.root.join(".gitignore")).unwrap();
        }
        let old = fs::read_to_string(repo.manifest_path()).unwrap();
        kill_9_at(&repo, point, &["create", "crashed", "--pattern", "p"]);
        assert_eq!(
            fs::read_to_string(repo.manifest_path()).unwrap(),
            old,
            "{point}"
        );
        if repo.mutex_path().exists() {
            age_file(&repo.mutex_path(), 31);
        }
        // The worktree-operation lock died with the process: the next create runs.
        repo.create("second");
        let v = repo.run(["--json", "reconcile"]).json();
        let orphans: Vec<&str> = v["orphans"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["id"].as_str().unwrap())
            .collect();
        if first_phase {
            assert!(orphans.is_empty(), "{point}: died before git ran");
            assert!(!repo.wt("crashed").exists());
        } else {
            assert_eq!(orphans, ["crashed"], "{point}");
            assert!(
                repo.wt("crashed").join("README").exists(),
                "reported, not removed"
            );
        }
        assert!(
            leftovers(&repo).is_empty(),
            "{point}: {:?}",
            leftovers(&repo)
        );
    }
}

#[test]
fn failed_manifest_writes_keep_the_old_manifest_and_release_the_mutex() {
    let repo = TestRepo::new();
    repo.create("a");
    repo.create("b");
    repo.run(["mark", "b", "rejected"]).ok();
    let old = fs::read(repo.manifest_path()).unwrap();
    let failing = |args: &[&str]| {
        let run = TestRepo::output(
            repo.command()
                .env("GIT_LOOP_TEST_FAIL", "manifest-write")
                .args(args),
        );
        assert!(!repo.mutex_path().exists(), "{args:?} left the mutex");
        run
    };
    let run = failing(&["mark", "a", "merged"]);
    run.code(1);
    assert!(
        run.stderr.contains("injected failure") && run.stderr.contains(".manifest.json.tmp"),
        "{}",
        run.stderr
    );
    assert_eq!(fs::read(repo.manifest_path()).unwrap(), old);

    // cleanup: git removed the worktree, the manifest write failed: the entry
    // is still recorded, and reconcile drops it once its directory is gone.
    let run = failing(&["cleanup"]);
    run.code(1);
    assert_eq!(fs::read(repo.manifest_path()).unwrap(), old);
    assert!(!repo.wt("b").exists());
    let v = repo.run(["--json", "reconcile"]).json();
    assert_eq!(v["dropped"][0]["id"], "b");
    assert_eq!(repo.ids(), ["a"]);
    assert!(leftovers(&repo).is_empty(), "{:?}", leftovers(&repo));
}
