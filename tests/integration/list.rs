//! `git loop list` and `list --long`: entries with `present`, filtered by
//! status; nothing printed (and said so on stderr) or created without runs;
//! uncommitted work, ahead/behind, merged and locked in the long listing.

use std::fs;

use crate::common::{JsonExt, TestRepo};

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

/// An empty `list` says so on stderr; stdout stays empty.
#[test]
fn an_empty_list_says_so_on_stderr() {
    let repo = TestRepo::new();
    let run = repo.run(["list"]);
    run.ok();
    assert_eq!(run.stdout, "");
    assert!(run.stderr.contains("no runs recorded"), "{}", run.stderr);
    assert_eq!(repo.run(["-q", "list"]).stderr, "");
    let run = repo.run(["--json", "list"]);
    assert_eq!(run.stderr, "");
    repo.create("a");
    let run = repo.run(["list", "--status", "merged"]);
    run.ok();
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr.contains("no run has status merged"),
        "{}",
        run.stderr
    );
}

#[test]
fn list_long_shows_a_locked_worktree_as_locked() {
    let repo = TestRepo::new();
    repo.create("l");
    repo.git(["worktree", "lock", ".loop-worktrees/l"]);
    let v = repo.run(["--json", "list", "--long"]).json();
    assert_eq!(v["worktrees"][0]["locked"], true, "{v}");
    let table = repo.run(["list", "--long"]);
    let row = table.stdout.lines().nth(1).unwrap();
    assert!(row.contains("locked") && !row.contains("clean"), "{row}");
}

#[test]
fn list_without_a_manifest_prints_nothing_and_creates_nothing() {
    let repo = TestRepo::new();
    let run = repo.run(["list"]);
    run.ok();
    assert_eq!(run.stdout, "");
    let run = repo.run(["--json", "list"]);
    run.ok();
    assert_eq!(run.json(), serde_json::json!({"version":1,"worktrees":[]}));
    assert!(!repo.loop_dir().exists());
    assert!(!repo.root.join(".gitignore").exists());
}

#[test]
fn list_reports_entries_with_present_and_filters_by_status() {
    let repo = TestRepo::new();
    repo.create("here");
    let mut m = repo.manifest();
    let mut gone = m["worktrees"][0].clone();
    gone["id"] = "gone".into();
    gone["path"] = ".loop-worktrees/gone".into();
    gone["branch"] = "loop/gone".into();
    gone["status"] = "stale".into();
    m["worktrees"].as_array_mut().unwrap().push(gone);
    repo.write_manifest(&m.to_string());

    let v = repo.run(["--json", "list"]).json();
    let list = v.arr("worktrees");
    assert_eq!(list.len(), 2);
    assert_eq!(list[0]["present"], true);
    assert_eq!(list[1]["present"], false);
    assert_eq!(list[1]["status"], "stale");

    let v = repo.run(["--json", "list", "--status", "stale"]).json();
    assert_eq!(v.arr("worktrees").len(), 1);
    assert_eq!(v["worktrees"][0]["id"], "gone");

    let text = repo.run(["list"]).stdout;
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with("ID"));
    assert!(
        lines[2].contains("gone") && lines[2].contains("missing"),
        "{text}"
    );
    repo.run(["list", "--status", "bogus"]).code(2);
}

/// `list --salvaged` is a table like `list`'s: a header, then one row per
/// salvage with every column starting at the same place whatever the id's
/// length; `--json` is unchanged.
#[test]
fn salvaged_listing_is_an_aligned_table() {
    let repo = TestRepo::new();
    for id in ["a", "a-much-longer-id"] {
        repo.create(id);
        fs::write(repo.wt(id).join("wip.txt"), "work\n").unwrap();
        repo.run(["mark", id, "rejected"]).ok();
        repo.run(["remove", "--salvage", id]).ok();
    }
    repo.run(["restore", "a"]).ok();
    let run = repo.run(["list", "--salvaged"]);
    run.ok();
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{}", run.stdout);
    let words: Vec<Vec<&str>> = lines
        .iter()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(words[0], ["ID", "COMMIT", "SAVED", "RUN"], "{}", run.stdout);
    assert_eq!(
        (words[1][0], words[1][3]),
        ("a", "recorded"),
        "{}",
        run.stdout
    );
    assert_eq!(
        (words[2][0], words[2][3]),
        ("a-much-longer-id", "removed"),
        "{}",
        run.stdout
    );
    // Each column starts where its header does.
    for (col, head) in ["COMMIT", "SAVED", "RUN"].iter().enumerate() {
        let at = lines[0].find(head).unwrap();
        for (line, w) in lines[1..].iter().zip(&words[1..]) {
            assert_eq!(line.find(w[col + 1]), Some(at), "{}", run.stdout);
        }
    }
    let v = repo.run(["--json", "list", "--salvaged"]).json();
    let keys: Vec<&String> = v["salvaged"][0].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["commit", "id", "recorded", "ref", "savedAt"], "{v}");
}

/// `list --salvaged --ids` prints only the salvaged ids, one a line (what
/// completion wants), a removed run's and a recorded one's alike; the runs
/// the manifest records are not among them.
#[test]
fn salvaged_ids_are_one_a_line() {
    let repo = TestRepo::new();
    repo.create("kept");
    for id in ["a", "b"] {
        repo.create(id);
        fs::write(repo.wt(id).join("wip.txt"), "work\n").unwrap();
        repo.run(["mark", id, "rejected"]).ok();
        repo.run(["remove", "--salvage", id]).ok();
    }
    repo.run(["restore", "a"]).ok();
    let run = repo.run(["list", "--salvaged", "--ids"]);
    run.ok();
    assert_eq!(run.stdout, "a\nb\n");
    assert_eq!(repo.run(["list", "--ids"]).ok().stdout, "kept\na\n");
}
