//! Human output: colour (only on a terminal, never with `NO_COLOR`), and the
//! short codes that summarize why entries were skipped.

use crate::manifest::Status;

/// Should stdout be coloured? Only a terminal, never when `NO_COLOR` is set to
/// anything non-empty (no-color.org), never for `TERM=dumb`.
pub fn want_color(stdout_is_terminal: bool) -> bool {
    stdout_is_terminal
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
}

pub fn paint(text: &str, sgr: &str, color: bool) -> String {
    if color && !sgr.is_empty() {
        format!("\x1b[{sgr}m{text}\x1b[0m")
    } else {
        text.to_owned()
    }
}

pub fn status_sgr(status: Status) -> &'static str {
    match status {
        Status::Active => "32",
        Status::Rejected => "31",
        Status::Escalated => "33",
        Status::Merged => "36",
        Status::Stale => "2",
    }
}

/// The machine code for git's own refusal text (`git worktree remove`):
/// printed in JSON beside it (`"code"`) and used by summaries ("skipped 2
/// (dirty)"). git's message for modified and for untracked files is the same,
/// so both read as `dirty` here; the caller tells them apart with gix.
/// Skips git-loop decides itself carry their code from where they are made.
pub fn reason_code(reason: &str) -> &'static str {
    if reason.contains("modified or untracked") {
        "dirty"
    } else if reason.contains("locked") {
        "locked"
    } else if reason.contains("submodule") {
        "submodules"
    } else {
        "git-refused"
    }
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
