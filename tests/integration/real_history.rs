//! A history of real shape (`common::history`: ~100,000 commits, thousands
//! of topic merges, topics on topics in criss-cross), and the predictions
//! made on it compared with what git itself does.

use std::collections::{BTreeMap, BTreeSet};

use crate::common::history::Shape;
use crate::common::{JsonExt, TestRepo, topics};

/// `git merge-tree --write-tree --name-only <ours> <theirs>`: the merged
/// tree and the conflicted paths.
fn merge_tree(repo: &TestRepo, ours: &str, theirs: &str) -> (String, BTreeSet<String>) {
    let out = repo.git_in(
        &repo.root,
        ["merge-tree", "--write-tree", "--name-only", ours, theirs],
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "merge-tree {ours} {theirs}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut lines = text.lines();
    let tree = lines.next().unwrap().to_owned();
    let files = lines
        .take_while(|l| !l.is_empty())
        .map(str::to_owned)
        .collect();
    (tree, files)
}

/// What git says of every pair of `ids` landing on `main` one after the
/// other (the first merged, then the second into that): the pair's files,
/// without those either run conflicts in with `main` by itself.
fn git_pairs(repo: &TestRepo, ids: &[String]) -> BTreeMap<(String, String), BTreeSet<String>> {
    let mut own = BTreeMap::new();
    let mut landed = BTreeMap::new();
    for id in ids {
        let branch = format!("loop/{id}");
        let (tree, files) = merge_tree(repo, "main", &branch);
        let commit = repo.git([
            "commit-tree",
            &tree,
            "-p",
            "main",
            "-p",
            &branch,
            "-m",
            "land",
        ]);
        landed.insert(id.clone(), commit.trim().to_owned());
        own.insert(id.clone(), files);
    }
    let mut pairs = BTreeMap::new();
    for (i, a) in ids.iter().enumerate() {
        for b in &ids[i + 1..] {
            let (_, files) = merge_tree(repo, &landed[a], &format!("loop/{b}"));
            let files: BTreeSet<String> = files
                .into_iter()
                .filter(|f| !own[a].contains(f) && !own[b].contains(f))
                .collect();
            if !files.is_empty() {
                pairs.insert((a.clone(), b.clone()), files);
            }
        }
    }
    pairs
}

fn ours_pairs(v: &serde_json::Value) -> BTreeMap<(String, String), BTreeSet<String>> {
    v.arr("pairs")
        .iter()
        .map(|p| {
            let runs = p["runs"].as_array().unwrap();
            let key = (
                runs[0].as_str().unwrap().to_owned(),
                runs[1].as_str().unwrap().to_owned(),
            );
            let files = p
                .arr("files")
                .iter()
                .map(|f| f.as_str().unwrap().to_owned())
                .collect();
            (key, files)
        })
        .collect()
}

/// Over criss-cross merge bases (topics built on the same two topics,
/// each merging them itself) the pair prediction is git's, pair by pair:
/// merged over the virtual base git builds, not over one of the bases.
#[test]
fn pair_predictions_over_criss_cross_bases_equal_git_merge_tree() {
    let repo = TestRepo::new();
    let shape = Shape {
        open: 50,
        ..Shape::real()
    };
    let t = std::time::Instant::now();
    let summary = topics::import(&repo, &shape);
    eprintln!("imported {summary:?} in {:?}", t.elapsed());
    assert_eq!(summary.open.len(), 50, "{summary:?}");
    assert!(summary.criss_cross >= 10, "{summary:?}");
    // No commit-graph, as in a fresh clone: merge bases are found by
    // commit dates alone (and, several at once, without walking all of
    // history: vendor/README.md).
    assert!(!repo.root.join(".git/objects/info/commit-graph").exists());
    let ids = topics::runs(&repo, &topics::from_main(&summary.open));
    // Some pair really has two merge bases, or the test proves nothing.
    let crossed = ids
        .iter()
        .enumerate()
        .flat_map(|(i, a)| ids[i + 1..].iter().map(move |b| (a, b)))
        .filter(|(a, b)| {
            let bases = repo.git([
                "merge-base",
                "--all",
                &format!("loop/{a}"),
                &format!("loop/{b}"),
            ]);
            bases.lines().count() > 1
        })
        .take(20)
        .count();
    assert!(
        crossed >= 20,
        "only {crossed} pairs with several merge bases"
    );

    let run = repo.run(["--json", "conflicts"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["pairsChecked"], 50 * 49 / 2);
    let expected = git_pairs(&repo, &ids);
    let ours = ours_pairs(&v);
    let wrong: Vec<_> = expected
        .iter()
        .filter(|(k, f)| ours.get(k) != Some(f))
        .chain(ours.iter().filter(|(k, _)| !expected.contains_key(k)))
        .collect();
    assert!(
        wrong.is_empty(),
        "{} of {} pairs differ from git (git finds {} conflicting, git-loop {}): {:?}",
        wrong.len(),
        50 * 49 / 2,
        expected.len(),
        ours.len(),
        &wrong[..wrong.len().min(5)]
    );
}

/// The slider case through `conflicts`: one run deletes line 3, the other
/// two lines that fit at 5–6 or 4–5. git's merge places the second
/// deletion at 5–6, a line apart from the first, and merges cleanly; so
/// does the prediction (it used to place it at 4–5 and call it a conflict).
#[test]
fn a_block_deletion_that_can_slide_is_no_conflict_as_in_git() {
    let repo = TestRepo::new();
    let base = "a\nb\nc\nstmt1;\n    if x {\nstmt1;\n    stmt1;\nd\n";
    std::fs::write(repo.root.join("f.rs"), base).unwrap();
    repo.git(["add", "f.rs"]);
    repo.git(["commit", "-qm", "f.rs"]);
    for (id, text) in [
        ("one", "a\nb\nstmt1;\n    if x {\nstmt1;\n    stmt1;\nd\n"),
        ("two", "a\nb\nc\nstmt1;\n    stmt1;\nd\n"),
    ] {
        repo.git(["checkout", "-qb", &format!("loop/{id}"), "main"]);
        std::fs::write(repo.root.join("f.rs"), text).unwrap();
        repo.git(["commit", "-qam", id]);
    }
    repo.git(["checkout", "-q", "main"]);
    repo.write_manifest(&crate::common::manifest_with(&[
        ("one", "active", "2026-01-01T00:00:00Z"),
        ("two", "active", "2026-01-01T00:00:00Z"),
    ]));
    let (_, git_files) = merge_tree(&repo, "loop/one", "loop/two");
    assert!(git_files.is_empty(), "git's merge conflicts: {git_files:?}");
    let run = repo.run(["--json", "conflicts"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["pairsChecked"], 1);
    assert!(v.arr("pairs").is_empty(), "{v}");
}

/// Landing by merge over criss-cross bases builds what `git merge` builds:
/// two topics that each merged the same two topics land one after the
/// other with `--strategy merge`, and `main` ends with git's tree (the
/// second landing merges over two bases, through git's virtual one).
#[test]
fn landing_by_merge_over_criss_cross_bases_builds_gits_tree() {
    let repo = TestRepo::new();
    let shape = Shape {
        commits: 3_000,
        files: 200,
        open: 12,
        ..Shape::real()
    };
    let summary = topics::import(&repo, &shape);
    // Two open topics with two merge bases, each clean with main, the
    // second clean with the first landed (by git's own merges).
    let tips: Vec<&String> = summary.open.iter().collect();
    let (a, b) = tips
        .iter()
        .enumerate()
        .flat_map(|(i, a)| tips[i + 1..].iter().map(move |b| (*a, *b)))
        .find(|(a, b)| {
            let bases = repo.git(["merge-base", "--all", a.as_str(), b.as_str()]);
            if bases.lines().count() < 2 {
                return false;
            }
            let (tree, files) = merge_tree(&repo, "main", a);
            if !files.is_empty() || !merge_tree(&repo, "main", b).1.is_empty() {
                return false;
            }
            let m = repo.git(["commit-tree", &tree, "-p", "main", "-p", a, "-m", "m"]);
            merge_tree(&repo, m.trim(), b).1.is_empty()
        })
        .expect("a criss-cross pair that merges cleanly");
    let (tree_a, _) = merge_tree(&repo, "main", a);
    let m = repo.git(["commit-tree", &tree_a, "-p", "main", "-p", a, "-m", "m"]);
    let (expected, _) = merge_tree(&repo, m.trim(), b);

    std::fs::write(repo.root.join(".git/info/exclude"), ".loop-worktrees/\n").unwrap();
    for (id, topic) in [("a", a), ("b", b)] {
        repo.run(["create", id, "--pattern", "p"]).ok();
        let out = repo.git_in(&repo.wt(id), ["reset", "-q", "--hard", topic.as_str()]);
        assert!(out.status.success(), "{out:?}");
    }
    for id in ["a", "b"] {
        let run = repo.run(["--json", "land", id, "--strategy", "merge"]);
        assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    }
    assert_eq!(repo.git(["rev-parse", "main^{tree}"]).trim(), expected);
}
