//! A configured command run with a time limit, its output kept: the runner
//! of `land.gate` (and of `judge`'s gates, one per attempt, several at a
//! time).
//!
//! The command runs with `sh -c` in its own process group (so nothing it
//! starts is in git-loop's, and one `killpg` reaches all of it), stdin
//! closed, stdout and stderr into one pipe (their order kept, as on a
//! terminal). A reader thread copies what comes to git-loop's stderr as it
//! comes (unless `echo` is off) and keeps the last [`KEEP_BYTES`] of it;
//! the tail reported is the last [`TAIL_LINES`] lines of that, at most
//! [`TAIL_BYTES`]. Memory stays bounded however much the command prints.
//!
//! When the time is up the whole group is killed with `SIGKILL`. When the
//! command ends by itself, whatever it left running in its group (a server
//! started in the background) is killed too: the directory it ran in may be
//! about to go. Its exit is seen with `waitid(WNOWAIT)` and the group killed
//! before the child is reaped, so its pid, the group's id, cannot have been
//! reused by then; then (for at most [`DRAIN_GRACE`]) until none of the
//! group is left. A process that left the group (`setsid`) is not
//! reached; the tail is then what came before the command ended plus
//! [`DRAIN_GRACE`].

use std::ffi::OsStr;
use std::io::{Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use super::{ConfiguredCommand, Ended};
use crate::error::{Error, Result};

/// The lines of output a [`Timed`] keeps.
pub const TAIL_LINES: usize = 20;
/// The most bytes of output a [`Timed`] keeps (its last ones).
pub const TAIL_BYTES: usize = 4096;
/// The output kept while the command runs (the tail is cut from it).
pub const KEEP_BYTES: usize = 64 * 1024;
/// How long the output is read after the command ended (a process that
/// escaped its group may hold the pipe open).
pub const DRAIN_GRACE: Duration = Duration::from_secs(2);

/// How a command run by [`run_with_timeout`] ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Timed {
    /// Its exit (a kill at the timeout is `signal: Some(9)`).
    pub outcome: Ended,
    /// It was killed because the time was up.
    pub timed_out: bool,
    pub elapsed: Duration,
    /// The last lines of its output, stdout and stderr together (lossy
    /// UTF-8; not escaped: whoever shows it escapes it).
    pub tail: String,
}

/// Run `configured` with `sh -c` in `dir`, once the files it names there
/// are checked to be the ones trusted, killing its process group after
/// `timeout`; see the module doc.
///
/// `on_start` is given the pid of the shell once it runs, which is also
/// its process group's id: a caller that must stop it early (on Ctrl-C)
/// kills that group.
pub fn run_with_timeout(
    configured: &ConfiguredCommand<'_>,
    dir: &Path,
    env: &[(&str, &OsStr)],
    timeout: Duration,
    echo: bool,
    on_start: impl FnOnce(u32),
) -> Result<Timed> {
    // A duplicate of the descriptor, not `std::io::stderr().lock()`: the
    // main thread may hold stderr's lock for the whole command (its `Out`).
    let stderr = echo
        .then(|| {
            use std::os::fd::AsFd;
            let fd = std::io::stderr().as_fd().try_clone_to_owned().ok()?;
            Some(Box::new(std::fs::File::from(fd)) as Box<dyn Write + Send>)
        })
        .flatten();
    run_with_timeout_into(configured, dir, env, timeout, stderr, on_start)
}

/// [`run_with_timeout`] with the whole output copied, as it comes, into
/// `copy` (git-loop's stderr, a terminal's status line's above, or
/// `judge`'s log file of the attempt) when given.
pub fn run_with_timeout_into(
    configured: &ConfiguredCommand<'_>,
    dir: &Path,
    env: &[(&str, &OsStr)],
    timeout: Duration,
    copy: Option<Box<dyn Write + Send>>,
    on_start: impl FnOnce(u32),
) -> Result<Timed> {
    configured.check_files(dir)?;
    let command = configured.command;
    let sh = || PathBuf::from("sh");
    let (reader, writer) = std::io::pipe().map_err(|e| Error::io("could not run", sh(), e))?;
    let writer2 = writer
        .try_clone()
        .map_err(|e| Error::io("could not run", sh(), e))?;
    let mut cmd = Command::new("sh");
    crate::git::cmd::without_repo_env(cmd.arg("-c").arg(command).current_dir(dir))
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(writer2)
        .process_group(0);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let start = Instant::now();
    let spawned = cmd.spawn();
    // The write ends live in `cmd`: closed here, so the reader sees the end
    // of the output once the command's processes have closed theirs.
    drop(cmd);
    let mut child = spawned.map_err(|e| Error::io("could not run", sh(), e))?;
    on_start(child.id());
    let kept = Arc::new(Mutex::new(Vec::new()));
    let done = read_output(reader, Arc::clone(&kept), copy);
    let timed_out = wait_then_kill_group(&child, start, timeout)
        .map_err(|e| Error::io("could not wait for", sh(), e))?;
    let status = child
        .wait()
        .map_err(|e| Error::io("could not wait for", sh(), e))?;
    let elapsed = start.elapsed();
    let _ = done.recv_timeout(DRAIN_GRACE);
    wait_for_group_gone(&child, DRAIN_GRACE);
    let tail = tail_of(&kept.lock().unwrap_or_else(|p| p.into_inner()));
    Ok(Timed {
        outcome: Ended {
            command: command.to_owned(),
            exit_code: status.code(),
            signal: status.signal(),
            ok: status.success() && !timed_out,
        },
        timed_out,
        elapsed,
        tail,
    })
}

/// Copy the pipe to `copy` (when given), and into `kept` (its last
/// [`KEEP_BYTES`]) on a thread of its own; the receiver hears when the
/// pipe is at its end.
fn read_output(
    mut pipe: std::io::PipeReader,
    kept: Arc<Mutex<Vec<u8>>>,
    mut copy: Option<Box<dyn Write + Send>>,
) -> mpsc::Receiver<()> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        loop {
            let n = match pipe.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            };
            if let Some(err) = copy.as_mut() {
                let _ = err.write_all(&buf[..n]);
            }
            let mut kept = kept.lock().unwrap_or_else(|p| p.into_inner());
            kept.extend_from_slice(&buf[..n]);
            if kept.len() > KEEP_BYTES {
                let cut = kept.len() - KEEP_BYTES;
                kept.drain(..cut);
            }
        }
        let _ = tx.send(());
    });
    rx
}

/// Wait, without reaping it, until `child` exits or `timeout` has passed
/// since `start`; then kill its process group (see the module doc).
/// Whether the time was up.
fn wait_then_kill_group(child: &Child, start: Instant, timeout: Duration) -> std::io::Result<bool> {
    use rustix::process::{Pid, Signal, WaitId, WaitIdOptions, kill_process_group, waitid};
    let pid = Pid::from_child(child);
    let options = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
    let mut pause = Duration::from_millis(5);
    let timed_out = loop {
        match waitid(WaitId::Pid(pid), options) {
            Ok(Some(_)) => break false,
            Ok(None) | Err(rustix::io::Errno::INTR) => {}
            Err(e) => return Err(e.into()),
        }
        let spent = start.elapsed();
        if spent >= timeout {
            break true;
        }
        std::thread::sleep(pause.min(timeout - spent));
        pause = (pause * 2).min(Duration::from_millis(100));
    };
    // `pid` is our unreaped child, the leader of its own group
    // (`process_group(0)`): the group id is still its. Gone already
    // (`ESRCH`) is fine.
    let _ = kill_process_group(pid, Signal::KILL);
    Ok(timed_out)
}

/// Kill the process group `pgid` (a shell [`run_with_timeout`] started,
/// not reaped yet) and wait, at most [`DRAIN_GRACE`], until it is gone.
pub fn kill_group(pgid: u32) {
    use rustix::process::{Pid, Signal, kill_process_group, test_kill_process_group};
    let Some(pid) = i32::try_from(pgid).ok().and_then(Pid::from_raw) else {
        return;
    };
    let _ = kill_process_group(pid, Signal::KILL);
    let start = Instant::now();
    while test_kill_process_group(pid).is_ok() && start.elapsed() < DRAIN_GRACE {
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Wait (at most `grace`) until no process of the killed group is left:
/// `SIGKILL` is delivered at once, but a process is gone only once the
/// kernel has torn it down, and whoever looks at the directory next (the
/// safety kernel's in-use check) must not find it still there.
fn wait_for_group_gone(child: &Child, grace: Duration) {
    use rustix::process::{Pid, test_kill_process_group};
    let pid = Pid::from_child(child);
    let start = Instant::now();
    while test_kill_process_group(pid).is_ok() && start.elapsed() < grace {
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The last [`TAIL_LINES`] lines of `kept`, at most [`TAIL_BYTES`] (cut
/// at a line, else at a character), without the final newline.
pub fn tail_of(kept: &[u8]) -> String {
    let text = String::from_utf8_lossy(kept);
    let text = text.strip_suffix('\n').unwrap_or(&text);
    let mut start = text.len();
    for _ in 0..TAIL_LINES {
        match text[..start].rfind('\n') {
            Some(i) => start = i,
            None => {
                start = 0;
                break;
            }
        }
    }
    let mut tail = text[start..].trim_start_matches('\n');
    if tail.len() > TAIL_BYTES {
        let mut cut = tail.len() - TAIL_BYTES;
        while !tail.is_char_boundary(cut) {
            cut += 1;
        }
        tail = &tail[cut..];
        if let Some(i) = tail.find('\n') {
            tail = &tail[i + 1..];
        }
    }
    tail.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tail_is_the_last_lines_and_bounded() {
        let many: String = (1..=50).map(|i| format!("line {i}\n")).collect();
        let tail = tail_of(many.as_bytes());
        assert_eq!(tail.lines().count(), TAIL_LINES);
        assert!(
            tail.starts_with("line 31\n") && tail.ends_with("line 50"),
            "{tail}"
        );
        assert_eq!(tail_of(b"one\ntwo"), "one\ntwo");
        assert_eq!(tail_of(b""), "");
        let long = format!("{}\nend\n", "é".repeat(10_000));
        let tail = tail_of(long.as_bytes());
        assert!(tail.len() <= TAIL_BYTES, "{}", tail.len());
        assert_eq!(tail, "end");
        let one = "x".repeat(10_000);
        assert_eq!(tail_of(one.as_bytes()).len(), TAIL_BYTES);
    }

    fn given(cmd: &str) -> ConfiguredCommand<'_> {
        ConfiguredCommand::given(cmd, "--gate")
    }

    #[test]
    fn a_command_that_fails_keeps_its_code_and_output_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let cmd = "echo out; echo err >&2; echo more; exit 3";
        let t = run_with_timeout(
            &given(cmd),
            dir.path(),
            &[],
            Duration::from_secs(30),
            false,
            |_| {},
        )
        .unwrap();
        assert_eq!(t.outcome.exit_code, Some(3));
        assert!(!t.outcome.ok && !t.timed_out);
        assert_eq!(t.tail, "out\nerr\nmore");
    }

    #[test]
    fn output_beyond_the_bound_is_dropped_from_the_front() {
        let dir = tempfile::tempdir().unwrap();
        let cmd = "i=0; while [ $i -lt 3000 ]; do echo \"line $i ................................\"; i=$((i+1)); done";
        let t = run_with_timeout(
            &given(cmd),
            dir.path(),
            &[],
            Duration::from_secs(60),
            false,
            |_| {},
        )
        .unwrap();
        assert!(t.outcome.ok, "{t:?}");
        assert!(
            t.tail
                .ends_with("line 2999 ................................")
        );
        assert_eq!(t.tail.lines().count(), TAIL_LINES);
    }
}
