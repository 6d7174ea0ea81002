//! `git loop trust` — allow the hooks in the repository's own
//! `.git-loop.toml` to run, for its current content.
//!
//! Records the file's git blob id in `<git common dir>/git-loop/trusted` (see
//! [`crate::hooks`]). Any later change to the file needs trusting again. The
//! file must be valid configuration: an invalid file is refused, not trusted.

use serde::Serialize;

use crate::commands::Ctx;
use crate::config::{TOML_CLEANUP_PRE_COMMAND, TOML_CREATE_POST_COMMAND, repo_toml_path};
use crate::error::{Error, Result};
use crate::output::{Out, Report};

#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrustReport {
    /// The trusted file, relative to the repository's top level.
    pub file: String,
    /// Its git blob id (`git hash-object .git-loop.toml`).
    pub blob: String,
    /// It was already trusted: nothing was written.
    pub already_trusted: bool,
    /// The hooks it sets, by key.
    pub hooks: std::collections::BTreeMap<&'static str, String>,
}

impl Report for TrustReport {
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        let short = &self.blob[..self.blob.len().min(12)];
        let state = if self.already_trusted {
            "already trusted"
        } else {
            "trusted"
        };
        writeln!(out.stdout, "{state}: {} (blob {short})", self.file)?;
        if self.hooks.is_empty() {
            writeln!(out.stdout, "it sets no hooks")?;
        }
        // Escaped: the command is what the person is asked to read before
        // trusting it; no escape sequence may hide or rewrite it on screen.
        for (key, command) in &self.hooks {
            writeln!(out.stdout, "  {key} = {}", crate::style::escape(command))?;
        }
        Ok(())
    }
}

pub fn run(ctx: &Ctx) -> Result<TrustReport> {
    let root = ctx.repo.root();
    // Validates every layer, this file included (read once, safely: see
    // `crate::config`); the hooks shown and the id trusted are of those bytes.
    let settings = ctx.settings()?;
    let (Some(file), Some(blob)) = (&settings.repo_file, &settings.repo_file_id) else {
        return Err(Error::NothingToTrust {
            file: repo_toml_path(root),
        });
    };
    let raw = file.raw()?;
    let blob = blob.clone();
    let mut hooks = std::collections::BTreeMap::new();
    if let Some(c) = raw.create.post_command.filter(|c| !c.trim().is_empty()) {
        hooks.insert(TOML_CREATE_POST_COMMAND, c);
    }
    if let Some(c) = raw.cleanup.pre_command.filter(|c| !c.trim().is_empty()) {
        hooks.insert(TOML_CLEANUP_PRE_COMMAND, c);
    }
    let already_trusted = crate::hooks::is_trusted(ctx.repo.common_dir(), &blob)?;
    if !already_trusted {
        crate::hooks::trust(ctx.repo.common_dir(), &blob)?;
    }
    Ok(TrustReport {
        file: ".git-loop.toml".to_owned(),
        blob,
        already_trusted,
        hooks,
    })
}
