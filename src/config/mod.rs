//! Effective settings, read in layers, and where each value came from.
//!
//! Lowest to highest (docs/cli.md's order; [`Source`]'s order):
//!
//! | layer | where |
//! |---|---|
//! | built-in | the defaults in [`keys`] |
//! | user TOML | `$XDG_CONFIG_HOME/git-loop/config.toml`, else `~/.config/git-loop/config.toml` |
//! | repo TOML | `<root>/.git-loop.toml` |
//! | git config | `loop.*` through git's own cascade, then `git -c` ([`git`]) |
//! | environment | `GIT_LOOP_*` (an empty variable counts as unset) |
//! | flags | `--base`, `--status`, `--older-than`, `--delete-merged-branches` (applied by the commands) |
//!
//! The modules: [`keys`] names every setting in each layer beside its
//! default; [`source`] is the ordered [`Source`] and each value's exact
//! [`Origin`]; [`layers`] reads the TOML files (once each, safely) and the
//! environment; [`git`] reads git config; [`raw`] is a layer's shape as
//! read; [`validate`] checks each layer on its own. Here the layers are merged, once: each setting takes its value
//! from the highest layer that sets it.
//!
//! Every layer is validated before the merge (an invalid value is an error
//! naming its layer even when a higher layer overrides it). Config is read
//! only by the commands that use it (create, cleanup, config, trust). The
//! blob id of the repository file's bytes as read is kept
//! ([`Settings::repo_file_id`]), so the trust check of its hooks is about the
//! very content their commands came from.

use std::path::Path;

use jiff::SignedDuration;

use crate::error::Result;
use crate::manifest::Status;

mod class;
pub mod git;
mod ignore_file;
pub mod keys;
pub mod layers;
pub mod raw;
pub mod source;
mod text;
mod untrusted;
pub mod validate;

pub use keys::{
    IgnoreFile, LandStrategy, TOML_BASE, TOML_CLAUDE_PATTERN, TOML_CLEANUP_DELETE_MERGED,
    TOML_CLEANUP_OLDER_THAN, TOML_CLEANUP_PRE_COMMAND, TOML_CLEANUP_SALVAGE, TOML_CLEANUP_STATUS,
    TOML_CREATE_COPY, TOML_CREATE_FETCH, TOML_CREATE_IGNORE_FILE, TOML_CREATE_PATTERN,
    TOML_CREATE_POST_COMMAND, TOML_JUDGE_GATE, TOML_LAND_GATE, TOML_NOTIFY_COMMAND,
};
pub use layers::{Layer, TomlFile, repo_toml_path, user_toml_path};
pub use source::{Origin, Sourced};
pub use validate::{parse_cutoff, parse_status_csv};

#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    pub base: Sourced<String>,
    pub cleanup_status: Sourced<Vec<Status>>,
    pub cleanup_older_than: Sourced<Option<SignedDuration>>,
    pub cleanup_delete_merged_branches: Sourced<bool>,
    /// Salvage dirty runs before removing them (`cleanup --salvage`).
    pub cleanup_salvage: Sourced<bool>,
    /// Gitignore-style patterns of untracked or ignored files to copy from the
    /// main worktree into a new one.
    pub create_copy: Sourced<Vec<String>>,
    /// Shell command run in a new worktree after `create`.
    pub create_post_command: Sourced<Option<String>>,
    /// Shell command run in a worktree before `cleanup` removes it.
    pub cleanup_pre_command: Sourced<Option<String>>,
    /// Where `create` writes the `.loop-worktrees/` ignore line.
    pub create_ignore_file: Sourced<IgnoreFile>,
    /// Fetch the base's upstream before `create` (`--fetch`).
    pub create_fetch: Sourced<bool>,
    /// The pattern of the runs `git loop claude-hook create` makes.
    pub create_pattern: Sourced<String>,
    pub claude_pattern: Sourced<String>,
    /// Whether cleanup puts removable worktrees back into the warm pool.
    pub cleanup_recycle: Sourced<bool>,
    /// How many prepared worktrees the warm pool holds.
    pub pool_size: Sourced<usize>,
    /// How long the trash keeps an entry (later cleanups drop older ones).
    pub trash_keep: Sourced<SignedDuration>,
    /// The ignored files a recycled worktree keeps (gitignore patterns).
    pub pool_keep: Sourced<Vec<String>>,
    /// Shell command `land` runs in a scratch checkout of the landed commit.
    pub land_gate: Sourced<Option<String>>,
    /// How `land` builds the landed commits.
    pub land_strategy: Sourced<LandStrategy>,
    /// The branch `land` lands in; `None`: each run's recorded base.
    pub land_into: Sourced<Option<String>>,
    /// The statuses `land --queue` lands.
    pub land_queue_status: Sourced<Vec<Status>>,
    /// How many times `land --push` tries again after the remote moved.
    pub land_push_retries: Sourced<usize>,
    /// Whether untracked files in a run's worktree refuse its landing.
    pub land_require_clean: Sourced<bool>,
    /// Shell command `judge` runs in each attempt's worktree.
    pub judge_gate: Sourced<Option<String>>,
    /// Shell command run when a run's activity becomes waiting or done.
    pub notify_command: Sourced<Option<String>>,
    /// How many free TCP ports `create` leases to each run.
    pub create_ports: Sourced<usize>,
    /// Whether `watch` rings the bell when a run becomes waiting or done.
    pub watch_bell: Sourced<bool>,
    /// The repository's `.git-loop.toml` as it was read for these settings;
    /// `None` when there is none.
    pub repo_file: Option<TomlFile>,
    /// Its git blob id (what `git hash-object` prints for it).
    pub repo_file_id: Option<String>,
    /// The repository's object format: the blob ids of trust records
    /// ([`crate::configured_command::trust`]) are computed in it.
    pub object_hash: gix::hash::Kind,
    /// The keys whose values the repository's file set but that were
    /// ignored because the file is not trusted ([`keys::Class`]).
    pub ignored: Vec<&'static str>,
}

impl Settings {
    /// The effective settings for the repository at `root`, whose git config
    /// (with git's own cascade) is `config` and whose object format is `hash`.
    /// `is_trusted` says whether a blob id is trusted: a value of the repository's own
    /// file that is not plain takes effect only once that file is trusted
    /// (see [`keys::Class`]); the keys ignored are noted ([`take_notes`]).
    pub fn load(
        root: &Path,
        config: &gix::config::File,
        hash: gix::hash::Kind,
        is_trusted: impl FnOnce(&str) -> Result<bool>,
    ) -> Result<Settings> {
        let user = match user_toml_path() {
            Some(path) => TomlFile::read_user(&path)?,
            None => None,
        };
        let repo = TomlFile::read_repo(root)?;
        let repo_file_id = repo.as_ref().map(|f| crate::git::blob_id(hash, &f.bytes));
        let mut all = Vec::new();
        if let Some(file) = &user {
            all.push(file.layer()?);
        }
        let mut ignored = Vec::new();
        if let (Some(file), Some(id)) = (&repo, &repo_file_id) {
            if is_trusted(id)? {
                all.push(file.layer()?);
            } else {
                let (layer, keys) = untrusted::layer(file)?;
                all.push(layer);
                ignored = keys;
            }
        }
        all.extend(git::layers(config)?);
        git::unknown_keys(config).into_iter().for_each(note);
        all.extend(layers::env()?);
        let mut settings = Settings::merge(&all);
        if !ignored.is_empty() {
            note_ignored(&repo_toml_path(root), &ignored);
        }
        settings.ignored = ignored;
        settings.repo_file_id = repo_file_id;
        settings.object_hash = hash;
        settings.repo_file = repo;
        Ok(settings)
    }

    /// Each setting from the highest layer that sets it (by [`Source`]; of
    /// two layers of one source, the later), above the built-in defaults.
    pub fn merge(layers: &[Layer]) -> Settings {
        let defaults = layers::defaults();
        let all: Vec<&Layer> = std::iter::once(&defaults).chain(layers).collect();
        fn pick<T: Clone>(
            layers: &[&Layer],
            get: impl Fn(&validate::Values) -> Option<&T>,
        ) -> Option<Sourced<T>> {
            layers
                .iter()
                .filter_map(|l| Some((l, get(&l.values)?)))
                .max_by_key(|(l, _)| l.origin.source())
                .map(|(l, v)| Sourced::new(v.clone(), l.origin.clone()))
        }
        const SET: &str = "the defaults set every key but cleanup.older-than and land.into";
        Settings {
            base: pick(&all, |v| v.base.as_ref()).expect(SET),
            cleanup_status: pick(&all, |v| v.cleanup_status.as_ref()).expect(SET),
            cleanup_older_than: pick(&all, |v| v.cleanup_older_than.as_ref())
                .map(|s| Sourced::new(Some(s.value), s.origin))
                .unwrap_or(Sourced::new(None, Origin::Default)),
            cleanup_delete_merged_branches: pick(&all, |v| v.cleanup_delete_merged.as_ref())
                .expect(SET),
            cleanup_salvage: pick(&all, |v| v.cleanup_salvage.as_ref()).expect(SET),
            create_copy: pick(&all, |v| v.create_copy.as_ref()).expect(SET),
            create_post_command: pick(&all, |v| v.create_post_command.as_ref()).expect(SET),
            cleanup_pre_command: pick(&all, |v| v.cleanup_pre_command.as_ref()).expect(SET),
            create_ignore_file: pick(&all, |v| v.create_ignore_file.as_ref()).expect(SET),
            create_fetch: pick(&all, |v| v.create_fetch.as_ref()).expect(SET),
            create_pattern: pick(&all, |v| v.create_pattern.as_ref()).expect(SET),
            claude_pattern: pick(&all, |v| v.claude_pattern.as_ref()).expect(SET),
            cleanup_recycle: pick(&all, |v| v.cleanup_recycle.as_ref()).expect(SET),
            pool_size: pick(&all, |v| v.pool_size.as_ref()).expect(SET),
            trash_keep: pick(&all, |v| v.trash_keep.as_ref()).expect(SET),
            pool_keep: pick(&all, |v| v.pool_keep.as_ref()).expect(SET),
            land_gate: pick(&all, |v| v.land_gate.as_ref()).expect(SET),
            land_strategy: pick(&all, |v| v.land_strategy.as_ref()).expect(SET),
            land_into: pick(&all, |v| v.land_into.as_ref())
                .map(|s| Sourced::new(Some(s.value), s.origin))
                .unwrap_or(Sourced::new(None, Origin::Default)),
            land_queue_status: pick(&all, |v| v.land_queue_status.as_ref()).expect(SET),
            land_push_retries: pick(&all, |v| v.land_push_retries.as_ref()).expect(SET),
            land_require_clean: pick(&all, |v| v.land_require_clean.as_ref()).expect(SET),
            judge_gate: pick(&all, |v| v.judge_gate.as_ref()).expect(SET),
            notify_command: pick(&all, |v| v.notify_command.as_ref()).expect(SET),
            create_ports: pick(&all, |v| v.create_ports.as_ref()).expect(SET),
            watch_bell: pick(&all, |v| v.watch_bell.as_ref()).expect(SET),
            repo_file: None,
            repo_file_id: None,
            object_hash: gix::hash::Kind::Sha1,
            ignored: Vec::new(),
        }
    }
}

/// The notes said once a command is done, each once: which keys of an
/// untrusted repository file were ignored.
static NOTES: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// Say `line` once the command is done (once, however often it is noted).
fn note(line: String) {
    let mut notes = NOTES.lock().unwrap_or_else(|e| e.into_inner());
    if !notes.contains(&line) {
        notes.push(line);
    }
}

fn note_ignored(file: &Path, keys: &[&'static str]) {
    let line = format!(
        "note: ignored {} from {}: a value that {}, from a file that is not trusted \
         (what applies instead: `git loop config`); `git loop trust` trusts its current content",
        keys.join(", "),
        file.display(),
        keys::Class::WeakensGuard.as_str(),
    );
    let mut notes = NOTES.lock().unwrap_or_else(|e| e.into_inner());
    if !notes.contains(&line) {
        notes.push(line);
    }
}

/// The notes gathered while settings were read ([`Settings::load`]), once
/// each; the caller says them on stderr.
pub fn take_notes() -> Vec<String> {
    std::mem::take(&mut *NOTES.lock().unwrap_or_else(|e| e.into_inner()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The documented example, read as a user file through the same path as
    /// any other, sets every key to its built-in default.
    #[test]
    fn documented_example_equals_the_built_in_defaults() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, include_str!("../../config/git-loop.toml")).unwrap();
        let file = TomlFile::read_user(&path).unwrap().unwrap();
        let defaults = Settings::merge(&[]);
        let example = Settings::merge(&[file.layer().unwrap()]);
        assert_eq!(example.base.value, defaults.base.value);
        assert_eq!(example.cleanup_status.value, defaults.cleanup_status.value);
        assert_eq!(
            example.cleanup_older_than.value,
            defaults.cleanup_older_than.value
        );
        assert_eq!(
            example.cleanup_delete_merged_branches.value,
            defaults.cleanup_delete_merged_branches.value
        );
        assert_eq!(
            example.cleanup_salvage.value,
            defaults.cleanup_salvage.value
        );
        assert_eq!(example.create_copy.value, defaults.create_copy.value);
        assert_eq!(
            example.create_post_command.value,
            defaults.create_post_command.value
        );
        assert_eq!(
            example.cleanup_pre_command.value,
            defaults.cleanup_pre_command.value
        );
        assert_eq!(
            example.create_ignore_file.value,
            defaults.create_ignore_file.value
        );
        assert_eq!(example.create_fetch.value, defaults.create_fetch.value);
        assert_eq!(example.create_pattern.value, defaults.create_pattern.value);
        assert_eq!(example.claude_pattern.value, defaults.claude_pattern.value);
        assert_eq!(
            example.cleanup_recycle.value,
            defaults.cleanup_recycle.value
        );
        assert_eq!(example.pool_size.value, defaults.pool_size.value);
        assert_eq!(example.trash_keep.value, defaults.trash_keep.value);
        assert_eq!(example.pool_keep.value, defaults.pool_keep.value);
        assert_eq!(example.land_gate.value, defaults.land_gate.value);
        assert_eq!(example.land_strategy.value, defaults.land_strategy.value);
        assert_eq!(example.land_into.value, defaults.land_into.value);
        assert_eq!(
            example.land_queue_status.value,
            defaults.land_queue_status.value
        );
        assert_eq!(
            example.land_push_retries.value,
            defaults.land_push_retries.value
        );
        assert_eq!(
            example.land_require_clean.value,
            defaults.land_require_clean.value
        );
        assert_eq!(example.judge_gate.value, defaults.judge_gate.value);
        assert_eq!(example.notify_command.value, defaults.notify_command.value);
        assert_eq!(example.create_ports.value, defaults.create_ports.value);
        assert_eq!(example.watch_bell.value, defaults.watch_bell.value);
        // It is read as a file, not taken for the defaults.
        assert_eq!(example.base.origin, Origin::UserFile(path));
    }

    #[test]
    fn sources_are_ordered_by_precedence() {
        use super::source::Source::*;
        assert!(Default < UserFile && UserFile < RepoFile && RepoFile < GitConfig);
        assert!(GitConfig < Env);
    }
}
