//! `git loop pool status`, `pool fill [<N>]`, `pool drain`.
//!
//! `fill` prepares members at the configured base (`loop.base`, resolved as
//! `create` resolves it) until the pool holds `N` (default `pool.size`):
//! under the worktree-operation lock, `git worktree add --no-checkout
//! --detach` in `.pool/.new/`; outside it, in parallel, the checkout
//! (`git reset --hard`, as `git worktree add` does it; no hook runs — the
//! `post-checkout` hook runs when a create takes the member); under the lock
//! again, `git worktree move` into `.pool/`. Members that fail their checks
//! are discarded first.
//!
//! `drain` removes every member (and every staged one) with the usual rules,
//! under the worktree-operation lock, each claimed first: one a create is
//! taking right now is left (`in-use`), as is one git refuses to remove.

use super::check::{discard, unfit};
use super::report::{Discarded, MemberReport, PoolReport};
use super::{Claim, Member, POOL_DIR, STAGING_DIR, members, staged};
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::git::cmd::Git;
use crate::lock::{ManifestMutex, OpsLock};
use crate::output::Out;
use crate::worktree::{Remover, SkipCode};

fn size(ctx: &Ctx) -> Result<usize> {
    Ok(ctx.settings()?.pool_size.value)
}

fn describe(m: &Member, state: &'static str, reason: Option<String>) -> MemberReport {
    MemberReport {
        name: m.name.clone(),
        path: m.rel(),
        commit: m.commit.map(|c| c.to_string()),
        state,
        reason,
    }
}

/// Each member and its state, claimed and checked one at a time.
fn survey(ctx: &Ctx) -> Result<Vec<MemberReport>> {
    let git = Git::new(ctx.repo.root());
    let remover = Remover::new(&ctx.repo, &git)?;
    let mut out = Vec::new();
    for m in members(&ctx.repo)? {
        let Some(_claim) = Claim::try_take(&m.abs) else {
            let missing = std::fs::symlink_metadata(&m.abs).is_err();
            out.push(match missing {
                true => describe(&m, "unfit", Some("its directory is missing".into())),
                false => describe(&m, "busy", None),
            });
            continue;
        };
        out.push(
            match unfit(&remover, &m).unwrap_or_else(|e| Some(e.to_string())) {
                Some(why) => describe(&m, "unfit", Some(why)),
                None => describe(&m, "ready", None),
            },
        );
    }
    Ok(out)
}

pub fn status(ctx: &Ctx) -> Result<PoolReport> {
    Ok(PoolReport {
        action: "status",
        size: size(ctx)?,
        members: if ctx.loop_dir_exists()? {
            survey(ctx)?
        } else {
            Vec::new()
        },
        added: None,
        removed: None,
        skipped: None,
        discarded: None,
    })
}

/// Create `.loop-worktrees/.pool/.new/` (and the ignore line, as `create`
/// writes it), refusing a symlink on the way.
fn prepare_dirs(ctx: &Ctx, out: &mut Out<'_>) -> Result<()> {
    let settings = ctx.settings()?;
    let ignore =
        super::super::create::ignore::IgnoreTarget::of(ctx, settings.create_ignore_file.value);
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

pub fn fill(ctx: &Ctx, n: Option<usize>, out: &mut Out<'_>) -> Result<PoolReport> {
    let settings = ctx.settings()?;
    let target = n.unwrap_or(settings.pool_size.value);
    let (_, base) = super::super::create::base::resolve(ctx, None, &settings.base, out)?;
    prepare_dirs(ctx, out)?;
    let git = Git::new(ctx.repo.root());
    let hex = base.to_string();

    // Checked outside the lock (the checks read every file).
    let mut bad = Vec::new();
    {
        let remover = Remover::new(&ctx.repo, &git)?;
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
    }

    let mut discarded = Vec::new();
    let mut added: Vec<(String, Claim)> = Vec::new();
    {
        let ops = OpsLock::acquire(&ctx.loop_dir(), |w| out.note(format_args!("{w}")))?;
        let now: Vec<Member> = staged(&ctx.repo)?
            .into_iter()
            .chain(members(&ctx.repo)?)
            .collect();
        let mut remover = Remover::new(&ctx.repo, &git)?;
        for (m, why, _claim) in &bad {
            if let Some(current) = now.iter().find(|c| c.key() == m.key()) {
                discarded.push(discard(&mut remover, current, why.clone())?);
            }
        }
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
        drop(ops);
    }

    // The checkouts, in parallel, each under its member's claim.
    let mut failed: Vec<Option<String>> = vec![None; added.len()];
    let staging = ctx.loop_dir().join(POOL_DIR).join(STAGING_DIR);
    crate::fanout::for_each(
        &added,
        |(name, _)| {
            let abs = staging.join(name);
            match git.checkout_new_worktree(&abs) {
                Ok(Ok(())) => None,
                Ok(Err(f)) => Some(f.reason()),
                Err(e) => Some(e.to_string()),
            }
        },
        |i, r| failed[i] = r,
    );

    let mut prepared = Vec::new();
    if !added.is_empty() {
        let _ops = OpsLock::acquire(&ctx.loop_dir(), |w| out.note(format_args!("{w}")))?;
        for ((name, _claim), failure) in added.iter().zip(&failed) {
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
    }
    // Released before the survey, which claims each member in turn.
    drop(added);
    let members = survey(ctx)?;
    let added = members
        .iter()
        .filter(|m| prepared.contains(&m.name))
        .cloned()
        .collect();
    Ok(PoolReport {
        action: "fill",
        size: settings.pool_size.value,
        members,
        added: Some(added),
        removed: None,
        skipped: None,
        discarded: Some(discarded),
    })
}

pub fn drain(ctx: &Ctx, out: &mut Out<'_>) -> Result<PoolReport> {
    let size = size(ctx)?;
    let mut removed = Vec::new();
    let mut skipped: Vec<Discarded> = Vec::new();
    if ctx.loop_dir_exists()? {
        let git = Git::new(ctx.repo.root());
        let _ops = OpsLock::acquire(&ctx.loop_dir(), |w| out.note(format_args!("{w}")))?;
        let mut remover = Remover::new(&ctx.repo, &git)?;
        for m in staged(&ctx.repo)?.into_iter().chain(members(&ctx.repo)?) {
            let claim = Claim::try_take(&m.abs);
            if claim.is_none() && std::fs::symlink_metadata(&m.abs).is_ok() {
                skipped.push(Discarded {
                    name: m.name.clone(),
                    path: m.rel(),
                    reason: "another git-loop process is using it".into(),
                    removed: false,
                    left_because: None,
                    code: Some(SkipCode::InUse),
                });
                continue;
            }
            let d = discard(&mut remover, &m, "drained".into())?;
            if d.removed {
                removed.push(describe(&m, "removed", None));
            } else {
                skipped.push(d);
            }
        }
        let pool = ctx.loop_dir().join(POOL_DIR);
        let _ = std::fs::remove_dir(pool.join(STAGING_DIR));
        let _ = std::fs::remove_dir(pool);
    }
    Ok(PoolReport {
        action: "drain",
        size,
        members: if ctx.loop_dir_exists()? {
            survey(ctx)?
        } else {
            Vec::new()
        },
        added: None,
        removed: Some(removed),
        skipped: Some(skipped),
        discarded: None,
    })
}
