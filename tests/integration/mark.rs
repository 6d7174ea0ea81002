//! `git loop mark <id> <status>`: each status set, the entry kept; unknown
//! ids and statuses refused.

use std::fs;

use crate::common::TestRepo;

#[test]
fn mark_sets_each_status_and_keeps_the_entry() {
    let repo = TestRepo::new();
    repo.create("m");
    for status in ["rejected", "escalated", "merged", "stale", "active"] {
        let run = repo.run(["--json", "mark", "m", status]);
        run.ok();
        assert_eq!(run.json()["status"], status);
        assert_eq!(run.json()["id"], "m");
        assert_eq!(repo.status_of("m").unwrap(), status);
    }
    assert_eq!(repo.ids(), ["m"]);
    assert!(repo.wt("m").exists(), "marking never removes a worktree");
}

#[test]
fn mark_refuses_unknown_id_and_status() {
    let repo = TestRepo::new();
    // No manifest yet: unknown id, and nothing is created.
    let run = repo.run(["--json", "mark", "ghost", "merged"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "unknown-id");
    assert!(run.stderr.contains("\"ghost\""), "{}", run.stderr);
    assert!(!repo.loop_dir().exists());

    repo.create("m");
    let before = fs::read(repo.manifest_path()).unwrap();
    repo.run(["mark", "ghost", "merged"]).code(1);
    for bad in ["done", "Active", "", "rejected,merged"] {
        let run = repo.run(["--json", "mark", "m", bad]);
        run.code(2);
        assert_eq!(run.json()["error"]["code"], "usage");
    }
    assert_eq!(fs::read(repo.manifest_path()).unwrap(), before);
}

/// `mark --help` (and so its man page) has the five-line glossary, each line
/// saying what cleanup does with the status in the README's own words.
#[test]
fn mark_help_glossary_says_what_cleanup_does_as_the_readme_does() {
    let readme = fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let help = TestRepo::new().run(["mark", "--help"]).ok().stdout.clone();
    let man =
        fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/man/git-loop-mark.1")).unwrap();
    for status in git_loop::manifest::Status::ALL {
        let row = readme
            .lines()
            .find(|l| l.starts_with(&format!("| `{status}` |")))
            .unwrap_or_else(|| panic!("README.md's glossary has no row for {status}"));
        let cleanup = row.trim_end_matches('|').rsplit('|').next().unwrap();
        let cleanup = cleanup.trim().replace('`', "");
        let line = help
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{status} ")))
            .unwrap_or_else(|| panic!("mark --help has no glossary line for {status}:\n{help}"));
        assert!(
            line.ends_with(&cleanup),
            "mark --help says {line:?}; README.md says {cleanup:?}"
        );
        let man_line = format!("  {}", line.trim_start()).replace('-', "\\-");
        assert!(man.contains(&man_line), "the man page lacks {man_line:?}");
    }
}
