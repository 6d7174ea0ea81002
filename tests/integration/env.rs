//! `git loop env [<RUN_ID>]`: a run's variables as export lines that any
//! path survives, `--json` as an object; `run` gets the same set.

use std::fs;
use std::process::Command;

use crate::common::TestRepo;

/// A repository under a directory whose name holds a space, both quotes, a
/// `$`, a backquote and a backslash.
fn awkward_repo() -> (tempfile::TempDir, TestRepo) {
    let outer = tempfile::tempdir().unwrap();
    let dir = outer.path().join("it's a \"$HOME\" `x` \\dir");
    fs::create_dir(&dir).unwrap();
    let repo = TestRepo::new_in(&dir);
    (outer, repo)
}

const PRINT: &str =
    r#"printf '%s\n' "$GIT_LOOP_ID" "$GIT_LOOP_ROOT" "$GIT_LOOP_PATH" "$GIT_LOOP_BRANCH""#;

fn expected(repo: &TestRepo, id: &str) -> String {
    format!(
        "{id}\n{}\n{}\nloop/{id}\n",
        repo.root.display(),
        repo.wt(id).display()
    )
}

#[test]
fn env_evaluated_by_bash_gives_the_documented_variables_whatever_the_path() {
    let (_outer, repo) = awkward_repo();
    repo.create("x");
    let text = repo.run(["env", "x"]);
    text.ok();
    assert_eq!(text.stdout.lines().count(), 4, "{}", text.stdout);
    assert!(
        text.stdout
            .lines()
            .all(|l| l.starts_with("export GIT_LOOP_"))
    );
    let script = format!("eval \"$(\"$0\" env x)\"; {PRINT}");
    let out = Command::new("bash")
        .current_dir(&repo.root)
        .env("HOME", &repo.home)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", repo.home.join("gitconfig"))
        .args(["-c", &script, crate::common::BIN])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8(out.stdout).unwrap(), expected(&repo, "x"));
}

#[test]
fn env_json_is_an_object_of_the_same_variables() {
    let (_outer, repo) = awkward_repo();
    repo.create("x");
    let run = repo.run(["--json", "env", "x"]);
    run.ok();
    let v = run.json();
    assert_eq!(v["GIT_LOOP_ID"], "x");
    assert_eq!(v["GIT_LOOP_ROOT"], repo.root.to_str().unwrap());
    assert_eq!(v["GIT_LOOP_PATH"], repo.wt("x").to_str().unwrap());
    assert_eq!(v["GIT_LOOP_BRANCH"], "loop/x");
    assert_eq!(v.as_object().unwrap().len(), 4);
}

#[test]
fn env_without_an_id_inside_a_worktree_is_that_runs() {
    let repo = TestRepo::new();
    repo.create("x");
    repo.create("y");
    let sub = repo.wt("y").join("deep/er");
    fs::create_dir_all(&sub).unwrap();
    let run = TestRepo::output(repo.command().current_dir(&sub).args(["--json", "env"]));
    run.ok();
    assert_eq!(run.json()["GIT_LOOP_ID"], "y");
    let unknown = repo.run(["env", "z"]);
    unknown.code(1);
    assert!(unknown.stderr.contains("\"z\""), "{}", unknown.stderr);
}

#[test]
fn run_sees_the_variables_env_prints() {
    let (_outer, repo) = awkward_repo();
    repo.create("x");
    let run = repo.run(["run", "x", "--", "sh", "-c", PRINT]);
    run.ok();
    assert_eq!(run.stdout, expected(&repo, "x"));
}
