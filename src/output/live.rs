//! A status line on a terminal's stderr, redrawn in place while a command
//! git-loop runs (a landing's gate, `judge`'s gates) works: what runs, for
//! how long, and the last line it printed — so a gate that prints nothing
//! for minutes is not taken for a hang.
//!
//! Like [`super::Progress`], nothing is drawn before the progress delay
//! (`GIT_PROGRESS_DELAY`, else one second): a quick gate draws no line.
//! Then a thread of its own redraws the line four times a second (`\r`, erase,
//! the text cut to the terminal's width so that it never wraps); output
//! that should stay on the screen ([`Live::above`]: a landing's gate's own
//! output) is written above it, complete lines only, and the line redrawn
//! under it. [`Live::finish`] (or dropping it) erases the line.
//!
//! Written to a duplicate of stderr's descriptor, not through
//! `std::io::stderr()`: the main thread may hold stderr's lock for the
//! whole command (its `Out`). Whoever starts one decides that stderr is a
//! terminal and that neither `--json` nor `--quiet` asks for silence.

use std::io::Write;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// How often the line is redrawn when nothing else happens.
const TICK: Duration = Duration::from_millis(250);

/// The most bytes of an unended line [`Live::above`] holds back.
const PARTIAL_MAX: usize = 4096;

/// What the line says: given the time since it started and the last line
/// of output seen (empty before any).
pub type Words = Box<dyn Fn(Duration, &str) -> String + Send>;

struct State {
    tty: std::fs::File,
    words: Words,
    started: Instant,
    delay: Duration,
    /// The line is on the screen (the delay is past).
    drawn: bool,
    /// The last non-blank line of output seen.
    last: String,
    /// Bytes given to [`Live::above`] after its last newline.
    partial: Vec<u8>,
    stopped: bool,
}

impl State {
    fn draw(&mut self) {
        if !self.drawn && self.started.elapsed() < self.delay {
            return;
        }
        self.drawn = true;
        let text = (self.words)(self.started.elapsed(), &self.last);
        let text = crate::style::escape(&text);
        let width = width().saturating_sub(1).max(10);
        let cut: String = text.chars().take(width).collect();
        let _ = write!(self.tty, "\r\x1b[K{cut}");
        let _ = self.tty.flush();
    }

    fn erase(&mut self) {
        if !self.drawn {
            return;
        }
        let _ = write!(self.tty, "\r\x1b[K");
        let _ = self.tty.flush();
    }
}

/// The status line; see the module doc.
pub struct Live {
    shared: Arc<(Mutex<State>, Condvar)>,
    ticker: Mutex<Option<std::thread::JoinHandle<()>>>,
}

fn lock(m: &Mutex<State>) -> std::sync::MutexGuard<'_, State> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Live {
    /// Start drawing `words`; `None` when stderr cannot be duplicated.
    pub fn start(words: Words) -> Option<Live> {
        use std::os::fd::AsFd;
        let fd = std::io::stderr().as_fd().try_clone_to_owned().ok()?;
        let state = State {
            tty: std::fs::File::from(fd),
            words,
            started: Instant::now(),
            delay: super::Progress::delay(),
            drawn: false,
            last: String::new(),
            partial: Vec::new(),
            stopped: false,
        };
        let shared = Arc::new((Mutex::new(state), Condvar::new()));
        let ticking = Arc::clone(&shared);
        let ticker = std::thread::Builder::new()
            .name("live-line".into())
            .spawn(move || {
                let (state, wake) = &*ticking;
                let mut s = lock(state);
                while !s.stopped {
                    s.draw();
                    s = wake
                        .wait_timeout(s, TICK)
                        .unwrap_or_else(|p| p.into_inner())
                        .0;
                }
            })
            .ok();
        Some(Live {
            shared,
            ticker: Mutex::new(ticker),
        })
    }

    /// Output to keep on the screen: its complete lines written above the
    /// line (the rest when the next newline comes, or at the end), the last
    /// one remembered for the line.
    pub fn above(&self, bytes: &[u8]) {
        let mut s = lock(&self.shared.0);
        s.partial.extend_from_slice(bytes);
        let end = match s.partial.iter().rposition(|&b| b == b'\n') {
            Some(end) => end,
            // A line redrawn with `\r` (a progress bar) never ends: shown
            // in the line as it goes, written out once it is long.
            None if s.partial.len() > PARTIAL_MAX => s.partial.len() - 1,
            None => {
                let partial = std::mem::take(&mut s.partial);
                remember(&mut s.last, &partial);
                s.partial = partial;
                return;
            }
        };
        let lines: Vec<u8> = s.partial.drain(..=end).collect();
        s.erase();
        let _ = s.tty.write_all(&lines);
        remember(&mut s.last, &lines);
        s.draw();
    }

    /// Output not shown (it goes to a log): only its last line, for the
    /// line, `prefix` before it.
    pub fn seen(&self, prefix: &str, bytes: &[u8]) {
        let mut last = String::new();
        remember(&mut last, bytes);
        if !last.is_empty() {
            lock(&self.shared.0).last = format!("{prefix}{last}");
        }
    }

    /// Erase the line (what [`Live::above`] still holds written first).
    pub fn finish(&self) {
        self.stop();
    }

    fn stop(&self) {
        {
            let mut s = lock(&self.shared.0);
            if s.stopped {
                return;
            }
            s.stopped = true;
            s.erase();
            let rest = std::mem::take(&mut s.partial);
            if !rest.is_empty() {
                let _ = s.tty.write_all(&rest);
                let _ = s.tty.write_all(b"\n");
            }
        }
        self.shared.1.notify_all();
        let ticker = self.ticker.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(ticker) = ticker {
            let _ = ticker.join();
        }
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        self.stop();
    }
}

/// `last` set to the last non-blank line of `bytes` (lines end at `\n` or
/// `\r`, as a progress bar redraws itself), when there is one.
fn remember(last: &mut String, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    if let Some(line) = text
        .split(['\n', '\r'])
        .map(str::trim)
        .rfind(|l| !l.is_empty())
    {
        *last = line.to_owned();
    }
}

/// The terminal's width (the controlling terminal's, which stderr is),
/// else 80.
fn width() -> usize {
    match ratatui::crossterm::terminal::size() {
        Ok((columns, _)) if columns > 0 => usize::from(columns),
        _ => 80,
    }
}

/// A writer that hands what is written to [`Live::above`] (a landing's
/// gate's output on a terminal).
pub struct Above(pub Arc<Live>);

impl Write for Above {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.above(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A writer that copies into `inner` (a log file) and tells [`Live::seen`]
/// its last line, `prefix` before it (an attempt's id).
pub struct Teed<W> {
    pub inner: W,
    pub live: Arc<Live>,
    pub prefix: String,
}

impl<W: Write> Write for Teed<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.live.seen(&self.prefix, &buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::remember;

    #[test]
    fn the_last_line_is_the_last_non_blank_one_and_a_progress_bars_last_state() {
        let mut last = String::new();
        remember(&mut last, b"one\ntwo\n\n");
        assert_eq!(last, "two");
        remember(&mut last, b"10%\r50%\r");
        assert_eq!(last, "50%");
        remember(&mut last, b"\n  \n");
        assert_eq!(last, "50%");
    }
}
