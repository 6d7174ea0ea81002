//! The order of the attempts (the parent module's doc says why each key is
//! there): an attempt that changes something first (one that changes no
//! file against its base — no commits of its own — is last, however its
//! gate did: the base passing its own tests proves nothing of a fix);
//! passed first; no conflict with the base first; higher agreement; fewer
//! lines changed; a faster gate; the attempt's number.
//!
//! Agreement and seconds are rounded (to 4 and 3 decimals) before they are
//! compared, so the order follows the figures shown.

use std::cmp::Ordering;

use gix::ObjectId;

use super::evidence::{Evidence, agreement};
use super::gates::Ran;
use crate::events::Judgement;

/// One attempt with all its evidence, not ranked yet.
pub struct Judged {
    pub id: String,
    pub n: u32,
    pub head: ObjectId,
    pub ran: Ran,
    pub evidence: Evidence,
}

fn round(x: f64, places: i32) -> f64 {
    let scale = 10f64.powi(places);
    (x * scale).round() / scale
}

/// The judgements of `judged`, in rank order, ranks from 1.
pub fn rank(task: &str, gate: &str, judged: Vec<Judged>) -> Vec<Judgement> {
    let mut ranked: Vec<(u32, Judgement)> = judged
        .iter()
        .enumerate()
        .map(|(i, j)| {
            let others = judged
                .iter()
                .enumerate()
                .filter(|(k, o)| *k != i && o.ran.passed)
                .map(|(_, o)| &o.evidence.hunks);
            let judgement = Judgement {
                id: j.id.clone(),
                task: task.to_owned(),
                gate: gate.to_owned(),
                head: j.head.to_string(),
                passed: j.ran.passed,
                exit_code: j.ran.exit_code,
                timed_out: j.ran.timed_out,
                seconds: round(j.ran.seconds, 3),
                conflicts_with_base: j.evidence.conflicts_with_base,
                agreement: round(agreement(&j.evidence.hunks, others), 4),
                lines_changed: j.evidence.lines_changed,
                files_changed: j.evidence.files_changed,
                dirty: j.ran.dirty,
                wrote_to_worktree: j.ran.wrote_to_worktree,
                rank: 0,
            };
            (j.n, judgement)
        })
        .collect();
    ranked.sort_by(|(an, a), (bn, b)| order(a, b).then(an.cmp(bn)));
    ranked
        .into_iter()
        .enumerate()
        .map(|(i, (_, mut j))| {
            j.rank = i as u32 + 1;
            j
        })
        .collect()
}

/// `a` before `b` (Less) by the evidence; the attempt number breaks ties.
fn order(a: &Judgement, b: &Judgement) -> Ordering {
    a.changes_nothing()
        .cmp(&b.changes_nothing())
        .then(b.passed.cmp(&a.passed))
        .then(a.conflicts_with_base.cmp(&b.conflicts_with_base))
        .then(b.agreement.total_cmp(&a.agreement))
        .then(a.lines_changed.cmp(&b.lines_changed))
        .then(a.seconds.total_cmp(&b.seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn j(id: &str) -> Judgement {
        Judgement {
            id: id.into(),
            task: "t".into(),
            gate: "g".into(),
            head: String::new(),
            passed: true,
            exit_code: Some(0),
            timed_out: false,
            seconds: 1.0,
            conflicts_with_base: false,
            agreement: 0.5,
            lines_changed: 10,
            files_changed: 1,
            dirty: false,
            wrote_to_worktree: false,
            rank: 0,
        }
    }

    #[test]
    fn each_key_decides_before_the_next() {
        let base = j("a");
        let cases = [
            Judgement {
                passed: false,
                agreement: 1.0,
                ..j("b")
            },
            Judgement {
                conflicts_with_base: true,
                agreement: 1.0,
                ..j("b")
            },
            Judgement {
                agreement: 0.25,
                lines_changed: 1,
                ..j("b")
            },
            Judgement {
                lines_changed: 11,
                seconds: 0.1,
                ..j("b")
            },
            Judgement {
                seconds: 1.5,
                ..j("b")
            },
        ];
        for worse in cases {
            assert_eq!(order(&base, &worse), Ordering::Less, "{worse:?}");
            assert_eq!(order(&worse, &base), Ordering::Greater, "{worse:?}");
        }
        assert_eq!(order(&base, &j("b")), Ordering::Equal);
    }
}
