//! The terminal as the view needs it (raw mode, the alternate screen, the
//! cursor hidden), and given back as it was on every way out: [`Raw`]
//! dropped (a return, an error), a panic (the hook restores first), or
//! SIGTERM/SIGINT ([`crate::signals::track_terminal`]).

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
        // A SIGTERM (or a SIGINT sent with kill: in raw mode Ctrl-C is a
        // key) gives the terminal back before the process exits.
        crate::signals::track_terminal(restore);
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

/// Raw mode off, the alternate screen left, the cursor shown. Written to a
/// duplicate of stderr's descriptor, not through `std::io::stderr()`: on a
/// signal this runs on the signal thread, and the main thread may hold
/// stderr's lock for the whole command (see [`crate::signals::say`]).
fn restore() {
    use std::os::fd::AsFd;
    let _ = terminal::disable_raw_mode();
    if let Ok(fd) = std::io::stderr().as_fd().try_clone_to_owned() {
        let mut tty = std::fs::File::from(fd);
        let _ = execute!(tty, terminal::LeaveAlternateScreen, cursor::Show);
    }
}

impl Drop for Raw {
    fn drop(&mut self) {
        crate::signals::untrack_terminal();
        restore();
    }
}
