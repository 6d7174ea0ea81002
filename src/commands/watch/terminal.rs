//! The terminal as the view needs it (raw mode, the alternate screen, the
//! cursor hidden), and given back as it was on every way out: [`Raw`]
//! dropped (a return, an error) or a panic (the hook restores first).

use ratatui::crossterm::{cursor, execute, terminal};

/// The terminal as the view needs it; dropped (or on a panic), as it was.
pub struct Raw;

impl Raw {
    pub fn enter() -> std::io::Result<Raw> {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
        terminal::enable_raw_mode()?;
        let raw = Raw;
        execute!(
            std::io::stderr(),
            terminal::EnterAlternateScreen,
            cursor::Hide
        )?;
        Ok(raw)
    }
}

fn restore() {
    let _ = terminal::disable_raw_mode();
    let _ = execute!(
        std::io::stderr(),
        terminal::LeaveAlternateScreen,
        cursor::Show
    );
}

impl Drop for Raw {
    fn drop(&mut self) {
        restore();
    }
}
