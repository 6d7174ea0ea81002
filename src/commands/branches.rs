//! `git loop branches [--delete-merged] [--dry-run]`: the adapter to
//! [`crate::ops::branches`] (the listing and the deletion, with their
//! rules) and the report built from its outcome.

use serde::Serialize;

use crate::cli::BranchesArgs;
use crate::ctx::Ctx;
use crate::error::Result;
pub use crate::ops::branches::KeptCode;
use crate::ops::branches::{BranchesOutcome, Fate};
use crate::output::{Out, Report};
use crate::style::{Cell, escape, write_table};

/// One leftover branch.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Leftover {
    /// Short name, `loop/<x>`.
    pub branch: String,
    /// The full id of its tip.
    pub tip: String,
    #[serde(skip)]
    pub tip_short: String,
    /// The tip's committer time, ISO-8601 UTC (`null`: not a readable commit).
    pub committed_at: Option<String>,
    /// Seconds from that time to now.
    pub age_seconds: Option<i64>,
    pub ahead: Option<usize>,
    pub behind: Option<usize>,
    /// `true` only when the branch has commits of its own and they are in
    /// the base.
    pub merged: Option<bool>,
    /// `ancestor`, `squash` or `rebase` when merged.
    pub merged_by: Option<crate::git::merged::MergedBy>,
    /// `rebase` when patch ids say the branch was probably rebase-merged
    /// but merging it would still change the base: not merged, never
    /// deleted.
    pub probably_merged: Option<crate::git::merged::MergedBy>,
    /// No commits of its own since it was created.
    pub empty: Option<bool>,
    pub checked_out: bool,
    /// Deleted (in a dry run: would be).
    pub deleted: bool,
    /// With `--delete-merged` or `--dry-run`: why it is (would be) kept.
    pub kept: Option<KeptCode>,
    /// Empty, but its tip proven merged (the table's verdict for it).
    #[serde(skip)]
    pub tip_merged: Option<crate::git::merged::MergedBy>,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BranchesReport {
    pub dry_run: bool,
    /// The base every branch is compared with.
    pub base: String,
    pub branches: Vec<Leftover>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<crate::error::Failure>,
    /// Whether a deletion pass ran (or was simulated): the table shows it.
    #[serde(skip)]
    pub deleting: bool,
}

pub fn exec(ctx: &Ctx, args: &BranchesArgs, out: &mut Out<'_>) -> Result<BranchesReport> {
    let outcome =
        crate::ops::branches::survey(ctx, args.delete_merged, args.dry_run, &mut out.notes())?;
    Ok(BranchesReport::from(outcome))
}

impl From<crate::ops::branches::Leftover> for Leftover {
    fn from(l: crate::ops::branches::Leftover) -> Leftover {
        use crate::git::merged::Verdict;
        let now = crate::time::now();
        Leftover {
            tip: l.tip.to_string(),
            tip_short: l.tip_short,
            committed_at: l.committed_at.map(|t| t.to_string()),
            age_seconds: l
                .committed_at
                .map(|t| now.as_second().saturating_sub(t.as_second())),
            ahead: l.ahead,
            behind: l.behind,
            merged: l.verdict.map(|v| matches!(v, Verdict::Merged(_))),
            merged_by: l.verdict.and_then(Verdict::merged_by),
            probably_merged: l.verdict.and_then(Verdict::probably_merged_by),
            empty: l.verdict.map(|v| v == Verdict::Empty),
            checked_out: l.checked_out,
            deleted: matches!(l.fate, Fate::Deleted { .. } | Fate::WouldDelete),
            kept: match l.fate {
                Fate::Kept(code) => Some(code),
                _ => None,
            },
            tip_merged: l.tip_merged,
            branch: l.branch,
        }
    }
}

impl From<BranchesOutcome> for BranchesReport {
    fn from(o: BranchesOutcome) -> BranchesReport {
        BranchesReport {
            dry_run: o.dry_run,
            base: o.base,
            branches: o.branches.into_iter().map(Leftover::from).collect(),
            error: o.error.as_ref().map(crate::error::Failure::from),
            deleting: o.deleting,
        }
    }
}

impl Report for BranchesReport {
    fn failed_part_way(&self) -> Option<&crate::error::Failure> {
        self.error.as_ref()
    }

    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        if self.branches.is_empty() {
            out.note(format_args!("no leftover loop/* branches"));
            return Ok(());
        }
        let now = crate::time::now();
        let rows: Vec<[Cell<'_>; 7]> = self.tips().iter().map(|at| self.row(at, now)).collect();
        let header = ["BRANCH", "TIP", "AGE", "AHEAD", "BEHIND", "MERGED", "STATE"];
        write_table(out.stdout, header, &rows, out.color)?;
        if self.deleting {
            let deleted = self.branches.iter().filter(|l| l.deleted).count();
            let kept: Vec<&str> = self
                .branches
                .iter()
                .filter_map(|l| l.kept.map(KeptCode::as_str))
                .collect();
            let verb = if self.dry_run {
                "would delete"
            } else {
                "deleted"
            };
            out.note(format_args!(
                "{} (compared with {})",
                crate::style::summary(verb, deleted, &kept),
                self.base
            ));
        }
        Ok(())
    }
}

impl BranchesReport {
    /// The branches grouped by tip, in the order each tip is first listed:
    /// one row of the table each.
    fn tips(&self) -> Vec<Vec<&Leftover>> {
        let mut tips: Vec<Vec<&Leftover>> = Vec::new();
        for l in &self.branches {
            match tips.iter_mut().find(|t| t[0].tip == l.tip) {
                Some(at) => at.push(l),
                None => tips.push(vec![l]),
            }
        }
        tips
    }

    /// One tip's row: its branches, and one verdict for them all (a proof
    /// any has, its own or its tip's; else evidence; else `no`; `empty`
    /// only when every one is).
    fn row<'a>(&self, at: &[&'a Leftover], now: jiff::Timestamp) -> [Cell<'a>; 7] {
        let l = at[0];
        let opt = |v: Option<usize>| v.map_or_else(|| "-".to_owned(), |v| v.to_string());
        let proof = at.iter().find_map(|l| l.merged_by.or(l.tip_merged));
        let probable = at.iter().find_map(|l| l.probably_merged);
        let merged: Cell<'_> = match (proof, probable) {
            (Some(by), _) => (by.as_str().into(), "32"),
            // Evidence, not proof: never deleted.
            (None, Some(by)) => (format!("{by}?").into(), "33"),
            _ if at
                .iter()
                .any(|l| l.merged == Some(false) && l.empty != Some(true)) =>
            {
                ("no".into(), "")
            }
            _ if at.iter().all(|l| l.empty == Some(true)) => ("empty".into(), "2"),
            _ => ("-".into(), ""),
        };
        let age = l.committed_at.as_deref().and_then(|t| t.parse().ok());
        // One fate when they share it (they share the verdict); else each.
        let fates: Vec<(String, &'static str)> = at.iter().map(|l| self.fate(l)).collect();
        let action = if fates.iter().all(|f| f.0 == fates[0].0) {
            fates[0].clone()
        } else {
            let each: Vec<String> = at
                .iter()
                .zip(&fates)
                .map(|(l, f)| format!("{}: {}", escape(&l.branch), f.0))
                .collect();
            (each.join("; "), "")
        };
        let names: Vec<std::borrow::Cow<'_, str>> = at.iter().map(|l| escape(&l.branch)).collect();
        [
            (names.join(", ").into(), ""),
            (l.tip_short.as_str().into(), ""),
            (
                age.map_or_else(|| "-".to_owned(), |t| crate::time::age(now, t))
                    .into(),
                "2",
            ),
            (opt(l.ahead).into(), ""),
            (opt(l.behind).into(), ""),
            merged,
            (action.0.into(), action.1),
        ]
    }

    /// What became (would become) of one branch, as the STATE column says it.
    fn fate(&self, l: &Leftover) -> (String, &'static str) {
        match (l.deleted, l.kept, self.dry_run) {
            (true, _, true) => ("would delete".to_owned(), "33"),
            (true, _, false) => ("deleted".to_owned(), "31"),
            (false, Some(code), _) => (format!("kept ({})", code.as_str()), ""),
            (false, None, _) if l.checked_out => ("checked out".to_owned(), ""),
            _ => ("-".to_owned(), ""),
        }
    }
}
