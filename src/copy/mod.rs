//! `create.copy` and `.worktreeinclude`: bring untracked or ignored files a
//! run needs (`.env`, `.env.local`, a local settings file, `node_modules/`)
//! from the main worktree into a new worktree.
//!
//! Which files: gix walks the main worktree the way `git status --ignored`
//! does — tracked files are never candidates (the checkout has them), an
//! ignored directory is one entry (`node_modules/` is not descended into) —
//! and an entry is copied when
//! - it is untracked or ignored and matches the `create.copy` patterns, or
//! - it is ignored and matches the patterns of `.worktreeinclude` at the root
//!   of the main worktree (the convention Claude Code and other tools use:
//!   only files git ignores are copied, never untracked-but-not-ignored ones).
//!
//! Both use gitignore syntax (`.env` matches at any depth, `/.env` only at
//! the top, `config/*.local`, `!` excludes, `#` comments in the file). Never
//! copied: `.loop-worktrees/` itself, nested repositories, anything under
//! `.git`.
//!
//! How: see [`files`] — directories and symlinks first, then the files in
//! parallel, each cloned (reflink) where the filesystem supports it, else
//! copied. Never overwrites: a destination that exists (a tracked file of
//! the same name, say) is left as it is and reported. A symlink is copied as
//! a symlink (its target is not read). Files keep their permission bits.
//!
//! Into a worktree taken from the warm pool, a destination that exists and
//! that its index does not track is the member's warm copy (the ignored
//! files `pool.keep` kept, e.g. `node_modules/`): expected, and reported as
//! already there, never as a file not copied. One the index tracks is
//! reported as a fresh create reports it.

mod files;

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::path::{Path, PathBuf};

use gix::bstr::{BStr, ByteSlice};
use serde::Serialize;

use crate::error::{Error, Result};
use crate::manifest::LOOP_DIR;

/// The file of copy patterns at the root of the main worktree.
pub const WORKTREE_INCLUDE: &str = ".worktreeinclude";
/// The largest `.worktreeinclude` read (a real one is a few lines).
const MAX_INCLUDE_BYTES: u64 = 1 << 20;

/// What was copied: in JSON, `create`'s `"copy"`.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CopyReport {
    /// Paths copied, relative to the worktree (a directory's files one by
    /// one), sorted. Listed in JSON only; a human create prints a summary.
    pub copied: Vec<String>,
    /// Paths not copied, with the reason (`exists`, or an I/O error).
    pub skipped: Vec<CopySkip>,
    /// Into a worktree taken from the pool: paths not copied because the
    /// member already had them (its warm ignored files), sorted. Absent when
    /// empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub already_there: Vec<String>,
    /// Where the patterns came from: `create.copy`, `.worktreeinclude`.
    pub sources: Vec<&'static str>,
    /// Regular files whose extents are shared with the source (reflink).
    pub reflinked: u64,
    /// Regular files copied byte by byte (no reflink on this filesystem).
    pub plain: u64,
    /// Symlinks recreated.
    pub symlinks: u64,
    /// Bytes of the regular files copied (reflinked or not).
    pub bytes: u64,
    /// Wall time of the copy step, in milliseconds.
    pub elapsed_ms: u64,
}

/// The reason of a destination that exists.
const EXISTS: &str = "exists";

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct CopySkip {
    pub path: String,
    pub reason: String,
}

/// The patterns that select what to copy.
struct Selection {
    copy: Option<gix::ignore::Search>,
    include: Option<gix::ignore::Search>,
}

impl Selection {
    /// Whether `rela` (ignored or not) is selected by a pattern list: its
    /// last matching pattern is not a `!` exclusion.
    fn matches(search: &gix::ignore::Search, rela: &BStr, is_dir: bool) -> bool {
        search
            .pattern_matching_relative_path(rela, Some(is_dir), gix::glob::pattern::Case::Sensitive)
            .is_some_and(|m| !m.pattern.is_negative())
    }

    fn selects(&self, rela: &BStr, is_dir: bool, ignored: bool) -> bool {
        self.copy
            .as_ref()
            .is_some_and(|s| Self::matches(s, rela, is_dir))
            || (ignored
                && self
                    .include
                    .as_ref()
                    .is_some_and(|s| Self::matches(s, rela, is_dir)))
    }
}

fn search<I: Into<OsString>>(patterns: impl IntoIterator<Item = I>) -> gix::ignore::Search {
    gix::ignore::Search::from_overrides(patterns, gix::ignore::search::Ignore::default())
}

/// Copy what `patterns` (`create.copy`) and the main worktree's
/// `.worktreeinclude` select from `repo`'s main worktree into `dest`
/// (`warm`: a worktree taken from the pool, see the module doc).
/// `Ok(None)` when there are no patterns at all.
pub fn copy_into(
    repo: &crate::git::repo::Repo,
    patterns: &[String],
    dest: &Path,
    warm: bool,
) -> Result<Option<CopyReport>> {
    let started = std::time::Instant::now();
    // The bare-repository layout has no main work tree: nothing to copy
    // (and no `.worktreeinclude` to read), said only when asked for.
    // (gix's own path of it, as its walk expects.)
    let Some(root) = repo
        .workdir()
        .and(repo.gix().workdir())
        .map(Path::to_path_buf)
    else {
        if patterns.is_empty() {
            return Ok(None);
        }
        return Err(Error::Repository(
            "the bare-repository layout has no main work tree to copy from: nothing copied".into(),
        ));
    };
    let mut report = CopyReport::default();
    let copy = (!patterns.is_empty()).then(|| search(patterns));
    if copy.is_some() {
        report.sources.push(crate::config::keys::TOML_CREATE_COPY);
    }
    let include = include_patterns(&root)?;
    if include.is_some() {
        report.sources.push(WORKTREE_INCLUDE);
    }
    if copy.is_none() && include.is_none() {
        return Ok(None);
    }
    let selection = Selection { copy, include };

    let mut entries = Vec::new();
    for (rela, is_dir, ignored) in walk(repo.gix(), &root)? {
        if !selection.selects(rela.as_bstr(), is_dir, ignored) {
            continue;
        }
        match rela.to_str() {
            Ok(rel) => entries.push(PathBuf::from(rel)),
            Err(_) => report.skipped.push(CopySkip {
                path: rela.to_str_lossy().into_owned(),
                reason: "path is not UTF-8".into(),
            }),
        }
    }
    entries.sort();
    files::copy_entries(&root, dest, &entries, &mut report);
    if warm {
        set_apart_warm(dest, &mut report);
    }
    report.copied.sort();
    report.already_there.sort();
    report.skipped.sort_by(|a, b| a.path.cmp(&b.path));
    report.elapsed_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    Ok(Some(report))
}

/// The patterns of `.worktreeinclude` at `root`, if there is one. Read
/// without following a symlink: a committed `.worktreeinclude` link is
/// refused (named in the error), like git-loop's own config files.
fn include_patterns(root: &Path) -> Result<Option<gix::ignore::Search>> {
    Ok(
        crate::fsx::read_regular(&root.join(WORKTREE_INCLUDE), MAX_INCLUDE_BYTES)?.map(|bytes| {
            // One pattern a line; gix's parser drops comments and blanks.
            search(
                bytes
                    .split(|&b| b == b'\n')
                    .map(|line| OsString::from_vec(line.to_vec())),
            )
        }),
    )
}

/// The ignored entries of the worktree at `dir` (an ignored directory as
/// one entry) that `patterns` (`create.copy`) or its `.worktreeinclude`
/// select, as a create would copy them: what a hand-off keeps of the
/// ignored files (`git loop handoff`). Paths that are not UTF-8 are left out.
pub fn selected_ignored(dir: &Path, patterns: &[String]) -> Result<Vec<String>> {
    let copy = (!patterns.is_empty()).then(|| search(patterns));
    let include = include_patterns(dir)?;
    if copy.is_none() && include.is_none() {
        return Ok(Vec::new());
    }
    let selection = Selection { copy, include };
    let repo = gix::open(dir).map_err(|e| Error::Repository(e.to_string()))?;
    let mut out = Vec::new();
    for (rela, is_dir, ignored) in walk(&repo, dir)? {
        if ignored
            && selection.selects(rela.as_bstr(), is_dir, true)
            && let Ok(rel) = rela.to_str()
        {
            out.push(rel.to_owned());
        }
    }
    out.sort();
    Ok(out)
}

/// Move each destination that existed and that `dest`'s index does not
/// track from `skipped` to `already_there`: in a pool member, its warm copy.
/// When the index cannot be read, nothing is moved (each stays "exists").
fn set_apart_warm(dest: &Path, report: &mut CopyReport) {
    let Some(index) = gix::open(dest).ok().and_then(|wt| wt.index_or_empty().ok()) else {
        return;
    };
    let (warm, skipped) =
        std::mem::take(&mut report.skipped)
            .into_iter()
            .partition(|s: &CopySkip| {
                s.reason == EXISTS && index.entry_by_path(s.path.as_str().into()).is_none()
            });
    report.skipped = skipped;
    report.already_there = warm.into_iter().map(|s| s.path).collect();
}

/// Every untracked or ignored entry of the main worktree (an ignored
/// directory as one entry): its path, whether it is a directory, whether it
/// is ignored. Never `.loop-worktrees/`, `.git` or a nested repository.
fn walk(repo: &gix::Repository, root: &Path) -> Result<Vec<(gix::bstr::BString, bool, bool)>> {
    use gix::dir::entry::{Kind, Status};
    use gix::dir::walk::EmissionMode;
    let index = repo
        .index_or_empty()
        .map_err(|e| Error::Repository(format!("could not read the index: {e}")))?;
    let options = repo
        .dirwalk_options()
        .map_err(|e| Error::Repository(e.to_string()))?
        .emit_untracked(EmissionMode::Matching)
        .emit_ignored(Some(EmissionMode::CollapseDirectory))
        .emit_tracked(false)
        .recurse_repositories(false)
        .emit_pruned(false);
    let mut collect = gix::dir::walk::delegate::Collect::default();
    let none: [&BStr; 0] = [];
    repo.dirwalk(
        &index,
        none,
        &std::sync::atomic::AtomicBool::new(false),
        options,
        &mut collect,
    )
    .map_err(|e| Error::Repository(format!("could not walk {}: {e}", root.display())))?;

    let mut found = Vec::new();
    for (entry, _) in collect.unorded_entries {
        let rela = entry.rela_path;
        let first = rela.split_str("/").next().unwrap_or_default();
        if first == LOOP_DIR.as_bytes() || first == b".git" {
            continue;
        }
        let ignored = match entry.status {
            Status::Ignored(_) => true,
            Status::Untracked => false,
            _ => continue,
        };
        let is_dir = match entry.disk_kind {
            Some(Kind::Directory) => true,
            Some(Kind::File | Kind::Symlink) => false,
            _ => continue, // nested repositories, or gone meanwhile
        };
        found.push((rela, is_dir, ignored));
    }
    Ok(found)
}
