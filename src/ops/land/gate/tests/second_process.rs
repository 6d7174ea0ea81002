//! The tests that need a second process: this test binary run again with
//! only one helper "test" selected and its input in the environment (a
//! helper run without it does nothing).

use std::path::{Path, PathBuf};
use std::process::Command;

use super::*;

/// The environment variable the second process of
/// [`list_reconcile_cleanup_and_pool_never_see_a_running_gates_scratch`]
/// reads its arguments from.
const SECOND_ARGS: &str = "GIT_LOOP_TEST_GATE_SECOND_ARGS";

/// Not a test by itself: the second git-loop process of the test below
/// (this test binary run again with only this test, `SECOND_ARGS` set):
/// runs git-loop with those arguments, its stdout to this one's.
#[test]
fn second_git_loop_process() {
    let Some(args) = std::env::var_os(SECOND_ARGS) else {
        return;
    };
    let args: Vec<std::ffi::OsString> = std::iter::once("git-loop".into())
        .chain(
            args.to_str()
                .unwrap()
                .split('\u{1f}')
                .map(std::ffi::OsString::from),
        )
        .collect();
    let mut out = Vec::new();
    let mut err = Vec::new();
    let code = crate::invoke(args, &mut out, &mut err, Default::default());
    use std::io::Write;
    std::io::stdout().write_all(&out).unwrap();
    std::io::stderr().write_all(&err).unwrap();
    assert!(code == 0, "exit {code}: {}", String::from_utf8_lossy(&err));
}

/// While a gate runs, a second git-loop process's `list`, `reconcile` (its
/// orphans and strays, and `--adopt` of the scratch's name), `cleanup` (a
/// real one: it removes the rejected run) and `pool status` neither see
/// nor touch the scratch.
#[test]
fn list_reconcile_cleanup_and_pool_never_see_a_running_gates_scratch() {
    let f = Fixture::new();
    let second = |args: &[&str], out: &Path| {
        // What the gate runs: this test binary again, as git-loop.
        format!(
            "{}={} '{}' --exact ops::land::gate::tests::second_process::second_git_loop_process --nocapture -q --test-threads=1 > '{}' 2>&1",
            SECOND_ARGS,
            shell_quote(
                &[&["-C", f.root.to_str().unwrap(), "--json"], args]
                    .concat()
                    .join("\u{1f}")
            ),
            std::env::current_exe().unwrap().display(),
            out.display()
        )
    };
    // A run, and an orphan reconcile does report (not vacuous).
    let exe = std::env::current_exe().unwrap();
    let root = f.root.to_str().unwrap();
    let setups: [&[&str]; 2] = [
        &["-C", root, "create", "r1", "--pattern", "p"],
        &["-C", root, "mark", "r1", "rejected"],
    ];
    for args in setups {
        let setup = Command::new(&exe)
            .args([
                "--exact",
                "ops::land::gate::tests::second_process::second_git_loop_process",
                "-q",
            ])
            .env(SECOND_ARGS, args.join("\u{1f}"))
            .output()
            .unwrap();
        assert!(
            setup.status.success(),
            "{}",
            String::from_utf8_lossy(&setup.stdout)
        );
    }
    f.git(&[
        "worktree",
        "add",
        "-q",
        "--detach",
        ".loop-worktrees/stray-orphan",
    ]);
    let tmp = f._dir.path();
    let outs: Vec<PathBuf> = ["list", "reconcile", "adopt", "cleanup", "pool"]
        .iter()
        .map(|n| tmp.join(format!("{n}.out")))
        .collect();
    let cmd = [
        "echo \"$(basename \"$PWD\")\" > '".to_owned() + tmp.join("name").to_str().unwrap() + "'",
        second(&["list", "--long"], &outs[0]),
        second(&["reconcile", "--min-age", "0"], &outs[1]),
        format!(
            "{} || true",
            second(
                &["reconcile", "--adopt", "NAME", "--min-age", "0"],
                &outs[2]
            )
        )
        .replace("NAME", "'\"$(basename \"$PWD\")\"'"),
        second(&["cleanup"], &outs[3]),
        second(&["pool", "status"], &outs[4]),
        // The scratch is as it was made.
        "sleep 1 && test \"$(cat file)\" = one && test -z \"$(git status --porcelain)\"".to_owned(),
    ]
    .join(" && ");
    let g = f.gate(&cmd, SHORT);
    let read = |p: &PathBuf| std::fs::read_to_string(p).unwrap_or_default();
    assert!(
        g.passed,
        "{g:?}\n{}",
        outs.iter().map(read).collect::<Vec<_>>().join("\n---\n")
    );
    let name = std::fs::read_to_string(tmp.join("name")).unwrap();
    let name = name.trim();
    assert!(
        name.starts_with(&format!("{}-", std::process::id())),
        "{name}"
    );
    for (out, what) in outs
        .iter()
        .zip(["list", "reconcile", "adopt", "cleanup", "pool"])
    {
        let text = read(out);
        let mentions = text.contains(name) && what != "adopt" || text.contains(".land-gate");
        assert!(!mentions, "{what} sees the scratch {name}: {text}");
    }
    assert!(read(&outs[0]).contains("\"r1\""), "{}", read(&outs[0]));
    assert!(
        read(&outs[1]).contains("stray-orphan"),
        "{}",
        read(&outs[1])
    );
    // --adopt of the scratch's name: not an orphan, nothing recorded.
    assert!(
        read(&outs[2]).contains("not-adoptable"),
        "{}",
        read(&outs[2])
    );
    assert!(read(&outs[3]).contains("\"r1\""), "{}", read(&outs[3]));
    assert!(
        !f.root.join(".loop-worktrees/r1").exists(),
        "cleanup removed r1"
    );
    let manifest =
        std::fs::read_to_string(f.root.join(".loop-worktrees").join("manifest.json")).unwrap();
    assert!(!manifest.contains(name), "{manifest}");
    f.git(&["worktree", "remove", ".loop-worktrees/stray-orphan"]);
    let dir = f.root.join(".loop-worktrees").join(scratch::SCRATCH_DIR);
    assert!(
        !dir.exists(),
        "the gate's process made .land-gate/ and removed it"
    );
}

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// The environment variable that makes [`gate_in_a_second_process`] run a
/// gate: the repository's root.
const SECOND_GATE: &str = "GIT_LOOP_TEST_GATE_SECOND_ROOT";

/// Not a test by itself: the process [`a_signal_kills_the_gate_and_removes_its_scratch`]
/// signals (this test binary run again with only this test,
/// `SECOND_GATE` set): runs a gate that starts a child and waits.
#[test]
fn gate_in_a_second_process() {
    let Some(root) = std::env::var_os(SECOND_GATE) else {
        return;
    };
    let root = PathBuf::from(root);
    let repo = Repo::discover(&root).unwrap();
    let head = repo.gix().head_id().unwrap().detach();
    let tmp = root.parent().unwrap().display();
    let cmd =
        format!("sleep 60 & echo $! > '{tmp}/child.pid'; echo started > '{tmp}/started'; wait");
    let _ = check(
        &repo,
        &ConfiguredCommand::given(&cmd, "--gate"),
        ("t", &Place::default()),
        head,
        SHORT,
        &[],
    );
    panic!("the gate was not interrupted");
}

/// Ctrl-C or SIGTERM while the gate runs: its process group is killed (the
/// terminal's SIGINT does not reach it: it is in a group of its own), the
/// scratch removed, and git-loop exits with 128 + the signal.
#[test]
fn a_signal_kills_the_gate_and_removes_its_scratch() {
    let f = Fixture::new();
    let second = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "ops::land::gate::tests::second_process::gate_in_a_second_process",
            "-q",
        ])
        .env(SECOND_GATE, &f.root)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = f._dir.path().join("started");
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while !started.exists() {
        assert!(
            std::time::Instant::now() < deadline,
            "the gate did not start"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = rustix::process::Pid::from_raw(second.id() as i32).unwrap();
    rustix::process::kill_process(pid, rustix::process::Signal::TERM).unwrap();
    let out = second.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(128 + 15),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let child: i32 = std::fs::read_to_string(f._dir.path().join("child.pid"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let state = std::fs::read_to_string(format!("/proc/{child}/stat")).unwrap_or_default();
    assert!(
        state.is_empty() || state.contains(") Z "),
        "the gate's child {child} still runs: {state}"
    );
    f.assert_no_scratch();
}
