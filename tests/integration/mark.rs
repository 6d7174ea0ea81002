//! `git loop mark <id> <status>`: each status set, the entry kept; unknown
//! ids and statuses refused.

use std::fs;

use crate::common::TestRepo;

#[test]
fn mark_sets_each_status_and_keeps_the_entry() {
    let repo = TestRepo::new();
    repo.create("m");
    for status in ["rejected", "escalated", "merged", "stale", "active"] {
        let run = repo.run(["--json", "mark", "m", status]);
        run.ok();
        assert_eq!(run.json()["status"], status);
        assert_eq!(run.json()["id"], "m");
        assert_eq!(repo.status_of("m").unwrap(), status);
    }
    assert_eq!(repo.ids(), ["m"]);
    assert!(repo.wt("m").exists(), "marking never removes a worktree");
}

#[test]
fn mark_refuses_unknown_id_and_status() {
    let repo = TestRepo::new();
    // No manifest yet: unknown id, and nothing is created.
    let run = repo.run(["--json", "mark", "ghost", "merged"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "unknown-id");
    assert!(run.stderr.contains("\"ghost\""), "{}", run.stderr);
    assert!(!repo.loop_dir().exists());

    repo.create("m");
    let before = fs::read(repo.manifest_path()).unwrap();
    repo.run(["mark", "ghost", "merged"]).code(1);
    for bad in ["done", "Active", "", "rejected,merged"] {
        let run = repo.run(["--json", "mark", "m", bad]);
        run.code(2);
        assert_eq!(run.json()["error"]["code"], "usage");
    }
    assert_eq!(fs::read(repo.manifest_path()).unwrap(), before);
}
