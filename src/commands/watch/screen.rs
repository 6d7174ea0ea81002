//! The full-screen view: the terminal (raw mode, the alternate screen, the
//! cursor hidden — all three undone on every way out: a return, an error,
//! a panic), the keys, and the one loop that waits.
//!
//! The loop blocks in one place, a channel fed by three sources: a thread
//! blocked in crossterm's `event::read` (keys, resizes), the inotify thread
//! of [`crate::ops::watch::changes`], and the receive's own timeout (the
//! next full refresh). Nothing wakes it otherwise, so an idle view costs
//! no CPU. Everything a wake-up brought is handled before the next draw:
//! many file changes make one reading.
//!
//! Drawn on stderr: stdout is left for the path `o` prints.

use std::io::Write;
use std::path::PathBuf;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Instant;

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::style::{Color as Tone, Modifier, Style};
use ratatui::text::{Line, Span as TextSpan};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use super::frame::{self, Span};
use crate::ctx::Ctx;
use crate::error::Result;
use crate::manifest::Status;
use crate::ops::list::Run;
use crate::ops::watch::{self, FULL_REFRESH};
use crate::style::escape;

/// What woke the loop.
enum Wake {
    Input(Event),
    Files,
    /// The terminal's input ended or failed.
    InputGone,
}

/// What the view shows under (or over) the table.
enum Mode {
    Table,
    /// Waiting for the status key of `m`.
    Mark(String),
    /// A run's diffstat: its id and the lines of the panel.
    Diff(String, Vec<String>),
    /// `?`: every key and what it does.
    Keys,
}

/// What a key asks of the loop.
enum Step {
    Stay,
    Reread,
    Quit,
    Open(PathBuf),
    /// `s`: sync this run (said first: a gate may take a while).
    Sync(String),
}

const KEYS: &str = "j/k select  m mark  s sync  o open  d diffstat  ? keys  q quit";
/// The panel `?` opens.
const KEYS_HELP: [&str; 9] = [
    "up/down, j/k   select a run",
    "m then a/m/r/e/s   mark it active, merged, rejected, escalated, stale",
    "s   sync it with its base, as git loop sync <id> does (its line said below)",
    "o, Enter   quit printing its path on stdout, for dir=$(git loop watch) && cd \"$dir\"",
    "d   its diffstat against its base (d or Esc closes)",
    "?   these keys (? or Esc closes)",
    "q, Esc, Ctrl-C   quit",
    "",
    "git loop create <name> starts a run; it appears here as it is made",
];
/// What the table says when there is no run.
const EMPTY: &str = "no runs yet: git loop create <name> starts one";
const MARK_KEYS: &str = "a active  m merged  r rejected  e escalated  s stale  (Esc: cancel)";
/// The status keys of `m`.
const STATUS_KEYS: [(char, Status); 5] = [
    ('a', Status::Active),
    ('m', Status::Merged),
    ('r', Status::Rejected),
    ('e', Status::Escalated),
    ('s', Status::Stale),
];

struct View<'c> {
    ctx: &'c Ctx,
    runs: Vec<Run>,
    /// The selected run's id (kept across readings, whatever moves).
    selected: Option<String>,
    mode: Mode,
    /// The last thing said (a mark, a bell, an error), until the next key.
    message: Option<String>,
    color: bool,
    bell: bool,
}

/// Run the view until a key ends it; `Some(path)`: `o` chose that run.
pub fn show(ctx: &Ctx, bell: bool, color: bool) -> Result<Option<PathBuf>> {
    let runs = watch::read(ctx, Vec::new(), true)?;
    let mut view = View {
        ctx,
        selected: runs.first().map(|r| r.entry.id.as_str().to_owned()),
        runs,
        mode: Mode::Table,
        message: None,
        color,
        bell,
    };
    let io = |e: std::io::Error| crate::error::Error::io("could not draw on", "the terminal", e);
    let _raw = super::terminal::Raw::enter().map_err(io)?;
    let mut terminal = Terminal::new(CrosstermBackend::new(std::io::stderr())).map_err(io)?;
    let (tx, rx) = mpsc::channel();
    spawn_input(tx.clone()).map_err(io)?;
    let files = move |tx: mpsc::Sender<Wake>| {
        watch::changes::spawn(&ctx.loop_dir(), move || tx.send(Wake::Files).is_ok()).is_ok()
    };
    let mut watching = files(tx.clone());
    let mut next_full = Instant::now() + FULL_REFRESH;
    loop {
        terminal.draw(|f| view.draw(f)).map_err(io)?;
        let wait = next_full.saturating_duration_since(Instant::now());
        let mut batch = match rx.recv_timeout(wait) {
            Ok(wake) => vec![wake],
            Err(RecvTimeoutError::Timeout) => Vec::new(),
            Err(RecvTimeoutError::Disconnected) => return Ok(None),
        };
        let full = batch.is_empty();
        batch.extend(rx.try_iter());
        let (mut reread, mut reread_all) = (false, false);
        for wake in batch {
            match wake {
                Wake::Files => reread = true,
                Wake::InputGone => return Ok(None),
                Wake::Input(Event::Key(key)) if key.kind != KeyEventKind::Release => {
                    match view.key(key) {
                        Step::Stay => {}
                        Step::Reread => reread = true,
                        Step::Quit => return Ok(None),
                        Step::Open(path) => return Ok(Some(path)),
                        Step::Sync(id) => {
                            view.message = Some(format!("syncing {}…", escape(&id)));
                            terminal.draw(|f| view.draw(f)).map_err(io)?;
                            view.message = Some(super::sync_key::sync(ctx, &id));
                            // Its ahead and behind now, not at the next
                            // full refresh.
                            reread_all = true;
                        }
                    }
                }
                Wake::Input(_) => {}
            }
        }
        if full || reread_all {
            view.refresh(true);
        } else if reread {
            view.refresh(false);
        }
        if full {
            next_full = Instant::now() + FULL_REFRESH;
            if !watching {
                // `.loop-worktrees/` may exist by now.
                watching = files(tx.clone());
            }
        }
    }
}

/// The thread that reads the terminal's keys (and resizes) into `tx`,
/// blocked in crossterm's `event::read` until the input ends.
fn spawn_input(tx: mpsc::Sender<Wake>) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name("watch-input".into())
        .spawn(move || {
            loop {
                let wake = match event::read() {
                    Ok(ev) => Wake::Input(ev),
                    Err(_) => Wake::InputGone,
                };
                let gone = matches!(wake, Wake::InputGone);
                if tx.send(wake).is_err() || gone {
                    return;
                }
            }
        })
        .map(drop)
}

impl View<'_> {
    fn index(&self) -> Option<usize> {
        let id = self.selected.as_deref()?;
        self.runs.iter().position(|r| r.entry.id.as_str() == id)
    }

    fn selected_run(&self) -> Option<&Run> {
        self.index().map(|i| &self.runs[i])
    }

    /// Read the runs again (`full`: each worktree too) and ring for each
    /// run that became `waiting` or `done`.
    fn refresh(&mut self, full: bool) {
        let before = watch::activities(&self.runs);
        let previous = std::mem::take(&mut self.runs);
        match watch::read(self.ctx, previous, full) {
            Ok(runs) => self.runs = runs,
            Err(e) => {
                self.message = Some(format!("could not read the runs: {e}"));
                return;
            }
        }
        let rang: Vec<String> = watch::became_waiting_or_done(&before, &self.runs)
            .into_iter()
            .map(|(id, a)| format!("{} is {a}", crate::style::escape(id)))
            .collect();
        if !rang.is_empty() {
            if self.bell {
                let mut stderr = std::io::stderr();
                let _ = stderr.write_all(b"\x07").and_then(|()| stderr.flush());
            }
            self.message = Some(rang.join(", "));
        }
        if self.index().is_none() {
            self.selected = self.runs.first().map(|r| r.entry.id.as_str().to_owned());
        }
    }

    fn key(&mut self, key: KeyEvent) -> Step {
        let ctrl_c =
            key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl_c {
            return Step::Quit;
        }
        match std::mem::replace(&mut self.mode, Mode::Table) {
            Mode::Mark(id) => return self.mark(&id, key.code),
            Mode::Diff(id, lines) => {
                if !matches!(key.code, KeyCode::Esc | KeyCode::Char('d' | 'q')) {
                    self.mode = Mode::Diff(id, lines);
                }
                if key.code == KeyCode::Char('q') {
                    return Step::Quit;
                }
                return Step::Stay;
            }
            Mode::Keys => {
                if !matches!(key.code, KeyCode::Esc | KeyCode::Char('?' | 'q')) {
                    self.mode = Mode::Keys;
                }
                if key.code == KeyCode::Char('q') {
                    return Step::Quit;
                }
                return Step::Stay;
            }
            Mode::Table => {}
        }
        self.message = None;
        match key.code {
            KeyCode::Char('q') | KeyCode::Esc => Step::Quit,
            KeyCode::Up | KeyCode::Char('k') => self.step(-1),
            KeyCode::Down | KeyCode::Char('j') => self.step(1),
            KeyCode::Char('m') => {
                if let Some(run) = self.selected_run() {
                    self.mode = Mode::Mark(run.entry.id.as_str().to_owned());
                }
                Step::Stay
            }
            KeyCode::Char('o') | KeyCode::Enter => match self.selected_run() {
                Some(run) => Step::Open(self.ctx.worktree_path(&run.entry.id)),
                None => Step::Stay,
            },
            KeyCode::Char('s') => match self.selected_run() {
                Some(run) => Step::Sync(run.entry.id.as_str().to_owned()),
                None => Step::Stay,
            },
            KeyCode::Char('?') => {
                self.mode = Mode::Keys;
                Step::Stay
            }
            KeyCode::Char('d') => {
                if let Some(run) = self.selected_run() {
                    let lines = frame::diff_lines(self.ctx, run);
                    self.mode = Mode::Diff(run.entry.id.as_str().to_owned(), lines);
                }
                Step::Stay
            }
            _ => Step::Stay,
        }
    }

    fn step(&mut self, by: isize) -> Step {
        if self.runs.is_empty() {
            return Step::Stay;
        }
        let at = self.index().unwrap_or(0) as isize + by;
        let at = at.clamp(0, self.runs.len() as isize - 1) as usize;
        self.selected = Some(self.runs[at].entry.id.as_str().to_owned());
        Step::Stay
    }

    /// `m` then a status key: the mark operation, as `git loop mark <id>
    /// <status>` (logged); its outcome or its error said in the footer.
    fn mark(&mut self, id: &str, code: KeyCode) -> Step {
        let KeyCode::Char(c) = code else {
            return Step::Stay;
        };
        let Some(&(_, status)) = STATUS_KEYS.iter().find(|(k, _)| *k == c) else {
            return Step::Stay;
        };
        let (mut stdout, mut stderr) = (std::io::sink(), std::io::sink());
        let mut out = crate::output::Out {
            stdout: &mut stdout,
            stderr: &mut stderr,
            json: false,
            quiet: true,
            color: crate::style::Color::OFF,
            stderr_is_terminal: false,
            stdout_is_terminal: false,
        };
        let marked = crate::cli::RunId::parse(id).and_then(|run_id| {
            crate::ops::mark::set_status(self.ctx, &run_id, status, &mut out.notes())
        });
        self.message = Some(match marked {
            Ok(m) => format!(
                "{}: {} -> {}",
                crate::style::escape(id),
                m.previous,
                m.entry.status
            ),
            Err(e) => format!("not marked: {e}"),
        });
        Step::Reread
    }

    fn draw(&self, f: &mut ratatui::Frame<'_>) {
        let area = f.area();
        let built = frame::build(&self.runs, crate::time::now());
        let width = usize::from(area.width);
        // The title, the header, the rows, the footer.
        let room = usize::from(area.height).saturating_sub(3);
        let selected = self.index();
        let first = selected.map_or(0, |s| (s + 1).saturating_sub(room));
        let title = [(built.title.clone(), "1")];
        let mut lines = vec![self.line(&title, width), self.line(&built.header, width)];
        for (i, row) in built.rows.iter().enumerate().skip(first).take(room) {
            let mut line = self.line(row, width);
            if Some(i) == selected {
                line = line.style(Style::default().add_modifier(Modifier::REVERSED));
            }
            lines.push(line);
        }
        if built.rows.is_empty() {
            lines.push(Line::from(EMPTY));
        }
        let table = Rect {
            height: area.height.saturating_sub(1),
            ..area
        };
        f.render_widget(Paragraph::new(lines), table);
        let footer = match &self.mode {
            Mode::Table => self.message.clone().unwrap_or_else(|| KEYS.to_owned()),
            Mode::Mark(id) => format!("mark {} as: {MARK_KEYS}", crate::style::escape(id)),
            Mode::Diff(..) => "d/Esc close  q quit".to_owned(),
            Mode::Keys => "?/Esc close  q quit".to_owned(),
        };
        let bottom = Rect {
            y: area.y + area.height.saturating_sub(1),
            height: area.height.min(1),
            ..area
        };
        let footer = [(footer, "2")];
        f.render_widget(Paragraph::new(self.line(&footer, width)), bottom);
        let (title, body): (String, Vec<Line<'_>>) = match &self.mode {
            Mode::Diff(id, text) => (
                format!(" diffstat of {} ", crate::style::escape(id)),
                text.iter().map(|l| Line::from(l.as_str())).collect(),
            ),
            Mode::Keys => (
                " keys of git loop watch ".to_owned(),
                KEYS_HELP.iter().map(|&l| Line::from(l)).collect(),
            ),
            _ => return,
        };
        let top = area.height / 3;
        let panel = Rect {
            y: area.y + top,
            height: area.height.saturating_sub(top + 1),
            ..area
        };
        let block = Block::default().borders(Borders::ALL).title(title);
        f.render_widget(Clear, panel);
        f.render_widget(Paragraph::new(body).block(block), panel);
    }

    fn line<'a>(&self, spans: &'a [Span], width: usize) -> Line<'a> {
        Line::from(
            frame::clip(spans, width)
                .into_iter()
                .map(|(text, sgr)| TextSpan::styled(text, self.style(sgr)))
                .collect::<Vec<_>>(),
        )
    }

    /// The SGR parameters `frame` uses, as a style; none without colour.
    fn style(&self, sgr: &str) -> Style {
        let mut style = Style::default();
        if !self.color {
            return style;
        }
        for code in sgr.split(';') {
            style = match code {
                "1" => style.add_modifier(Modifier::BOLD),
                "2" => style.add_modifier(Modifier::DIM),
                "31" => style.fg(Tone::Red),
                "32" => style.fg(Tone::Green),
                "33" => style.fg(Tone::Yellow),
                "36" => style.fg(Tone::Cyan),
                _ => style,
            };
        }
        style
    }
}
