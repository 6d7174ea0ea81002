//! `kill -9` at each crash point of the advance (`GIT_LOOP_TEST_CRASH`
//! aborts the process there): this test binary runs itself, one test, as
//! the landing process, and the parent reads what it left. The user's
//! uncommitted work is never touched; the target is at `old` or at `new`;
//! a checkout left behind is recognised by the next landing.

use std::path::Path;
use std::process::Command;

use super::super::*;
use super::fixture::{Fixture, read};

/// The landing in the child: `<root> <old> <new>`.
const CHILD: &str = "GIT_LOOP_TEST_ADVANCE_CHILD";

/// Run by the parent only (it sets [`CHILD`]); aborts at the crash point.
#[test]
#[ignore = "run by a_crash_at_each_point_loses_nothing_and_is_recognised"]
fn child() {
    let Ok(spec) = std::env::var(CHILD) else {
        return;
    };
    let parts: Vec<&str> = spec.split('\n').collect();
    let id = |s: &str| ObjectId::from_hex(s.as_bytes()).unwrap();
    let repo = Repo::discover(Path::new(parts[0])).unwrap();
    let outcome = advance(&repo, "main", id(parts[1]), id(parts[2]), "land x");
    // Under an injected failure (no crash point), the outcome is the result.
    if std::env::var_os("GIT_LOOP_TEST_CRASH").is_none() {
        println!("OUTCOME {outcome:?}");
        return;
    }
    panic!("not aborted: {outcome:?}");
}

pub(super) fn crash_at(point: &str, f: &Fixture, old: ObjectId, new: ObjectId) {
    let spec = format!("{}\n{old}\n{new}", f.root.display());
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "ops::land::advance::tests::crash::child"])
        .args(["--ignored", "--test-threads=1"])
        .env(CHILD, spec)
        .env("GIT_LOOP_TEST_CRASH", point)
        .output()
        .unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(
        out.status.signal(),
        Some(6),
        "{point}: {}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn a_crash_at_each_point_loses_nothing_and_is_recognised() {
    for point in ["land-before-ref", "land-after-ref", "land-after-checkout"] {
        let f = Fixture::new();
        let (old, new) = f.landing();
        // The user's own work, outside what the landing changes.
        f.users_work();
        let before = f.snapshot(&f.root);
        crash_at(point, &f, old, new);
        let after = f.snapshot(&f.root);
        f.users_work_intact(point);
        let newer = f.commit_on(new, &[("a", Some("a3\n"))]);
        let repo = f.repo();
        match point {
            "land-before-ref" => {
                assert_eq!(after, before, "{point}");
                let again = advance(&repo, "main", old, new, "land x").unwrap();
                assert!(matches!(again, Advance::Moved { .. }), "{again:?}");
            }
            "land-after-ref" => {
                assert_eq!(f.id("main"), new);
                assert_eq!((&after.index, &after.files), (&before.index, &before.files));
                let Advance::TargetBusy { operation, .. } =
                    check(&repo, "main", new, newer).unwrap()
                else {
                    panic!("{point}: not recognised");
                };
                assert!(
                    operation.contains(&format!("git read-tree -m -u {old} {new}")),
                    "{operation}"
                );
            }
            _ => {
                assert_eq!(f.id("main"), new);
                assert_eq!(read(&f.root, "a"), "a2\n");
                assert_eq!(f.status(&f.root), "M  b\n M e\n?? notes.txt");
                let next = check(&repo, "main", new, newer).unwrap();
                assert!(matches!(next, Advance::Moved { .. }), "{next:?}");
            }
        }
    }
}
