//! What a human create says on stderr once the run is made: what was
//! created (or reused, or adopted; or taken warm from the pool, said so)
//! and what was copied (what a pool member already had, counted apart), and
//! the ports leased to it. Said by the
//! operation itself as soon as the work is done — before the post-command
//! runs, so these lines precede its output on the shared stderr — never with
//! `--json`.

use super::{Created, Method};
use crate::output::Notes;

/// The progress lines of a human create (nothing with `--json`).
pub(super) fn say_done(created: &Created, out: &mut Notes<'_>) {
    if out.json {
        return;
    }
    if created.method == Method::Reused {
        out.note(format_args!(
            "reusing {} (active since {})",
            created.entry.path(),
            created.entry.created_at.0
        ));
        return;
    }
    if let Some(copy) = &created.copy {
        copy_summary(copy, out);
    }
    if created.method == Method::Adopted {
        out.note(format_args!(
            "adopted the existing branch {} into {} (base {})",
            created.entry.branch(),
            created.entry.path(),
            created.entry.base_branch
        ));
        say_ports(created, out);
        return;
    }
    let pooled = if created.method == Method::Pooled {
        " (taken warm from the pool)"
    } else {
        ""
    };
    out.note(format_args!(
        "created {} on branch {} from {}{pooled}",
        created.entry.path(),
        created.entry.branch(),
        created.entry.base_branch
    ));
    say_ports(created, out);
}

/// The ports leased to the run, when there are any.
fn say_ports(created: &Created, out: &mut Notes<'_>) {
    if created.ports.is_empty() {
        return;
    }
    let ports: Vec<String> = created.ports.iter().map(u16::to_string).collect();
    out.note(format_args!(
        "leased port{} {} (GIT_LOOP_PORT, GIT_LOOP_PORT_1…; `git loop env {}`)",
        if ports.len() == 1 { "" } else { "s" },
        ports.join(" "),
        created.entry.id
    ));
}

/// How many skipped paths a human create names one by one (`--json` lists
/// them all).
const SKIPS_SHOWN: usize = 3;

/// One line for what was copied — count, size, how (reflinked or copied),
/// time, and how many files a pool member already had — never the list of
/// files (`--json` has it; a `node_modules/` is thousands of paths). Then
/// the first few paths not copied, and how many more there are.
fn copy_summary(copy: &crate::copy::CopyReport, out: &mut Notes<'_>) {
    let files = copy.copied.len();
    let warm = match copy.already_there.len() {
        0 => String::new(),
        n => format!("; {n} already there (warm from the pool)"),
    };
    if files == 0 && !warm.is_empty() {
        out.note(format_args!(
            "copied 0 files ({}){warm}",
            copy.sources.join(", ")
        ));
    }
    if files > 0 {
        let mut how = Vec::new();
        if copy.reflinked > 0 {
            how.push(format!("{} reflinked", copy.reflinked));
        }
        if copy.plain > 0 {
            how.push(format!("{} copied", copy.plain));
        }
        if copy.symlinks > 0 {
            how.push(format!(
                "{} symlink{}",
                copy.symlinks,
                if copy.symlinks == 1 { "" } else { "s" }
            ));
        }
        out.note(format_args!(
            "copied {files} file{} ({}): {}, {}, in {} ms{warm}",
            if files == 1 { "" } else { "s" },
            copy.sources.join(", "),
            crate::style::human_bytes(copy.bytes),
            how.join(", "),
            copy.elapsed_ms
        ));
    }
    for s in copy.skipped.iter().take(SKIPS_SHOWN) {
        out.note(format_args!("not copied {}: {}", s.path, s.reason));
    }
    if copy.skipped.len() > SKIPS_SHOWN {
        out.note(format_args!(
            "not copied: {} more (--json lists them)",
            copy.skipped.len() - SKIPS_SHOWN
        ));
    }
}
