//! `pool fill [<N>]`: members prepared at the configured base (`loop.base`,
//! resolved as `create` resolves it) until the pool holds `N` (default
//! `pool.size`), in phases: the members that fail their checks are found
//! outside the lock ([`find_unfit`]); under the worktree-operation lock they
//! are discarded and each new member is added with `git worktree add
//! --no-checkout --detach` in `.pool/.new/` ([`discard_and_add`]); outside
//! it, in parallel, the checkouts (`git reset --hard`, as `git worktree add`
//! does it; no hook runs — the `post-checkout` hook runs when a create takes
//! the member); under the lock again, `git worktree move` into `.pool/`
//! ([`move_into_pool`]).

use super::check::{Discarded, discard, unfit};
use super::survey::{MemberState, survey};
use super::{Claim, Member, POOL_DIR, STAGING_DIR, members, staged};
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::git::cmd::Git;
use crate::lock::{ManifestMutex, OpsLock};
use crate::ops::ignore::IgnoreTarget;
use crate::output::Notes;
use crate::worktree::Remover;

/// What `pool fill` did.
#[derive(Debug)]
pub struct Filled {
    /// `pool.size`.
    pub size: usize,
    /// The members after the fill.
    pub members: Vec<MemberState>,
    /// The members it prepared.
    pub added: Vec<MemberState>,
    /// Members that failed their checks and were discarded (or left).
    pub discarded: Vec<Discarded>,
}

/// A member that failed its checks (or was left half-made), with why, and
/// its claim when it could be taken.
type Unfit = (Member, String, Option<Claim>);

/// A member added in `.pool/.new/` (its name), claimed until it is moved.
type Staged = (String, Claim);

pub fn fill(ctx: &Ctx, n: Option<usize>, out: &mut Notes<'_>) -> Result<Filled> {
    let settings = ctx.settings()?;
    let target = n.unwrap_or(settings.pool_size.value);
    let (_, base) = crate::ops::base::resolve(ctx, None, &settings.base, out)?;
    prepare_dirs(ctx, out)?;
    let git = ctx.repo.git();
    let unfit = find_unfit(ctx, &git)?;
    let (discarded, added) = discard_and_add(ctx, &git, &unfit, base, target, out)?;
    let failed = check_out_all(ctx, &git, &added, out);
    let prepared = move_into_pool(ctx, &git, &added, &failed, out)?;
    // Released before the survey, which claims each member in turn.
    drop(added);
    let members = survey(ctx)?;
    let added = members
        .iter()
        .filter(|m| prepared.contains(&m.name))
        .cloned()
        .collect();
    Ok(Filled {
        size: settings.pool_size.value,
        members,
        added,
        discarded,
    })
}

/// Create `.loop-worktrees/.pool/.new/` (and the ignore line, as `create`
/// writes it), refusing a symlink on the way.
fn prepare_dirs(ctx: &Ctx, out: &mut Notes<'_>) -> Result<()> {
    let settings = ctx.settings()?;
    let ignore = IgnoreTarget::of(ctx, settings.create_ignore_file.value);
    ignore.refuse_symlink()?;
    ctx.ensure_loop_dir()?;
    if !ignore.has_loop_dir()? {
        let _mutex = ManifestMutex::acquire(&ctx.loop_dir())?;
        ignore.ensure(out)?;
    }
    let pool = ctx.loop_dir().join(POOL_DIR);
    for dir in [pool.clone(), pool.join(STAGING_DIR)] {
        match std::fs::symlink_metadata(&dir) {
            Ok(meta) if meta.is_dir() => {}
            Ok(_) => {
                return Err(Error::UnsafePath {
                    path: dir,
                    reason: "it is not a directory (a symlink or a file); the pool keeps its worktrees inside .loop-worktrees".into(),
                });
            }
            Err(_) => std::fs::create_dir(&dir)
                .or_else(|e| match e.kind() {
                    std::io::ErrorKind::AlreadyExists => Ok(()),
                    _ => Err(e),
                })
                .map_err(|e| Error::io("could not create", &dir, e))?,
        }
    }
    Ok(())
}

/// The members (staged or in the pool) to discard, checked outside the lock
/// (the checks read every file). One another process holds is not ours to
/// judge; a staged one not held was left by an interrupted fill.
fn find_unfit(ctx: &Ctx, git: &Git) -> Result<Vec<Unfit>> {
    let remover = Remover::new(&ctx.repo, git)?;
    let mut bad = Vec::new();
    for m in staged(&ctx.repo)?.into_iter().chain(members(&ctx.repo)?) {
        let claim = Claim::try_take(&m.abs);
        if claim.is_none() && std::fs::symlink_metadata(&m.abs).is_ok() {
            continue; // another process is using or preparing it
        }
        let why = match (&claim, m.key().contains(STAGING_DIR)) {
            (None, _) => Some("its directory is missing".to_owned()),
            (Some(_), true) => Some("an interrupted fill left it".to_owned()),
            (Some(_), false) => unfit(&remover, &m).unwrap_or_else(|e| Some(e.to_string())),
        };
        if let Some(why) = why {
            bad.push((m, why, claim));
        }
    }
    Ok(bad)
}

/// Under the worktree-operation lock: discard the unfit members still
/// registered, then add new members in `.pool/.new/` (not checked out) until
/// the pool would hold `target`, each claimed at once.
fn discard_and_add(
    ctx: &Ctx,
    git: &Git,
    unfit: &[Unfit],
    base: gix::ObjectId,
    target: usize,
    out: &mut Notes<'_>,
) -> Result<(Vec<Discarded>, Vec<Staged>)> {
    let _ops = OpsLock::acquire(&ctx.loop_dir(), |w| out.note(format_args!("{w}")))?;
    let now: Vec<Member> = staged(&ctx.repo)?
        .into_iter()
        .chain(members(&ctx.repo)?)
        .collect();
    let mut remover = Remover::new(&ctx.repo, git)?;
    let mut discarded = Vec::new();
    for (m, why, _claim) in unfit {
        if let Some(current) = now.iter().find(|c| c.key() == m.key()) {
            discarded.push(discard(&mut remover, current, why.clone())?);
        }
    }
    let hex = base.to_string();
    let mut added = Vec::new();
    let have = members(&ctx.repo)?.len();
    for _ in have..target {
        let name = super::new_name(base);
        let rel = super::staged_rel_path(&name);
        if let Err(failure) = git.worktree_add_detached(&rel, &hex)? {
            return Err(Error::from(failure));
        }
        let abs = ctx.loop_dir().join(POOL_DIR).join(STAGING_DIR).join(&name);
        // Under the lock: nobody else can have claimed it yet.
        if let Some(claim) = Claim::try_take(&abs) {
            added.push((name, claim));
        }
    }
    Ok((discarded, added))
}

/// The checkouts of the staged members, in parallel, each under its
/// member's claim: why each one failed, if it did. Each one is seconds in
/// a large tree: a progress line counts them on a terminal's stderr
/// ([`Out::progress`]: nothing when piped or with `--quiet`), erased at the
/// end.
fn check_out_all(
    ctx: &Ctx,
    git: &Git,
    added: &[Staged],
    out: &mut Notes<'_>,
) -> Vec<Option<String>> {
    let mut failed: Vec<Option<String>> = vec![None; added.len()];
    if added.is_empty() {
        return failed;
    }
    let staging = ctx.loop_dir().join(POOL_DIR).join(STAGING_DIR);
    let total = added.len();
    let mut done = 0;
    out.progress(Some(format_args!(
        "checking out pool members: {done}/{total} done"
    )));
    crate::fanout::for_each(
        added,
        |(name, _)| match git.checkout_new_worktree(&staging.join(name)) {
            Ok(Ok(())) => None,
            Ok(Err(f)) => Some(f.reason()),
            Err(e) => Some(e.to_string()),
        },
        |i, r| {
            failed[i] = r;
            done += 1;
            out.progress(Some(format_args!(
                "checking out pool members: {done}/{total} done"
            )));
        },
    );
    out.progress(None);
    failed
}

/// Under the lock again: move each member that was checked out into
/// `.pool/`. The names of those moved.
fn move_into_pool(
    ctx: &Ctx,
    git: &Git,
    added: &[Staged],
    failed: &[Option<String>],
    out: &mut Notes<'_>,
) -> Result<Vec<String>> {
    let mut prepared = Vec::new();
    if added.is_empty() {
        return Ok(prepared);
    }
    let _ops = OpsLock::acquire(&ctx.loop_dir(), |w| out.note(format_args!("{w}")))?;
    for ((name, _claim), failure) in added.iter().zip(failed) {
        let from = super::staged_rel_path(name);
        if let Some(why) = failure {
            out.note(format_args!("warning: could not check out {from}: {why}"));
            continue;
        }
        match git.worktree_move(&from, &super::rel_path(name))? {
            Ok(()) => prepared.push(name.clone()),
            Err(f) => out.note(format_args!(
                "warning: could not move {from} into the pool: {}",
                f.reason()
            )),
        }
    }
    Ok(prepared)
}
