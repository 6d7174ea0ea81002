//! A landing's gate and `judge`'s gates on a terminal (a tmux pane): a
//! status line redrawn in place (whose gate, `n of m`, the seconds, its
//! last line), nothing of it in a pipe, with `--json` or `-q`, or for a
//! gate quicker than the progress delay, and Ctrl-C says
//! what did and did not happen.

use std::time::Duration;

use crate::common::{TestRepo, commit, git_line};
use crate::land::setup;
use crate::watch::Pane;

/// A gate that prints lines and, for run `c` (or attempt `fix.2`), keeps
/// going until it is stopped.
const GATE: &str = "echo checking $GIT_LOOP_ID; \
    case $GIT_LOOP_ID in c|fix.2) echo slow test of $GIT_LOOP_ID; sleep 60;; esac; \
    echo passed";

/// Runs `a` … `d`, each with a commit of a file of its own.
fn four_runs() -> TestRepo {
    let repo = setup();
    for id in ["a", "b", "c", "d"] {
        repo.create(id);
        commit(&repo, &repo.wt(id), &format!("{id}.txt"), id);
    }
    repo
}

#[test]
fn the_gate_shows_its_progress_and_ctrl_c_says_what_landed_and_what_did_not() {
    let repo = four_runs();
    let main_before = git_line(&repo, &repo.root, &["rev-parse", "main"]);
    let c_tip = git_line(&repo, &repo.root, &["rev-parse", "loop/c"]);
    let pane = Pane::start(&repo);
    let log = repo.base().join("pane.log");
    pane.record(&log);
    // Through git, as a person runs it: git forwards the terminal's SIGINT.
    pane.type_line(&format!(
        "PATH=\"${{BIN%/*}}:$PATH\" git loop land a b c d --gate '{GATE}'; echo exit=$?"
    ));
    // The line: whose gate, its place, the seconds counting, its last line.
    let screen = pane.wait_for(
        |s| s.contains("gate of c (3 of 4): 2s: slow test of c"),
        "c's gate at 2 s",
    );
    // The gate's own output stays on the screen above the line.
    assert!(screen.contains("checking a"), "{screen}");
    pane.send(&["C-c"]);
    // git died of the SIGINT it forwarded: the shell drops the rest of the
    // line, and `$?` is 130.
    pane.wait_for(|s| s.contains("interrupted:"), "what Ctrl-C left");
    pane.type_line("echo exit=$?");
    let screen = pane.wait_for(|s| s.contains("exit=130"), "exit=130 after Ctrl-C");
    assert!(
        screen.contains(
            "git-loop: interrupted: landed a, b; c's gate stopped, nothing of c changed; d not started"
        ),
        "{screen}"
    );
    // Said once, though git-loop got both the terminal's SIGINT and git's.
    assert_eq!(screen.matches("interrupted:").count(), 1, "{screen}");
    // The line was erased before it: the message starts its own line.
    let said = screen.lines().find(|l| l.contains("interrupted:")).unwrap();
    assert!(said.starts_with("git-loop: interrupted:"), "{screen}");
    // What it said is so: a and b on main, c and d not, c's branch as it was.
    let main = git_line(&repo, &repo.root, &["rev-parse", "main"]);
    assert_ne!(main, main_before);
    let files = git_line(&repo, &repo.root, &["ls-tree", "--name-only", "-r", "main"]);
    assert!(
        files.contains("a.txt") && files.contains("b.txt"),
        "{files}"
    );
    assert!(
        !files.contains("c.txt") && !files.contains("d.txt"),
        "{files}"
    );
    assert_eq!(git_line(&repo, &repo.root, &["rev-parse", "loop/c"]), c_tip);
    let written = String::from_utf8_lossy(&std::fs::read(&log).unwrap()).into_owned();
    assert!(
        written.contains("\r\x1b[Kgate of c (3 of 4): "),
        "{written:?}"
    );
}

#[test]
fn no_progress_line_in_a_pipe_or_with_json_or_quiet_or_for_a_quick_gate() {
    let repo = four_runs();
    // A pipe: the gate's output as it comes, no line drawn.
    let run = repo.run(["land", "a", "--gate", "echo hello; sleep 1"]);
    run.ok();
    assert!(run.stderr.contains("hello"), "{}", run.stderr);
    assert!(!run.stderr.contains("gate of"), "{:?}", run.stderr);
    assert!(!run.stderr.contains('\r'), "{:?}", run.stderr);
    // A terminal's stderr, with --json and with -q: no line either.
    let pane = Pane::start(&repo);
    let log = repo.base().join("pane.log");
    pane.record(&log);
    pane.type_line("\"$BIN\" --json land b --gate 'echo hello; sleep 2' >/dev/null; echo exit=$?");
    pane.wait_for(|s| s.contains("exit=0"), "exit=0");
    pane.type_line("\"$BIN\" -q land c --gate 'echo hi; sleep 2'; echo done=$?");
    pane.wait_within(Duration::from_secs(60), |s| s.contains("done=0"), "done=0");
    // A quick gate on a terminal: nothing before the progress delay.
    pane.type_line("\"$BIN\" land d --gate 'echo quick'; echo quick=$?");
    pane.wait_for(|s| s.contains("quick=0"), "quick=0");
    let written = String::from_utf8_lossy(&std::fs::read(&log).unwrap()).into_owned();
    assert!(written.contains("hello"), "{written:?}");
    assert!(!written.contains("gate of"), "{written:?}");
}

/// `judge` on a terminal: the line counts the gates and shows an
/// attempt's last line (from its log); Ctrl-C says which passed, which
/// stopped, and that nothing was recorded.
#[test]
fn judge_shows_its_progress_and_ctrl_c_says_what_it_left() {
    let repo = setup();
    for n in 1..=3 {
        let id = format!("fix.{n}");
        repo.run(["create", &id, "--pattern", "x"]).ok();
        commit(&repo, &repo.wt(&id), &format!("{n}.txt"), "x");
    }
    let pane = Pane::start(&repo);
    pane.type_line(&format!(
        "\"$BIN\" judge fix --jobs 1 --gate '{GATE}'; echo exit=$?"
    ));
    pane.wait_for(
        |s| {
            s.contains("judge fix: 1 passed, 0 failed, 1 running of 3: ")
                && s.contains("fix.2: slow test of fix.2")
        },
        "judge's line with fix.2's last line",
    );
    pane.send(&["C-c"]);
    let screen = pane.wait_for(|s| s.contains("exit=130"), "exit=130 after Ctrl-C");
    assert!(
        screen.contains(
            "git-loop: interrupted: judge of fix stopped: fix.1 passed; fix.2's gate stopped; fix.3 not started; nothing recorded"
        ),
        "{screen}"
    );
    let log = repo.run(["log"]);
    assert!(!log.stdout.contains("judge"), "{}", log.stdout);
}
