//! Malformed manifests are refused by every command and never rewritten.

use std::fs;

use crate::common::{TestRepo, manifest_with};

fn malformed() -> Vec<(&'static str, String)> {
    let good = manifest_with(&[("a", "rejected", "2026-01-01T00:00:00Z")]);
    vec![
        ("not json", "this is not json".to_owned()),
        ("empty file", String::new()),
        ("array", "[]".to_owned()),
        (
            "wrong version",
            good.replace("\"version\":1", "\"version\":2"),
        ),
        (
            "version as string",
            good.replace("\"version\":1", "\"version\":\"1\""),
        ),
        ("missing worktrees", r#"{"version":1}"#.to_owned()),
        (
            "unknown top-level key",
            good.replace("\"version\":1", "\"version\":1,\"extra\":true"),
        ),
        (
            "unknown entry key",
            good.replace("\"pattern\":\"p\"", "\"pattern\":\"p\",\"note\":\"x\""),
        ),
        ("missing entry key", good.replace("\"pattern\":\"p\",", "")),
        (
            "status outside the five",
            good.replace("\"status\":\"rejected\"", "\"status\":\"done\""),
        ),
        (
            "bad timestamp",
            good.replace("2026-01-01T00:00:00Z", "yesterday"),
        ),
        (
            "non-UTC timestamp",
            good.replace("2026-01-01T00:00:00Z", "2026-01-01T00:00:00+02:00"),
        ),
        (
            "duplicate ids",
            manifest_with(&[
                ("a", "rejected", "2026-01-01T00:00:00Z"),
                ("a", "merged", "2026-01-01T00:00:00Z"),
            ]),
        ),
        (
            "path outside",
            good.replace("\".loop-worktrees/a\"", "\"../../a\""),
        ),
        (
            "absolute path",
            good.replace("\".loop-worktrees/a\"", "\"/tmp/a\""),
        ),
        ("branch not derived", good.replace("\"loop/a\"", "\"main\"")),
        (
            "invalid id",
            good.replace("\"id\":\"a\"", "\"id\":\"../a\""),
        ),
        ("truncated", good[..good.len() - 5].to_owned()),
    ]
}

#[test]
fn malformed_manifests_are_refused_and_left_byte_identical() {
    let cases = malformed();
    assert!(cases.len() >= 10);
    let repo = TestRepo::new();
    repo.create("live");
    let commands: [&[&str]; 9] = [
        &["create", "new", "--pattern", "p"],
        &["mark", "a", "merged"],
        &["cleanup"],
        &["cleanup", "--status", "rejected,merged,stale,escalated"],
        &["reconcile"],
        &["reconcile", "--remove-orphan", "live"],
        &["list"],
        &["path", "a"],
        &["cleanup", "--dry-run"],
    ];
    for (what, text) in &cases {
        repo.write_manifest(text);
        for args in commands {
            let mut full = vec!["--json"];
            full.extend_from_slice(args);
            let run = repo.run(&full);
            run.code(1);
            assert_eq!(
                run.json()["error"]["code"],
                "invalid-manifest",
                "{what}: {args:?}"
            );
            assert!(
                run.stderr.contains("manifest.json"),
                "names the file: {}",
                run.stderr
            );
            assert_eq!(
                &fs::read_to_string(repo.manifest_path()).unwrap(),
                text,
                "{what}: {args:?} rewrote it"
            );
        }
    }
    // Nothing else happened either: the live worktree is still there, no new one.
    assert!(repo.wt("live").exists());
    assert!(!repo.wt("new").exists());
    assert!(!repo.branch_exists("loop/new"));
}

#[test]
fn symlinked_manifest_or_loop_dir_is_refused() {
    let repo = TestRepo::new();
    repo.create("a");
    let outside = repo.base().join("outside.json");
    fs::write(&outside, manifest_with(&[])).unwrap();
    fs::remove_file(repo.manifest_path()).unwrap();
    std::os::unix::fs::symlink(&outside, repo.manifest_path()).unwrap();
    for args in [
        &["mark", "a", "merged"][..],
        &["create", "b", "--pattern", "p"],
        &["list"],
    ] {
        let run = repo.run(args);
        run.code(1);
        assert!(run.stderr.contains("symlink"), "{}", run.stderr);
    }
    assert_eq!(fs::read_to_string(&outside).unwrap(), manifest_with(&[]));

    let repo = TestRepo::new();
    let elsewhere = repo.base().join("elsewhere");
    fs::create_dir(&elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, repo.loop_dir()).unwrap();
    let run = repo.run(["create", "a", "--pattern", "p"]);
    run.code(1);
    assert!(run.stderr.contains("symlink"), "{}", run.stderr);
    assert_eq!(fs::read_dir(&elsewhere).unwrap().count(), 0);
}
