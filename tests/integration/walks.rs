//! History walks on a history of real shape (`common::history`: topics on
//! topics, criss-cross merge bases): `list --long`'s ahead/behind counts
//! equal `git rev-list --left-right --count`, and its merged verdicts
//! git's ancestry, run by run, with and without a commit-graph.

use std::collections::BTreeMap;

use crate::common::history::Shape;
use crate::common::{JsonExt, TestRepo};

/// What git says of each run: (ahead, behind, tip in main's history).
pub(crate) fn git_says(repo: &TestRepo, ids: &[String]) -> BTreeMap<String, (u64, u64, bool)> {
    ids.iter()
        .map(|id| {
            let branch = format!("loop/{id}");
            let counts = repo.git([
                "rev-list",
                "--left-right",
                "--count",
                &format!("{branch}...main"),
            ]);
            let mut n = counts.split_whitespace().map(|s| s.parse::<u64>().unwrap());
            let ancestor = repo
                .git_in(&repo.root, ["merge-base", "--is-ancestor", &branch, "main"])
                .status
                .success();
            (id.clone(), (n.next().unwrap(), n.next().unwrap(), ancestor))
        })
        .collect()
}

pub(crate) fn ours(repo: &TestRepo) -> (BTreeMap<String, (u64, u64, bool)>, String) {
    let run = repo.run(["--json", "list", "--long"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    let got = v
        .arr("worktrees")
        .iter()
        .map(|w| {
            (
                w["id"].as_str().unwrap().to_owned(),
                (
                    w["ahead"].as_u64().unwrap(),
                    w["behind"].as_u64().unwrap(),
                    w["merged"].as_bool().unwrap(),
                ),
            )
        })
        .collect();
    (got, run.stderr)
}

#[test]
fn ahead_behind_and_merged_equal_git_over_criss_cross_topics_with_and_without_a_commit_graph() {
    let repo = TestRepo::new();
    let summary = crate::common::topics::import(
        &repo,
        &Shape {
            commits: 20_000,
            ..Shape::real()
        },
    );
    // The open topics, and topics merged long ago: the second parents of
    // merges on main's first-parent line, 10 to 3,000 merges back.
    let mut topics: Vec<(String, String)> = crate::common::topics::from_main(&summary.open);
    let merges = repo.git(["rev-list", "--first-parent", "--merges", "main"]);
    let merges: Vec<&str> = merges.lines().collect();
    for back in [10, 100, 1_000, 3_000] {
        let merge = merges[back];
        topics.push((format!("{merge}^2"), format!("{merge}^1")));
    }
    let ids = crate::common::topics::runs(&repo, &topics);
    let crossed = ids
        .iter()
        .filter(|id| {
            let bases = repo.git(["merge-base", "--all", &format!("loop/{id}"), "main"]);
            bases.lines().count() > 1
        })
        .count();
    assert!(crossed >= 5, "only {crossed} runs with several merge bases");
    let expected = git_says(&repo, &ids);
    assert_eq!(expected.values().filter(|v| v.2).count(), 4, "{expected:?}");

    let (without, stderr) = ours(&repo);
    assert_eq!(without, expected, "without a commit-graph");
    // A large repository without a commit-graph: said once, on stderr.
    assert_eq!(
        stderr.matches("git maintenance start").count(),
        1,
        "{stderr}"
    );

    repo.git(["commit-graph", "write", "--reachable"]);
    let (with, stderr) = ours(&repo);
    assert_eq!(with, expected, "with a commit-graph");
    assert!(!stderr.contains("maintenance"), "{stderr}");
}
