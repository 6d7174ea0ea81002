//! `git loop watch`: the live view driven as a person drives it, in a real
//! terminal (a tmux pane of its own server: `send-keys`, `capture-pane`),
//! and `watch --once` for a pipe. What the issue asks of it: ten runs on
//! one screen, a mark from another shell on screen within a second, `m`
//! marks (the manifest says so), `q` restores the terminal, the bell rings
//! on `waiting` (and not with `watch.bell = false`), `o` prints the path,
//! and idle it costs (next to) no CPU.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common::{BIN, TestRepo};

/// A tmux server of its own (the gates' progress tests use it too) (its socket in the test's directory) running
/// `sh` in a 120x40 pane, in the repository, with the fixture's hermetic
/// environment.
pub struct Pane {
    socket: PathBuf,
    home: PathBuf,
}

impl Pane {
    pub fn start(repo: &TestRepo) -> Pane {
        let found = Command::new("sh")
            .args(["-c", "command -v tmux"])
            .output()
            .is_ok_and(|o| o.status.success());
        assert!(found, "tmux is missing: apt-get install tmux");
        let pane = Pane {
            socket: repo.base().join("watch-tmux.sock"),
            home: repo.home.clone(),
        };
        let status = pane
            .tmux()
            .current_dir(&repo.root)
            .env("PS1", "$ ")
            .env("BIN", BIN)
            .args(["new-session", "-d", "-x", "120", "-y", "40", "sh"])
            .status()
            .unwrap();
        assert!(status.success(), "tmux new-session failed");
        // dash prompts `# ` as root, whatever PS1 says.
        pane.wait_for(
            |s| s.lines().any(|l| l.starts_with('$') || l.starts_with('#')),
            "a prompt",
        );
        pane
    }

    pub fn tmux(&self) -> Command {
        let mut cmd = Command::new("tmux");
        crate::common::hermetic(&mut cmd, &self.home);
        cmd.env("TERM", "xterm-256color")
            .arg("-f")
            .arg("/dev/null")
            .arg("-S")
            .arg(&self.socket);
        cmd
    }

    pub fn send(&self, keys: &[&str]) {
        let status = self
            .tmux()
            .args(["send-keys", "-t", "0"])
            .args(keys)
            .status()
            .unwrap();
        assert!(status.success(), "tmux send-keys {keys:?} failed");
    }

    /// Type `line` and Enter.
    pub fn type_line(&self, line: &str) {
        self.send(&["-l", line]);
        self.send(&["Enter"]);
    }

    pub fn screen(&self) -> String {
        let out = self
            .tmux()
            .args(["capture-pane", "-p", "-t", "0"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Poll the screen (every 20 ms, up to `limit`) until `done`; the
    /// screen and how long it took.
    pub fn wait_within(
        &self,
        limit: Duration,
        done: impl Fn(&str) -> bool,
        what: &str,
    ) -> (String, Duration) {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if done(&screen) {
                return (screen, start.elapsed());
            }
            assert!(
                start.elapsed() < limit,
                "no {what} on the screen after {limit:?}:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn wait_for(&self, done: impl Fn(&str) -> bool, what: &str) -> String {
        self.wait_within(Duration::from_secs(30), done, what).0
    }

    /// Start `git loop watch` (`exec`: the pane's process is the view) and
    /// wait for its title.
    fn watch(&self, runs: usize) -> String {
        self.type_line("exec \"$BIN\" watch");
        let noun = if runs == 1 { "run" } else { "runs" };
        let title = format!("git loop watch: {runs} {noun}");
        // The title and the keys line (the frame's last): a capture taken
        // mid-draw may hold the title without every row.
        self.wait_for(
            |s| s.contains(&title) && s.contains("j/k select"),
            "the whole first frame",
        )
    }

    /// The pane's process id.
    pub fn pid(&self) -> u32 {
        let out = self
            .tmux()
            .args(["display-message", "-p", "-t", "0", "#{pane_pid}"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
    }

    /// Everything the pane's program writes from now on, into `log`.
    pub fn record(&self, log: &Path) {
        let status = self
            .tmux()
            .args(["pipe-pane", "-o", "-t", "0"])
            .arg(format!("cat >> '{}'", log.display()))
            .status()
            .unwrap();
        assert!(status.success(), "tmux pipe-pane failed");
    }
}

impl Drop for Pane {
    fn drop(&mut self) {
        let _ = self.tmux().arg("kill-server").status();
    }
}

/// A repository with runs `r1` … `r<n>`.
fn with_runs(n: usize) -> TestRepo {
    let repo = TestRepo::new();
    for i in 1..=n {
        repo.create(&format!("r{i}"));
    }
    repo
}

/// The screen's line for run `id`.
fn row<'s>(screen: &'s str, id: &str) -> Option<&'s str> {
    screen
        .lines()
        .find(|l| l.split_whitespace().next() == Some(id))
}

#[test]
fn the_view_shows_ten_runs_and_a_mark_from_another_shell_within_a_second() {
    let repo = with_runs(10);
    let pane = Pane::start(&repo);
    let screen = pane.watch(10);
    assert!(screen.contains("STATUS  ACTIVITY  STATE"), "{screen}");
    for i in 1..=10 {
        let line = row(&screen, &format!("r{i}")).unwrap_or_else(|| panic!("no r{i}:\n{screen}"));
        assert!(line.contains("active"), "{line}");
    }
    repo.run(["mark", "r3", "merged"]).ok();
    let (screen, took) = pane.wait_within(
        Duration::from_secs(3),
        |s| row(s, "r3").is_some_and(|l| l.contains("merged")),
        "r3 merged",
    );
    eprintln!("watch: a mark from another shell on screen after {took:?}");
    assert!(took < Duration::from_secs(1), "took {took:?}:\n{screen}");
    // Nothing else moved.
    assert!(row(&screen, "r4").unwrap().contains("active"), "{screen}");
}

#[test]
fn m_then_a_status_key_marks_the_selected_run_and_logs_it() {
    let repo = with_runs(3);
    let pane = Pane::start(&repo);
    pane.watch(3);
    pane.send(&["j", "m"]);
    pane.wait_for(|s| s.contains("mark r2 as: a active"), "status prompt");
    pane.send(&["r"]);
    pane.wait_for(|s| s.contains("r2: active -> rejected"), "mark message");
    assert_eq!(repo.status_of("r2").as_deref(), Some("rejected"));
    assert_eq!(repo.status_of("r1").as_deref(), Some("active"));
    let log = repo.run(["log"]);
    assert!(
        log.stdout.contains("r2: active -> rejected"),
        "{}",
        log.stdout
    );
    // Esc cancels the prompt: nothing marked.
    pane.send(&["k", "m"]);
    pane.wait_for(|s| s.contains("mark r1 as:"), "status prompt");
    pane.send(&["Escape"]);
    pane.wait_for(|s| s.contains("j/k select"), "the keys again");
    assert_eq!(repo.status_of("r1").as_deref(), Some("active"));
}

/// `stty -a` in the pane after the view is gone: raw mode is off.
fn assert_terminal_restored(pane: &Pane, repo: &TestRepo, n: usize) {
    let out = repo.base().join(format!("stty-{n}"));
    // Quoted as typed, so only the echo's output (not the command line
    // itself) matches: then `stty` has written its file.
    pane.type_line(&format!(
        "stty -a > '{}'; echo 'restored'-{n}",
        out.display()
    ));
    let screen = pane.wait_for(|s| s.contains(&format!("restored-{n}")), "the shell's echo");
    let stty = std::fs::read_to_string(&out).unwrap();
    let words: Vec<&str> = stty
        .split(|c: char| c.is_whitespace() || c == ';')
        .collect();
    for on in ["echo", "icanon", "isig"] {
        assert!(
            words.contains(&on),
            "{on} is off after watch:\n{stty}\n{screen}"
        );
    }
    // Out of the alternate screen: the command line typed before the view is there.
    assert!(screen.contains("watch; echo exit=$?"), "{screen}");
}

#[test]
fn q_esc_and_ctrl_c_quit_and_restore_the_terminal() {
    let repo = with_runs(2);
    let pane = Pane::start(&repo);
    for (n, key) in ["q", "Escape", "C-c"].iter().enumerate() {
        pane.type_line("\"$BIN\" watch; echo exit=$?");
        pane.wait_for(|s| s.contains("git loop watch: 2 runs"), "title");
        pane.send(&[key]);
        pane.wait_for(
            |s| s.matches("exit=0").count() == n + 1,
            &format!("exit=0 after {key}"),
        );
        assert_terminal_restored(&pane, &repo, n);
    }
}

#[test]
fn the_bell_rings_when_a_run_becomes_waiting_unless_watch_bell_is_false() {
    for bell in [true, false] {
        let repo = with_runs(2);
        if !bell {
            repo.git(["config", "loop.watchBell", "false"]);
        }
        let pane = Pane::start(&repo);
        let log = repo.base().join("pane.log");
        pane.record(&log);
        pane.watch(2);
        repo.run(["activity", "r1", "waiting"]).ok();
        pane.wait_within(
            Duration::from_secs(3),
            |s| s.contains("r1 is waiting"),
            "r1 is waiting",
        );
        // The same activity again is no transition: no second bell.
        repo.run(["activity", "r1", "waiting"]).ok();
        repo.run(["activity", "r2", "working"]).ok();
        pane.wait_for(
            |s| row(s, "r2").is_some_and(|l| l.contains("working")),
            "r2 working",
        );
        let written = std::fs::read(&log).unwrap();
        let bells = written.iter().filter(|&&b| b == 0x07).count();
        assert_eq!(
            bells,
            usize::from(bell),
            "watch.bell = {bell}: {bells} BEL written"
        );
    }
}

#[test]
fn o_exits_printing_the_selected_runs_path_for_cd() {
    let repo = with_runs(2);
    let pane = Pane::start(&repo);
    pane.type_line("cd \"$(\"$BIN\" watch)\" && echo now-in=$PWD");
    pane.wait_for(|s| s.contains("git loop watch: 2 runs"), "title");
    pane.send(&["Down", "o"]);
    let screen = pane.wait_for(|s| s.contains("now-in=/"), "the cd");
    let want = format!("now-in={}", repo.wt("r2").display());
    assert!(screen.contains(&want), "{want}:\n{screen}");
}

/// On a plain `git loop watch` (stdout the terminal, not `$(…)`), `o`
/// still prints the path, and says on stderr what it is for.
#[test]
fn o_on_a_plain_watch_says_it_prints_the_path_for_cd() {
    let repo = with_runs(2);
    let pane = Pane::start(&repo);
    pane.type_line("\"$BIN\" watch; echo exit=$?");
    pane.wait_for(|s| s.contains("git loop watch: 2 runs"), "title");
    pane.send(&["o"]);
    let screen = pane.wait_for(|s| s.contains("exit=0"), "exit=0 after o");
    let path = repo.wt("r1").display().to_string();
    assert!(
        screen.lines().any(|l| l.trim_end() == path),
        "{path}:\n{screen}"
    );
    assert!(
        screen.contains("dir=$(git loop watch) && cd \"$dir\""),
        "o says what it is for:\n{screen}"
    );
    // Under `cd "$(git loop watch)"` (stdout a pipe) the note is not said.
    pane.type_line("clear; cd \"$(\"$BIN\" watch)\" && echo now-in=$PWD");
    pane.wait_for(|s| s.contains("git loop watch: 2 runs"), "title");
    pane.send(&["o"]);
    let screen = pane.wait_for(|s| s.contains("now-in=/"), "the cd");
    assert!(!screen.contains("hint:"), "{screen}");
}

#[test]
fn question_mark_shows_the_keys_and_esc_closes_them() {
    let repo = with_runs(1);
    let pane = Pane::start(&repo);
    let screen = pane.watch(1);
    assert!(screen.contains("? keys"), "the footer names ?:\n{screen}");
    pane.send(&["?"]);
    let screen = pane.wait_for(
        |s| s.contains("keys of git loop watch") && s.contains("q, Esc"),
        "the whole keys panel",
    );
    for key in ["j/k", "m then", "o, Enter", "d ", "?"] {
        assert!(screen.contains(key), "{key}:\n{screen}");
    }
    assert!(
        screen.contains("dir=$(git loop watch) && cd \"$dir\""),
        "{screen}"
    );
    pane.send(&["Escape"]);
    pane.wait_for(
        |s| !s.contains("keys of git loop watch"),
        "the panel closed",
    );
    // The view is still there: Esc closed the panel, not the view.
    pane.wait_for(|s| s.contains("git loop watch: 1 run"), "the view");
}

#[test]
fn an_empty_view_says_how_to_create_a_run() {
    let repo = TestRepo::new();
    let pane = Pane::start(&repo);
    pane.type_line("exec \"$BIN\" watch");
    let screen = pane.wait_for(
        |s| s.contains("git loop watch: 0 runs") && s.contains("j/k select"),
        "the whole first frame",
    );
    assert!(
        screen.contains("no runs yet: git loop create <name> starts one"),
        "{screen}"
    );
}

#[test]
fn d_shows_the_selected_runs_diffstat_against_its_base() {
    let repo = with_runs(1);
    let wt = repo.wt("r1");
    std::fs::write(wt.join("README"), "hello\nmore\n").unwrap();
    std::fs::write(wt.join("new.txt"), "a\nb\nc\n").unwrap();
    repo.git_in(&wt, ["add", "."]);
    repo.git_in(&wt, ["commit", "-q", "-m", "work"]);
    let pane = Pane::start(&repo);
    pane.watch(1);
    pane.send(&["d"]);
    // The panel's last line: a capture taken while the panel is still being
    // drawn may hold its title but not all its lines.
    let screen = pane.wait_for(
        |s| s.contains("diffstat of r1") && s.contains("2 files changed, +4 -0"),
        "the whole panel",
    );
    assert!(screen.contains("README  | +1 -0"), "{screen}");
    assert!(screen.contains("new.txt | +3 -0"), "{screen}");
    assert!(screen.contains("2 files changed, +4 -0"), "{screen}");
    pane.send(&["Escape"]);
    pane.wait_for(|s| !s.contains("diffstat of r1"), "the panel closed");
}

#[test]
fn idle_it_uses_next_to_no_cpu() {
    let repo = with_runs(10);
    let pane = Pane::start(&repo);
    pane.watch(10);
    let pid = pane.pid();
    let ticks = || -> u64 {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
        // After the command name's closing parenthesis: utime, stime are
        // fields 14 and 15.
        let rest = &stat[stat.rfind(')').unwrap() + 2..];
        let fields: Vec<&str> = rest.split(' ').collect();
        fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
    };
    let hz: f64 = String::from_utf8(
        Command::new("getconf")
            .arg("CLK_TCK")
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap()
    .trim()
    .parse()
    .unwrap();
    let (before, start) = (ticks(), Instant::now());
    std::thread::sleep(Duration::from_secs(5));
    let (after, secs) = (ticks(), start.elapsed().as_secs_f64());
    let share = (after - before) as f64 / hz / secs;
    eprintln!(
        "watch: idle CPU {:.2}% of a core ({} ticks in {secs:.1} s)",
        share * 100.0,
        after - before
    );
    assert!(share < 0.05, "idle CPU {:.2}% of a core", share * 100.0);
}

#[test]
fn once_prints_one_frame_at_the_width_columns_says() {
    let repo = with_runs(3);
    repo.run(["activity", "r2", "waiting"]).ok();
    let run = TestRepo::output(
        repo.command()
            .env("COLUMNS", "40")
            .args(["watch", "--once"]),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], "git loop watch: 3 runs (1 waiting)");
    assert!(
        lines[1].starts_with("ID  STATUS  ACTIVITY"),
        "{}",
        run.stdout
    );
    assert_eq!(lines.len(), 5, "{}", run.stdout);
    assert!(
        lines.iter().all(|l| l.chars().count() <= 40),
        "{}",
        run.stdout
    );
    assert!(
        row(&run.stdout, "r2").unwrap().contains("waiting"),
        "{}",
        run.stdout
    );
    assert!(
        !run.stdout.contains('\x1b'),
        "a pipe gets no colour: {:?}",
        run.stdout
    );
    // Into a pipe without COLUMNS: no width, nothing cut, however long a
    // cell (a run id of 100 characters).
    repo.create(&"l".repeat(100)).ok();
    let run = repo.run(["watch", "--once"]);
    assert!(
        run.stdout.lines().nth(1).unwrap().ends_with("DISK"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains(&"l".repeat(100)), "{}", run.stdout);
    let long = row(&run.stdout, &"l".repeat(100)).unwrap();
    assert!(long.chars().count() > 100, "{long}");
    // DISK is each worktree's size, as `list --disk` measures it.
    let listed = repo.run(["--json", "list", "--disk"]).json();
    let bytes = listed["worktrees"][0]["diskBytes"].as_u64().unwrap();
    assert!(bytes > 0, "{listed}");
    let r1 = row(&run.stdout, "r1").unwrap();
    let cells: Vec<&str> = r1.split_whitespace().collect();
    let (number, unit) = (cells[cells.len() - 2], cells[cells.len() - 1]);
    assert!(
        number.parse::<f64>().is_ok() && unit.ends_with('B'),
        "DISK of r1 is a size: {r1}"
    );
}

#[test]
fn without_a_terminal_it_refuses_pointing_at_once() {
    let repo = with_runs(1);
    let run = repo.run(["watch"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    assert!(run.stderr.contains("needs a terminal"), "{}", run.stderr);
    assert!(
        run.stderr.contains("git loop watch --once"),
        "{}",
        run.stderr
    );
}

/// SIGTERM (and SIGINT sent with kill: in raw mode Ctrl-C is a key, not a
/// signal) ends the view with the terminal given back: raw mode off, out
/// of the alternate screen, exit 128 + the signal.
#[test]
fn sigterm_and_sigint_give_the_terminal_back() {
    let repo = with_runs(2);
    let pane = Pane::start(&repo);
    let shell = pane.pid();
    for (n, (sig, code)) in [("TERM", 143), ("INT", 130)].into_iter().enumerate() {
        pane.type_line("\"$BIN\" watch; echo exit=$?");
        pane.wait_for(|s| s.contains("git loop watch: 2 runs"), "title");
        let children =
            std::fs::read_to_string(format!("/proc/{shell}/task/{shell}/children")).unwrap();
        let view = children.split_whitespace().next().expect("the view's pid");
        let status = Command::new("kill")
            .args([&format!("-{sig}"), view])
            .status()
            .unwrap();
        assert!(status.success());
        pane.wait_for(
            |s| s.contains(&format!("exit={code}")),
            &format!("exit={code} after SIG{sig}"),
        );
        assert_terminal_restored(&pane, &repo, 10 + n);
    }
}

/// Run `id`'s column `name` on `screen`: the text under the header's
/// `name`, up to the next blank.
fn column<'s>(screen: &'s str, id: &str, name: &str) -> &'s str {
    let header = screen.lines().find(|l| l.starts_with("ID ")).unwrap();
    let at = header.find(name).unwrap();
    let line = row(screen, id).unwrap_or_else(|| panic!("no {id}:\n{screen}"));
    line[at..].split_whitespace().next().unwrap_or("")
}

/// `s` syncs the selected run, the same operation as `git loop sync <id>`
/// (its old tip in the trash, a `sync` event), and says that command's
/// one line in the message line; its BEHIND drops to 0 at once. A run the
/// sync refuses (`dirty`: uncommitted work in a file the base changed) is
/// left as it was, the line saying why, and so is one whose `sync.gate` is
/// not trusted (the gate not run); `?` lists the key.
#[test]
fn s_syncs_the_selected_run_and_says_syncs_line() {
    let repo = with_runs(2);
    crate::common::commit(&repo, &repo.wt("r1"), "r1.txt", "own\n");
    crate::common::commit(&repo, &repo.root, "README", "main moved\n");
    std::fs::write(repo.wt("r2").join("README"), "r2 is editing it\n").unwrap();
    let tip = |id: &str| {
        repo.git(["rev-parse", &format!("loop/{id}")])
            .trim()
            .to_owned()
    };
    let (r1, r2) = (tip("r1"), tip("r2"));
    // What the command says of each, predicted.
    let predicted = repo.run(["sync", "--dry-run", "--keep-going"]).stdout;
    let line = |id: &str| {
        let prefix = format!("{id}: ");
        let found = predicted.lines().find(|l| l.starts_with(&prefix));
        found.unwrap_or_else(|| panic!("{predicted}")).to_owned()
    };
    let (synced, dirty) = (line("r1").replace("would sync", "synced"), line("r2"));
    assert!(dirty.starts_with("r2: skipped (dirty): "), "{dirty}");

    let pane = Pane::start(&repo);
    let screen = pane.watch(2);
    assert!(screen.contains("s sync"), "the footer names s:\n{screen}");
    assert_eq!(column(&screen, "r1", "BEHIND"), "1", "{screen}");
    pane.send(&["s"]);
    let screen = pane.wait_for(|s| s.contains(&synced), &synced);
    assert_eq!(column(&screen, "r1", "BEHIND"), "0", "{screen}");
    let main = repo.git(["rev-parse", "main"]).trim().to_owned();
    assert_eq!(repo.git(["rev-parse", "loop/r1~1"]).trim(), main);
    let trash = repo.git(["for-each-ref", "--format=%(objectname)", "refs/loop/trash/"]);
    assert_eq!(trash.trim(), r1, "the old tip is in the trash");
    assert!(repo.run(["log"]).stdout.contains("sync"));

    pane.send(&["j", "s"]);
    // As much of it as the 120 columns show (the reason names the path).
    let shown: String = dirty.chars().take(100).collect();
    pane.wait_for(|s| s.contains(&shown), &shown);
    assert_eq!(tip("r2"), r2);
    let edited = std::fs::read_to_string(repo.wt("r2").join("README")).unwrap();
    assert_eq!(edited, "r2 is editing it\n");

    // A sync.gate from the repository's file is not run until trusted: the
    // line says why, nothing moved.
    let marker = repo.base().join("gate-ran");
    let gate = format!("[sync]\ngate = \"touch '{}'\"\n", marker.display());
    std::fs::write(repo.root.join(".git-loop.toml"), gate).unwrap();
    pane.send(&["s"]);
    pane.wait_for(|s| s.contains("r2: not synced: "), "the refusal");
    assert!(!marker.exists(), "an untrusted gate ran");
    assert_eq!(tip("r2"), r2);

    pane.send(&["?"]);
    let screen = pane.wait_for(|s| s.contains("keys of git loop watch"), "the keys");
    assert!(screen.contains("s   sync it"), "{screen}");
}
