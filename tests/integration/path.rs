//! `path [<id>]`: the absolute worktree path on stdout (with no id, of the
//! run whose worktree holds the current directory), and a failure (not an
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

/// `path` with no id, inside a run's worktree (at any depth), prints that
/// run's path; from the main checkout or a pool member it is a usage error
/// (2, as the missing id was) that names the directory, with nothing on
/// stdout.
#[test]
fn path_with_no_id_is_the_run_whose_worktree_holds_the_directory() {
    let repo = TestRepo::new();
    repo.create("p");
    repo.create("q");
    let deep = repo.wt("p").join("sub/deep");
    std::fs::create_dir_all(&deep).unwrap();
    let from = |dir: &std::path::Path, args: &[&str]| {
        TestRepo::output(repo.command().current_dir(dir).args(args))
    };
    let run = from(&deep, &["path"]);
    run.ok();
    assert_eq!(run.stdout, format!("{}\n", repo.wt("p").display()));
    let json = from(&repo.wt("q"), &["--json", "path"]).json();
    assert_eq!(json["id"], "q");
    assert_eq!(json["path"], repo.wt("q").display().to_string());
    let run = repo.run(["-C", ".loop-worktrees/q/", "path"]);
    assert_eq!(run.ok().stdout, format!("{}\n", repo.wt("q").display()));
    // A named run wins over the directory.
    assert_eq!(
        from(&deep, &["path", "q"]).ok().stdout,
        format!("{}\n", repo.wt("q").display())
    );

    repo.run(["pool", "fill", "1"]).ok();
    let member = std::fs::read_dir(repo.loop_dir().join(".pool"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.is_dir() && !p.ends_with(".new"))
        .unwrap();
    std::fs::create_dir_all(repo.root.join("src")).unwrap();
    for (dir, pool) in [(repo.root.join("src"), false), (member, true)] {
        let run = from(&dir, &["path"]);
        run.code(2);
        assert_eq!(run.stdout, "");
        assert!(
            run.stderr
                .contains(&format!("{} is not inside a run's worktree", dir.display())),
            "{}",
            run.stderr
        );
        assert_eq!(run.stderr.contains("the warm pool"), pool, "{}", run.stderr);
        assert!(
            run.stderr.contains("git loop path <RUN_ID>"),
            "{}",
            run.stderr
        );
        let json = from(&dir, &["--json", "path"]);
        json.code(2);
        assert_eq!(json.json()["error"]["code"], "usage");
    }
}
