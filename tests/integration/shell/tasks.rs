//! What the three shells complete for best of N: `judge <TAB>` and `list
//! --task <TAB>` the task names (the attempts' ids without `.<n>`, each
//! once), `pick <TAB>` the attempts, and a run id already typed never again
//! (`mark fix.1 <TAB>`, `remove alpha <TAB>`).

use super::{bash_completions, fish_completer, fixture, zsh_completer};
use crate::common::TestRepo;

/// The fixture's `alpha` and `beta`, and the task `fix` of two attempts.
fn with_attempts() -> (TestRepo, String) {
    let (repo, path) = fixture();
    repo.run(["create", "fix", "--attempts", "2", "--pattern", "p"])
        .ok();
    (repo, path)
}

const LINES: [&str; 6] = [
    "git loop judge ",
    "git loop pick ",
    "git loop list --task ",
    "git loop mark fix.1 ",
    "git loop remove alpha fix.2 ",
    "git-loop judge ",
];

/// What each of [`LINES`] completes to.
fn expected(line: &str) -> Vec<&'static str> {
    match line {
        "git loop judge " | "git loop list --task " | "git-loop judge " => vec!["fix"],
        "git loop pick " => vec!["fix.1", "fix.2"],
        "git loop mark fix.1 " => vec![
            "active",
            "alpha",
            "beta",
            "escalated",
            "fix.2",
            "merged",
            "rejected",
            "stale",
        ],
        "git loop remove alpha fix.2 " => vec!["beta", "fix.1"],
        _ => unreachable!("{line}"),
    }
}

#[test]
fn bash_completes_tasks_for_judge_attempts_for_pick_and_no_id_twice() {
    let (repo, path) = with_attempts();
    let got = bash_completions(&repo, &path, &LINES);
    for line in LINES {
        assert_eq!(got[line], expected(line), "{line:?}");
    }
}

#[test]
fn zsh_completes_tasks_for_judge_attempts_for_pick_and_no_id_twice() {
    let (repo, path) = with_attempts();
    let complete = zsh_completer(&repo, &path);
    for line in LINES {
        assert_eq!(complete(line), expected(line), "{line:?}");
    }
}

#[test]
fn fish_completes_tasks_for_judge_attempts_for_pick_and_no_id_twice() {
    let (repo, path) = with_attempts();
    let complete = fish_completer(&repo, &path);
    for line in LINES {
        assert_eq!(complete(line), expected(line), "{line:?}");
    }
}
