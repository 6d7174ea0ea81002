//! `git loop config` — the effective settings and where each came from, like
//! `git config --show-origin`. Read-only; takes no mutex. `base` is the base
//! the commands use ([`crate::ops::base::configured`]): in a repository
//! without `main`, the default branch found instead, and why.
//!
//! `--json`: `{"base":{"value":"main","source":"built-in default"},
//! "cleanup.status":{"value":["rejected","escalated"],"source":…},
//! "cleanup.older-than":{"value":null,"source":…}}` — keys are the TOML key
//! paths; the cutoff is printed in the largest unit that divides it exactly
//! (`1440m` is shown as `1d`).

use std::borrow::Cow;

use crate::config::{Settings, Sourced};
use crate::ctx::Ctx;
use crate::error::Result;
use crate::output::{Out, Report};
use crate::style::escape;

pub use crate::config::keys::ConfigReport;
pub use crate::config::report::Shown;

impl Report for ConfigReport {
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        // Values and sources come from files, git config and the
        // environment: escaped, so none can drive the terminal or split a row.
        // Each setting's git config key beside its name: what a git user
        // types (`git config loop.cleanupStatus …`).
        let rows: Vec<_> = self
            .rows()
            .into_iter()
            .map(|(key, git, value, source)| {
                [
                    (Cow::Borrowed(key), ""),
                    (Cow::Borrowed(git), ""),
                    (Cow::Owned(escape(&value).into_owned()), ""),
                    (Cow::Owned(escape(source).into_owned()), ""),
                ]
            })
            .collect();
        let header = ["SETTING", "GIT CONFIG", "VALUE", "FROM"];
        crate::style::write_table(out.stdout, header, &rows, out.color)?;
        // git config is the one way to change a setting (git-loop writes no
        // configuration): the note gives the command with a real key.
        out.note(format_args!(
            "to change one: git config <GIT CONFIG key> <value> (this repository; --global for all of yours), e.g. git config loop.cleanupStatus rejected"
        ));
        Ok(())
    }
}

/// Whether the repository's own `.git-loop.toml`'s hooks may run, when it
/// sets one: said beside each hook from there (the file is hashed once,
/// and only when it sets a hook).
fn trust_state(ctx: &Ctx, s: &Settings) -> Result<&'static str> {
    if !s.repo_file_sets_a_command() {
        return Ok("");
    }
    let blob = s.repo_file_id.as_deref().unwrap_or_default();
    Ok(
        if crate::configured_command::trust::is_trusted(ctx.repo.common_dir(), blob)? {
            "trusted"
        } else {
            "NOT trusted: will not run until `git loop trust`"
        },
    )
}

/// The base every command uses (not only the setting): the default branch
/// found when the built-in `main` does not exist, with why.
fn base_shown(ctx: &Ctx, setting: &Sourced<String>) -> Result<Shown<String>> {
    let used = crate::ops::base::configured(ctx)?;
    let source = match &used.fallback {
        Some(why) => format!("default branch ({why})"),
        None => setting.origin.to_string(),
    };
    Ok(Shown {
        value: used.name,
        source,
    })
}

pub fn exec(ctx: &Ctx) -> Result<ConfigReport> {
    let s = ctx.settings()?;
    let trust_state = trust_state(ctx, s)?;
    let mut report = ConfigReport::of(s, trust_state);
    report.base = base_shown(ctx, &s.base)?;
    Ok(report)
}
