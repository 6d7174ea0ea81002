//! [`crate::safety::descends_from`], the kernel's "a landing only moves
//! forward", near (found among the nearest ancestors) and far (past them,
//! the merge base decides), and never for a sibling or backwards.

use super::fixture::Fixture;
use crate::safety::descends_from;

#[test]
fn descends_from_is_exact_near_far_and_never_sideways_or_back() {
    let f = Fixture::new();
    let old = f.id("main");
    let mut chain = vec![old];
    for n in 0..80 {
        let content = format!("a{n}\n");
        let next = f.commit_on(*chain.last().unwrap(), &[("a", Some(content.as_str()))]);
        chain.push(next);
    }
    let sibling = f.commit_on(old, &[("d", Some("sideways\n"))]);
    let merge = {
        let tree = f.git(&f.root, &["rev-parse", &format!("{}^{{tree}}", chain[3])]);
        let (a, b) = (chain[3].to_string(), sibling.to_string());
        let id = f.git(
            &f.root,
            &["commit-tree", &tree, "-p", &a, "-p", &b, "-m", "merge"],
        );
        gix::ObjectId::from_hex(id.as_bytes()).unwrap()
    };
    let repo = f.repo();
    let gix = repo.gix();
    assert!(descends_from(gix, old, old));
    assert!(descends_from(gix, chain[5], old), "near");
    assert!(
        descends_from(gix, chain[80], old),
        "far: past the nearest 64"
    );
    assert!(descends_from(gix, chain[80], chain[79]));
    assert!(
        descends_from(gix, merge, sibling),
        "through a second parent"
    );
    assert!(!descends_from(gix, old, chain[5]), "backwards");
    assert!(
        !descends_from(gix, chain[80], sibling),
        "a sibling, near or far"
    );
    assert!(!descends_from(gix, sibling, chain[1]));
}
