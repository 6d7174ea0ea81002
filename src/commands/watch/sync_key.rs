//! `s`: the selected run synced with its base, the same operation as `git
//! loop sync <id>` ([`crate::ops::sync`]: its `sync.gate`, trusted as the
//! hooks are; its old tip in the trash; a `sync` event), with the settings
//! and trust read afresh as the command reads them, and the one line
//! that command prints for it, for the message line. The words are
//! `commands::sync`'s (a command does not import another; a test holds the
//! two to the same line).

use crate::ctx::Ctx;
use crate::ops::sync::{Code, Fate, SyncRequest, Which};
use crate::output::Out;
use crate::style::escape;

/// Sync run `id`; what `git loop sync <id>` would say of it, or why it
/// did not run.
pub fn sync(ctx: &Ctx, id: &str) -> String {
    let (mut stdout, mut stderr) = (std::io::sink(), std::io::sink());
    let mut out = Out {
        stdout: &mut stdout,
        stderr: &mut stderr,
        json: false,
        quiet: true,
        color: crate::style::Color::OFF,
        stderr_is_terminal: false,
        stdout_is_terminal: false,
    };
    // Opened afresh, as the command would be: the settings and the trust
    // as they are now, not as when the view started (`Ctx` keeps what it read).
    let fresh = Ctx::open(Some(ctx.repo.root()));
    let outcome = fresh.and_then(|ctx| {
        let ids = [crate::cli::RunId::parse(id)?];
        let request = SyncRequest {
            which: Which::Runs(&ids),
            strategy: None,
            gate: None,
            fetch: false,
            dry_run: false,
            keep_going: false,
        };
        crate::ops::sync::sync(&ctx, &request, &mut out.notes())
    });
    match outcome {
        Ok(outcome) => match (outcome.error, outcome.runs.first()) {
            (Some(e), _) => format!("{}: not synced: {e}", escape(id)),
            (None, Some((id, fate))) => line(id, fate),
            (None, None) => format!("{}: not synced", escape(id)),
        },
        Err(e) => format!("{}: not synced: {e}", escape(id)),
    }
}

/// The line `git loop sync` prints for run `id`, and what failed after its
/// branch moved (the notes it prints below it).
fn line(id: &str, fate: &Fate) -> String {
    let shown = escape(id);
    match fate {
        Fate::Synced(s) => {
            let mut line = format!(
                "{shown}: synced with {} ({}) {}..{}",
                escape(&s.base),
                s.strategy,
                short(&s.from.to_string()),
                short(&s.to.to_string())
            );
            for note in &s.problems {
                line.push_str("; ");
                line.push_str(&escape(note));
            }
            line
        }
        Fate::Skipped(s) => {
            let what = match s.code {
                Code::UpToDate => "up to date".to_owned(),
                Code::NotAttempted => "not attempted".to_owned(),
                code => format!("skipped ({code})"),
            };
            format!("{shown}: {what}: {}", escape(&s.reason))
        }
    }
}

fn short(id: &str) -> &str {
    &id[..id.len().min(7)]
}
