//! What a person at a terminal reads: stdout and stderr in the order they
//! were written (on a pseudo-terminal, through `2>&1`, into one file),
//! colour as git decides it (`color.loop`, `color.ui`, then `NO_COLOR` /
//! `CLICOLOR_FORCE`), and `--quiet` everywhere.

use std::fs;
use std::process::Command;

use crate::common::{BIN, TestRepo, make_dirty};

/// Run `sh -c <script>` in the repository, hermetic, with `$BIN` set to
/// git-loop; its combined output. `script -qec` gives it a pseudo-terminal.
fn shell(repo: &TestRepo, script: &str, envs: &[(&str, &str)]) -> String {
    let mut cmd = Command::new("sh");
    crate::common::hermetic(&mut cmd, &repo.home);
    cmd.current_dir(&repo.root)
        .env("TERM", "xterm")
        .env("BIN", BIN)
        .args(["-c", script]);
    for (k, v) in envs {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{script}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().replace("\r\n", "\n")
}

/// `git loop <args>` with stdout and stderr on one pseudo-terminal.
fn on_pty(repo: &TestRepo, args: &str, envs: &[(&str, &str)]) -> String {
    shell(
        repo,
        &format!("script -qec '\"$BIN\" {args}' /dev/null"),
        envs,
    )
}

/// The position of each of `lines` in `text`, which must hold them in
/// this order.
fn assert_in_order(text: &str, lines: &[&str]) {
    let mut at = 0;
    for line in lines {
        match text[at..].find(line) {
            Some(i) => at += i + line.len(),
            None => panic!("{line:?} missing, or out of order, in:\n{text}"),
        }
    }
}

/// Two rejected runs, the second holding untracked work.
fn one_removable_one_dirty() -> TestRepo {
    let repo = TestRepo::new();
    for id in ["s1", "s2"] {
        repo.create(id);
        repo.run(["mark", id, "rejected"]).ok();
    }
    fs::write(repo.wt("s2").join("wip"), "x").unwrap();
    repo
}

#[test]
fn cleanup_reads_in_order_on_a_terminal_and_through_one_pipe_or_file() {
    let order = [
        "removed s1 (.loop-worktrees/s1)",
        "skipped s2: ",
        "removed 1, skipped 1 (untracked)",
        "hint: a skipped worktree",
    ];
    let repo = one_removable_one_dirty();
    assert_in_order(&on_pty(&repo, "cleanup", &[]), &order);

    let repo = one_removable_one_dirty();
    assert_in_order(&shell(&repo, "\"$BIN\" cleanup 2>&1", &[]), &order);

    let repo = one_removable_one_dirty();
    let log = repo.home.join("log");
    let log_arg = log.display().to_string();
    shell(
        &repo,
        "\"$BIN\" cleanup >\"$LOG\" 2>&1",
        &[("LOG", log_arg.as_str())],
    );
    assert_in_order(&fs::read_to_string(&log).unwrap(), &order);

    // Apart, each stream is whole: the details on stdout, the notes on
    // stderr.
    let repo = one_removable_one_dirty();
    let run = repo.run(["cleanup"]);
    run.ok();
    assert_in_order(&run.stdout, &order[..2]);
    assert_in_order(&run.stderr, &order[2..]);
}

#[test]
fn remove_salvage_reads_in_order_on_a_terminal() {
    let repo = TestRepo::new();
    repo.create("s1");
    repo.run(["mark", "s1", "rejected"]).ok();
    make_dirty(&repo, "s1");
    let text = on_pty(&repo, "remove s1 --salvage", &[]);
    assert_in_order(
        &text,
        &[
            "removed s1 (.loop-worktrees/s1)",
            "salvaged to refs/loop/salvage/s1",
            "removed 1, skipped 0",
        ],
    );
}

/// `git <args> | cat` through git itself (so `git -c` reaches git-loop as
/// git passes it, in `GIT_CONFIG_PARAMETERS`), git-loop first on `PATH`.
fn through_git(repo: &TestRepo, args: &str, envs: &[(&str, &str)]) -> String {
    let dir = std::path::Path::new(BIN)
        .parent()
        .unwrap()
        .display()
        .to_string();
    let path = format!("{dir}:{}", std::env::var("PATH").unwrap_or_default());
    let mut all = vec![("PATH", path.as_str())];
    all.extend_from_slice(envs);
    shell(repo, &format!("git {args} | cat"), &all)
}

const BOLD_ID: &str = "\x1b[1mID\x1b[0m";

#[test]
fn colour_follows_color_loop_then_color_ui_then_the_environment() {
    let repo = TestRepo::new();
    repo.create("a");
    // color.ui=always colours a pipe; never and false do not, on a terminal
    // either.
    for args in [
        "-c color.ui=always loop list",
        "-c color.ui=ALWAYS loop list",
    ] {
        let text = through_git(&repo, args, &[]);
        assert!(text.contains(BOLD_ID), "{args}: {text:?}");
        assert!(text.contains("\x1b[32mactive\x1b[0m"), "{args}: {text:?}");
    }
    assert!(!through_git(&repo, "loop list", &[]).contains('\x1b'));
    for value in ["never", "false"] {
        let text = on_pty(
            &repo,
            "list",
            &[("GIT_CONFIG_PARAMETERS", &format!("'color.ui'='{value}'"))],
        );
        assert!(
            text.contains("active") && !text.contains('\x1b'),
            "{value}: {text:?}"
        );
    }
    assert!(on_pty(&repo, "list", &[]).contains(BOLD_ID));

    // The setting beats the environment: color.loop=never over
    // CLICOLOR_FORCE, color.ui=always over NO_COLOR.
    let forced = [("CLICOLOR_FORCE", "1")];
    assert!(through_git(&repo, "loop list", &forced).contains(BOLD_ID));
    let text = through_git(&repo, "-c color.loop=never loop list", &forced);
    assert!(!text.contains('\x1b'), "{text:?}");
    let text = through_git(&repo, "-c color.ui=always loop list", &[("NO_COLOR", "1")]);
    assert!(text.contains(BOLD_ID), "{text:?}");
    // auto and true leave it to the environment.
    for value in ["auto", "true"] {
        let args = format!("-c color.ui={value} loop list");
        assert!(
            through_git(&repo, &args, &forced).contains(BOLD_ID),
            "{value}"
        );
        assert!(!through_git(&repo, &args, &[]).contains('\x1b'), "{value}");
    }

    // color.loop before color.ui, from the repository's own config as
    // well as from the command line.
    repo.git(["config", "color.ui", "always"]);
    assert!(through_git(&repo, "loop list", &[]).contains(BOLD_ID));
    repo.git(["config", "color.loop", "never"]);
    assert!(!through_git(&repo, "loop list", &[]).contains('\x1b'));
    let text = through_git(&repo, "-c color.loop=always loop list", &[]);
    assert!(text.contains(BOLD_ID), "{text:?}");
    // --json is never coloured.
    let json = through_git(&repo, "-c color.loop=always loop --json list", &[]);
    assert!(!json.contains('\x1b'), "{json:?}");
    repo.git(["config", "--unset", "color.loop"]);
    repo.git(["config", "--unset", "color.ui"]);

    // A value git would refuse: a warning naming it, and the terminal decides.
    let run = TestRepo::output(
        repo.command()
            .arg("list")
            .env("GIT_CONFIG_PARAMETERS", "'color.ui'='sometimes'"),
    );
    run.ok();
    assert!(!run.stdout.contains('\x1b'));
    assert!(
        run.stderr
            .contains("warning: color.ui: \"sometimes\" is not never, auto, always or a boolean"),
        "{}",
        run.stderr
    );
}

#[test]
fn quiet_silences_pool_fill_and_drain() {
    let repo = TestRepo::new();
    let run = repo.run(["-q", "pool", "fill", "1"]);
    run.ok();
    assert_eq!(run.stderr, "", "fill -q");
    assert!(
        run.stdout.starts_with("pool: 1 member (1 ready)"),
        "{}",
        run.stdout
    );
    let run = repo.run(["pool", "fill", "2"]);
    run.ok();
    assert!(
        run.stderr.contains("prepared .loop-worktrees/.pool/"),
        "{}",
        run.stderr
    );
    let run = repo.run(["pool", "drain", "--quiet"]);
    run.ok();
    assert_eq!(run.stderr, "", "drain -q");
    assert!(run.stdout.starts_with("pool: 0 members"), "{}", run.stdout);
}

#[test]
fn pool_fill_counts_its_checkouts_on_a_terminal_only() {
    let repo = TestRepo::new();
    let text = on_pty(&repo, "pool fill 2", &[]);
    assert!(
        text.contains("\r\x1b[Kchecking out pool members: 2/2 done\r\x1b[K"),
        "drawn, then erased: {text:?}"
    );
    assert!(text.contains("prepared .loop-worktrees/.pool/"), "{text:?}");
    repo.run(["pool", "drain"]).ok();
    let quiet = on_pty(&repo, "-q pool fill 2", &[]);
    assert!(!quiet.contains("checking out"), "{quiet:?}");
    repo.run(["pool", "drain"]).ok();
    let run = repo.run(["pool", "fill", "2"]);
    run.ok();
    assert!(!run.stderr.contains("checking out"), "{}", run.stderr);
    assert!(!run.stderr.contains('\x1b'), "{}", run.stderr);
}

/// A repository whose checkout git reports progress for (300 files;
/// `GIT_PROGRESS_DELAY=0` makes git draw it at once instead of after 2 s).
fn repo_with_files() -> TestRepo {
    let repo = TestRepo::new();
    fs::create_dir(repo.root.join("d")).unwrap();
    for i in 0..300 {
        fs::write(repo.root.join(format!("d/f{i}")), format!("{i}\n")).unwrap();
    }
    repo.git(["add", "d"]);
    repo.git(["commit", "-q", "-m", "files"]);
    repo
}

const NOW: [(&str, &str); 1] = [("GIT_PROGRESS_DELAY", "0")];

#[test]
fn create_passes_gits_checkout_progress_to_a_terminal_only() {
    let repo = repo_with_files();
    let text = on_pty(&repo, "create a --pattern p", &NOW);
    assert_in_order(
        &text,
        &[
            "Updating files:   0% (1/301)\r",
            "Updating files: 100% (301/301), done.\n",
            "created .loop-worktrees/a on branch loop/a",
        ],
    );
    assert!(
        !text.contains("Preparing worktree"),
        "only the progress: {text:?}"
    );
    let quiet = on_pty(&repo, "-q create b --pattern p", &NOW);
    assert!(!quiet.contains("Updating files"), "{quiet:?}");
    let mut cmd = repo.command();
    cmd.args(["create", "c", "--pattern", "p"]).envs(NOW);
    let run = TestRepo::output(&mut cmd);
    run.ok();
    assert!(!run.stderr.contains("Updating files"), "{}", run.stderr);

    // What git said is still read whole, without the progress: a failing
    // post-checkout hook is a warning quoting it.
    let hook = repo.root.join(".git/hooks/post-checkout");
    fs::write(&hook, "#!/bin/sh\necho hook-said-no >&2\nexit 1\n").unwrap();
    crate::common::make_executable(&hook);
    for text in [
        on_pty(&repo, "create d --pattern p", &NOW),
        TestRepo::output(
            repo.command()
                .args(["create", "e", "--pattern", "p"])
                .envs(NOW),
        )
        .stderr,
    ] {
        let warning = text
            .lines()
            .find(|l| l.starts_with("warning: the post-checkout hook failed"))
            .unwrap_or_else(|| panic!("{text:?}"));
        assert!(warning.contains("hook-said-no"), "{warning}");
        assert!(!warning.contains("Updating files"), "{warning}");
    }
}

/// `claude-hook create` run by hand on a terminal says at once that it
/// reads a hook's JSON from stdin, instead of waiting on a silent read.
#[test]
fn claude_hook_on_a_terminal_says_it_reads_the_hooks_json() {
    let repo = TestRepo::new();
    let text = shell(
        &repo,
        "timeout 20 script -qc '\"$BIN\" claude-hook create; echo \"rc=$?\"' /dev/null </dev/null",
        &[],
    );
    assert!(text.contains("standard input is a terminal"), "{text}");
    assert!(text.contains("rc=1"), "{text}");
    assert!(!repo.root.join(".loop-worktrees").exists(), "{text}");
}

/// A pager that records what it was given (its `LESS` and `LV`, then its
/// stdin) in `$HOME/paged`, and says it ran.
fn recording_pager(repo: &TestRepo) -> String {
    let pager = repo.home.join("pager");
    fs::write(
        &pager,
        "#!/bin/sh\n{ echo \"LESS=$LESS LV=$LV\"; cat; } >\"$HOME/paged\"\necho pager-ran\n",
    )
    .unwrap();
    crate::common::make_executable(&pager);
    pager.display().to_string()
}

/// What the recording pager was given, and forget it.
fn paged(repo: &TestRepo) -> Option<String> {
    let file = repo.home.join("paged");
    let text = fs::read_to_string(&file).ok();
    let _ = fs::remove_file(&file);
    text
}

#[test]
fn log_pages_on_a_terminal_as_git_log_does() {
    let repo = TestRepo::new();
    repo.create("a");
    let pager = recording_pager(&repo);
    let event = " create        a";

    // GIT_PAGER on a terminal: the log goes through it, with git's LESS
    // and LV, and not to the terminal.
    let text = on_pty(&repo, "log", &[("GIT_PAGER", &pager)]);
    assert!(text.contains("pager-ran"), "{text:?}");
    assert!(!text.contains(event), "{text:?}");
    let given = paged(&repo).expect("the pager ran");
    assert!(given.starts_with("LESS=FRX LV=-c\n"), "{given:?}");
    assert!(given.contains(event), "{given:?}");
    // LESS and LV of the user's own are kept.
    on_pty(
        &repo,
        "log",
        &[("GIT_PAGER", &pager), ("LESS", "R"), ("LV", "x")],
    );
    assert!(paged(&repo).unwrap().starts_with("LESS=R LV=x\n"));

    // Piped, with --json, or with `cat` or an empty value: no pager.
    for (script, envs) in [
        ("\"$BIN\" log | cat", vec![("GIT_PAGER", pager.as_str())]),
        (
            "script -qec '\"$BIN\" --json log' /dev/null",
            vec![("GIT_PAGER", pager.as_str())],
        ),
        (
            "script -qec '\"$BIN\" log' /dev/null",
            vec![("GIT_PAGER", "cat")],
        ),
        (
            "script -qec '\"$BIN\" log' /dev/null",
            vec![("GIT_PAGER", ""), ("PAGER", pager.as_str())],
        ),
    ] {
        let text = shell(&repo, script, &envs);
        assert!(!text.contains("pager-ran"), "{script} {envs:?}: {text:?}");
        assert!(text.contains('a'), "{script} {envs:?}: {text:?}");
        assert_eq!(paged(&repo), None, "{script} {envs:?}");
    }

    // core.pager (the repository's, then `git -c`), then PAGER.
    repo.git(["config", "core.pager", &pager]);
    assert!(on_pty(&repo, "log", &[]).contains("pager-ran"));
    assert!(paged(&repo).unwrap().contains(event));
    let params = [("GIT_CONFIG_PARAMETERS", "'core.pager'='cat'")];
    let text = on_pty(&repo, "log", &params);
    assert!(
        text.contains(event) && !text.contains("pager-ran"),
        "{text:?}"
    );
    repo.git(["config", "--unset", "core.pager"]);
    assert!(on_pty(&repo, "log", &[("PAGER", &pager)]).contains("pager-ran"));
    assert!(paged(&repo).is_some());

    // Through git: `git --no-pager` and `pager.loop=false` reach git-loop
    // as GIT_PAGER=cat; `git -c core.pager=…` as GIT_CONFIG_PARAMETERS.
    let dir = std::path::Path::new(BIN)
        .parent()
        .unwrap()
        .display()
        .to_string();
    let path = format!("{dir}:{}", std::env::var("PATH").unwrap_or_default());
    let git_on_pty = |args: &str, envs: &[(&str, &str)]| {
        let mut all = vec![("PATH", path.as_str())];
        all.extend_from_slice(envs);
        shell(&repo, &format!("script -qec 'git {args}' /dev/null"), &all)
    };
    let text = git_on_pty(&format!("-c core.pager={pager} loop log"), &[]);
    assert!(text.contains("pager-ran"), "{text:?}");
    assert!(paged(&repo).is_some());
    for args in ["--no-pager loop log", "-c pager.loop=false loop log"] {
        let text = git_on_pty(args, &[("PAGER", &pager)]);
        assert!(
            text.contains(event) && !text.contains("pager-ran"),
            "{args}: {text:?}"
        );
    }
}

#[test]
fn a_pager_that_quits_early_is_not_an_error() {
    let repo = TestRepo::new();
    repo.create("a");
    // A log longer than a pipe holds, so the write meets the closed pipe.
    let log = repo.root.join(".loop-worktrees/events.jsonl");
    let line = fs::read_to_string(&log).unwrap();
    fs::write(&log, line.repeat(5000)).unwrap();
    let text = shell(
        &repo,
        "script -qec '\"$BIN\" log; echo \"rc=$?\"' /dev/null",
        &[("GIT_PAGER", "head -n 1 >/dev/null; echo pager-quit")],
    );
    assert!(text.contains("pager-quit\nrc=0"), "{text:?}");
    assert!(!text.contains("error"), "{text:?}");
}

/// A delay no test outlasts: the progress of a quick step is not drawn.
const LATER: [(&str, &str); 1] = [("GIT_PROGRESS_DELAY", "100")];

#[test]
fn list_long_counts_the_runs_it_reads_on_a_terminal_when_slow() {
    let repo = TestRepo::new();
    repo.create("a");
    repo.create("b");
    let text = on_pty(&repo, "list --long", &NOW);
    assert_in_order(
        &text,
        &[
            "\r\x1b[Kreading worktrees: 0/2",
            "\r\x1b[Kreading worktrees: 2/2",
            "\r\x1b[Kcomparing branches with their base: 1/2\r\x1b[K",
            "STATE",
            "clean",
        ],
    );
    // Quicker than the delay, -q, piped: nothing.
    for (args, envs) in [("list --long", LATER), ("-q list --long", NOW)] {
        let text = on_pty(&repo, args, &envs);
        assert!(
            !text.contains("reading") && !text.contains('\r'),
            "{args}: {text:?}"
        );
        assert!(text.contains("clean"), "{args}: {text:?}");
    }
    let mut cmd = repo.command();
    cmd.args(["list", "--long"]).envs(NOW);
    let run = TestRepo::output(&mut cmd);
    run.ok();
    assert_eq!(run.stderr, "", "piped");
}

#[test]
fn pool_drain_counts_its_removals_on_a_terminal_when_slow() {
    let repo = TestRepo::new();
    repo.run(["pool", "fill", "2"]).ok();
    let text = on_pty(&repo, "pool drain", &NOW);
    assert_in_order(
        &text,
        &[
            "\r\x1b[Kremoving pool members: 0/2 done",
            "\r\x1b[Kremoving pool members: 1/2 done\r\x1b[K",
            "pool: 0 members",
        ],
    );
    for (args, envs) in [("pool drain", LATER), ("-q pool drain", NOW)] {
        repo.run(["pool", "fill", "2"]).ok();
        let text = on_pty(&repo, args, &envs);
        assert!(!text.contains("removing pool"), "{args}: {text:?}");
        assert!(text.contains("pool: 0 members"), "{args}: {text:?}");
    }
    repo.run(["pool", "fill", "2"]).ok();
    let mut cmd = repo.command();
    cmd.args(["pool", "drain"]).envs(NOW);
    let run = TestRepo::output(&mut cmd);
    run.ok();
    assert!(!run.stderr.contains("removing pool"), "{}", run.stderr);
    assert!(!run.stderr.contains('\x1b'), "{}", run.stderr);
}

/// Ctrl-C in the pager is the pager's (`less` stops a search with it):
/// git-loop waits for the pager to exit instead of dying under it, which
/// would give the shell its prompt back under a running pager.
#[test]
fn an_interrupt_while_the_pager_runs_is_the_pagers() {
    let repo = TestRepo::new();
    repo.create("a");
    let script =
        "set -m; \"$BIN\" log & pid=$!; sleep 1; kill -INT $pid; wait $pid; echo \"rc=$?\"";
    let text = shell(
        &repo,
        &format!("script -qec '{}' /dev/null", script.replace('\'', "'\\''")),
        &[(
            "GIT_PAGER",
            "trap \"\" INT; cat >/dev/null; sleep 2; echo pager-done",
        )],
    );
    assert!(text.contains("pager-done\nrc=0"), "{text:?}");
}

/// `log` on a terminal reads as `git log` does there: the newest event
/// first, ids cut to 12 digits. Into a pipe it stays oldest first with
/// whole ids, what a script reads.
#[test]
fn log_on_a_terminal_is_newest_first_with_short_ids() {
    let repo = TestRepo::new();
    repo.create("x").ok();
    fs::write(repo.wt("x").join("f"), "f\n").unwrap();
    repo.git_in(&repo.wt("x"), ["add", "f"]);
    repo.git_in(&repo.wt("x"), ["commit", "-q", "-m", "f"]);
    let tip = repo.git(["rev-parse", "loop/x"]).trim().to_owned();
    repo.run(["land", "x"]).ok();
    let piped = shell(&repo, "\"$BIN\" log | cat", &[]);
    let on_terminal = on_pty(&repo, "log", &[("GIT_PAGER", "cat")]);
    let first = |text: &str| text.lines().next().unwrap_or_default().to_owned();
    assert!(first(&piped).contains(" create "), "{piped}");
    assert!(!first(&on_terminal).contains(" create "), "{on_terminal}");
    assert!(
        on_terminal.lines().last().unwrap().contains(" create "),
        "{on_terminal}"
    );
    assert!(piped.contains(&tip), "{piped}");
    assert!(!on_terminal.contains(&tip), "{on_terminal}");
    assert!(on_terminal.contains(&tip[..12]), "{on_terminal}");
}

/// `--color[=<WHEN>]` as git's commands take it: alone or `always` colours
/// even a pipe, over `color.loop = never`; `never` keeps a terminal plain
/// over `CLICOLOR_FORCE`; `auto` leaves it to the terminal; anything else
/// is a usage error naming the value.
#[test]
fn the_color_flag_is_gits() {
    let repo = TestRepo::new();
    repo.create("a");
    repo.git(["config", "color.loop", "never"]);
    for args in ["--color list", "--color=always list"] {
        let text = shell(&repo, &format!("\"$BIN\" {args} | cat"), &[]);
        assert!(text.contains(BOLD_ID), "{args}: {text:?}");
    }
    repo.git(["config", "--unset", "color.loop"]);
    let plain = on_pty(&repo, "--color=never list", &[("CLICOLOR_FORCE", "1")]);
    assert!(!plain.contains('\x1b'), "{plain:?}");
    let auto = shell(&repo, "\"$BIN\" --color=auto list | cat", &[]);
    assert!(!auto.contains('\x1b'), "{auto:?}");
    let run = repo.run(["--color=sometimes", "list"]);
    run.code(2);
    assert!(run.stderr.contains("sometimes"), "{}", run.stderr);
}
