//! The safety kernel and the trash: no destroying path bypasses
//! `src/safety/`, and whatever a destroying step would let become
//! unreachable is kept under `refs/loop/trash/` — a wrong proof included.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::{JsonExt, TestRepo};

fn git_in(repo: &TestRepo, dir: &Path, args: &[&str]) -> String {
    let out = repo.git_in(dir, args);
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

fn commit(repo: &TestRepo, dir: &Path, file: &str, content: &str) -> String {
    fs::write(dir.join(file), content).unwrap();
    git_in(repo, dir, &["add", file]);
    git_in(repo, dir, &["commit", "-q", "-m", file]);
    git_in(repo, dir, &["rev-parse", "HEAD"])
}

/// Commits `git fsck` calls unreachable when reflogs do not count.
fn unreachable(repo: &TestRepo) -> String {
    let out = repo.git_in(&repo.root, ["fsck", "--unreachable", "--no-reflogs"]);
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The source, comment lines left out, by path relative to `src/`.
pub(crate) fn sources() -> Vec<(String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let text = fs::read_to_string(&p).unwrap();
            let code: String = text
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .map(|l| format!("{l}\n"))
                .collect();
            let rel = p.strip_prefix(&src).unwrap().to_string_lossy().into_owned();
            (rel, code)
        })
        .collect()
}

/// Every destroying primitive asks for the kernel's `Permit`, only
/// `src/safety/` makes one, and the raw ways to delete a ref or spawn a
/// removal appear nowhere else.
#[test]
fn no_destroying_path_bypasses_the_safety_kernel() {
    let sources = sources();
    let file = |name: &str| {
        &sources
            .iter()
            .find(|(p, _)| p == name)
            .unwrap_or_else(|| panic!("no src/{name}"))
            .1
    };
    // The primitives take a permit (so every caller got one from the
    // kernel), and the unguarded calls beneath them are made only there.
    let exec = file("safety/exec.rs");
    for f in [
        "pub fn worktree_remove(",
        "pub fn delete_branch(",
        "pub fn rewind_branch(",
        "pub fn rewrite_branch(",
        "pub fn signal_process(",
    ] {
        let at = exec
            .find(f)
            .unwrap_or_else(|| panic!("{f} in safety/exec.rs"));
        assert!(
            exec[at..at + 200].contains("permit: &Permit"),
            "{f} must take a Permit"
        );
    }
    for (path, code) in &sources {
        // A signal to a process (not to a configured command's own group)
        // is sent only beneath the kernel's permit; unit tests aside.
        assert!(
            !code.contains("process::kill_process(")
                || path == "safety/exec.rs"
                || path.contains("/tests/"),
            "src/{path} signals a process around the kernel"
        );
        for raw in [".worktree_remove_unguarded(", "delete_branch_unguarded("] {
            let defined = path == "git/refs/mod.rs" && code.matches(raw).count() == 1;
            assert!(
                !code.contains(raw) || path == "safety/exec.rs" || defined,
                "src/{path} calls {raw} around the kernel"
            );
        }
    }
    // A ref on a remote is moved or deleted only by the leased push (each
    // ref a compare-and-swap against the value last seen, never forced),
    // and only for the fleet's refs: publish (a run's branch and record, a
    // removed run's record, this machine's leases), claim (a lease
    // taken, taken over when expired, or released by its holder) and
    // `land --fleet` (a landed run's record written again with `landed`,
    // against the record it read: ops/fleet/landed.rs).
    for (path, code) in &sources {
        if code.contains("push_leased(") {
            assert!(
                [
                    "git/plumbing.rs",
                    "ops/fleet/publish.rs",
                    "ops/fleet/claim.rs",
                    "ops/fleet/landed.rs"
                ]
                .contains(&path.as_str()),
                "src/{path} pushes to a remote around the fleet's leased push"
            );
        }
    }
    let mut callers = Vec::new();
    for (path, code) in &sources {
        let in_kernel = path.starts_with("safety/");
        // Only the kernel makes a permit.
        if !in_kernel {
            assert!(
                !code.contains("Permit {"),
                "src/{path} builds a Permit: only src/safety/ may"
            );
            assert!(
                !code.contains("Target::Worktree")
                    && !code.contains("Target::Branch")
                    && !code.contains("Target::Rewind")
                    && !code.contains("Target::Rewrite")
                    && !code.contains("Target::Process"),
                "src/{path} names a permit's target"
            );
        }
        // A ref is deleted only through the ref layer (`git/refs/mod.rs`, which
        // runs the `reference-transaction` hook), asked by the
        // permit-checked primitive or the kernel itself (the trash's own
        // entries); no other route (`git update-ref -d`, `delete <ref>` on
        // its stdin) exists.
        if code.contains("Change::Delete") || code.contains("delete {name}") {
            assert_eq!(
                path, "git/refs/mod.rs",
                "src/{path} deletes a ref around the ref layer"
            );
        }
        if code.contains("Edit::Delete") {
            assert!(
                in_kernel || path == "git/refs/mod.rs",
                "src/{path} deletes a ref without the kernel"
            );
        }
        if path == "git/refs/mod.rs" {
            // Only the one beneath the kernel's branch delete is built here.
            let built = code.matches("= Edit::Delete {").count();
            assert_eq!(built, 1, "git/refs/mod.rs builds one delete");
        }
        // No other way to remove a worktree or delete a branch or ref: no
        // git argument list (`&["…", …]`) holds a destroying word.
        for (i, _) in code.match_indices("&[\"") {
            let list = &code[i..i + code[i..].find(']').unwrap_or(0)];
            for raw in [
                "\"--force\"",
                "\"-f\"",
                "\"prune\"",
                "\"-D\"",
                "\"-d\"",
                "\"--delete\"",
                "\"branch\"",
            ] {
                assert!(
                    !list.contains(raw),
                    "src/{path} spawns a destroying git command ({raw} in {list}) without the kernel"
                );
            }
        }
        for call in [
            "exec::worktree_remove(",
            "exec::delete_branch(",
            "exec::rewind_branch(",
            "exec::rewrite_branch(",
            "exec::signal_process(",
            "exec::update_checkout(",
        ] {
            for (i, _) in code.match_indices(call) {
                let rest = &code[i..(i + 300).min(code.len())];
                let args = &rest[..rest.find(')').unwrap_or(rest.len())];
                assert!(
                    args.contains("permit"),
                    "src/{path}: {call} without a permit in {args:?}"
                );
                callers.push(format!("{path}{call}"));
            }
        }
        // A directory is removed whole only by the kernel, or by the
        // leftover's finish (every file in it verified identical to a kept
        // commit first).
        let deletes = code.contains("remove_dir_all");
        if deletes {
            assert!(
                path.starts_with("worktree/leftover/") || in_kernel,
                "src/{path} removes directories outside the kernel's rules"
            );
        }
        // A file of a worktree is deleted only under a permit: the files
        // that delete anything else delete git-loop's own (locks, temp
        // files, a copy it made and failed to finish).
        if code.contains("remove_file(") {
            let own = [
                "manifest/file.rs",
                "lock/mutex.rs",
                "signals.rs",
                "worktree/salvage/build.rs",
                "lock/run_lock.rs",
                "copy/files.rs",
            ];
            // Unit tests (`…/tests/…`, compiled only for tests) aside.
            assert!(
                own.contains(&path.as_str()) || code.contains("permit") || path.contains("/tests/"),
                "src/{path} deletes files without the kernel's permit"
            );
        }
    }
    // Every path that destroys was found: the removal, the leftover's
    // finish, create's rollbacks (of a failed add, a failed record, a
    // signal), the gate's scratch checkout, the kernel's one retirement of a
    // branch (cleanup, branches and land's finish all call it), a landing's
    // move of its target back when the checkout could not follow and its
    // update of a checkout, a sync's move of a run's branch (its old tip
    // kept in the trash first: `ops/sync` asks `advance::rewrite`, which
    // asks the kernel), and `--reap`'s signal to a process.
    callers.sort();
    callers.dedup();
    for expected in [
        "worktree/remove.rsexec::worktree_remove(",
        "worktree/leftover/mod.rsexec::worktree_remove(",
        "ops/create/record.rsexec::worktree_remove(",
        "ops/create/rollback.rsexec::worktree_remove(",
        "ops/land/gate/mod.rsexec::worktree_remove(",
        "safety/retire.rsexec::delete_branch(",
        "ops/create/add.rsexec::delete_branch(",
        "ops/create/record.rsexec::delete_branch(",
        "ops/create/rollback.rsexec::delete_branch(",
        "ops/land/advance/mod.rsexec::rewind_branch(",
        "ops/land/advance/mod.rsexec::rewrite_branch(",
        "ops/land/advance/checkout.rsexec::update_checkout(",
        "worktree/reap.rsexec::signal_process(",
    ] {
        assert!(
            callers.iter().any(|c| c == expected),
            "{expected} not found among {callers:?}"
        );
    }
    // And no other file calls them: a new path must be added above, after
    // it asks the kernel.
    for c in &callers {
        assert!(
            [
                "worktree/remove.rs",
                "worktree/leftover/mod.rs",
                "ops/create/add.rs",
                "ops/create/record.rs",
                "ops/create/rollback.rs",
                "ops/land/gate/mod.rs",
                "safety/retire.rs",
                "ops/land/advance/mod.rs",
                "ops/land/advance/checkout.rs",
                "worktree/reap.rs",
            ]
            .iter()
            .any(|f| c.starts_with(f)),
            "an unexpected destroying call: {c}"
        );
    }
}

/// A deliberately wrong proof (`GIT_LOOP_TEST_FORCE_MERGED=1`) deletes an
/// unmerged branch, and the trash brings it back at its tip.
#[test]
fn a_wrong_proof_deletes_nothing_the_trash_cannot_bring_back() {
    let repo = TestRepo::new();
    repo.create("w").ok();
    let tip = commit(&repo, &repo.wt("w"), "work", "only copy\n");
    repo.run(["mark", "w", "rejected"]).ok();
    let run = TestRepo::output(repo.command().env("GIT_LOOP_TEST_FORCE_MERGED", "1").args([
        "--json",
        "cleanup",
        "--delete-merged-branches",
    ]));
    run.ok();
    let removed = run.json().find_id("removed", "w").clone();
    assert_eq!(removed["branchDeleted"], true, "{removed}");
    let trash_ref = removed.text("branchTrash").to_owned();
    assert!(trash_ref.starts_with("refs/loop/trash/"), "{trash_ref}");
    assert!(!repo.branch_exists("loop/w"));
    // Kept: git itself sees the commit reachable.
    assert_eq!(repo.git(["rev-parse", &trash_ref]).trim(), tip);
    assert!(!unreachable(&repo).contains(&tip), "{}", unreachable(&repo));
    // Listed, with its reason and original.
    let list = repo.run(["--json", "trash"]);
    list.ok();
    let doc = list.json();
    let entries = doc.arr("trash");
    assert_eq!(entries.len(), 1, "{doc}");
    assert_eq!(entries[0]["kind"], "branch");
    assert_eq!(entries[0]["original"], "refs/heads/loop/w");
    assert_eq!(entries[0]["tip"], tip.as_str());
    assert_eq!(entries[0]["reason"], "merged-squash");
    assert_eq!(entries[0]["run"], "w");
    // The event says where it went.
    let log = fs::read_to_string(repo.loop_dir().join("events.jsonl")).unwrap();
    assert!(log.contains(&trash_ref), "{log}");
    // Restored by the branch's name, at its tip; the entry is gone.
    let back = repo.run(["trash", "restore", "loop/w"]);
    back.ok();
    assert!(back.stdout.contains("restored loop/w"), "{}", back.stdout);
    assert_eq!(repo.git(["rev-parse", "loop/w"]).trim(), tip);
    let doc = repo.run(["--json", "trash"]).json();
    assert!(doc.arr("trash").is_empty(), "{doc}");
    let log = fs::read_to_string(repo.loop_dir().join("events.jsonl")).unwrap();
    assert!(log.contains("\"trash-restore\""), "{log}");
}

/// `trash restore` never moves an existing branch; an unknown name or a bad
/// `--as` changes nothing and names the value.
#[test]
fn trash_restore_refuses_an_existing_branch_and_unknown_names() {
    let repo = TestRepo::new();
    repo.create("w").ok();
    let tip = commit(&repo, &repo.wt("w"), "work", "x\n");
    repo.run(["mark", "w", "rejected"]).ok();
    TestRepo::output(
        repo.command()
            .env("GIT_LOOP_TEST_FORCE_MERGED", "1")
            .args(["cleanup", "--delete-merged-branches"]),
    )
    .ok();
    // A new branch of that name exists now: never moved.
    repo.git(["branch", "loop/w", "main"]);
    let main = repo.git(["rev-parse", "main"]);
    let refused = repo.run(["trash", "restore", "loop/w"]);
    refused.code(1);
    assert!(refused.stderr.contains("loop/w"), "{}", refused.stderr);
    assert_eq!(repo.git(["rev-parse", "loop/w"]), main);
    let doc = repo.run(["--json", "trash"]).json();
    assert_eq!(doc.arr("trash").len(), 1);
    // Under another name it comes back.
    repo.run(["trash", "restore", "loop/w", "--as", "saved/w"])
        .ok();
    assert_eq!(repo.git(["rev-parse", "saved/w"]).trim(), tip);
    let unknown = repo.run(["--json", "trash", "restore", "nope"]);
    unknown.code(1);
    assert_eq!(unknown.json()["error"]["code"], "not-in-trash");
    assert!(unknown.stderr.contains("nope"), "{}", unknown.stderr);
}

/// Hole 5: a commit kept only in a per-worktree ref (`refs/worktree/*`)
/// would die with the worktree's admin dir: it is kept in the trash.
#[test]
fn a_commit_only_a_per_worktree_ref_holds_survives_the_removal() {
    per_worktree_ref_survives(TestRepo::new());
}

/// The same in a reftable repository, where the worktree's refs live in
/// its own stack (`worktrees/<id>/reftable/`), not in files of its admin
/// dir: they are read through git and kept all the same.
#[test]
fn a_commit_only_a_per_worktree_ref_holds_survives_the_removal_in_a_reftable_repository() {
    per_worktree_ref_survives(TestRepo::new_with(&["--ref-format=reftable"]));
}

fn per_worktree_ref_survives(repo: TestRepo) {
    repo.create("x").ok();
    let wt = repo.wt("x");
    git_in(&repo, &wt, &["checkout", "-q", "--detach"]);
    let lone = commit(&repo, &wt, "experiment", "only here\n");
    git_in(
        &repo,
        &wt,
        &["update-ref", "refs/worktree/experiment", &lone],
    );
    git_in(&repo, &wt, &["checkout", "-q", "loop/x"]);
    // A bisect ref too.
    git_in(&repo, &wt, &["update-ref", "refs/bisect/bad", &lone]);
    repo.run(["mark", "x", "rejected"]).ok();
    let run = repo.run(["--json", "cleanup"]);
    run.ok();
    let doc = run.json();
    let removed = doc.find_id("removed", "x");
    assert!(
        removed.text("note").contains("refs/loop/trash/"),
        "{removed}"
    );
    assert!(!wt.exists());
    let doc = repo.run(["--json", "trash"]).json();
    let originals: Vec<&str> = doc
        .arr("trash")
        .iter()
        .map(|e| e.text("original"))
        .collect();
    assert!(originals.contains(&"refs/worktree/experiment"), "{doc}");
    assert!(originals.contains(&"refs/bisect/bad"), "{doc}");
    assert!(doc.arr("trash").iter().all(|e| e["tip"] == lone.as_str()));
    assert!(
        !unreachable(&repo).contains(&lone),
        "{}",
        unreachable(&repo)
    );
    // It comes back as a branch.
    let name = doc
        .arr("trash")
        .iter()
        .find(|e| e["original"] == "refs/worktree/experiment")
        .unwrap()
        .text("name")
        .to_owned();
    let back = repo.run(["trash", "restore", &name]);
    back.ok();
    assert_eq!(
        repo.git(["rev-parse", "trash/x/worktree/experiment"])
            .trim(),
        lone
    );
}

/// A per-worktree ref at a commit a branch holds anyway is not trashed.
#[test]
fn a_per_worktree_ref_a_branch_holds_is_not_trashed() {
    let repo = TestRepo::new();
    repo.create("y").ok();
    let wt = repo.wt("y");
    let tip = commit(&repo, &wt, "f", "x\n");
    git_in(&repo, &wt, &["update-ref", "refs/worktree/mark", &tip]);
    repo.run(["mark", "y", "rejected"]).ok();
    repo.run(["cleanup"]).ok();
    let doc = repo.run(["--json", "trash"]).json();
    assert!(doc.arr("trash").is_empty(), "{doc}");
}

/// Hole 8: a base that names the run's own tip is never proof. `--base
/// HEAD` is recorded as the branch HEAD is on (or, detached, the commit),
/// and an old entry recorded as `HEAD` (or `:/message`) proves nothing when
/// the main checkout is later detached at the run's tip.
#[test]
fn a_base_that_names_the_runs_own_tip_proves_nothing() {
    let repo = TestRepo::new();
    repo.run(["create", "a", "--pattern", "p", "--base", "HEAD"])
        .ok();
    let doc = repo.run(["--json", "list"]).json();
    assert_eq!(doc.find_id("worktrees", "a")["baseBranch"], "main", "{doc}");
    let main = repo.git(["rev-parse", "main"]).trim().to_owned();
    repo.git(["checkout", "-q", "--detach"]);
    repo.run(["create", "b", "--pattern", "p", "--base", "HEAD"])
        .ok();
    repo.run(["create", "c", "--pattern", "p", "--base", ":/initial"])
        .ok();
    let doc = repo.run(["--json", "list"]).json();
    assert_eq!(doc.find_id("worktrees", "b")["baseBranch"], main.as_str());
    assert_eq!(doc.find_id("worktrees", "c")["baseBranch"], main.as_str());
    repo.git(["checkout", "-q", "main"]);

    // An entry recorded by an older version: base "HEAD", and ":/work".
    for id in ["old", "msg"] {
        repo.create(id).ok();
        commit(&repo, &repo.wt(id), "work", &format!("{id} only copy\n"));
    }
    let text = fs::read_to_string(repo.manifest_path()).unwrap();
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    for e in doc["worktrees"].as_array_mut().unwrap() {
        match e["id"].as_str() {
            Some("old") => e["baseBranch"] = "HEAD".into(),
            Some("msg") => e["baseBranch"] = ":/work".into(),
            _ => {}
        }
    }
    repo.write_manifest(&serde_json::to_string_pretty(&doc).unwrap());
    let old_tip = repo.git(["rev-parse", "loop/old"]).trim().to_owned();
    // The main checkout looks at the run: HEAD is now the run's own tip.
    repo.git(["checkout", "-q", "--detach", "loop/old"]);
    let long = repo.run(["--json", "list", "--long"]).json();
    for id in ["old", "msg"] {
        let e = long.find_id("worktrees", id);
        assert_eq!(e["merged"], false, "{e}");
    }
    repo.run(["mark", "old", "rejected"]).ok();
    repo.run(["mark", "msg", "rejected"]).ok();
    let run = repo.run(["--json", "cleanup", "--delete-merged-branches"]);
    run.ok();
    let doc = run.json();
    for id in ["old", "msg"] {
        let e = doc.find_id("removed", id);
        assert_eq!(e["branchDeleted"], false, "{e}");
        assert_eq!(e["branchKept"]["code"], "not-merged", "{e}");
    }
    assert_eq!(repo.git(["rev-parse", "loop/old"]).trim(), old_tip);
    assert!(repo.branch_exists("loop/msg"));
}

/// Hole 12: a replaced salvage stays reachable (in the trash, a ref), not
/// only in a reflog that gc expires after 30 days.
#[test]
fn a_replaced_salvage_is_kept_in_the_trash() {
    let repo = TestRepo::new();
    repo.create("s").ok();
    fs::write(repo.wt("s").join("draft"), "first\n").unwrap();
    repo.run(["mark", "s", "rejected"]).ok();
    repo.run(["remove", "s", "--salvage"]).ok();
    let first = repo
        .git(["rev-parse", "refs/loop/salvage/s"])
        .trim()
        .to_owned();
    repo.run(["restore", "s"]).ok();
    fs::write(repo.wt("s").join("draft"), "second\n").unwrap();
    repo.run(["mark", "s", "rejected"]).ok();
    repo.run(["remove", "s", "--salvage"]).ok();
    let second = repo
        .git(["rev-parse", "refs/loop/salvage/s"])
        .trim()
        .to_owned();
    assert_ne!(first, second);
    let doc = repo.run(["--json", "trash"]).json();
    let e = doc
        .arr("trash")
        .iter()
        .find(|e| e["kind"] == "salvage")
        .unwrap_or_else(|| panic!("no salvage in {doc}"));
    assert_eq!(e["tip"], first.as_str());
    assert_eq!(e["reason"], "salvage-replaced");
    // gc with every reflog expired now still keeps it.
    repo.git([
        "reflog",
        "expire",
        "--expire=now",
        "--expire-unreachable=now",
        "--all",
    ]);
    repo.git(["gc", "-q", "--prune=now"]);
    repo.git(["cat-file", "-e", &first]);
}

/// `trash empty --older-than` drops only older entries; a cleanup drops the
/// entries older than `trash.keep`; both are logged.
#[test]
fn the_trash_expires_after_trash_keep_and_empties_on_demand() {
    let repo = TestRepo::new();
    let at = |when: &str, args: &[&str]| {
        TestRepo::output(
            repo.command()
                .env("GIT_LOOP_TEST_NOW", when)
                .env("GIT_LOOP_TEST_FORCE_MERGED", "1")
                .args(args),
        )
    };
    for (id, when) in [
        ("a", "2026-01-01T00:00:00Z"),
        ("b", "2026-01-20T00:00:00Z"),
        ("c", "2026-02-10T00:00:00Z"),
    ] {
        at(when, &["create", id, "--pattern", "p"]).ok();
        commit(&repo, &repo.wt(id), id, "x\n");
        at(when, &["mark", id, "rejected"]).ok();
        at(when, &["cleanup", "--delete-merged-branches"]).ok();
    }
    // At 2026-02-10, with the default 30 days, a's entry (40 days old) was
    // dropped by c's cleanup; b's (21 days) is kept.
    let names = |doc: &serde_json::Value| -> Vec<String> {
        doc.arr("trash")
            .iter()
            .map(|e| e.text("original").to_owned())
            .collect()
    };
    let doc = at("2026-02-10T00:00:00Z", &["--json", "trash"]).json();
    assert_eq!(
        names(&doc),
        ["refs/heads/loop/b", "refs/heads/loop/c"],
        "{doc}"
    );
    let log = fs::read_to_string(repo.loop_dir().join("events.jsonl")).unwrap();
    assert!(
        log.lines()
            .any(|l| l.contains("\"trash-expire\"") && l.contains("\"a\"")),
        "{log}"
    );
    // A dry run changes nothing.
    let dry = at(
        "2026-02-10T00:00:00Z",
        &[
            "--json",
            "trash",
            "empty",
            "--older-than",
            "7d",
            "--dry-run",
        ],
    );
    dry.ok();
    assert_eq!(names(&dry.json()), ["refs/heads/loop/b"]);
    let doc = at("2026-02-10T00:00:00Z", &["--json", "trash"]).json();
    assert_eq!(doc.arr("trash").len(), 2);
    at(
        "2026-02-10T00:00:00Z",
        &["trash", "empty", "--older-than", "7d"],
    )
    .ok();
    let doc = at("2026-02-10T00:00:00Z", &["--json", "trash"]).json();
    assert_eq!(names(&doc), ["refs/heads/loop/c"]);
    // A bad age is a usage error naming it.
    let bad = repo.run(["trash", "empty", "--older-than", "soon"]);
    bad.code(2);
    assert!(bad.stderr.contains("soon"), "{}", bad.stderr);
    at("2026-02-10T00:00:00Z", &["trash", "empty"]).ok();
    let doc = at("2026-02-10T00:00:00Z", &["--json", "trash"]).json();
    assert!(doc.arr("trash").is_empty());
    // trash.keep comes from config like every key.
    repo.git(["config", "loop.trashKeep", "12h"]);
    let shown = repo.run(["--json", "config"]).json();
    assert_eq!(shown["trash.keep"]["value"], "12h");
}

/// `trash empty` drops many entries in one transaction, each logged.
#[test]
fn trash_empty_drops_every_entry_and_logs_each() {
    let repo = TestRepo::new();
    for id in ["a", "b", "c"] {
        repo.create(id).ok();
        commit(&repo, &repo.wt(id), id, "x\n");
        repo.run(["mark", id, "rejected"]).ok();
    }
    TestRepo::output(
        repo.command()
            .env("GIT_LOOP_TEST_FORCE_MERGED", "1")
            .args(["cleanup", "--delete-merged-branches"]),
    )
    .ok();
    let doc = repo.run(["--json", "trash"]).json();
    assert_eq!(doc.arr("trash").len(), 3, "{doc}");
    let run = repo.run(["--json", "trash", "empty"]);
    run.ok();
    assert_eq!(run.json().arr("trash").len(), 3);
    let doc = repo.run(["--json", "trash"]).json();
    assert!(doc.arr("trash").is_empty(), "{doc}");
    assert!(repo.git(["for-each-ref", "refs/loop/trash/"]).is_empty());
    let log = fs::read_to_string(repo.loop_dir().join("events.jsonl")).unwrap();
    assert_eq!(log.matches("\"trash-expire\"").count(), 3, "{log}");
}

/// A per-worktree ref whose name is not UTF-8, in a reftable repository:
/// read through git and kept in the trash (by a lossy name) like any
/// other, never skipped.
#[test]
fn a_per_worktree_ref_named_in_bytes_survives_the_removal_in_a_reftable_repository() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let repo = TestRepo::new_with(&["--ref-format=reftable"]);
    repo.create("x").ok();
    let wt = repo.wt("x");
    git_in(&repo, &wt, &["checkout", "-q", "--detach"]);
    let lone = commit(&repo, &wt, "experiment", "only here\n");
    let name = OsStr::from_bytes(b"refs/worktree/exp\xff");
    let out = repo.git_in(&wt, [OsStr::new("update-ref"), name, OsStr::new(&lone)]);
    assert!(out.status.success(), "{out:?}");
    git_in(&repo, &wt, &["checkout", "-q", "loop/x"]);
    repo.run(["mark", "x", "rejected"]).ok();
    repo.run(["cleanup"]).ok();
    assert!(!wt.exists());
    assert!(
        !unreachable(&repo).contains(&lone),
        "{}",
        unreachable(&repo)
    );
}

/// `trash list` is a table: a header, aligned columns, what each entry was
/// (a branch by its short name) first and the name `trash restore` takes
/// last.
#[test]
fn trash_list_is_a_table_with_a_header() {
    let repo = TestRepo::new();
    repo.create("x").ok();
    repo.run(["mark", "x", "rejected"]).ok();
    repo.run(["cleanup", "--delete-merged-branches"]).ok();
    let run = repo.run(["trash", "list"]);
    run.ok();
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", run.stdout);
    let header = lines[0];
    assert!(header.starts_with("WAS "), "{header}");
    assert!(lines[1].starts_with("loop/x "), "{}", lines[1]);
    // Aligned: each column starts where its header does.
    for column in ["TIP", "TRASHED", "REASON", "NAME"] {
        let at = header.find(column).unwrap();
        assert_ne!(lines[1].as_bytes()[at], b' ', "{column}: {}", run.stdout);
        assert_eq!(
            lines[1].as_bytes()[at - 1],
            b' ',
            "{column}: {}",
            run.stdout
        );
    }
    assert!(lines[1].ends_with("/heads/loop/x"), "{}", lines[1]);
}
