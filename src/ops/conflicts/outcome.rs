//! What `conflicts` found, from the workers' merges: each run's conflicts
//! with its base, the pairs that conflict beyond those, and the landing
//! order (fewest conflicts first).

use gix::bstr::{BString, ByteSlice};

use super::{Candidate, Found};
use crate::manifest::Status;

#[derive(Debug)]
pub struct ConflictsOutcome {
    /// Every run checked, by id.
    pub runs: Vec<RunConflicts>,
    /// The conflicting pairs only, by ids.
    pub pairs: Vec<PairConflict>,
    /// How many pairs were merged.
    pub pairs_checked: usize,
    pub landing_order: Vec<String>,
    pub skipped: Vec<Skipped>,
    /// The statuses of the runs looked at.
    pub statuses: Vec<Status>,
    /// The runs of other statuses, how many of each, most first.
    pub not_looked_at: Vec<(Status, usize)>,
}

/// One active run checked.
#[derive(Debug)]
pub struct RunConflicts {
    pub id: String,
    /// The branch it lands in.
    pub base: String,
    /// Files that conflict when it is merged into its base as it is now.
    pub base_conflicts: Vec<String>,
    /// The runs it conflicts with, by id.
    pub conflicts_with: Vec<String>,
}

/// Two runs that would conflict when both land (the first lands first),
/// and where.
#[derive(Debug)]
pub struct PairConflict {
    pub runs: [String; 2],
    pub base: String,
    pub files: Vec<String>,
}

/// An active run that was not checked, and why.
#[derive(Debug)]
pub struct Skipped {
    pub id: String,
    pub reason: String,
}

/// A path as JSON and tables show it (lossy for bytes that are not UTF-8).
fn path_text(path: &BString) -> String {
    path.to_str_lossy().into_owned()
}

/// The outcome from the workers' findings (`found` indexed as
/// `candidates`).
pub(super) fn tally(
    candidates: &[Candidate],
    found: Vec<Found>,
    pairs_checked: usize,
    skipped: Vec<Skipped>,
) -> ConflictsOutcome {
    let mut runs: Vec<RunConflicts> = candidates
        .iter()
        .zip(&found)
        .map(|(c, f)| RunConflicts {
            id: c.id.clone(),
            base: c.base.clone(),
            base_conflicts: f.base_conflicts.iter().map(path_text).collect(),
            conflicts_with: Vec::new(),
        })
        .collect();
    let (mut pairs, pair_files) = pairs(candidates, &found, &mut runs);
    pairs.sort_by(|a, b| a.runs.cmp(&b.runs));
    for r in &mut runs {
        r.conflicts_with.sort();
    }
    let mut order: Vec<usize> = (0..runs.len()).collect();
    order.sort_by_key(|&i| {
        (
            !runs[i].base_conflicts.is_empty(),
            runs[i].conflicts_with.len(),
            pair_files[i],
            runs[i].id.clone(),
        )
    });
    ConflictsOutcome {
        landing_order: order.iter().map(|&i| runs[i].id.clone()).collect(),
        runs,
        pairs,
        pairs_checked,
        skipped,
        statuses: Vec::new(),
        not_looked_at: Vec::new(),
    }
}

/// The conflicting pairs, with the files each run conflicts in by itself
/// taken out; each run's partners noted in `runs`. Also returns how many
/// pair files each run has (for the landing order).
fn pairs(
    candidates: &[Candidate],
    found: &[Found],
    runs: &mut [RunConflicts],
) -> (Vec<PairConflict>, Vec<usize>) {
    let own: Vec<&[BString]> = found.iter().map(|f| &f.base_conflicts[..]).collect();
    let mut pair_files = vec![0usize; candidates.len()];
    let mut pairs = Vec::new();
    for (i, f) in found.iter().enumerate() {
        for (j, files) in &f.pairs {
            let files: Vec<String> = files
                .iter()
                .filter(|p| !own[i].contains(p) && !own[*j].contains(p))
                .map(path_text)
                .collect();
            if files.is_empty() {
                continue;
            }
            let (a, b) = (&candidates[i].id, &candidates[*j].id);
            runs[i].conflicts_with.push(b.clone());
            runs[*j].conflicts_with.push(a.clone());
            pair_files[i] += files.len();
            pair_files[*j] += files.len();
            pairs.push(PairConflict {
                runs: [a.clone(), b.clone()],
                base: candidates[i].base.clone(),
                files,
            });
        }
    }
    (pairs, pair_files)
}
