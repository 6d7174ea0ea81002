//! Runs made from the topics of a history of real shape
//! ([`super::history`]), for the tests that compare git-loop with git on
//! it (real_history, walks, sha256).

use std::process::Command;

use super::history::{self, Shape, Summary};
use super::{TestRepo, hermetic};

/// `repo` with the history of `shape` imported over its `main`.
pub fn import(repo: &TestRepo, shape: &Shape) -> Summary {
    let mut git = Command::new("git");
    hermetic(&mut git, &repo.home);
    git.current_dir(&repo.root);
    let summary = history::import(git, shape);
    repo.git(["reset", "-q", "--hard", "main"]);
    summary
}

/// Each topic paired with `main`, the commit [`runs`] starts it from.
pub fn from_main(topics: &[String]) -> Vec<(String, String)> {
    topics
        .iter()
        .map(|t| (t.clone(), "main".to_owned()))
        .collect()
}

/// Each of `topics` (a tip, and the commit `main` was at when it
/// started) as an active run `t<n>` whose branch was created there (so
/// none is `empty`).
pub fn runs(repo: &TestRepo, topics: &[(String, String)]) -> Vec<String> {
    let mut ids = Vec::new();
    for (topic, from) in topics {
        let id = format!(
            "t{}",
            topic.trim_start_matches("topic/").replace(['~', '^'], "-")
        );
        let tip = repo.git(["rev-parse", topic]).trim().to_owned();
        let start = repo.git(["merge-base", &tip, from]).trim().to_owned();
        let name = format!("refs/heads/loop/{id}");
        repo.git([
            "update-ref",
            "-m",
            "branch: Created from main",
            &name,
            &start,
        ]);
        repo.git(["update-ref", "-m", "work", &name, &tip]);
        ids.push(id);
    }
    let entries: Vec<(&str, &str, &str)> = ids
        .iter()
        .map(|id| (id.as_str(), "active", "2026-01-01T00:00:00Z"))
        .collect();
    repo.write_manifest(&crate::common::manifest_with(&entries));
    ids
}
