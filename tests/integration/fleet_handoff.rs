//! The hand-off (docs/fleet.md): `git loop handoff <ID>` on one machine
//! publishes the run with everything not committed; `git loop create <ID>
//! --from <machine>` on another recreates it byte for byte, index
//! included; the first machine's run becomes stale at its next publish;
//! a `kill -9` anywhere loses nothing.

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use serde_json::Value;

use crate::common::{JsonExt, TestRepo, git_ok, kill_9_at};
use crate::fleet::Fleet;

/// A run `h` on `m` with a commit of its own, then: a file staged and
/// changed again after, one changed unstaged, one made executable, one
/// deleted staged and one deleted unstaged, an untracked file and an
/// untracked executable, an ignored file, and an ignored file
/// `create.copy` selects.
fn prepare(m: &TestRepo) {
    m.create("h");
    let wt = m.wt("h");
    let write = |p: &str, s: &str| std::fs::write(wt.join(p), s).unwrap();
    for f in ["a.txt", "b.txt", "c.sh", "gone-staged", "gone-unstaged"] {
        write(f, &format!("{f}\n"));
    }
    write(".gitignore", "*.log\n.env\n");
    git_ok(m, &wt, &["add", "-A"]);
    git_ok(m, &wt, &["commit", "-q", "-m", "work"]);
    write("a.txt", "a staged\n");
    git_ok(m, &wt, &["add", "a.txt"]);
    write("a.txt", "a staged, then changed\n");
    write("b.txt", "b unstaged\n");
    let exe = std::fs::Permissions::from_mode(0o755);
    std::fs::set_permissions(wt.join("c.sh"), exe.clone()).unwrap();
    git_ok(m, &wt, &["rm", "-q", "gone-staged"]);
    std::fs::remove_file(wt.join("gone-unstaged")).unwrap();
    write("new.txt", "untracked\0bytes\n");
    std::fs::create_dir(wt.join("dir")).unwrap();
    write("dir/run.sh", "#!/bin/sh\n");
    std::fs::set_permissions(wt.join("dir/run.sh"), exe).unwrap();
    write("debug.log", "ignored\n");
    // An ignored file create.copy selects: kept in the snapshot.
    write(".env", "SECRET=1\n");
    m.git(["config", "loop.createCopy", ".env"]);
}

/// `git diff`, `git diff --cached`, `git status --porcelain`, and every
/// file's bytes and executable bits.
type State = (String, String, String, BTreeMap<String, (Vec<u8>, u32)>);

/// What git says of the worktree at `dir`, and every file's bytes and
/// mode (`.git` and the ignored `debug.log` aside).
fn state(m: &TestRepo, dir: &Path) -> State {
    let mut files = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let name = e.file_name().into_string().unwrap();
            if name == ".git" || name == "debug.log" {
                continue;
            }
            let meta = std::fs::symlink_metadata(e.path()).unwrap();
            if meta.is_dir() {
                stack.push(e.path());
                continue;
            }
            let rel = e.path().strip_prefix(dir).unwrap().display().to_string();
            let mode = meta.permissions().mode() & 0o111;
            files.insert(rel, (std::fs::read(e.path()).unwrap(), mode));
        }
    }
    (
        git_ok(m, dir, &["diff"]),
        git_ok(m, dir, &["diff", "--cached"]),
        git_ok(m, dir, &["status", "--porcelain"]),
        files,
    )
}

fn status_of(m: &TestRepo, id: &str) -> String {
    let run = m.run(["--json", "list"]);
    run.ok();
    let runs: Vec<Value> = run.json().arr("worktrees").to_vec();
    runs.iter()
        .find(|r| r.text("id") == id)
        .map(|r| r.text("status").to_owned())
        .unwrap_or_default()
}

/// Handed off on m0: the worktree untouched, the snapshot in m0's trash and
/// (as the record's second parent) on the remote; created from m0 on m1:
/// the same diffs, status, bytes and modes; m0's run stale at its next
/// publish.
#[test]
fn a_run_handed_off_is_created_from_it_exactly_and_the_first_goes_stale() {
    let fleet = Fleet::new();
    let (a, b) = (&fleet.machines[0], &fleet.machines[1]);
    prepare(a);
    a.run(["claim", "h"]).ok();
    let before = state(a, &a.wt("h"));
    for line in [
        "MM a.txt",
        " M b.txt",
        " M c.sh",
        "D  gone-staged",
        " D gone-unstaged",
    ] {
        assert!(before.2.lines().any(|l| l == line), "{line}: {}", before.2);
    }
    for line in ["?? new.txt", "?? dir/"] {
        assert!(before.2.lines().any(|l| l == line), "{line}: {}", before.2);
    }
    let run = a.run(["--json", "handoff", "h"]);
    run.ok();
    let out = run.json();
    let snapshot = out.text("snapshot").to_owned();
    assert_eq!(state(a, &a.wt("h")), before, "the worktree is untouched");
    assert!(out.text("trash").contains("/handed-off/loop/salvage/h"));
    assert_eq!(a.git(["rev-parse", out.text("trash")]).trim(), snapshot);
    let record = fleet.remote_git(&["rev-parse", "refs/loop/fleet/m0/h"]);
    assert_eq!(record.trim(), out.text("record"));
    assert_eq!(
        fleet
            .remote_git(&["rev-parse", "refs/loop/fleet/m0/h^2"])
            .trim(),
        snapshot
    );
    let log = a.run(["--json", "log"]);
    assert!(log.stdout.contains("\"handoff\""), "{}", log.stdout);
    assert_eq!(status_of(a, "h"), "active");

    let run = b.run(["--json", "create", "h", "--from", "m0"]);
    run.ok();
    assert!(
        run.stderr.contains("its lease taken over"),
        "{}",
        run.stderr
    );
    assert_eq!(state(b, &b.wt("h")), before, "recreated exactly");
    assert!(before.3.contains_key(".env"), "{:?}", before.3.keys());
    assert!(
        !b.wt("h").join("debug.log").exists(),
        "an ignored file not selected"
    );
    assert_eq!(run.json()["pattern"], "test");
    // The lease is m1's now: m0 cannot claim the task.
    let run = a.run(["--json", "claim", "h"]);
    run.code(1);
    assert!(run.stdout.contains("claimed by m1"), "{}", run.stdout);
    assert_eq!(
        b.git(["rev-parse", "loop/h"]),
        a.git(["rev-parse", "loop/h"])
    );
    // m0's next publish: its run is stale.
    a.run(["publish"]).ok();
    assert_eq!(status_of(a, "h"), "stale");
    assert!(a.wt("h").is_dir(), "its worktree kept");
    // Once: marked active again by hand, it stays so; the snapshot stays
    // on the remote with the record.
    a.run(["mark", "h", "active"]).ok();
    a.run(["publish"]).ok();
    assert_eq!(status_of(a, "h"), "active");
    assert_eq!(
        fleet
            .remote_git(&["rev-parse", "refs/loop/fleet/m0/h^2"])
            .trim(),
        snapshot
    );
}

/// `--from <remote>/<machine>/<id>` names the remote itself; a run not
/// handed off, or published by no such machine, is refused and nothing
/// is made.
#[test]
fn create_from_names_the_remote_and_refuses_what_is_not_handed_off() {
    let fleet = Fleet::new();
    let (a, b) = (&fleet.machines[0], &fleet.machines[1]);
    prepare(a);
    a.create("plain");
    a.run(["publish"]).ok();
    let run = b.run(["--json", "create", "plain", "--from", "m0"]);
    run.code(1);
    assert_eq!(
        run.json()["error"]["code"],
        "not-handed-off",
        "{}",
        run.stdout
    );
    let run = b.run(["--json", "create", "h", "--from", "m9"]);
    run.code(1);
    assert_eq!(
        run.json()["error"]["code"],
        "not-handed-off",
        "{}",
        run.stdout
    );
    assert!(!b.wt("plain").exists() && !b.wt("h").exists());
    a.run(["handoff", "h"]).ok();
    b.git(["config", "--unset", "loop.fleetRemote"]);
    let from = format!("{}/m0/h", fleet.remote.display());
    b.run(["create", "h", "--from", &from]).ok();
    assert_eq!(state(b, &b.wt("h")), state(a, &a.wt("h")));
}

/// `kill -9` of the handoff and of the create --from at each of their
/// points: the worktree untouched, the snapshot in m0's trash and on the
/// remote once made, and the command run again finishes the job.
#[test]
fn a_kill_9_of_handoff_or_create_from_loses_nothing() {
    let fleet = Fleet::new();
    let (a, b) = (&fleet.machines[0], &fleet.machines[1]);
    prepare(a);
    let before = state(a, &a.wt("h"));
    kill_9_at(a, "handoff-built", &["handoff", "h"]);
    assert_eq!(state(a, &a.wt("h")), before);
    kill_9_at(a, "handoff-marked", &["handoff", "h"]);
    assert_eq!(state(a, &a.wt("h")), before);
    assert!(a.run(["trash"]).stdout.contains("handed-off"));
    a.run(["handoff", "h"]).ok();
    for point in ["take-branch", "take-created", "take-files"] {
        kill_9_at(b, point, &["create", "h", "--from", "m0"]);
        assert!(
            fleet.remote_refs("refs/loop/fleet/m0/h").len() == 1,
            "the snapshot stays on the remote"
        );
    }
    b.run(["create", "h", "--from", "m0"]).ok();
    assert_eq!(state(b, &b.wt("h")), before);
}

/// A run of that id here with changes of its own: `create --from` refuses
/// it (`handoff-failed`) and leaves every file as it was.
#[test]
fn create_from_never_overwrites_a_worktree_with_changes_of_its_own() {
    let fleet = Fleet::new();
    let (a, b) = (&fleet.machines[0], &fleet.machines[1]);
    prepare(a);
    a.run(["handoff", "h"]).ok();
    b.run(["create", "h", "--from", "m0"]).ok();
    std::fs::write(b.wt("h").join("mine.txt"), "b's own work\n").unwrap();
    std::fs::write(b.wt("h").join("b.txt"), "b changed it\n").unwrap();
    let mine = state(b, &b.wt("h"));
    let run = b.run(["--json", "create", "h", "--from", "m0"]);
    run.code(1);
    assert_eq!(
        run.json()["error"]["code"],
        "handoff-failed",
        "{}",
        run.stdout
    );
    assert_eq!(state(b, &b.wt("h")), mine);
}

/// A tree object written literally into the bare remote: `entries` of
/// `(mode, name, id)`, names unchecked (git's own tools refuse them).
fn literal_tree(fleet: &Fleet, entries: &[(&str, &str, &str)]) -> String {
    let mut bytes = Vec::new();
    for (mode, name, id) in entries {
        bytes.extend_from_slice(format!("{mode} {name}\0").as_bytes());
        let raw: Vec<u8> = (0..id.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&id[i..i + 2], 16).unwrap())
            .collect();
        bytes.extend_from_slice(&raw);
    }
    let file = fleet.remote.parent().unwrap().join("tree.bin");
    std::fs::write(&file, bytes).unwrap();
    let path = file.to_str().unwrap();
    let id = fleet.remote_git(&["hash-object", "-t", "tree", "-w", "--literally", path]);
    id.trim().to_owned()
}

/// A hand-off planted on the remote as machine `m2`'s run `id`, whose
/// snapshot's tree is `tree` (index and work tree alike).
fn plant_handoff(fleet: &Fleet, id: &str, tree: &str) {
    let git = |args: &[&str]| fleet.remote_git(args).trim().to_owned();
    let tip = git(&["rev-parse", "main"]);
    let index = git(&["commit-tree", tree, "-p", &tip, "-m", "index"]);
    let w = git(&["commit-tree", tree, "-p", &tip, "-p", &index, "-m", "w"]);
    let record = serde_json::json!({
        "version": 1, "machine": "m2", "id": id, "branch": format!("loop/{id}"),
        "baseBranch": "main", "pattern": "agent", "status": "active",
        "createdAt": "2026-01-01T00:00:00Z", "publishedAt": "2026-01-01T00:00:00Z",
        "tip": tip, "ahead": 0, "behind": 0, "activity": null, "judge": null,
        "handoff": {"snapshot": w, "at": "2026-01-01T00:00:00Z"},
        "postCommand": "touch pwned"
    });
    let file = fleet.remote.parent().unwrap().join("record.json");
    std::fs::write(&file, record.to_string()).unwrap();
    let blob = git(&["hash-object", "-w", file.to_str().unwrap()]);
    let rtree = literal_tree(fleet, &[("100644", "record.json", &blob)]);
    let commit = git(&["commit-tree", &rtree, "-p", &tip, "-p", &w, "-m", "r"]);
    git(&["update-ref", &format!("refs/loop/fleet/m2/{id}"), &commit]);
}

/// Snapshots whose trees hold `.git`, `..` or a submodule: refused
/// (`handoff-failed`) before anything is made: no branch, no worktree, no
/// file written, nothing run.
#[test]
fn a_hostile_snapshot_is_refused_and_nothing_is_made() {
    let fleet = Fleet::new();
    let b = &fleet.machines[1];
    let file = fleet.remote.parent().unwrap().join("payload");
    std::fs::write(&file, "[core]\n\tfsmonitor = touch pwned\n").unwrap();
    let blob = fleet.remote_git(&["hash-object", "-w", file.to_str().unwrap()]);
    let blob = blob.trim();
    let inner = literal_tree(&fleet, &[("100644", "config", blob)]);
    let main = fleet.remote_git(&["rev-parse", "main"]).trim().to_owned();
    let cases = [
        (
            "dot-git",
            literal_tree(&fleet, &[("40000", ".git", &inner)]),
        ),
        (
            "dot-git-upper",
            literal_tree(&fleet, &[("100644", ".GIT", blob)]),
        ),
        ("dot-dot", literal_tree(&fleet, &[("40000", "..", &inner)])),
        ("module", literal_tree(&fleet, &[("160000", "sub", &main)])),
    ];
    for (id, tree) in &cases {
        plant_handoff(&fleet, id, tree);
        let run = b.run(["--json", "create", id, "--from", "m2"]);
        run.code(1);
        assert_eq!(
            run.json()["error"]["code"],
            "handoff-failed",
            "{id}: {}",
            run.stdout
        );
        assert!(!b.wt(id).exists(), "{id}");
        assert!(
            b.git(["branch", "--list", &format!("loop/{id}")])
                .trim()
                .is_empty()
        );
    }
    assert!(!b.root.join("pwned").exists() && !b.wt("").join("pwned").exists());
    // The same shape with plain paths is taken.
    let plain = literal_tree(&fleet, &[("100644", "config", blob)]);
    plant_handoff(&fleet, "plain", &plain);
    b.run(["create", "plain", "--from", "m2"]).ok();
    assert_eq!(
        std::fs::read_to_string(b.wt("plain").join("config")).unwrap(),
        "[core]\n\tfsmonitor = touch pwned\n"
    );
}

/// The remote unreachable: the handoff fails (`remote-failed`), the
/// worktree untouched and the snapshot in the trash; once the remote is
/// back, a publish carries the hand-off there (and marks the run stale
/// here), and the other machine takes it.
#[test]
fn a_handoff_to_an_unreachable_remote_keeps_the_snapshot_and_publish_catches_up() {
    let fleet = Fleet::new();
    let (a, b) = (&fleet.machines[0], &fleet.machines[1]);
    prepare(a);
    let before = state(a, &a.wt("h"));
    let gone = fleet.remote.parent().unwrap().join("gone.git");
    a.git(["config", "loop.fleetRemote", gone.to_str().unwrap()]);
    let run = a.run(["--json", "handoff", "h"]);
    run.code(1);
    assert_eq!(
        run.json()["error"]["code"],
        "remote-failed",
        "{}",
        run.stdout
    );
    assert_eq!(state(a, &a.wt("h")), before);
    assert!(a.run(["trash"]).stdout.contains("handed-off"));
    a.git(["config", "loop.fleetRemote", fleet.remote.to_str().unwrap()]);
    a.run(["publish"]).ok();
    assert_eq!(status_of(a, "h"), "stale");
    b.run(["create", "h", "--from", "m0"]).ok();
    assert_eq!(state(b, &b.wt("h")), before);
}
