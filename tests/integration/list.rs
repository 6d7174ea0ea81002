//! `git loop list --long`: uncommitted work, ahead/behind, merged.

use std::fs;

use crate::common::TestRepo;

fn commit_in(repo: &TestRepo, dir: &std::path::Path, file: &str) {
    fs::write(dir.join(file), file).unwrap();
    for args in [&["add", file][..], &["commit", "-q", "-m", file][..]] {
        let out = repo.git_in(dir, args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn long_listing_reports_state_ahead_behind_and_merged() {
    let repo = TestRepo::new();
    for id in ["clean", "dirty", "untracked", "ahead", "gone"] {
        repo.create(id);
    }
    fs::write(repo.wt("dirty").join("README"), "changed\n").unwrap();
    fs::write(repo.wt("untracked").join("new.txt"), "new\n").unwrap();
    commit_in(&repo, &repo.wt("ahead"), "a1");
    commit_in(&repo, &repo.wt("ahead"), "a2");
    commit_in(&repo, &repo.root, "main1"); // every run is now 1 behind
    fs::remove_dir_all(repo.wt("gone")).unwrap();

    let run = repo.run(["--json", "list", "--long"]);
    run.ok();
    let v = run.json();
    let row = |id: &str| {
        v["worktrees"]
            .as_array()
            .unwrap()
            .iter()
            .find(|w| w["id"] == id)
            .unwrap()
            .clone()
    };
    let pick = |id: &str| {
        let r = row(id);
        (
            r["dirty"].clone(),
            r["untracked"].clone(),
            r["ahead"].clone(),
            r["behind"].clone(),
            r["merged"].clone(),
        )
    };
    use serde_json::json;
    assert_eq!(
        pick("clean"),
        (json!(false), json!(false), json!(0), json!(1), json!(false))
    );
    assert_eq!(
        pick("dirty"),
        (json!(true), json!(false), json!(0), json!(1), json!(false))
    );
    assert_eq!(
        pick("untracked"),
        (json!(false), json!(true), json!(0), json!(1), json!(false))
    );
    assert_eq!(
        pick("ahead"),
        (json!(false), json!(false), json!(2), json!(1), json!(false))
    );
    assert_eq!(
        pick("gone"),
        (json!(null), json!(null), json!(0), json!(1), json!(false))
    );
    assert_eq!(row("gone")["present"], false);

    // Ahead/behind agree with git's own count.
    let counted = repo.git(["rev-list", "--left-right", "--count", "loop/ahead...main"]);
    assert_eq!(counted.split_whitespace().collect::<Vec<_>>(), ["2", "1"]);

    // A deleted branch: unknown, not zero.
    repo.run(["mark", "gone", "rejected"]).ok();
    repo.git(["update-ref", "-d", "refs/heads/loop/gone"]);
    let v = repo.run(["--json", "list", "--long"]).json();
    let gone = v["worktrees"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["id"] == "gone")
        .unwrap()
        .clone();
    assert_eq!(
        (gone["ahead"].clone(), gone["merged"].clone()),
        (json!(null), json!(null))
    );

    // Reading changes nothing.
    assert_eq!(
        fs::read_to_string(repo.wt("dirty").join("README")).unwrap(),
        "changed\n"
    );

    // The table.
    let table = repo.run(["list", "--long"]);
    table.ok();
    let lines: Vec<&str> = table.stdout.lines().collect();
    assert!(
        lines[0].starts_with("ID") && lines[0].contains("STATE") && lines[0].ends_with("MERGED")
    );
    let line = |id: &str| {
        lines
            .iter()
            .find(|l| l.starts_with(&format!("{id} ")))
            .unwrap()
            .split_whitespace()
            .collect::<Vec<_>>()
    };
    assert_eq!(line("ahead")[6..], ["clean", "2", "1", "no"]);
    // No commits of their own: empty, never merged.
    assert_eq!(line("dirty")[6..], ["dirty", "0", "1", "empty"]);
    assert_eq!(line("untracked")[6..], ["untracked", "0", "1", "empty"]);
    assert_eq!(line("gone")[6..], ["missing", "-", "-", "-"]);

    // Without --long, the JSON shape is unchanged.
    let plain = repo.run(["--json", "list"]).json();
    assert!(plain["worktrees"][0].get("dirty").is_none());
}
