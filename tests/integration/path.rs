//! `path <id>`: the absolute worktree path on stdout, and a failure (not an
//! empty line) when the run's worktree is gone.

use crate::common::{TestRepo, manifest_with};

#[test]
fn path_of_a_run_whose_worktree_is_gone_fails() {
    let repo = TestRepo::new();
    repo.write_manifest(&manifest_with(&[(
        "gone",
        "merged",
        "2026-01-01T00:00:00Z",
    )]));
    let run = repo.run(["path", "gone"]);
    run.code(1);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr.contains(".loop-worktrees/gone"),
        "{}",
        run.stderr
    );
    let run = repo.run(["--json", "path", "gone"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "worktree-missing");
}

#[test]
fn path_prints_the_absolute_worktree_path() {
    let repo = TestRepo::new();
    repo.create("p");
    let run = repo.run(["path", "p"]);
    run.ok();
    assert_eq!(run.stdout, format!("{}\n", repo.wt("p").display()));
    let sub = TestRepo::output(
        repo.command()
            .current_dir(repo.wt("p"))
            .args(["--json", "path", "p"]),
    );
    sub.ok();
    assert_eq!(sub.json()["path"], repo.wt("p").display().to_string());
    let run = repo.run(["--json", "path", "nope"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "unknown-id");
}
