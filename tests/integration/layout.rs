//! The shape of the code, kept by a test:
//! - no import cycle at any depth: for every module, the graph over its
//!   children (`a -> b` when anything in `a`'s subtree names `b`'s subtree,
//!   through a `crate::…`, `super::…` or `self::…` path) is acyclic;
//! - no command imports another command (`commands`' children have no edge
//!   between them at all), and no operation (`ops`) imports a command or
//!   the command line (`cli`);
//! - one module style: a module with children is `foo/mod.rs`, never
//!   `foo.rs` next to a `foo/` directory;
//! - functions, not files, are kept small: no function over 80 lines
//!   (from its `fn` line to its closing brace; unit tests exempt), and
//!   `commands/mod.rs` (dispatch only) under 150 lines.
//!
//! The sources are read as text: comments and string literals are dropped,
//! then every path that starts with `crate`, `super` or `self` (`use`
//! groups included) is resolved against the module it is written in
//! (inline `mod x { … }` and `#[path]` modules included) and cut at the
//! deepest module a file defines. `GIT_LOOP_LAYOUT_SRC` points the checks
//! at another `src/` (say, an older commit's, from `git worktree add`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    std::env::var_os("GIT_LOOP_LAYOUT_SRC")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/src")))
}

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

/// A module path, `["commands", "create"]`; the crate root is `[]`.
type Module = Vec<String>;

fn show(m: &[String]) -> String {
    if m.is_empty() {
        "crate".to_owned()
    } else {
        m.join("::")
    }
}

/// The module a file defines by where it is: `src/a/b.rs` and
/// `src/a/b/mod.rs` are `a::b`, `src/lib.rs` the root. `None` for
/// `main.rs` (the binary is another crate).
fn file_module(src: &Path, path: &Path) -> Option<Module> {
    let rel = path.strip_prefix(src).unwrap();
    let mut parts: Module = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    match (parts.is_empty(), stem) {
        (true, "main") => None,
        (true, "lib") => Some(parts),
        (_, "mod") => Some(parts),
        _ => {
            parts.push(stem.to_owned());
            Some(parts)
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Ident(String),
    Path, // `::`
    Open,
    Close,
    Comma,
    Star,
    Hash,
    Semi,
    Str(String),
    Other,
}

/// Rust source as tokens, without comments; a string literal keeps its
/// text (for `#[path = "…"]`) but is one token, so nothing in it counts.
fn tokens(text: &str) -> Vec<Tok> {
    lex(text).into_iter().map(|(_, t)| t).collect()
}

/// [`tokens`], each with the line (from 1) it starts on.
fn lex(text: &str) -> Vec<(usize, Tok)> {
    let c: Vec<char> = text.chars().collect();
    let line: Vec<usize> = c
        .iter()
        .scan(1, |n, &ch| {
            let at = *n;
            *n += usize::from(ch == '\n');
            Some(at)
        })
        .collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        let at = line[i];
        if ch == '/' && c.get(i + 1) == Some(&'/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && c.get(i + 1) == Some(&'*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if ch == 'r'
            && (c.get(i + 1) == Some(&'"')
                || (c.get(i + 1) == Some(&'#') && matches!(c.get(i + 2), Some('"' | '#'))))
        {
            // A raw string: r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while c[j] == '#' {
                hashes += 1;
                j += 1;
            }
            j += 1;
            let start = j;
            loop {
                if c[j] == '"' && (0..hashes).all(|h| c.get(j + 1 + h) == Some(&'#')) {
                    break;
                }
                j += 1;
            }
            out.push((at, Tok::Str(c[start..j].iter().collect())));
            i = j + 1 + hashes;
        } else if ch == '"' {
            let mut j = i + 1;
            let mut s = String::new();
            while c[j] != '"' {
                if c[j] == '\\' {
                    j += 1;
                }
                s.push(c[j]);
                j += 1;
            }
            out.push((at, Tok::Str(s)));
            i = j + 1;
        } else if ch == '\'' {
            // A char literal ('x', '\n', '\u{..}') or a lifetime ('a).
            if c.get(i + 1) == Some(&'\\') {
                let mut j = i + 3;
                while c[j] != '\'' {
                    j += 1;
                }
                i = j + 1;
            } else if c.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
            }
            out.push((at, Tok::Other));
        } else if ch.is_alphanumeric() || ch == '_' {
            let mut j = i;
            while j < c.len() && (c[j].is_alphanumeric() || c[j] == '_') {
                j += 1;
            }
            out.push((at, Tok::Ident(c[i..j].iter().collect())));
            i = j;
        } else {
            if ch == ':' && c.get(i + 1) == Some(&':') {
                out.push((at, Tok::Path));
                i += 2;
                continue;
            }
            let tok = match ch {
                '{' => Tok::Open,
                '}' => Tok::Close,
                ',' => Tok::Comma,
                ';' => Tok::Semi,
                '*' => Tok::Star,
                '#' => Tok::Hash,
                c if c.is_whitespace() => {
                    i += 1;
                    continue;
                }
                _ => Tok::Other,
            };
            out.push((at, tok));
            i += 1;
        }
    }
    out
}

fn ident(t: Option<&Tok>) -> Option<&str> {
    match t {
        Some(Tok::Ident(s)) => Some(s),
        _ => None,
    }
}

/// The paths of a `use` tree or an expression path starting at `toks[i]`
/// (just after `prefix::`), with the index after it.
fn path_tree(toks: &[Tok], mut i: usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    let mut path = prefix;
    loop {
        match toks.get(i) {
            Some(Tok::Ident(s)) => {
                path.push(s.clone());
                i += 1;
            }
            Some(Tok::Open) => {
                i += 1;
                loop {
                    match toks.get(i) {
                        Some(Tok::Close) => return i + 1,
                        Some(Tok::Comma) => i += 1,
                        None => return i,
                        _ => i = path_tree(toks, i, path.clone(), out),
                    }
                }
            }
            Some(Tok::Star) => {
                out.push(path);
                return i + 1;
            }
            _ => {
                out.push(path);
                return i;
            }
        }
        if toks.get(i) == Some(&Tok::Path) {
            i += 1;
        } else {
            out.push(path);
            return i;
        }
    }
}

/// One reference: from the module it is written in, to a module.
#[derive(Debug)]
struct Reference {
    file: String,
    from: Module,
    to: Module,
}

struct Sources {
    modules: BTreeSet<Module>,
    references: Vec<Reference>,
    files: Vec<PathBuf>,
}

fn read_sources() -> Sources {
    let src = src();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let texts: Vec<(PathBuf, String, Vec<Tok>)> = files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).unwrap();
            let toks = tokens(&text);
            (f.clone(), text, toks)
        })
        .collect();
    // Where each file's module is: its place, unless a `#[path]` says.
    let mut module_of: BTreeMap<PathBuf, Module> = BTreeMap::new();
    for (f, _, _) in &texts {
        if let Some(m) = file_module(&src, f) {
            module_of.insert(f.clone(), m);
        }
    }
    for (f, _, toks) in &texts {
        let Some(m) = module_of.get(f).cloned() else {
            continue;
        };
        for w in toks.windows(9) {
            if let [
                Tok::Hash,
                Tok::Other,
                Tok::Ident(p),
                Tok::Other,
                Tok::Str(file),
                Tok::Other,
                ..,
            ] = w
                && p == "path"
            {
                let after = &w[6..];
                let name = after
                    .iter()
                    .skip_while(|t| ident(Some(t)) != Some("mod"))
                    .nth(1);
                if let Some(Tok::Ident(name)) = name {
                    let mut target = m.clone();
                    target.push(name.clone());
                    module_of.insert(f.parent().unwrap().join(file), target);
                }
            }
        }
    }
    let modules: BTreeSet<Module> = module_of.values().cloned().collect();
    let mut references = Vec::new();
    for (f, _, toks) in &texts {
        let Some(file_mod) = module_of.get(f) else {
            continue;
        };
        let rel = f.strip_prefix(&src).unwrap().display().to_string();
        // Inline modules: (name, brace depth inside it).
        let mut inline: Vec<(String, usize)> = Vec::new();
        let mut depth = 0;
        let mut i = 0;
        while i < toks.len() {
            let here = || {
                let mut m = file_mod.clone();
                m.extend(inline.iter().map(|(n, _)| n.clone()));
                m
            };
            match &toks[i] {
                Tok::Open => depth += 1,
                Tok::Close => {
                    if inline.last().is_some_and(|(_, d)| *d == depth) {
                        inline.pop();
                    }
                    depth -= 1;
                }
                Tok::Ident(kw) if kw == "mod" => {
                    if let (Some(name), Some(Tok::Open)) = (ident(toks.get(i + 1)), toks.get(i + 2))
                    {
                        inline.push((name.to_owned(), depth + 1));
                    }
                }
                Tok::Ident(start)
                    if matches!(start.as_str(), "crate" | "super" | "self")
                        && (i == 0 || toks[i - 1] != Tok::Path)
                        && toks.get(i + 1) == Some(&Tok::Path) =>
                {
                    let from = here();
                    let mut paths = Vec::new();
                    let end = path_tree(toks, i, Vec::new(), &mut paths);
                    for path in paths {
                        let mut to = from.clone();
                        let mut rest = path.as_slice();
                        match rest.first().map(String::as_str) {
                            Some("crate") => {
                                to.clear();
                                rest = &rest[1..];
                            }
                            Some("self") => rest = &rest[1..],
                            _ => {}
                        }
                        while rest.first().map(String::as_str) == Some("super") {
                            to.pop();
                            rest = &rest[1..];
                        }
                        for seg in rest {
                            let mut deeper = to.clone();
                            deeper.push(seg.clone());
                            if !modules.contains(&deeper) {
                                break;
                            }
                            to = deeper;
                        }
                        references.push(Reference {
                            file: rel.clone(),
                            from: from.clone(),
                            to,
                        });
                    }
                    i = end;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
    }
    Sources {
        modules,
        references,
        files,
    }
}

/// The edge a reference makes: in the graph of the modules' nearest common
/// ancestor, between its two children on either side (none when one module
/// holds the other).
fn edge(r: &Reference) -> Option<(Module, String, String)> {
    let common = r.from.iter().zip(&r.to).take_while(|(a, b)| a == b).count();
    let (a, b) = (r.from.get(common)?, r.to.get(common)?);
    Some((r.from[..common].to_vec(), a.clone(), b.clone()))
}

/// Per parent module: child -> child -> the files that make the edge.
type Graphs = BTreeMap<Module, BTreeMap<String, BTreeMap<String, BTreeSet<String>>>>;

fn graphs(sources: &Sources) -> Graphs {
    let mut graphs = Graphs::new();
    for r in &sources.references {
        if let Some((parent, a, b)) = edge(r) {
            graphs
                .entry(parent)
                .or_default()
                .entry(a)
                .or_default()
                .entry(b)
                .or_default()
                .insert(r.file.clone());
        }
    }
    graphs
}

/// The strongly connected components of more than one node (each a cycle,
/// or cycles sharing nodes), by Tarjan's algorithm.
fn cycles(graph: &BTreeMap<String, BTreeMap<String, BTreeSet<String>>>) -> Vec<Vec<String>> {
    struct State<'a> {
        graph: &'a BTreeMap<String, BTreeMap<String, BTreeSet<String>>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in s.graph.get(v).into_iter().flat_map(|e| e.keys()) {
            if !s.index.contains_key(w.as_str()) {
                visit(s, w);
                let low = s.low[w.as_str()].min(s.low[v]);
                s.low.insert(v, low);
            } else if s.on_stack.contains(w.as_str()) {
                let low = s.index[w.as_str()].min(s.low[v]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.push(w.to_owned());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.found.push(component);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.found
}

/// `a -> b (files)` for each edge between the given nodes of `parent`.
fn describe(
    parent: &[String],
    graph: &BTreeMap<String, BTreeMap<String, BTreeSet<String>>>,
    nodes: &[String],
) -> String {
    let mut lines = Vec::new();
    for a in nodes {
        for (b, files) in graph.get(a).into_iter().flatten() {
            if nodes.contains(b) {
                let files: Vec<&str> = files.iter().map(String::as_str).collect();
                let p = |x: &str| {
                    let mut m = parent.to_vec();
                    m.push(x.to_owned());
                    show(&m)
                };
                lines.push(format!("  {} -> {} ({})", p(a), p(b), files.join(", ")));
            }
        }
    }
    lines.join("\n")
}

#[test]
fn no_import_cycle_at_any_depth() {
    let sources = read_sources();
    let mut found = Vec::new();
    for (parent, graph) in graphs(&sources) {
        for component in cycles(&graph) {
            found.push(format!(
                "a cycle among the children of {}:\n{}",
                show(&parent),
                describe(&parent, &graph, &component)
            ));
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The child of `commands` that is not a command: what several print.
const SHARED: &str = "shared";

#[test]
fn no_command_imports_another_command() {
    let sources = read_sources();
    let commands = vec!["commands".to_owned()];
    let graphs = graphs(&sources);
    let mut found = Vec::new();
    if let Some(graph) = graphs.get(&commands) {
        // `commands::shared` holds the documents more than one command
        // prints (cleanup's, printed by remove and claude-hook remove too):
        // a command may use it; it may use no command.
        let mut graph = graph.clone();
        for to in graph.values_mut() {
            to.remove(SHARED);
        }
        let graph = &graph;
        let nodes: Vec<String> = graph
            .iter()
            .flat_map(|(a, to)| std::iter::once(a.clone()).chain(to.keys().cloned()))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let text = describe(&commands, graph, &nodes);
        if !text.is_empty() {
            found.push(text);
        }
    }
    assert!(
        found.is_empty(),
        "a command imports another command (the shared code belongs in crate::ops):\n{}",
        found.join("\n")
    );
}

/// An operation takes its own request types: it imports no command and
/// nothing of the command line (`cli`), which the commands adapt.
#[test]
fn no_operation_imports_a_command_or_the_command_line() {
    let sources = read_sources();
    let found: Vec<String> = sources
        .references
        .iter()
        .filter(|r| r.from.first().is_some_and(|m| m == "ops"))
        .filter(|r| r.to.first().is_some_and(|m| m == "commands" || m == "cli"))
        .map(|r| format!("  {} -> {} ({})", show(&r.from), show(&r.to), r.file))
        .collect();
    assert!(
        found.is_empty(),
        "an operation imports a command or the command line (a command adapts an operation, never the reverse):\n{}",
        found.join("\n")
    );
}

#[test]
fn one_module_style_foo_mod_rs() {
    let sources = read_sources();
    let src = src();
    let mut found: Vec<String> = sources
        .files
        .iter()
        .filter(|f| f.file_name().is_some_and(|n| n != "mod.rs"))
        .filter(|f| f.with_extension("").is_dir())
        .map(|f| {
            let rel = f.strip_prefix(&src).unwrap().display().to_string();
            format!("  {rel} (next to {}/)", rel.trim_end_matches(".rs"))
        })
        .collect();
    found.sort();
    assert!(
        found.is_empty(),
        "a module with children is foo/mod.rs, not foo.rs next to foo/:\n{}",
        found.join("\n")
    );
    // The parser found the modules it resolves against.
    assert!(sources.modules.contains(&vec!["commands".to_owned()]));
}

/// The longest a function may be, in lines from its `fn` line to its
/// closing brace, comments and blank lines included.
const FUNCTION_LINES: usize = 80;

/// Functions longer than [`FUNCTION_LINES`], by file (under `src/`) and
/// name, each with a comment saying why: none today. One that comes under
/// the limit must leave the list (the test says so).
const LONG_FUNCTIONS: &[(&str, &str)] = &[];

/// Every function with a body in `text`: its name, the line its `fn` is
/// on, and its length in lines. Items under `#[cfg(test)]` are skipped;
/// a function nested in another counts in both.
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let toks = lex(text);
    let close = |open: usize| {
        let mut depth = 0;
        for (k, (_, t)) in toks.iter().enumerate().skip(open) {
            match t {
                Tok::Open => depth += 1,
                Tok::Close if depth == 1 => return k,
                Tok::Close => depth -= 1,
                _ => {}
            }
        }
        toks.len() - 1
    };
    // Where an item's body opens, or `None` when a `;` ends it first.
    let body = |from: usize| {
        toks[from..]
            .iter()
            .position(|(_, t)| matches!(t, Tok::Open | Tok::Semi))
            .map(|k| from + k)
            .filter(|&k| toks[k].1 == Tok::Open)
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let w: Vec<&Tok> = toks[i..].iter().take(7).map(|(_, t)| t).collect();
        if let [
            Tok::Hash,
            Tok::Other,
            Tok::Ident(cfg),
            Tok::Other,
            Tok::Ident(test),
            Tok::Other,
            Tok::Other,
        ] = w[..]
            && cfg == "cfg"
            && test == "test"
        {
            i = match body(i + 7) {
                Some(open) => close(open) + 1,
                None => i + 7,
            };
            continue;
        }
        if let [Tok::Ident(f), Tok::Ident(name), ..] = w[..]
            && f == "fn"
            && let Some(open) = body(i + 2)
        {
            let (first, last) = (toks[i].0, toks[close(open)].0);
            out.push((name.clone(), first, last - first + 1));
        }
        i += 1;
    }
    out
}

/// Test code: a file in a `tests/` directory of `src/`, or `tests.rs`.
fn is_test_file(rel: &Path) -> bool {
    rel.components().any(|c| c.as_os_str() == "tests")
        || rel.file_name().is_some_and(|n| n == "tests.rs")
}

/// Functions, not files, are kept small: no function over
/// [`FUNCTION_LINES`] (unit tests are exempt: `#[cfg(test)]` items, and
/// files in a `tests/` directory of `src/` or named `tests.rs`), and
/// `commands/mod.rs` is dispatch only, under 150 lines. A file is as
/// long as its one concern needs; that it is one concern is for review.
#[test]
fn no_function_over_80_lines_and_dispatch_under_150() {
    let src = src();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut found = Vec::new();
    let mut excepted = BTreeSet::new();
    for file in files {
        let rel = file.strip_prefix(&src).unwrap();
        if is_test_file(rel) {
            continue;
        }
        let rel = rel.display().to_string();
        for (name, line, lines) in functions(&std::fs::read_to_string(&file).unwrap()) {
            if lines <= FUNCTION_LINES {
                continue;
            }
            if LONG_FUNCTIONS.contains(&(rel.as_str(), name.as_str())) {
                excepted.insert((rel.clone(), name));
            } else {
                found.push(format!("  {rel}:{line} fn {name}: {lines} lines"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "a function over {FUNCTION_LINES} lines (split it into steps):\n{}",
        found.join("\n")
    );
    let stale: Vec<_> = LONG_FUNCTIONS
        .iter()
        .filter(|(f, n)| !excepted.contains(&(f.to_string(), n.to_string())))
        .collect();
    assert!(
        stale.is_empty(),
        "no longer over the limit, drop from LONG_FUNCTIONS: {stale:?}"
    );
    let dispatch = std::fs::read_to_string(src.join("commands/mod.rs")).unwrap();
    assert!(dispatch.lines().count() < 150);
}

/// The function scanner: braces in strings, chars and comments do not
/// count, bodiless declarations are not functions, `#[cfg(test)]` items
/// are skipped.
#[test]
fn the_function_scanner_counts_lines_as_written() {
    let text = r#"
trait T {
    fn declared(&self);
}
fn short() {
    let s = "{";
    let c = '{';
    // }
}

fn outer() -> u8 {
    fn inner() {}
    /* { */
    1
}
#[cfg(test)]
mod tests {
    fn hidden() {}
}
fn after<F: Fn() -> u8>(f: F) -> u8 {
    f()
}
"#;
    let found: Vec<(String, usize, usize)> = functions(text);
    let want = [
        ("short", 5, 9),
        ("outer", 11, 15),
        ("inner", 12, 12),
        ("after", 20, 22),
    ];
    let want: Vec<(String, usize, usize)> = want
        .iter()
        .map(|&(n, first, last)| (n.to_owned(), first, last - first + 1))
        .collect();
    assert_eq!(found, want);
}

/// The reader itself: groups, `super`, inline modules, strings and
/// comments.
#[test]
fn the_reference_reader_resolves_paths_as_rust_does() {
    let toks = tokens(
        r##"use crate::{a::b, c::{self, d}}; // crate::x
        let s = "crate::y"; let r = r#"super::z"#; let c = '{';
        mod t { use super::e; }"##,
    );
    let mut paths = Vec::new();
    let start = toks
        .iter()
        .position(|t| *t == Tok::Ident("crate".into()))
        .unwrap();
    path_tree(&toks, start, Vec::new(), &mut paths);
    assert_eq!(
        paths,
        vec![
            vec!["crate", "a", "b"],
            vec!["crate", "c", "self"],
            vec!["crate", "c", "d"],
        ]
    );
    assert!(!toks.contains(&Tok::Ident("x".into())), "{toks:?}");
    assert!(!toks.contains(&Tok::Ident("y".into())), "{toks:?}");
    assert!(!toks.contains(&Tok::Ident("z".into())), "{toks:?}");
    assert_eq!(
        toks.iter().filter(|t| **t == Tok::Open).count(),
        toks.iter().filter(|t| **t == Tok::Close).count()
    );
}

/// The crate's layers, bottom up, as `lib.rs`'s `# Layers` lists them: a
/// module uses only modules of the layers below its own.
const LAYERS: &[&[&str]] = &[
    &[
        "style", "time", "crash", "signals", "fanout", "test_git", "vocab",
    ],
    &["error"],
    &["fsx", "runid", "output"],
    &["lock"],
    &["manifest"],
    &["git"],
    &["config", "safety"],
    &["events"],
    &["worktree", "copy", "configured_command", "cli"],
    &["ctx"],
    &["ops"],
    &["mcp"],
    &["commands"],
    &["schema"],
];

/// The layer list of `lib.rs`'s `# Layers`: each bullet's modules, the
/// names in backticks before its first colon.
fn documented_layers() -> Vec<Vec<String>> {
    let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
    let doc: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .map(str::trim)
        .skip_while(|l| *l != "# Layers")
        .skip(1)
        .take_while(|l| !l.starts_with('#'))
        .collect();
    doc.iter()
        .filter_map(|l| l.strip_prefix("- "))
        .map(|l| {
            let head = l.split(':').next().unwrap();
            head.split(',')
                .map(|m| m.trim().trim_matches('`').to_owned())
                .collect()
        })
        .collect()
}

#[test]
fn lib_rs_documents_the_layers_this_test_holds() {
    let want: Vec<Vec<String>> = LAYERS
        .iter()
        .map(|l| l.iter().map(|m| (*m).to_owned()).collect())
        .collect();
    assert_eq!(documented_layers(), want);
}

#[test]
fn the_documented_layers_hold() {
    let sources = read_sources();
    let graphs = graphs(&sources);
    let layer = |m: &str| LAYERS.iter().position(|l| l.contains(&m));
    let mut found = Vec::new();
    for (a, to) in graphs.get(&Vec::new()).into_iter().flatten() {
        for (b, files) in to {
            let (Some(la), Some(lb)) = (layer(a), layer(b)) else {
                found.push(format!("  {a} -> {b}: not in the layer list"));
                continue;
            };
            if lb >= la {
                let files: Vec<&str> = files.iter().map(String::as_str).collect();
                found.push(format!("  {a} -> {b} ({})", files.join(", ")));
            }
        }
    }
    assert!(
        found.is_empty(),
        "imports against the layers:\n{}",
        found.join("\n")
    );
}

/// Every change is written through the one transaction
/// (`src/ctx/transaction.rs`): it writes the manifest, then appends the
/// change's events, under the mutex. No other file writes the manifest or
/// appends an event — but the removal threads, which log each removal as it
/// finishes under that run's lock and the mutex (`events::append` asks for
/// the held mutex, so none can log without it).
#[test]
fn no_event_or_manifest_is_written_outside_the_transaction() {
    let writes = ["events::append(", "manifest.write(", "log_events("];
    let allowed = [
        "ctx/transaction.rs",
        // One removal's events, as it finishes, under the mutex.
        "ops/reclaim/guarded.rs",
    ];
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut found = Vec::new();
    for path in files {
        let rel = path
            .strip_prefix(src())
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if allowed.contains(&rel.as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap();
            if let Some(w) = writes.iter().find(|w| code.contains(*w)) {
                found.push(format!("  src/{rel}:{}: {w}", n + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "a change written outside ctx::Transaction (start_transaction … commit):\n{}",
        found.join("\n")
    );
}

/// Every fan-out sizes itself by `fanout::cores()`, the one place the
/// machine's parallelism is read.
#[test]
fn the_core_count_is_read_in_one_place() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let found: Vec<String> = files
        .iter()
        .filter(|p| !p.ends_with("fanout.rs"))
        .filter(|p| {
            std::fs::read_to_string(p)
                .unwrap()
                .contains("available_parallelism")
        })
        .map(|p| format!("  {}", p.display()))
        .collect();
    assert!(
        found.is_empty(),
        "the core count read outside fanout::cores():\n{}",
        found.join("\n")
    );
}

/// CONTRIBUTING.md's map of the code names every top-level module of
/// `src/` and nothing that is not there.
#[test]
fn the_contributing_map_names_every_top_level_module() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/CONTRIBUTING.md")).unwrap();
    let start = text
        .find("## Code layout")
        .expect("CONTRIBUTING.md has its map");
    let block = &text[start..];
    let block = &block[block.find("```\n").unwrap() + 4..];
    let block = &block[..block.find("```").unwrap()];
    let named: std::collections::BTreeSet<String> = block
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter_map(|w| w.strip_prefix("src/"))
        .map(|w| w.trim_end_matches('/').to_owned())
        .collect();
    let mut tree = std::collections::BTreeSet::new();
    for entry in std::fs::read_dir(src()).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        tree.insert(name);
    }
    let missing: Vec<&String> = tree.difference(&named).collect();
    let gone: Vec<&String> = named.difference(&tree).collect();
    assert!(
        missing.is_empty() && gone.is_empty(),
        "CONTRIBUTING.md's map lacks {missing:?} and names {gone:?}, which src/ does not hold"
    );
}

/// An operation says what it must on stderr through the narrow handle
/// (`output::Notes`); stdout is the command's, which renders the report from
/// the operation's outcome last. No operation names `Out`.
#[test]
fn no_operation_is_handed_stdout() {
    let mut files = Vec::new();
    rust_files(&src().join("ops"), &mut files);
    let found: Vec<String> = files
        .iter()
        .filter(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            text.lines()
                .map(|l| l.split("//").next().unwrap())
                .any(|code| {
                    code.contains("Out<") || code.contains("output::Out") || code.contains("Out {")
                })
        })
        .map(|p| format!("  {}", p.display()))
        .collect();
    assert!(
        found.is_empty(),
        "an operation handed the command's stdout (take output::Notes):\n{}",
        found.join("\n")
    );
}

/// "Run" is the domain's noun (a run of work), so no function is named
/// `run` or `run_of`: a command's adapter is `commands::<command>::exec`, an
/// operation's entry point is named for what it does (`ops::create::create`,
/// `ops::conflicts::predict`, `ops::list::gather`), the library's entry is
/// `git_loop::invoke`.
#[test]
fn no_function_is_named_run() {
    let src = src();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut found = Vec::new();
    for file in files {
        let rel = file.strip_prefix(&src).unwrap().display().to_string();
        for (name, line, _) in functions(&std::fs::read_to_string(&file).unwrap()) {
            if name == "run" || name == "run_of" {
                found.push(format!("  {rel}:{line} fn {name}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "a function named `run` (say what it does; `run` is a run of work):\n{}",
        found.join("\n")
    );
}
