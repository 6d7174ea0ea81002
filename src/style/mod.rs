//! Human output: colour (see "Colour" below), the escaping of untrusted
//! text, and the short codes that summarize why entries were skipped.
//!
//! Every value git-loop prints for a person may come from somewhere a person
//! did not type it: a manifest or event log written by hand or by an older
//! version, a cloned `.git-loop.toml`, a file name in a cloned tree, git's own
//! messages. Printed raw, such text can drive the terminal (an OSC 52
//! clipboard write, a screen clear), break a table with a newline, or reorder
//! what is shown with a bidi override. [`escape`] makes it inert; every human
//! rendering of a stored or foreign value goes through it. JSON output does
//! not: serde_json escapes control characters itself, and JSON consumers get
//! the value as stored.
//!
//! # Colour
//!
//! As git decides it for its own commands, then the environment's
//! conventions ([`want_color`]):
//! 1. `color.loop` (git-loop's `color.<command>`), else `color.ui`, read
//!    from git's configuration as git reads it (system, global, local,
//!    worktree, then `git -c`): `never` or a false boolean: no colour;
//!    `always`: colour, on a pipe too; `auto` or a true boolean: as if
//!    unset. Case does not matter, as for git.
//! 2. Unset (or `auto`): never when `NO_COLOR` is set to anything
//!    non-empty, always when `CLICOLOR_FORCE` is (a pipe too), never for
//!    `CLICOLOR=0`; otherwise only on a terminal whose `TERM` is not `dumb`.
//!
//! So `color.loop=never` wins over `CLICOLOR_FORCE`, and `color.ui=always`
//! over `NO_COLOR`: a setting in git's configuration or on the command line
//! (`git -c`) is the user's own choice for this tool, which no-color.org
//! lets override the variable. `--json` is never coloured.
//!
//! Only a command that draws colour asks ([`Color::on`]); the first ask
//! reads the configuration, so a command without colour (`path`, `create`)
//! never opens the repository for it.

use std::borrow::Cow;
use std::cell::{OnceCell, RefCell};

mod table;
pub use table::{Cell, write_rows, write_table};

/// Write `path` and a newline, byte for byte (not lossily, not escaped): a
/// path printed for the shell (`cd "$(git loop path x)"`) must be the path,
/// whatever bytes it holds.
pub fn write_path_line(w: &mut dyn std::io::Write, path: &std::path::Path) -> std::io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    w.write_all(path.as_os_str().as_bytes())?;
    w.write_all(b"\n")
}

/// Whether `c` must not reach a terminal as it is: a control character
/// (`char::is_control`: C0 including newline and tab, DEL, C1), a bidi
/// formatting character (U+061C, U+200E, U+200F, U+202A–U+202E,
/// U+2066–U+2069), or a line/paragraph separator (U+2028, U+2029).
pub fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
                | '\u{2028}'
                | '\u{2029}'
        )
}

/// `text` made safe to print on a terminal: each character that
/// [`needs_escape`] is written the way Rust writes it in a string literal —
/// `\n`, `\r`, `\t`, and `\u{…}` (lowercase hex, no padding) for every other
/// one, so ESC reads `\u{1b}` and a right-to-left override `\u{202e}`.
/// Everything else, backslashes included, is kept as it is: the result is
/// for reading, not for parsing back (JSON output is for that), and escaping
/// twice changes nothing. Borrows when there is nothing to escape.
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if needs_escape(c) => {
                use std::fmt::Write;
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A colour setting (`color.loop`, `color.ui`) as git reads it
/// (`git_config_colorbool`): `never`, `auto` or `always`, any case, or a
/// boolean (`true`, `yes`, `on`, a non-zero number: `auto`; `false`, `no`,
/// `off`, `0`, empty: `never`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColorWhen {
    Never,
    Auto,
    Always,
}

impl ColorWhen {
    /// `None` for a value git would refuse (`bad boolean config value`).
    pub fn parse(value: &str) -> Option<ColorWhen> {
        let v = value.trim().to_ascii_lowercase();
        Some(match v.as_str() {
            "never" | "false" | "no" | "off" | "" => ColorWhen::Never,
            "always" => ColorWhen::Always,
            "auto" | "true" | "yes" | "on" => ColorWhen::Auto,
            number => match number.parse::<i64>() {
                Ok(0) => ColorWhen::Never,
                Ok(_) => ColorWhen::Auto,
                Err(_) => return None,
            },
        })
    }
}

/// Whether stdout is coloured, asked by the commands that draw colour
/// ([`Color::on`]): a handle on a [`ColorChoice`], or off.
#[derive(Clone, Copy)]
pub struct Color<'a>(Option<&'a ColorChoice>);

impl Color<'_> {
    /// No colour (`--json`, a rendering into a note).
    pub const OFF: Color<'static> = Color(None);

    /// Colour on stdout: the choice made on the first call.
    pub fn on(self) -> bool {
        self.0.is_some_and(ColorChoice::on)
    }

    /// Colour on another of the process's streams (`watch` draws on
    /// stderr's terminal): the same setting, with that stream's answer to
    /// "is it a terminal".
    pub fn on_stream(self, is_terminal: bool) -> bool {
        self.0.is_some_and(|c| c.on_stream(is_terminal))
    }
}

/// The colour decision, made once, on first use: the setting is read then
/// (reading it may open the repository), and a value git would refuse is
/// kept as a warning for the caller to print.
pub struct ColorChoice {
    on: OnceCell<bool>,
    setting: Box<dyn Fn() -> Result<Option<ColorWhen>, String>>,
    stdout_is_terminal: bool,
    warning: RefCell<Option<String>>,
}

impl ColorChoice {
    /// `setting` reads `color.loop`, else `color.ui` (`Err`: the key and its
    /// bad value, e.g. ``color.ui: "sometimes" is not never, auto, always or
    /// a boolean``).
    pub fn new(
        stdout_is_terminal: bool,
        setting: impl Fn() -> Result<Option<ColorWhen>, String> + 'static,
    ) -> ColorChoice {
        ColorChoice {
            on: OnceCell::new(),
            setting: Box::new(setting),
            stdout_is_terminal,
            warning: RefCell::new(None),
        }
    }

    pub fn handle(&self) -> Color<'_> {
        Color(Some(self))
    }

    fn on(&self) -> bool {
        *self.on.get_or_init(|| {
            let setting = (self.setting)().unwrap_or_else(|bad| {
                *self.warning.borrow_mut() = Some(bad);
                None
            });
            want_color(setting, self.stdout_is_terminal)
        })
    }

    fn on_stream(&self, is_terminal: bool) -> bool {
        if is_terminal == self.stdout_is_terminal {
            return self.on();
        }
        let setting = (self.setting)().unwrap_or_else(|bad| {
            *self.warning.borrow_mut() = Some(bad);
            None
        });
        want_color(setting, is_terminal)
    }

    /// The bad value the setting held, once it has been read.
    pub fn take_warning(&self) -> Option<String> {
        self.warning.borrow_mut().take()
    }
}

/// Should stdout be coloured? `setting` (`color.loop`, else `color.ui`)
/// first: `never` and `always` decide; `auto` and unset leave it to the
/// environment, as anstream decides: never when `NO_COLOR` is set to
/// anything non-empty, always when `CLICOLOR_FORCE` is (even when stdout is
/// not a terminal), never when `CLICOLOR=0`; otherwise only on a terminal,
/// and not for `TERM=dumb`.
pub fn want_color(setting: Option<ColorWhen>, stdout_is_terminal: bool) -> bool {
    match setting {
        Some(ColorWhen::Never) => return false,
        Some(ColorWhen::Always) => return true,
        Some(ColorWhen::Auto) | None => {}
    }
    if anstyle_query::no_color() {
        return false;
    }
    if anstyle_query::clicolor_force() {
        return true;
    }
    stdout_is_terminal
        && anstyle_query::clicolor() != Some(false)
        && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
}

/// `512 B`, `1.5 KiB`, `200.0 MiB`, `1.2 GiB`.
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

/// "removed 3, skipped 2 (1 dirty, 1 locked)".
pub fn summary(verb: &str, removed: usize, skipped: &[&str]) -> String {
    format!(
        "{verb} {removed}, skipped {}{}",
        skipped.len(),
        skip_detail(skipped)
    )
}

/// " (dirty)", " (2 dirty, 1 locked)", or "" when nothing was skipped.
pub fn skip_detail(codes: &[&str]) -> String {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for code in codes {
        match counts.iter_mut().find(|(c, _)| c == code) {
            Some((_, n)) => *n += 1,
            None => counts.push((code, 1)),
        }
    }
    match counts.as_slice() {
        [] => String::new(),
        [(only, _)] => format!(" ({only})"),
        many => {
            let parts: Vec<String> = many.iter().map(|(c, n)| format!("{n} {c}")).collect();
            format!(" ({})", parts.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_control_and_bidi_characters() {
        assert!(matches!(escape("plain \\ text é"), Cow::Borrowed(_)));
        assert_eq!(escape("a\nb\tc\rd"), "a\\nb\\tc\\rd");
        assert_eq!(escape("\u{1b}]52;c;aGk=\u{7}"), "\\u{1b}]52;c;aGk=\\u{7}");
        assert_eq!(escape("\u{1b}[2J\u{7f}\u{9b}"), "\\u{1b}[2J\\u{7f}\\u{9b}");
        assert_eq!(
            escape("x\u{202e}y\u{2066}\u{200f}\u{61c}"),
            "x\\u{202e}y\\u{2066}\\u{200f}\\u{61c}"
        );
        for s in ["\u{1b}[2J\n", "a\u{202e}b", "\\u{1b}"] {
            let once = escape(s).into_owned();
            assert_eq!(escape(&once), once, "escaping is idempotent");
            assert!(!once.chars().any(needs_escape));
        }
    }

    #[test]
    fn tables_pad_by_visible_width_and_leave_the_last_column() {
        let rows = [
            [(Cow::from("é"), ""), (Cow::from("x"), "32")],
            [(Cow::from("abc"), "2"), (Cow::from("yz"), "")],
        ];
        let mut plain = Vec::new();
        write_table(&mut plain, ["A", "B"], &rows, Color::OFF).unwrap();
        assert_eq!(
            String::from_utf8(plain).unwrap(),
            "A    B\né    x\nabc  yz\n"
        );
        let mut coloured = Vec::new();
        let always = ColorChoice::new(false, || Ok(Some(ColorWhen::Always)));
        write_table(&mut coloured, ["A", "B"], &rows[..1], always.handle()).unwrap();
        assert_eq!(
            String::from_utf8(coloured).unwrap(),
            "\x1b[1mA\x1b[0m  \x1b[1mB\x1b[0m\né  \x1b[32mx\x1b[0m\n"
        );
    }

    #[test]
    fn colour_settings_read_as_git_reads_them() {
        use ColorWhen::*;
        for (value, when) in [
            ("never", Some(Never)),
            ("NEVER", Some(Never)),
            ("false", Some(Never)),
            ("off", Some(Never)),
            ("0", Some(Never)),
            ("auto", Some(Auto)),
            ("true", Some(Auto)),
            ("Yes", Some(Auto)),
            ("1", Some(Auto)),
            ("always", Some(Always)),
            ("sometimes", None),
        ] {
            assert_eq!(ColorWhen::parse(value), when, "{value}");
        }
        // never and always decide without looking at the environment.
        assert!(!want_color(Some(Never), true));
        assert!(want_color(Some(Always), false));
        // A bad value is kept as a warning, and leaves it to the rest.
        let bad = ColorChoice::new(false, || Err("color.ui: bad".into()));
        assert!(!bad.handle().on());
        assert_eq!(bad.take_warning().as_deref(), Some("color.ui: bad"));
        assert!(!Color::OFF.on());
    }

    #[test]
    fn summaries() {
        assert_eq!(
            summary("removed", 3, &["dirty"]),
            "removed 3, skipped 1 (dirty)"
        );
        assert_eq!(summary("removed", 0, &[]), "removed 0, skipped 0");
        assert_eq!(
            summary("removed", 1, &["dirty", "locked", "dirty"]),
            "removed 1, skipped 3 (2 dirty, 1 locked)"
        );
    }
}
