//! `watch --fleet`: every machine's published runs, full-screen: the
//! `list --fleet` table ([`crate::ops::fleet::see`]: the fleet's namespace
//! on the remote read, only the records not fetched yet fetched), read
//! again every [`FULL_REFRESH`] or on `r`; `q`, Esc or Ctrl-C quit. A
//! failed reading (the remote unreachable) is said in the footer, and the
//! last table stays. Read-only: no key changes anything.

use std::sync::mpsc::{self, RecvTimeoutError};

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use crate::commands::shared::fleet_list::FleetList;
use crate::ctx::Ctx;
use crate::error::Result;
use crate::ops::watch::FULL_REFRESH;

const KEYS: &str = "r read again  q quit";

/// What the view shows: the table's lines, and when it was read, or why not.
struct View {
    lines: Vec<String>,
    read_at: Option<jiff::Timestamp>,
    message: Option<String>,
}

impl View {
    fn read(&mut self, ctx: &Ctx) {
        match crate::ops::fleet::see::survey(ctx) {
            Ok(outcome) => {
                let title = format!(
                    "git loop watch --fleet: {} run(s) on {} (this machine: {}; * marks its runs)",
                    outcome.runs.len(),
                    crate::style::escape(&outcome.remote),
                    crate::style::escape(&outcome.machine),
                );
                let skipped = outcome.skipped.len();
                let list = FleetList(outcome);
                let mut text = Vec::new();
                let _ = list.write_runs(&mut text, crate::style::Color::OFF);
                self.lines = std::iter::once(title)
                    .chain(String::from_utf8_lossy(&text).lines().map(str::to_owned))
                    .collect();
                self.message = (skipped > 0).then(|| {
                    format!("{skipped} record(s) skipped: git loop list --fleet says why")
                });
                self.read_at = Some(crate::time::now());
            }
            Err(e) => self.message = Some(format!("could not read the fleet: {e}")),
        }
    }

    fn draw(&self, f: &mut ratatui::Frame<'_>) {
        let area = f.area();
        let lines: Vec<Line<'_>> = self
            .lines
            .iter()
            .take(usize::from(area.height).saturating_sub(1))
            .map(|l| Line::from(l.as_str()))
            .collect();
        let table = Rect {
            height: area.height.saturating_sub(1),
            ..area
        };
        f.render_widget(Paragraph::new(lines), table);
        let read = self.read_at.map_or_else(
            || "not read yet".to_owned(),
            |at| format!("read {}", crate::time::age(crate::time::now(), at)),
        );
        let footer = match &self.message {
            Some(m) => format!("{m}  ({read})  {KEYS}"),
            None => format!("{read}  {KEYS}"),
        };
        let bottom = Rect {
            y: area.y + area.height.saturating_sub(1),
            height: area.height.min(1),
            ..area
        };
        f.render_widget(Paragraph::new(Line::from(footer)), bottom);
    }
}

/// The view, until a quit key (or the terminal's input ends).
pub fn show(ctx: &Ctx) -> Result<()> {
    let mut view = View {
        lines: Vec::new(),
        read_at: None,
        message: None,
    };
    view.read(ctx);
    let io = |e: std::io::Error| crate::error::Error::io("could not draw on", "the terminal", e);
    let _raw = super::terminal::Raw::enter().map_err(io)?;
    let mut terminal = Terminal::new(CrosstermBackend::new(std::io::stderr())).map_err(io)?;
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("watch-fleet-input".into())
        .spawn(move || {
            while let Ok(ev) = event::read() {
                if tx.send(ev).is_err() {
                    return;
                }
            }
        })
        .map_err(io)?;
    loop {
        terminal.draw(|f| view.draw(f)).map_err(io)?;
        match rx.recv_timeout(FULL_REFRESH) {
            Ok(Event::Key(key)) if key.kind != KeyEventKind::Release => match key.code {
                KeyCode::Char('q') | KeyCode::Esc => return Ok(()),
                KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => {
                    return Ok(());
                }
                KeyCode::Char('r') => view.read(ctx),
                _ => {}
            },
            Ok(_) => {}
            Err(RecvTimeoutError::Timeout) => view.read(ctx),
            Err(RecvTimeoutError::Disconnected) => return Ok(()),
        }
    }
}
