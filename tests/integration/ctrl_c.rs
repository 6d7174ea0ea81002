//! Signals as git-loop really gets them: Ctrl-C through `git loop` (git the
//! parent, forwarding the signal to the process group) rolls a create back
//! at every point, and a second Ctrl-C still exits at once.

use std::fs;
use std::io::{BufRead, Read};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use crate::common::{BIN, TestRepo, git_line, git_ok, hermetic, snapshot};
use crate::common::{assert_rolled_back, make_executable, repo_with_tree};

/// `git loop <args>` as a terminal runs it: git the parent of git-loop (the
/// built binary's directory first on PATH), both in a process group of
/// their own, so that [`ctrl_c`] signals both as the terminal's Ctrl-C
/// would. stderr is piped.
fn spawn_through_git(repo: &TestRepo, envs: &[(&str, &str)], args: &[&str]) -> Child {
    let bin_dir = Path::new(BIN).parent().unwrap();
    let mut path = std::ffi::OsString::from(bin_dir);
    path.push(":");
    path.push(std::env::var_os("PATH").unwrap_or_default());
    let mut cmd = Command::new("git");
    hermetic(&mut cmd, &repo.home);
    cmd.env("PATH", path)
        .envs(envs.iter().copied())
        .current_dir(&repo.root)
        .arg("loop")
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .process_group(0);
    cmd.spawn().unwrap()
}

/// SIGINT to the whole process group of `child` (its own pid), sent by
/// another process, as the terminal sends Ctrl-C to the foreground job.
fn ctrl_c(child: &Child) {
    let status = Command::new("kill")
        .args(["-INT", "--", &format!("-{}", child.id())])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Read `child`'s stderr until a line contains `wait_for` (panic if it ends
/// first); the rest of stderr comes back from the returned thread.
fn until_line(child: &mut Child, wait_for: &str) -> std::thread::JoinHandle<String> {
    let mut lines = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    loop {
        let mut line = String::new();
        if lines.read_line(&mut line).unwrap() == 0 {
            let _ = child.kill();
            let _ = child.wait();
            panic!("exited before printing {wait_for:?}: {seen}");
        }
        seen.push_str(&line);
        if line.contains(wait_for) {
            break;
        }
    }
    std::thread::spawn(move || {
        let mut rest = String::new();
        let _ = lines.read_to_string(&mut rest);
        seen + &rest
    })
}

/// git forwarded the terminal's SIGINT and died of it after git-loop exited,
/// as a terminal reports it (130): killed by SIGINT. Or git lost its own
/// race: its SIGINT handler reaped git-loop (git waits for its children
/// there) while its main thread was about to, which then finds no child and
/// exits 128 saying so — git-loop had ended either way, and what it left is
/// what the caller checks.
fn assert_interrupted(status: std::process::ExitStatus, stderr: &str, at: &str) {
    let git_reaped_it_in_its_handler = status.code() == Some(128)
        && stderr.contains("waitpid for git-loop failed: No child processes");
    assert!(
        status.signal() == Some(libc::SIGINT)
            || status.code() == Some(130)
            || git_reaped_it_in_its_handler,
        "{at}: git ended with {status:?}\n{stderr}"
    );
}

/// Ctrl-C during `git loop create`, at every kind of point of its rollback
/// window: git-loop gets the terminal's SIGINT and git's copy of it; the
/// copy is not taken for a second Ctrl-C, so the rollback runs to its end:
/// no `loop/<id>`, no worktree, no registration, no manifest entry.
#[test]
fn ctrl_c_through_git_loop_rolls_the_create_back_at_every_point() {
    let repo = repo_with_tree();
    // A recorded run, so the manifest exists and is checked each time.
    repo.create("kept");
    // Idle points: no git child runs, the rollback runs on its own thread.
    let idle: [(&str, &[(&str, &str)]); 2] = [
        (
            "after-worktree-add",
            &[("GIT_LOOP_TEST_CRASH", "after-worktree-add:pause")],
        ),
        (
            "before-checkout",
            &[
                ("GIT_LOOP_TEST_SPLIT_ADD", "1"),
                ("GIT_LOOP_TEST_CRASH", "before-checkout:pause"),
            ],
        ),
    ];
    // Each point several times: on a broken build, whether the two
    // signals arrive as one or as two is timing (seen: 4 tries in 12).
    for (point, envs) in idle.iter().cycle().take(8 * idle.len()) {
        let point = *point;
        let mut child = spawn_through_git(&repo, envs, &["create", "x", "--pattern", "p"]);
        let rest = until_line(&mut child, &format!("paused at {point}"));
        assert!(repo.branch_exists("loop/x"), "{point}: not made yet");
        ctrl_c(&child);
        let status = child.wait().unwrap();
        let stderr = rest.join().unwrap();
        assert_interrupted(status, &stderr, point);
        assert!(
            stderr.contains("git-loop: interrupted: rolled back the create of x"),
            "{point}: {stderr}"
        );
        assert_rolled_back(&repo, "x");
        assert_eq!(repo.ids(), ["kept"], "{point}");
    }

    // Busy points: a post-checkout hook runs (in `git worktree add`, or
    // after the split checkout) and gets the Ctrl-C too; git-loop rolls back
    // once its child has returned.
    let started = repo.base().join("hook-started");
    let hook = repo.root.join(".git/hooks/post-checkout");
    fs::write(
        &hook,
        format!(
            "#!/bin/sh\ntouch '{}'\nwhile :; do sleep 0.02; done\n",
            started.display()
        ),
    )
    .unwrap();
    make_executable(&hook);
    for split in ["0", "1"].iter().cycle().take(6) {
        let _ = fs::remove_file(&started);
        let mut child = spawn_through_git(
            &repo,
            &[("GIT_LOOP_TEST_SPLIT_ADD", split)],
            &["create", "x", "--pattern", "p"],
        );
        let mut stderr = child.stderr.take().unwrap();
        let rest = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        while !started.exists() {
            assert!(
                child.try_wait().unwrap().is_none(),
                "split={split}: exited before its hook ran"
            );
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        ctrl_c(&child);
        let status = child.wait().unwrap();
        let stderr = rest.join().unwrap();
        let at = format!("hook, split={split}");
        assert_interrupted(status, &stderr, &at);
        if stderr.contains("git-loop: interrupted: rolled back the create of x") {
            assert_rolled_back(&repo, "x");
            assert_eq!(repo.ids(), ["kept"], "{at}");
        } else {
            // The killed hook returned before git-loop's signal thread saw
            // the signal: the create went on and recorded a complete run,
            // then exited for the signal. Nothing is half made.
            assert_complete(&repo, "x", &at, &stderr);
            repo.run(["mark", "x", "rejected"]).ok();
            repo.run(["cleanup"]).ok();
            repo.git(["branch", "-D", "loop/x"]);
        }
    }
}

/// The create of `id` was not interrupted: recorded, registered, checked
/// out, on its branch; no mutex left.
fn assert_complete(repo: &TestRepo, id: &str, at: &str, stderr: &str) {
    assert!(
        repo.ids().contains(&id.to_owned()),
        "{at}: neither rolled back nor recorded: {stderr}"
    );
    assert!(repo.registered().contains(&repo.wt(id)), "{at}: {stderr}");
    assert!(repo.wt(id).join("src/lib/a.rs").is_file(), "{at}: {stderr}");
    assert!(repo.branch_exists(&format!("loop/{id}")), "{at}: {stderr}");
    assert!(!repo.mutex_path().exists(), "{at}: a mutex was left");
}

/// The pair of copies counts once, but a real second Ctrl-C still exits at
/// once: here while the rollback of the first waits for the
/// worktree-operation lock (held by the test), the second, sent after the
/// pair's window, ends git-loop without finishing it, leaving the run for
/// `reconcile`.
#[test]
fn a_second_ctrl_c_through_git_loop_still_exits_at_once() {
    let repo = repo_with_tree();
    let mut child = spawn_through_git(
        &repo,
        &[("GIT_LOOP_TEST_CRASH", "after-worktree-add:pause")],
        &["create", "y", "--pattern", "p"],
    );
    let rest = until_line(&mut child, "paused at after-worktree-add");
    let ops = fs::File::open(repo.loop_dir()).unwrap();
    ops.lock().unwrap();
    ctrl_c(&child);
    // Longer than the window in which a copy of the first signal is taken
    // for the same Ctrl-C: the next one is the user's second, whenever git's
    // copy came.
    std::thread::sleep(std::time::Duration::from_millis(2500));
    assert!(
        child.try_wait().unwrap().is_none(),
        "exited at the first Ctrl-C, before its rollback could run"
    );
    ctrl_c(&child);
    let status = child.wait().unwrap();
    let stderr = rest.join().unwrap();
    assert_interrupted(status, &stderr, "second Ctrl-C");
    assert!(!stderr.contains("rolled back"), "{stderr}");
    // Left as it was for `reconcile` and `cleanup`, the mutex removed.
    assert!(repo.wt("y/src/lib/a.rs").is_file());
    assert!(repo.branch_exists("loop/y"));
    assert!(!repo.mutex_path().exists());
    drop(ops);
}

/// Files in the main checkout's landings below: enough that `git
/// read-tree` takes a measurable time to write them.
const FILES: usize = 3000;

/// `FILES` files under `many/` in `dir`, each holding `tag`.
fn write_many(dir: &Path, tag: &str) {
    for i in 0..FILES {
        let sub = dir.join(format!("many/{}", i % 30));
        fs::create_dir_all(&sub).unwrap();
        fs::write(sub.join(format!("f{i}")), format!("{i}: {tag}\n")).unwrap();
    }
}

/// The main checkout's files, `.loop-worktrees/` left out.
fn main_files(repo: &TestRepo) -> std::collections::BTreeMap<String, (String, Vec<u8>)> {
    let mut files = snapshot(&repo.root);
    files.retain(|p, _| !p.starts_with(".loop-worktrees"));
    files
}

/// A main checkout git writes itself (`core.autocrlf`: not the plain case
/// git-loop writes in process), `FILES` files under `many/`.
fn repo_git_checks_out() -> TestRepo {
    let repo = TestRepo::new();
    repo.git(["config", "core.autocrlf", "true"]);
    fs::write(repo.root.join(".gitignore"), ".loop-worktrees/\n").unwrap();
    write_many(&repo.root, "main");
    repo.git(["add", "-A"]);
    repo.git(["commit", "-qm", "many files"]);
    repo
}

/// Run `id` changing every file under `many/`.
fn run_changing_all(repo: &TestRepo, id: &str) {
    repo.create(id);
    let wt = repo.wt(id);
    write_many(&wt, id);
    git_ok(repo, &wt, &["add", "-A"]);
    git_ok(repo, &wt, &["commit", "-qm", &format!("{id} changes all")]);
}

/// What an interrupted landing left, checked: landed and the checkout
/// updated, or not landed and the checkout as it was, each as the message
/// says.
fn assert_landed_or_not(repo: &TestRepo, at: &str, old: &str, before: &Before, stderr: &str) {
    let main = git_line(repo, &repo.root, &["rev-parse", "main"]);
    let status = repo.git(["status", "--porcelain"]);
    let changed = status.lines().count();
    if main == old {
        assert_eq!(
            changed, 0,
            "{at}: not landed, yet {changed} changes\n{stderr}"
        );
        assert!(
            main_files(repo) == *before,
            "{at}: the files changed\n{stderr}"
        );
        assert!(
            stderr.contains("interrupted: nothing landed"),
            "{at}: the message does not say nothing landed\n{stderr}"
        );
    } else {
        assert_eq!(changed, 0, "{at}: landed, {changed} changes\n{stderr}");
        assert!(
            stderr.contains("interrupted: landed") || stderr.contains("landed 1 of 1"),
            "{at}: the message does not say it landed\n{stderr}"
        );
    }
}

type Before = std::collections::BTreeMap<String, (String, Vec<u8>)>;

/// Ctrl-C (through `git loop`, to the process group) while `git read-tree
/// -m -u` writes a landing's checkout, at several moments after the target
/// moved: git-loop never moves the target back under a half-written
/// checkout; the landing ends landed with its checkout updated, or not
/// landed with the checkout as it was, and the message says which.
#[test]
fn ctrl_c_while_git_writes_a_landings_checkout_ends_landed_or_not_as_it_says() {
    let repo = repo_git_checks_out();
    for (n, delay) in [0u64, 1, 3, 8, 15, 30, 60, 120].into_iter().enumerate() {
        let id = format!("c{n}");
        run_changing_all(&repo, &id);
        let old = git_line(&repo, &repo.root, &["rev-parse", "main"]);
        let before = main_files(&repo);
        let go = repo.base().join(format!("go-{n}"));
        let spec = format!("land-after-ref:until:{}", go.display());
        let envs = [("GIT_LOOP_TEST_CRASH", spec.as_str())];
        let mut child = spawn_through_git(&repo, &envs, &["land", &id]);
        let rest = until_line(&mut child, "paused at land-after-ref");
        fs::write(&go, "").unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay));
        ctrl_c(&child);
        child.wait().unwrap();
        let stderr = rest.join().unwrap();
        assert_landed_or_not(&repo, &format!("{delay} ms"), &old, &before, &stderr);
    }
}

/// The pid of a `git read-tree -m -u` (not `-n`) running in `root`.
fn read_tree_in(root: &Path) -> Option<u32> {
    let root = root.to_str().unwrap();
    fs::read_dir("/proc").ok()?.flatten().find_map(|entry| {
        let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
        let cmdline = fs::read(entry.path().join("cmdline")).ok()?;
        let args: Vec<&[u8]> = cmdline.split(|b| *b == 0).collect();
        let has = |a: &str| args.contains(&a.as_bytes());
        (has("read-tree") && has("-u") && !has("-n") && has(root)).then_some(pid)
    })
}

/// git's `read-tree` killed part way through the files (a signal to git
/// alone, as a Ctrl-C no longer reaches it): git-loop leaves the target
/// where the files are going, says so with the command that finishes it,
/// the next landing says the same, and the command finishes it.
#[test]
fn a_read_tree_killed_part_way_is_named_with_the_command_that_finishes_it() {
    let repo = repo_git_checks_out();
    repo.create("probe");
    fs::write(repo.wt("probe").join("probe.txt"), "probe\n").unwrap();
    git_ok(&repo, &repo.wt("probe"), &["add", "probe.txt"]);
    git_ok(&repo, &repo.wt("probe"), &["commit", "-qm", "probe"]);
    for attempt in 0..10 {
        let id = format!("k{attempt}");
        run_changing_all(&repo, &id);
        let old = git_line(&repo, &repo.root, &["rev-parse", "main"]);
        let mut child = repo
            .command()
            .args(["land", &id])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Once git wrote the first file (in index order) of the landing.
        let first = repo.root.join("many/0/f0");
        let pid = loop {
            let pid = read_tree_in(&repo.root);
            let written = fs::read_to_string(&first).is_ok_and(|t| t.contains(id.as_str()));
            if pid.is_some() && written {
                break pid;
            }
            if child.try_wait().unwrap().is_some() {
                break None;
            }
        };
        if let Some(pid) = pid {
            let _ = Command::new("kill")
                .args(["-INT", &pid.to_string()])
                .status();
        }
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let main = git_line(&repo, &repo.root, &["rev-parse", "main"]);
        let changed = repo.git(["status", "--porcelain"]).lines().count();
        if main == old || changed == 0 {
            // Killed before it wrote anything (moved back: nothing changed),
            // or not caught before it was done (landed).
            assert_eq!(changed, 0, "{attempt}: {stderr}");
            continue;
        }
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains("partly updated"), "{stderr}");
        // The next landing names it, with the same command.
        let next = repo.run(["--json", "land", "probe"]);
        next.code(1);
        let skipped = &next.json()["skipped"][0];
        assert_eq!(skipped["code"], "target-busy", "{skipped}");
        let message = skipped["message"].as_str().unwrap();
        assert!(message.contains("unfinished landing"), "{message}");
        let recipe = message
            .split('`')
            .find(|part| part.starts_with("git diff-tree"))
            .unwrap_or_else(|| panic!("no recipe in {message}"));
        assert!(stderr.contains(recipe), "{stderr}");
        let mut sh = Command::new("sh");
        hermetic(&mut sh, &repo.home);
        let ran = sh.args(["-c", recipe]).current_dir(&repo.root).status();
        let ran = ran.unwrap();
        assert!(ran.success(), "{recipe}");
        assert_eq!(repo.git(["status", "--porcelain"]), "", "after {recipe}");
        assert_eq!(git_line(&repo, &repo.root, &["rev-parse", "main"]), main);
        repo.run(["land", "probe"]).ok();
        return;
    }
    panic!("git's read-tree was never caught part way in 10 landings");
}
