//! `git loop branches [--delete-merged] [--dry-run]`: the adapter to
//! [`crate::ops::branches`] (the listing and the deletion, with their
//! rules) and the report built from its outcome.

use serde::Serialize;

use crate::cli::BranchesArgs;
use crate::ctx::Ctx;
use crate::error::Result;
pub use crate::ops::branches::KeptCode;
use crate::ops::branches::{Fate, Outcome};
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

pub fn run(ctx: &Ctx, args: &BranchesArgs, out: &mut Out<'_>) -> Result<BranchesReport> {
    let outcome = crate::ops::branches::run(ctx, args.delete_merged, args.dry_run, out)?;
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
            branch: l.branch,
        }
    }
}

impl From<Outcome> for BranchesReport {
    fn from(o: Outcome) -> BranchesReport {
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
        let rows: Vec<[Cell<'_>; 7]> = self.branches.iter().map(|l| self.row(l, now)).collect();
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
    /// One branch's row of the table.
    fn row<'a>(&self, l: &'a Leftover, now: jiff::Timestamp) -> [Cell<'a>; 7] {
        let opt = |v: Option<usize>| v.map_or_else(|| "-".to_owned(), |v| v.to_string());
        let merged: Cell<'_> = match (l.merged_by, l.probably_merged, l.empty) {
            (Some(by), ..) => (by.as_str().into(), "32"),
            // Evidence, not proof: never deleted.
            (None, Some(by), _) => (format!("{by}?").into(), "33"),
            (None, None, Some(true)) => ("empty".into(), "2"),
            _ if l.merged == Some(false) => ("no".into(), ""),
            _ => ("-".into(), ""),
        };
        let age = l.committed_at.as_deref().and_then(|t| t.parse().ok());
        let action = match (l.deleted, l.kept, self.dry_run) {
            (true, _, true) => ("would delete".to_owned(), "33"),
            (true, _, false) => ("deleted".to_owned(), "31"),
            (false, Some(code), _) => (format!("kept ({})", code.as_str()), ""),
            (false, None, _) if l.checked_out => ("checked out".to_owned(), ""),
            _ => ("-".to_owned(), ""),
        };
        [
            (escape(&l.branch), ""),
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
}
