//! `git loop judge <TASK>`: the gate in every active attempt, the order on
//! evidence (passed, conflicts with the base, agreement, size, time), the
//! worktrees left as the attempts left them, a hung gate killed, a gate
//! that writes reported, trust, the logs in the common dir, the events.
//!
//! The fixture: a small shell test suite (`test.sh` testing `lib.sh`'s
//! `add`, which subtracts) and five attempts of the task `fix`:
//! - fix.1 "fixes" add into a product (fails), one hunk of 2 lines;
//! - fix.2 edits the README only (fails), one hunk of 4 lines;
//! - fix.3 makes the right fix and bumps VERSION, which the base then
//!   changes too (passes, conflicts with the base), 2 hunks, 4 lines;
//! - fix.4 makes the right fix alone (passes), 1 hunk, 2 lines;
//! - fix.5 makes the right fix and adds a comment (passes), 2 hunks, 3
//!   lines, and has an untracked file (dirty).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{JsonExt, TestRepo, git_line, git_ok};

const LIB: &str = "\
# lib.sh: the functions test.sh checks
VERSION=1

mul() { echo $(( $1 * $2 )); }

sub() { echo $(( $1 - $2 )); }

add() { echo $(( $1 - $2 )); }

neg() { echo $(( 0 - $1 )); }
";

const TEST: &str = "\
. ./lib.sh
[ \"$(add 2 3)\" = 5 ] || { echo \"FAIL add 2 3 = $(add 2 3)\"; exit 1; }
[ \"$(mul 2 3)\" = 6 ] || { echo \"FAIL mul\"; exit 1; }
echo \"ok $GIT_LOOP_ID\"
";

const FIX: (&str, &str) = (
    "add() { echo $(( $1 - $2 )); }",
    "add() { echo $(( $1 + $2 )); }",
);

const GATE: &str = "sh ./test.sh";

fn setup() -> TestRepo {
    let repo = TestRepo::new();
    std::fs::write(repo.root.join("lib.sh"), LIB).unwrap();
    std::fs::write(repo.root.join("test.sh"), TEST).unwrap();
    std::fs::write(repo.root.join("README.md"), "# calc\nline one\nline two\n").unwrap();
    std::fs::write(repo.root.join(".gitignore"), ".loop-worktrees/\n*.cache\n").unwrap();
    repo.git(["add", "."]);
    repo.git(["commit", "-q", "-m", "calc"]);
    repo
}

/// Commit `file` of attempt `id` rewritten by `edit`.
fn edit(repo: &TestRepo, id: &str, file: &str, edit: impl Fn(String) -> String) {
    let dir = repo.wt(id);
    let text = std::fs::read_to_string(dir.join(file)).unwrap();
    let changed = edit(text.clone());
    assert_ne!(changed, text, "{id}: the edit changes nothing");
    std::fs::write(dir.join(file), changed).unwrap();
    git_ok(
        repo,
        &dir,
        &["commit", "-q", "-am", &format!("{id}: {file}")],
    );
}

/// The five attempts of the module doc, then the base moved.
fn five_attempts() -> TestRepo {
    let repo = setup();
    for n in 1..=5 {
        repo.run(["create", &format!("fix.{n}"), "--pattern", "x"])
            .ok();
    }
    edit(&repo, "fix.1", "lib.sh", |t| {
        t.replace(FIX.0, "add() { echo $(( $1 * $2 )); }")
    });
    edit(&repo, "fix.2", "README.md", |t| {
        t.replace("line one\nline two", "line 1\nline 2")
    });
    edit(&repo, "fix.3", "lib.sh", |t| {
        t.replace(FIX.0, FIX.1).replace("VERSION=1", "VERSION=2")
    });
    edit(&repo, "fix.4", "lib.sh", |t| t.replace(FIX.0, FIX.1));
    edit(&repo, "fix.5", "lib.sh", |t| {
        t.replace(FIX.0, FIX.1)
            .replace("neg()", "# negation\nneg()")
    });
    std::fs::write(repo.wt("fix.5").join("notes.txt"), "my notes\n").unwrap();
    // The base moves on after the attempts were made: VERSION changes.
    let lib = std::fs::read_to_string(repo.root.join("lib.sh")).unwrap();
    std::fs::write(
        repo.root.join("lib.sh"),
        lib.replace("VERSION=1", "VERSION=3"),
    )
    .unwrap();
    repo.git(["commit", "-q", "-am", "version 3"]);
    repo
}

/// What must not change in a worktree: `git status` (read without
/// refreshing the index), the index file's bytes, each tracked file's
/// mtime.
fn state(repo: &TestRepo, id: &str) -> (String, Vec<u8>, BTreeMap<String, std::time::SystemTime>) {
    let dir = repo.wt(id);
    let index = std::fs::read(repo.root.join(".git/worktrees").join(id).join("index")).unwrap();
    let status = git_ok(
        repo,
        &dir,
        &[
            "--no-optional-locks",
            "status",
            "--porcelain=v2",
            "--untracked-files=all",
        ],
    );
    let mtimes = git_ok(repo, &dir, &["ls-files"])
        .lines()
        .map(|f| {
            let meta = std::fs::symlink_metadata(dir.join(f)).unwrap();
            (f.to_owned(), meta.modified().unwrap())
        })
        .collect();
    (status, index, mtimes)
}

fn log_of(repo: &TestRepo, id: &str) -> std::path::PathBuf {
    repo.root
        .join(".git/git-loop/judge")
        .join(id.split('.').next().unwrap())
        .join(format!("{id}.log"))
}

fn judge_events(repo: &TestRepo) -> Vec<Value> {
    let text = std::fs::read_to_string(repo.loop_dir().join("events.jsonl")).unwrap();
    text.lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|e| e["event"] == "judge")
        .collect()
}

fn figures(j: &Value) -> (bool, bool, f64, u64, u64, bool) {
    (
        j["passed"].as_bool().unwrap(),
        j["conflictsWithBase"].as_bool().unwrap(),
        j["agreement"].as_f64().unwrap(),
        j["linesChanged"].as_u64().unwrap(),
        j["filesChanged"].as_u64().unwrap(),
        j["dirty"].as_bool().unwrap(),
    )
}

/// The columns of the attempts' table, judge's and `list --task`'s alike.
pub const ATTEMPTS_HEADER: [&str; 10] = [
    "RANK",
    "ATTEMPT",
    "STATUS",
    "GATE",
    "BASE",
    "AGREEMENT",
    "LINES",
    "FILES",
    "SECONDS",
    "NOTES",
];

#[test]
fn five_attempts_are_ranked_on_evidence_and_left_as_they_were() {
    let repo = five_attempts();
    let ids = ["fix.1", "fix.2", "fix.3", "fix.4", "fix.5"];
    let before: Vec<_> = ids.iter().map(|id| state(&repo, id)).collect();
    let run = repo.run(["judge", "fix", "--gate", GATE, "--json"]);
    run.ok();
    let doc = run.json();
    assert_eq!(doc["task"], "fix");
    assert_eq!(doc["gate"], GATE);
    assert_eq!(
        doc.ids("attempts"),
        ["fix.4", "fix.5", "fix.3", "fix.1", "fix.2"],
        "{doc:#}"
    );
    let expected = [
        ("fix.4", (true, false, 1.0, 2, 1, false), Some(0)),
        ("fix.5", (true, false, 0.5, 3, 1, true), Some(0)),
        ("fix.3", (true, true, 0.5, 4, 1, false), Some(0)),
        ("fix.1", (false, false, 0.0, 2, 1, false), Some(1)),
        ("fix.2", (false, false, 0.0, 4, 1, false), Some(1)),
    ];
    for (rank, (id, figs, code)) in expected.iter().enumerate() {
        let j = doc.find_id("attempts", id);
        assert_eq!(&figures(j), figs, "{id}: {j}");
        assert_eq!(j["rank"], rank as u64 + 1, "{j}");
        assert_eq!(j["exitCode"].as_i64(), code.map(i64::from), "{j}");
        assert_eq!(j["timedOut"], false, "{j}");
        assert_eq!(j["wroteToWorktree"], false, "{j}");
        assert_eq!(j["task"], "fix");
        let tip = git_line(&repo, &repo.root, &["rev-parse", &format!("loop/{id}")]);
        assert_eq!(j["head"], tip.as_str(), "{j}");
        let seconds = j["seconds"].as_f64().unwrap();
        assert!((0.0..30.0).contains(&seconds), "{j}");
    }
    // Byte for byte as the attempts left them.
    for (id, was) in ids.iter().zip(&before) {
        assert_eq!(&state(&repo, id), was, "{id} changed");
    }
    // The output of each gate is in the common dir, not in the worktree.
    let log = std::fs::read_to_string(log_of(&repo, "fix.1")).unwrap();
    assert!(log.contains("FAIL add 2 3 = 6"), "{log}");
    let log = std::fs::read_to_string(log_of(&repo, "fix.4")).unwrap();
    assert_eq!(log, "ok fix.4\n");
    for id in ids {
        let names: Vec<String> = std::fs::read_dir(repo.wt(id))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert!(
            !names.iter().any(|n| n.ends_with(".log")),
            "{id}: {names:?}"
        );
    }
    // One judge event per attempt, its detail the judgement.
    let events = judge_events(&repo);
    assert_eq!(events.len(), 5, "{events:?}");
    for e in &events {
        let detail: Value = serde_json::from_str(e["detail"].as_str().unwrap()).unwrap();
        assert_eq!(&detail, doc.find_id("attempts", e.text("id")), "{e}");
        assert_eq!(e["to"], detail["head"], "{e}");
    }
}

#[test]
fn the_table_marks_the_leader_and_shows_every_figure() {
    let repo = five_attempts();
    let run = repo.run(["judge", "fix", "--gate", GATE, "--jobs", "2"]);
    run.ok();
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 6, "{}", run.stdout);
    let words = |l: &str| l.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
    // list --task's columns too (attempts.rs holds list's to them).
    assert_eq!(words(lines[0]), ATTEMPTS_HEADER, "{}", run.stdout);
    let leader = words(lines[1]);
    assert_eq!(
        leader[..9],
        [
            "1", "leader", "fix.4", "active", "passed", "clean", "1.00", "2", "1"
        ]
    );
    let second = words(lines[2]);
    assert_eq!(
        second[..8],
        ["2", "fix.5", "active", "passed", "clean", "0.50", "3", "1"]
    );
    assert!(lines[2].ends_with("dirty"), "{}", lines[2]);
    assert_eq!(
        words(lines[3])[..5],
        ["3", "fix.3", "active", "passed", "conflicts"]
    );
    assert_eq!(words(lines[4])[..5], ["4", "fix.1", "active", "exit", "1"]);
    assert_eq!(words(lines[5])[..5], ["5", "fix.2", "active", "exit", "1"]);
    assert!(
        run.stderr.contains("judged 5 attempts of fix: 3 passed"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_hung_gate_is_killed_at_the_timeout_and_reported() {
    let repo = setup();
    repo.run(["create", "t.1", "--pattern", "x"]).ok();
    repo.run(["create", "t.2", "--pattern", "x"]).ok();
    let start = Instant::now();
    // t.1 hangs (and leaves a child that would hold the pipe); t.2 passes.
    let gate = r#"if [ "$GIT_LOOP_ID" = t.1 ]; then sleep 60 & sleep 60; fi; echo done"#;
    let run = repo.run(["judge", "t", "--gate", gate, "--timeout", "1s", "--json"]);
    run.ok();
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    let doc = run.json();
    assert_eq!(doc.ids("attempts"), ["t.2", "t.1"]);
    let hung = doc.find_id("attempts", "t.1");
    assert_eq!(hung["timedOut"], true, "{hung}");
    assert_eq!(hung["passed"], false, "{hung}");
    assert!(hung.get("exitCode").is_none(), "{hung}");
    assert!(hung["seconds"].as_f64().unwrap() >= 1.0, "{hung}");
    // Every attempt hangs: none passed, exit 1, and the table says timeout.
    let run = repo.run(["judge", "t", "--gate", "sleep 60", "--timeout", "1s"]);
    run.code(1);
    assert!(run.stdout.contains("timeout"), "{}", run.stdout);
}

#[test]
fn a_gate_that_writes_into_the_worktree_is_reported_and_an_ignored_file_is_not() {
    let repo = setup();
    repo.run(["create", "w.1", "--pattern", "x"]).ok();
    repo.run(["create", "w.2", "--pattern", "x"]).ok();
    let gate =
        r#"if [ "$GIT_LOOP_ID" = w.1 ]; then echo x > out.txt; else echo x > build.cache; fi"#;
    let run = repo.run(["judge", "w", "--gate", gate, "--json"]);
    run.ok();
    let doc = run.json();
    assert_eq!(doc.find_id("attempts", "w.1")["wroteToWorktree"], true);
    assert_eq!(doc.find_id("attempts", "w.2")["wroteToWorktree"], false);
    // Allowed: what it wrote is left there.
    assert!(repo.wt("w.1").join("out.txt").is_file());
    // Touching a tracked file without changing it is a write too.
    let run = repo.run(["judge", "w", "--gate", "sleep 0.05; touch lib.sh", "--json"]);
    let doc = run.json();
    assert_eq!(
        doc.find_id("attempts", "w.2")["wroteToWorktree"],
        true,
        "{doc}"
    );
}

#[test]
fn a_gate_from_the_repository_file_runs_only_once_trusted() {
    let repo = setup();
    std::fs::write(
        repo.root.join(".git-loop.toml"),
        "[judge]\ngate = \"sh ./test.sh\"\n",
    )
    .unwrap();
    repo.git(["add", ".git-loop.toml"]);
    repo.git(["commit", "-q", "-m", "judge gate"]);
    repo.run(["create", "g.1", "--pattern", "x"]).ok();
    let run = repo.run(["judge", "g", "--json"]);
    run.code(1);
    assert_eq!(
        run.json()["error"]["code"],
        "untrusted-hook",
        "{}",
        run.stdout
    );
    assert!(run.stderr.contains("judge.gate"), "{}", run.stderr);
    assert!(!log_of(&repo, "g.1").exists());
    assert!(judge_events(&repo).is_empty());
    repo.run(["trust"]).ok();
    let run = repo.run(["judge", "g", "--json"]);
    // Trusted, it runs (add still subtracts: the gate fails, exit 1).
    run.code(1);
    assert_eq!(run.json().find_id("attempts", "g.1")["exitCode"], 1);
    // An attempt that changed the script it names is refused, naming it.
    edit(&repo, "g.1", "test.sh", |t| format!("{t}exit 0\n"));
    let run = repo.run(["judge", "g", "--json"]);
    run.code(1);
    assert_eq!(
        run.json()["error"]["code"],
        "untrusted-hook",
        "{}",
        run.stdout
    );
    assert!(run.stderr.contains("test.sh"), "{}", run.stderr);
}

#[test]
fn no_gate_and_no_attempts_are_refused_naming_what_is_missing() {
    let repo = setup();
    repo.run(["create", "n.1", "--pattern", "x"]).ok();
    let run = repo.run(["judge", "n", "--json"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "no-gate");
    assert!(
        run.stderr.contains("--gate") && run.stderr.contains("judge.gate"),
        "{}",
        run.stderr
    );
    let run = repo.run(["judge", "other", "--gate", "true", "--json"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "no-attempts");
    assert!(run.stderr.contains("\"other\""), "{}", run.stderr);
    // A finished attempt is not judged.
    repo.run(["mark", "n.1", "rejected"]).ok();
    let run = repo.run(["judge", "n", "--gate", "true"]);
    run.code(1);
    // The gate from git config.
    repo.run(["create", "n.2", "--pattern", "x"]).ok();
    repo.git(["config", "loop.judgeGate", "true"]);
    let run = repo.run(["judge", "n", "--json"]);
    run.ok();
    assert_eq!(run.json()["gate"], "true");
    assert_eq!(run.json().ids("attempts"), ["n.2"]);
    let run = repo.run(["judge", "n", "--jobs", "0"]);
    run.code(2);
}

#[test]
fn ctrl_c_kills_every_running_gate_and_exits_130() {
    let repo = setup();
    repo.run(["create", "c.1", "--pattern", "x"]).ok();
    repo.run(["create", "c.2", "--pattern", "x"]).ok();
    let pids = tempfile::tempdir().unwrap();
    let gate = format!(
        "echo $$ > '{}'/\"$GIT_LOOP_ID\"; sleep 60 & sleep 60",
        pids.path().display()
    );
    let mut child = crate::common::spawn(&repo, &["judge", "c", "--gate", &gate, "--jobs", "2"]);
    let deadline = Instant::now() + Duration::from_secs(30);
    let groups: Vec<String> = loop {
        let found: Vec<String> = ["c.1", "c.2"]
            .iter()
            .filter_map(|id| std::fs::read_to_string(pids.path().join(id)).ok())
            .map(|p| p.trim().to_owned())
            .filter(|p| !p.is_empty())
            .collect();
        if found.len() == 2 {
            break found;
        }
        assert!(Instant::now() < deadline, "the gates did not start");
        std::thread::sleep(Duration::from_millis(50));
    };
    crate::common::kill(&child, "INT");
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "judge did not exit on SIGINT");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(status.code(), Some(130), "{status}");
    for pgid in groups {
        let alive = std::process::Command::new("kill")
            .args(["-0", "--", &format!("-{pgid}")])
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap()
            .success();
        assert!(!alive, "the gate's process group {pgid} is still running");
    }
    assert!(judge_events(&repo).is_empty());
}

/// An attempt with no commits of its own changes nothing: the base's own
/// tests pass there, but that proves nothing of a fix. It ranks last, with
/// a note, however its gate did; `pick` warns before escalating it.
#[test]
fn an_attempt_that_changes_nothing_ranks_last_and_pick_warns() {
    let repo = setup();
    for n in 1..=2 {
        repo.run(["create", &format!("fix.{n}"), "--pattern", "x"])
            .ok();
    }
    // fix.1 makes the right fix; fix.2 does nothing at all.
    edit(&repo, "fix.1", "lib.sh", |t| t.replace(FIX.0, FIX.1));
    let run = repo.run(["judge", "fix", "--gate", "true", "--json"]);
    run.ok();
    let attempts = run.json()["attempts"].as_array().unwrap().clone();
    assert_eq!(attempts[0]["id"], "fix.1", "{}", run.json());
    assert_eq!(attempts[1]["id"], "fix.2", "{}", run.json());
    assert_eq!(attempts[1]["rank"], 2, "{}", run.json());
    let text = repo.run(["judge", "fix", "--gate", "true"]);
    text.ok();
    assert!(
        text.stderr.contains(
            "note: fix.2 changes no file against its base (no commits of its own): ranked last"
        ),
        "{}",
        text.stderr
    );
    assert!(
        text.stdout.contains("changes nothing: ranked last"),
        "{}",
        text.stdout
    );
    let pick = repo.run(["pick", "fix.2", "--dry-run"]);
    assert!(
        pick.stderr
            .contains("warning: fix.2 changes no file against its base"),
        "{}",
        pick.stderr
    );
}

/// judge's summary names where the logs are as a path to paste: the
/// directory exists and holds each attempt's log.
#[test]
fn the_summary_names_the_logs_as_a_path_to_paste() {
    let repo = setup();
    repo.run(["create", "fix.1", "--pattern", "x"]).ok();
    let run = repo.run(["judge", "fix", "--gate", "true"]);
    run.ok();
    let line = run
        .stderr
        .lines()
        .find(|l| l.starts_with("judged "))
        .unwrap_or_else(|| panic!("{}", run.stderr));
    let dir = line
        .rsplit_once("logs in ")
        .unwrap()
        .1
        .trim_end_matches('/');
    let dir = std::path::Path::new(dir);
    assert!(dir.is_absolute(), "{line}");
    assert!(dir.join("fix.1.log").is_file(), "{line}");
}
