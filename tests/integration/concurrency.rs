use std::fs;
use std::process::Child;

use crate::common::{TestRepo, age_file, manifest_with, spawn};

fn finish(children: Vec<Child>) -> Vec<(i32, String)> {
    children
        .into_iter()
        .map(|c| {
            let out = c.wait_with_output().unwrap();
            (
                out.status.code().unwrap_or(-1),
                String::from_utf8_lossy(&out.stderr).into_owned(),
            )
        })
        .collect()
}

#[test]
fn sixteen_parallel_creates_of_distinct_ids_are_all_recorded() {
    let repo = TestRepo::new();
    let ids: Vec<String> = (0..16).map(|i| format!("par-{i}")).collect();
    let children = ids
        .iter()
        .map(|id| spawn(&repo, &["create", id, "--pattern", "p"]))
        .collect();
    for (code, stderr) in finish(children) {
        assert_eq!(code, 0, "{stderr}");
    }
    let mut recorded = repo.ids();
    recorded.sort();
    let mut want = ids.clone();
    want.sort();
    assert_eq!(recorded, want);
    let registered = repo.registered();
    assert_eq!(registered.len(), 17);
    for id in &ids {
        assert!(registered.contains(&repo.wt(id)), "{id}");
    }
    assert!(!repo.mutex_path().exists());
    assert_eq!(
        fs::read_to_string(repo.root.join(".gitignore")).unwrap(),
        ".loop-worktrees/\n"
    );
}

#[test]
fn eight_parallel_creates_of_one_id_exactly_one_wins() {
    let repo = TestRepo::new();
    let children = (0..8)
        .map(|_| spawn(&repo, &["create", "same", "--pattern", "p"]))
        .collect();
    let results = finish(children);
    let wins = results.iter().filter(|(c, _)| *c == 0).count();
    assert_eq!(wins, 1, "{results:?}");
    for (code, stderr) in &results {
        if *code != 0 {
            assert_eq!(*code, 1);
            assert!(
                stderr.contains("already active") || stderr.contains("already exists"),
                "{stderr}"
            );
        }
    }
    assert_eq!(repo.ids(), ["same"]);
    assert_eq!(repo.registered().len(), 2);
    assert!(repo.wt("same").join("README").exists());
    assert!(!repo.mutex_path().exists());
}

#[test]
fn waiters_racing_on_one_stale_mutex_lose_no_update() {
    let repo = TestRepo::new();
    let ids: Vec<String> = (0..12).map(|i| format!("m{i}")).collect();
    let entries: Vec<(&str, &str, &str)> = ids
        .iter()
        .map(|id| (id.as_str(), "active", "2026-01-01T00:00:00Z"))
        .collect();
    repo.write_manifest(&manifest_with(&entries));
    for round in 0..3 {
        fs::write(repo.mutex_path(), "dead holder\n").unwrap();
        age_file(&repo.mutex_path(), 60);
        let status = ["rejected", "merged", "stale"][round];
        let children = ids
            .iter()
            .map(|id| spawn(&repo, &["mark", id, status]))
            .collect();
        for (code, stderr) in finish(children) {
            assert_eq!(code, 0, "{stderr}");
        }
        for id in &ids {
            assert_eq!(
                repo.status_of(id).unwrap(),
                status,
                "round {round}: lost update for {id}"
            );
        }
        assert!(!repo.mutex_path().exists());
    }
}

#[test]
fn creates_marks_and_reads_interleave_safely() {
    let repo = TestRepo::new();
    for i in 0..6 {
        repo.create(&format!("pre-{i}"));
    }
    let mut children = Vec::new();
    for i in 0..6 {
        children.push(spawn(
            &repo,
            &["create", &format!("new-{i}"), "--pattern", "p"],
        ));
        children.push(spawn(&repo, &["mark", &format!("pre-{i}"), "rejected"]));
        children.push(spawn(&repo, &["list"]));
    }
    for (code, stderr) in finish(children) {
        assert_eq!(code, 0, "{stderr}");
    }
    let cleanup = spawn(&repo, &["cleanup"]);
    let reconcile = spawn(&repo, &["reconcile"]);
    for (code, stderr) in finish(vec![cleanup, reconcile]) {
        assert_eq!(code, 0, "{stderr}");
    }
    let mut ids = repo.ids();
    ids.sort();
    assert_eq!(ids, (0..6).map(|i| format!("new-{i}")).collect::<Vec<_>>());
    assert_eq!(repo.registered().len(), 7);
    assert!(!repo.mutex_path().exists());
}
