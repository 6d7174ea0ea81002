//! Unit tests of the push: real repositories made by `git` in a temporary
//! directory (a bare remote and a clone), pushes refused as a remote that
//! moved refuses them, and the rebuild callback.

use std::path::PathBuf;

use gix::ObjectId;

use super::*;
use crate::git::plumbing::read_push;

/// A bare remote and a clone of it whose `main` tracks `origin/main`.
struct Remote {
    _dir: tempfile::TempDir,
    bare: PathBuf,
    clone: PathBuf,
}

use crate::test_git::git;

impl Remote {
    fn new() -> Remote {
        let dir = tempfile::tempdir().unwrap();
        let bare = dir.path().join("remote.git");
        let clone = dir.path().join("clone");
        git(
            dir.path(),
            &["init", "-q", "--bare", "-b", "main", "remote.git"],
        );
        git(&bare, &["config", "core.logAllRefUpdates", "always"]);
        git(dir.path(), &["init", "-q", "-b", "main", "clone"]);
        git(&clone, &["remote", "add", "origin", "../remote.git"]);
        let r = Remote {
            _dir: dir,
            bare,
            clone,
        };
        r.commit("a");
        git(&r.clone, &["push", "-q", "-u", "origin", "main"]);
        r
    }

    fn commit(&self, file: &str) -> ObjectId {
        std::fs::write(self.clone.join(file), file).unwrap();
        git(&self.clone, &["add", file]);
        git(&self.clone, &["commit", "-q", "-m", file]);
        self.tip("HEAD")
    }

    fn tip(&self, rev: &str) -> ObjectId {
        git(&self.clone, &["rev-parse", rev]).parse().unwrap()
    }

    fn remote_tip(&self) -> ObjectId {
        git(&self.bare, &["rev-parse", "main"]).parse().unwrap()
    }

    /// Another clone pushes a commit with `file`: the remote moves.
    fn someone_else_pushes(&self, file: &str) -> ObjectId {
        let other = self.bare.with_file_name(format!("other-{file}"));
        git(
            self.bare.parent().unwrap(),
            &["clone", "-q", "remote.git", other.to_str().unwrap()],
        );
        std::fs::write(other.join(file), file).unwrap();
        git(&other, &["add", file]);
        git(&other, &["commit", "-q", "-m", file]);
        git(&other, &["push", "-q", "origin", "main"]);
        self.remote_tip()
    }

    fn repo(&self) -> Repo {
        Repo::discover(&self.clone).unwrap()
    }
}

#[test]
fn a_landing_is_pushed_to_the_upstream() {
    let r = Remote::new();
    let base = r.tip("HEAD");
    let tip = r.commit("b");
    let outcome = push(&r.repo(), "main", base, tip, 3, |_| panic!("no rebuild")).unwrap();
    assert_eq!(
        outcome,
        Push::Pushed {
            remote: "origin".into(),
            remote_ref: "refs/heads/main".into(),
            tip,
            rebuilds: 0,
            summary: format!("{}..{}", &base.to_string()[..7], &tip.to_string()[..7]),
        }
    );
    assert_eq!(r.remote_tip(), tip);
}

#[test]
fn a_remote_that_moved_gets_the_landing_rebuilt_on_its_tip() {
    let r = Remote::new();
    let base = r.tip("HEAD");
    let tip = r.commit("b");
    let theirs = r.someone_else_pushes("c");
    let mut seen = Vec::new();
    let outcome = push(&r.repo(), "main", base, tip, 3, |remote_tip| {
        seen.push(remote_tip);
        // What the orchestrator does: land again on the remote's tip and
        // move the local target by CAS from the tip last pushed.
        git(
            &r.clone,
            &["reset", "-q", "--keep", &remote_tip.to_string()],
        );
        git(&r.clone, &["cherry-pick", &tip.to_string()]);
        Ok(Rebuilt::Advanced { tip: r.tip("HEAD") })
    })
    .unwrap();
    assert_eq!(seen, [theirs]);
    let new = r.tip("HEAD");
    assert!(matches!(outcome, Push::Pushed { tip, rebuilds: 1, .. } if tip == new));
    assert_eq!(r.remote_tip(), new);
    assert_eq!(r.tip("refs/remotes/origin/main"), new);
    // Nothing the other clone pushed was lost: its commit is the parent.
    assert_eq!(r.tip("HEAD~1"), theirs);
}

#[test]
fn retries_are_bounded_and_a_refused_rebuild_is_not_pushed() {
    let r = Remote::new();
    let base = r.tip("HEAD");
    let tip = r.commit("b");
    let theirs = r.someone_else_pushes("c");
    let outcome = push(&r.repo(), "main", base, tip, 0, |_| panic!("no rebuild")).unwrap();
    let Push::NotPushed { reason, tip: t, .. } = outcome else {
        panic!("{outcome:?}")
    };
    assert_eq!(t, tip);
    assert!(
        reason.contains("origin's main") && reason.contains("land.push-retries is 0"),
        "{reason}"
    );
    let outcome = push(&r.repo(), "main", base, tip, 3, |_| {
        Ok(Rebuilt::Refused {
            reason: "conflict in c".into(),
        })
    })
    .unwrap();
    let Push::NotPushed { reason, .. } = outcome else {
        panic!("{outcome:?}")
    };
    assert!(reason.ends_with("conflict in c"), "{reason}");
    assert_eq!(
        r.remote_tip(),
        theirs,
        "the remote is as the other clone left it"
    );
    assert_eq!(r.tip("main"), tip, "landed locally");
}

#[test]
fn diverged_histories_and_no_upstream_are_not_pushed() {
    let r = Remote::new();
    // A local commit the remote never had, then the landing on it.
    let base = r.commit("local");
    let tip = r.commit("b");
    r.someone_else_pushes("c");
    let outcome = push(&r.repo(), "main", base, tip, 3, |_| panic!("no rebuild")).unwrap();
    let Push::NotPushed { reason, .. } = outcome else {
        panic!("{outcome:?}")
    };
    assert!(reason.contains("diverged"), "{reason}");
    git(&r.clone, &["update-ref", "refs/heads/lonely", "HEAD"]);
    let outcome = push(&r.repo(), "lonely", base, tip, 3, |_| panic!("no rebuild")).unwrap();
    let Push::NotPushed { reason, .. } = outcome else {
        panic!("{outcome:?}")
    };
    assert!(reason.starts_with("lonely has no upstream"), "{reason}");
}

#[test]
fn the_remote_never_sees_a_forced_update() {
    let r = Remote::new();
    let base = r.tip("HEAD");
    let tip = r.commit("b");
    r.someone_else_pushes("c");
    // A rebuild that "forgets" the remote's commit: the push must be refused.
    let outcome = push(&r.repo(), "main", base, tip, 1, |_| {
        Ok(Rebuilt::Advanced { tip })
    })
    .unwrap();
    assert!(matches!(outcome, Push::NotPushed { .. }), "{outcome:?}");
    let log = git(
        &r.bare,
        &["reflog", "show", "--format=%H %gs", "refs/heads/main"],
    );
    assert!(!log.contains("forced"), "{log}");
    assert_ne!(r.remote_tip(), tip);
}

// git's porcelain output of a push, read (crate::git::plumbing::read_push).

const DST: &str = "refs/heads/main";

fn read(success: bool, stdout: &str) -> PushOutcome {
    read_push(success, Some(if success { 0 } else { 1 }), stdout, "", DST)
}

#[test]
fn a_remote_that_moved_is_told_apart_from_other_failures() {
    let ok = "To r.git\n \tabc:refs/heads/main\t51fd041..b13f9fd\nDone\n";
    assert_eq!(
        read(true, ok),
        PushOutcome::Done {
            summary: "51fd041..b13f9fd".into()
        }
    );
    for summary in [
        "[rejected] (fetch first)",
        "[rejected] (non-fast-forward)",
        "[remote rejected] (cannot lock ref 'refs/heads/main': is at 1 but expected 2)",
        "[remote rejected] (failed to update ref)",
    ] {
        let out = format!("To r.git\n!\tabc:refs/heads/main\t{summary}\nDone\n");
        assert_eq!(
            read(false, &out),
            PushOutcome::Moved {
                reason: summary.to_owned()
            },
            "{summary}"
        );
    }
    for summary in [
        "[remote rejected] (pre-receive hook declined)",
        "[remote rejected] (branch is currently checked out)",
        "[rejected] (already exists)",
    ] {
        let out = format!("To r.git\n!\tabc:refs/heads/main\t{summary}\nDone\n");
        assert!(
            matches!(read(false, &out), PushOutcome::Failed { .. }),
            "{summary}"
        );
    }
    let unreachable = read_push(
        false,
        Some(128),
        "",
        "fatal: 'nowhere' does not appear to be a git repository\n",
        DST,
    );
    assert_eq!(
        unreachable,
        PushOutcome::Failed {
            reason: "'nowhere' does not appear to be a git repository".to_owned()
        }
    );
}
