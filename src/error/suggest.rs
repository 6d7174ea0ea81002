//! "Did you mean": the known names closest to one that was mistyped, by
//! edit distance (insertions, deletions, substitutions and swaps of two
//! neighbours, each 1), as git suggests a command.

/// At most this many suggestions; more would be a list, not a hint.
const MAX: usize = 3;

/// The names of `known` nearest to `typed`: those at the smallest distance,
/// if it is at most 2 and at most a third of `typed`'s length (so `ab` is
/// never "corrected" to `xy`), in the order given, deduplicated.
pub fn closest<'a>(typed: &str, known: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let limit = (typed.chars().count() / 3).min(2);
    let mut best: Vec<&str> = Vec::new();
    let mut best_distance = usize::MAX;
    for name in known {
        if name == typed {
            continue;
        }
        let d = distance(typed, name);
        if d > limit || d > best_distance {
            continue;
        }
        if d < best_distance {
            best.clear();
            best_distance = d;
        }
        if !best.contains(&name) {
            best.push(name);
        }
    }
    best.truncate(MAX);
    best
}

/// `; did you mean a?` (or `a or b?`), or nothing.
pub fn did_you_mean<'a>(typed: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    let names = closest(typed, known);
    if names.is_empty() {
        return String::new();
    }
    let names: Vec<String> = names
        .iter()
        .map(|n| crate::style::escape(n).into_owned())
        .collect();
    format!("; did you mean {}?", names.join(" or "))
}

/// The optimal string alignment distance of `a` and `b`, over chars.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // rows[i][j]: the distance of a[..i] and b[..j]; three rows kept.
    let mut before = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut row = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        row[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            row[j] = (prev[j] + 1).min(row[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                row[j] = row[j].min(before[j - 2] + 1);
            }
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut row);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_near_name_is_suggested_a_far_one_is_not() {
        let known = ["fix-login", "fix-logout", "try-a", "ab"];
        assert_eq!(closest("fix-logn", known), ["fix-login"]);
        assert_eq!(closest("fix-lgoin", known), ["fix-login"]);
        assert_eq!(closest("try-b", known), ["try-a"]);
        assert!(closest("xy", known).is_empty());
        assert!(closest("refactor", known).is_empty());
        assert!(
            closest("fix-login", known).is_empty(),
            "an exact name is no typo"
        );
        assert_eq!(did_you_mean("fix-logn", known), "; did you mean fix-login?");
        assert_eq!(did_you_mean("zzz", known), "");
    }

    #[test]
    fn distance_counts_a_swap_as_one() {
        assert_eq!(distance("abc", "abc"), 0);
        assert_eq!(distance("abc", "acb"), 1);
        assert_eq!(distance("abc", "ab"), 1);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("kitten", "sitting"), 3);
    }
}
