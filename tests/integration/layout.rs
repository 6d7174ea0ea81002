//! The shape of the code, kept by a test: no import cycles between the
//! crate's top-level modules, no source file over 400 lines, and
//! `commands/mod.rs` (dispatch only) under 150.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const SRC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src");

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `src/a/b.rs` and `src/a.rs` belong to module `a`; `lib.rs` and `main.rs`
/// to the crate root.
fn top_module(path: &Path) -> String {
    let rel = path.strip_prefix(SRC).unwrap();
    let first = rel
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy();
    let name = first.trim_end_matches(".rs").to_owned();
    if name == "lib" || name == "main" {
        "(root)".to_owned()
    } else {
        name
    }
}

/// The code without `//` comments (doc links are not dependencies).
fn code(text: &str) -> String {
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn no_import_cycles_between_modules() {
    let mut files = Vec::new();
    rust_files(Path::new(SRC), &mut files);
    let modules: BTreeSet<String> = files.iter().map(|f| top_module(f)).collect();
    let mut deps: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let from = top_module(file);
        if from == "(root)" {
            continue; // the root declares every module
        }
        let text = code(&std::fs::read_to_string(file).unwrap());
        for (i, _) in text.match_indices("crate::") {
            let rest = &text[i + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if name != from && modules.contains(&name) {
                deps.entry(from.clone()).or_default().insert(name);
            }
        }
    }
    // A cycle exists iff some module reaches itself.
    for start in deps.keys() {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<&String> = deps[start].iter().collect();
        while let Some(m) = stack.pop() {
            assert_ne!(m, start, "import cycle through {start}: {deps:#?}");
            if seen.insert(m) {
                stack.extend(deps.get(m).into_iter().flatten());
            }
        }
    }
}

#[test]
fn no_source_file_over_400_lines_and_dispatch_under_150() {
    let mut files = Vec::new();
    rust_files(Path::new(SRC), &mut files);
    for file in files {
        let lines = std::fs::read_to_string(&file).unwrap().lines().count();
        assert!(lines <= 400, "{} has {lines} lines", file.display());
    }
    let dispatch = std::fs::read_to_string(format!("{SRC}/commands/mod.rs")).unwrap();
    assert!(dispatch.lines().count() < 150);
}
