//! The documentation against the code, as worktrunk's `readme_sync`: each
//! test reads a list the docs give (the README's command table and status
//! glossary, `docs/cli.md`'s command sections, the man pages,
//! `docs/configuration.md`, the MCP tool lists) and fails, naming what
//! differs, when it is not the list the code has: clap's command tree
//! (`git_loop::cli::Cli::command()`), `Status::ALL`, the settings
//! `git loop config` shows, the tools `git loop mcp` serves.

use std::collections::BTreeSet;
use std::io::Write;
use std::process::Stdio;

use clap::{Command, CommandFactory};
use git_loop::manifest::Status;
use serde_json::Value;

use crate::common::TestRepo;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read(path: &str) -> String {
    std::fs::read_to_string(format!("{ROOT}/{path}"))
        .unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

fn cli() -> Command {
    let mut cmd = git_loop::cli::Cli::command();
    cmd.build();
    cmd
}

/// The visible subcommands of `cmd`, by name (clap's `help` left out).
fn subcommands(cmd: &Command) -> Vec<&Command> {
    cmd.get_subcommands()
        .filter(|s| !s.is_hide_set() && s.get_name() != "help")
        .collect()
}

fn names(cmd: &Command) -> BTreeSet<String> {
    subcommands(cmd)
        .iter()
        .map(|s| s.get_name().to_owned())
        .collect()
}

/// The lines of `text` from the heading line `heading` to the next heading
/// of the same or a higher level (a `#` line in a fenced block is no heading).
fn section<'a>(text: &'a str, heading: &str) -> &'a str {
    let level = heading.chars().take_while(|&c| c == '#').count();
    let mut start = None;
    let mut fenced = false;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let here = offset;
        offset += line.len();
        let bare = line.trim_end_matches('\n');
        if bare.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        if start.is_none() {
            if bare == heading {
                start = Some(here);
            }
            continue;
        }
        let hashes = bare.chars().take_while(|&c| c == '#').count();
        if hashes > 0 && hashes <= level && bare[hashes..].starts_with(' ') {
            return &text[start.unwrap()..here];
        }
    }
    let start = start.unwrap_or_else(|| panic!("no heading {heading:?}"));
    &text[start..]
}

/// The headings `<prefix><name>` in `text`, by name (up to a space or backtick).
fn headings(text: &str, prefix: &str) -> BTreeSet<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix(prefix))
        .map(|rest| rest.split([' ', '`']).next().unwrap_or("").to_owned())
        .collect()
}

/// The first cell of each body row of the first table in `text`, its
/// backticks removed.
fn first_cells(text: &str) -> Vec<String> {
    text.lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| {
            l.split('|')
                .nth(1)
                .unwrap_or("")
                .trim()
                .trim_matches('`')
                .to_owned()
        })
        .collect()
}

/// The comma-separated names after `marker` up to `end`: `` `a`, `b` and `c` ``
/// or `a, b, c`.
fn list_after(text: &str, marker: &str, end: &str) -> Vec<String> {
    let start = text
        .find(marker)
        .unwrap_or_else(|| panic!("no {marker:?} in:\n{text}"))
        + marker.len();
    let rest = &text[start..];
    let rest = &rest[..rest
        .find(end)
        .unwrap_or_else(|| panic!("no {end:?} after {marker:?}"))];
    rest.split([',', '\n'])
        .flat_map(|s| s.split(" and "))
        .map(|s| s.trim().trim_matches('`').trim().to_owned())
        .filter(|s| !s.is_empty())
        .collect()
}

fn assert_same(what: &str, docs: BTreeSet<String>, code: BTreeSet<String>) {
    let missing: Vec<_> = code.difference(&docs).collect();
    let extra: Vec<_> = docs.difference(&code).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{what} disagrees with the code: missing {missing:?}, not in the code {extra:?}"
    );
}

fn set(items: impl IntoIterator<Item = impl Into<String>>) -> BTreeSet<String> {
    items.into_iter().map(Into::into).collect()
}

/// The long flags of a command that are its own (not the global ones) and visible.
fn own_flags(cmd: &Command) -> Vec<String> {
    cmd.get_arguments()
        .filter(|a| !a.is_hide_set() && !a.is_global_set())
        .filter_map(|a| a.get_long())
        .filter(|l| *l != "help" && *l != "version")
        .map(|l| format!("--{l}"))
        .collect()
}

#[test]
fn the_readme_command_table_lists_every_command() {
    let readme = read("README.md");
    let table = section(&readme, "## Commands");
    let docs = set(first_cells(table).iter().map(|c| {
        c.strip_prefix("git loop ")
            .unwrap_or_else(|| panic!("a row that is not `git loop <command>`: {c}"))
            .split(' ')
            .next()
            .unwrap()
            .to_owned()
    }));
    assert_same("README.md's command table", docs, names(&cli()));
}

/// Whether `text` names `flag` as a word of its own: `--keep` is not named
/// by `--keep-going`.
fn mentions(text: &str, flag: &str) -> bool {
    text.match_indices(flag).any(|(at, _)| {
        let next = text[at + flag.len()..].chars().next();
        !next.is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_')
    })
}

/// docs/cli.md is each command's one reference (the man page is generated
/// from clap, the topic pages give the why): every command of clap's tree
/// has its `### <command>` section, and the section names every long flag
/// of the command and of its subcommands.
#[test]
fn the_interface_contract_has_a_section_per_command_naming_its_flags() {
    let contract = read("docs/cli.md");
    let commands = section(&contract, "## Commands");
    let cli = cli();
    assert_same(
        "docs/cli.md's `### <command>` sections under Commands",
        headings(commands, "### "),
        names(&cli),
    );
    for sub in subcommands(&cli) {
        let text = section(commands, &format!("### {}", sub.get_name()));
        let mut flags = own_flags(sub);
        let mut words = vec![];
        for nested in subcommands(sub) {
            flags.extend(own_flags(nested));
            words.push((sub.get_name(), nested.get_name()));
        }
        for flag in flags {
            assert!(
                mentions(text, &flag),
                "docs/cli.md's `{}` does not mention {flag}",
                sub.get_name()
            );
        }
        for (sub, nested) in words {
            assert!(
                text.contains(&format!("{sub} {nested}"))
                    || text.contains(&format!("{sub} [{nested}]")),
                "docs/cli.md's `{sub}` does not show `{sub} {nested}`"
            );
        }
    }
    // The statuses `mark` takes: the_statuses_are_documented_as_the_code_has_them.
}

/// A man page's text as a reader sees it: roff's escapes of `-` and `'` undone.
fn man_text(page: &str) -> String {
    page.replace("\\-", "-")
        .replace("\\*(Aq", "'")
        .replace("\\&", "")
}

/// The text lines of section `name` of a man page (`.SH NAME` to the next `.SH`).
fn man_section(page: &str, name: &str) -> Option<String> {
    let start = page.find(&format!(".SH {name}\n"))? + name.len() + 5;
    let rest = &page[start..];
    Some(rest[..rest.find("\n.SH ").map_or(rest.len(), |i| i + 1)].to_owned())
}

#[test]
fn there_is_a_man_page_per_command_with_a_description_and_examples() {
    fn expected(cmd: &Command, prefix: &str, out: &mut BTreeSet<String>) {
        for sub in subcommands(cmd) {
            let name = format!("{prefix}-{}", sub.get_name());
            out.insert(format!("{name}.1"));
            expected(sub, &name, out);
        }
    }
    let cli = cli();
    let mut want = set(["git-loop.1"]);
    expected(&cli, "git-loop", &mut want);
    let have = set(std::fs::read_dir(format!("{ROOT}/man"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap()));
    assert_same("man/", have, want);

    let mut pages = vec![("git-loop.1".to_owned(), &cli)];
    pages.extend(
        subcommands(&cli)
            .into_iter()
            .map(|s| (format!("git-loop-{}.1", s.get_name()), s)),
    );
    for (file, cmd) in pages {
        let page = man_text(&read(&format!("man/{file}")));
        assert!(!page.contains(".SH EXTRA"), "{file}: examples under EXTRA");
        let about = cmd
            .get_about()
            .expect("every command has an about")
            .to_string();
        let description = man_section(&page, "DESCRIPTION")
            .unwrap_or_else(|| panic!("{file} has no DESCRIPTION"));
        assert!(
            !description.trim_start().starts_with(about.trim()),
            "{file}: DESCRIPTION repeats NAME ({about:?})"
        );
        assert!(
            man_section(&page, "EXAMPLES").is_some(),
            "{file} has no EXAMPLES"
        );
    }
    let top = man_text(&read("man/git-loop.1"));
    let mark = man_text(&read("man/git-loop-mark.1"));
    for status in Status::ALL {
        for (file, page) in [("git-loop.1", &top), ("git-loop-mark.1", &mark)] {
            assert!(
                man_section(page, "DESCRIPTION")
                    .unwrap()
                    .contains(&format!("  {status} ")),
                "{file} does not explain the status {status}"
            );
        }
    }
}

/// The settings, as `git loop config --json` shows them: TOML key, then the
/// git-config key and environment variable the naming rule gives
/// (`cleanup.older-than`: `loop.cleanupOlderThan`, `GIT_LOOP_CLEANUP_OLDER_THAN`),
/// each checked to be the table's (`src/config/keys.rs`, in its order:
/// [`git_loop::settings`]).
fn settings() -> Vec<(String, String, String, Value)> {
    let repo = TestRepo::new();
    let config = repo.run(["--json", "config"]).ok().json();
    let object = config.as_object().expect("config --json is an object");
    let table = git_loop::settings();
    assert_eq!(
        set(object.keys().cloned()),
        set(table.iter().map(|[toml, ..]| (*toml).to_owned())),
        "`git loop config --json` does not show the table's settings"
    );
    object
        .iter()
        .map(|(toml, shown)| {
            let [_, key_git, key_env] = table
                .iter()
                .find(|[t, ..]| t == toml)
                .expect("a setting of the table");
            let mut git = String::from("loop.");
            for (i, part) in toml.split(['.', '-']).enumerate() {
                let mut chars = part.chars();
                if i == 0 {
                    git.push_str(part);
                } else if let Some(first) = chars.next() {
                    git.push(first.to_ascii_uppercase());
                    git.push_str(chars.as_str());
                }
            }
            let env = format!("GIT_LOOP_{}", toml.replace(['.', '-'], "_").to_uppercase());
            assert_eq!(
                (*key_git, *key_env),
                (git.as_str(), env.as_str()),
                "keys::ALL's names of {toml:?} are not the naming rule's"
            );
            (toml.clone(), git, env, shown["value"].clone())
        })
        .collect()
}

/// The `| toml | git | env | …` rows of the first table after `heading`.
fn key_rows(text: &str, heading: &str) -> BTreeSet<String> {
    section(text, heading)
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|row| {
            let cells: Vec<_> = row.split(" | ").collect();
            let tick = |cell: &str| cell.split('`').nth(1).unwrap_or("").to_owned();
            format!("{} {} {}", tick(cells[0]), tick(cells[1]), tick(cells[2]))
        })
        .collect()
}

#[test]
fn the_configuration_page_lists_every_key() {
    let keys = settings();
    let code = set(keys.iter().map(|(t, g, e, _)| format!("{t} {g} {e}")));
    assert_same(
        "docs/configuration.md's key table",
        key_rows(&read("docs/configuration.md"), "## Every key"),
        code.clone(),
    );
    assert_same(
        "docs/cli.md's key table",
        key_rows(&read("docs/cli.md"), "## Configuration"),
        code,
    );
    let help = TestRepo::new()
        .run(["config", "--help"])
        .ok()
        .stdout
        .clone();
    let listed = list_after(&help, "The settings: ", ".\n");
    assert_same(
        "`git loop config --help`",
        set(listed),
        set(keys.iter().map(|(t, ..)| t.clone())),
    );
}

/// Adding a setting is one entry of the table in `src/config/keys.rs`:
/// no other source file of the crate (outside tests and comments) writes
/// a setting's TOML key path, git-config key or environment variable as a
/// string of its own, as a hand-kept raw field, report field or name list
/// would.
#[test]
fn a_setting_is_one_entry_of_the_table() {
    fn sources(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() && name != "tests" {
                sources(&path, out);
            } else if name.ends_with(".rs") && name != "tests.rs" {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    sources(std::path::Path::new(&format!("{ROOT}/src")), &mut files);
    let table = std::path::Path::new(&format!("{ROOT}/src/config/keys.rs")).to_owned();
    let mut found = Vec::new();
    for file in files.iter().filter(|f| **f != table) {
        let text = std::fs::read_to_string(file).unwrap();
        let code: String = text
            .split("#[cfg(test)]")
            .next()
            .unwrap()
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        for names in git_loop::settings() {
            // `base` is also a word of its own (a commit's, a report's).
            for name in names.iter().filter(|n| **n != "base") {
                if code.contains(&format!("\"{name}\"")) {
                    found.push(format!("  {}: {name:?}", file.display()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "settings named outside their entry in src/config/keys.rs:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_status_glossary_is_the_five_statuses_and_the_cleanup_default() {
    let readme = read("README.md");
    let glossary = section(&readme, "## Statuses");
    let statuses: Vec<String> = Status::ALL.iter().map(|s| s.to_string()).collect();
    assert_eq!(
        first_cells(glossary),
        statuses,
        "README.md's status glossary is not Status::ALL"
    );
    let default = settings()
        .into_iter()
        .find(|(t, ..)| t == "cleanup.status")
        .expect("cleanup.status is a setting")
        .3;
    let default: Vec<_> = default
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    let said = format!("by default `{}`", default.join(","));
    assert!(
        glossary.contains(&said),
        "README.md's glossary does not say cleanup's default ({said})"
    );
}

/// The tools `git loop mcp` serves, by name.
fn served_tools() -> BTreeSet<String> {
    let repo = TestRepo::new();
    let mut child = repo
        .command()
        .arg("mcp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(
        stdin,
        r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"2025-06-18","capabilities":{{}},"clientInfo":{{"name":"docs-sync","version":"0"}}}}}}"#
    )
    .unwrap();
    writeln!(stdin, r#"{{"jsonrpc":"2.0","id":2,"method":"tools/list"}}"#).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let list: Value = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|v| v["id"] == 2)
        .unwrap_or_else(|| panic!("no tools/list answer in {text}"));
    set(list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned()))
}

#[test]
fn every_mcp_tool_list_is_the_tools_served() {
    let served = served_tools();
    let help = TestRepo::new().run(["mcp", "--help"]).ok().stdout.clone();
    for (what, listed) in [
        ("`git loop mcp --help`", list_after(&help, "Tools: ", ";")),
        (
            "README.md",
            list_after(&read("README.md"), "serves the tools", "over stdio"),
        ),
        (
            "docs/agents.md",
            list_after(&read("docs/agents.md"), "- **Tools**: ", ". Not"),
        ),
        (
            "docs/cli.md",
            list_after(&read("docs/cli.md"), "Tools: ", ";"),
        ),
    ] {
        assert_same(&format!("{what}'s MCP tools"), set(listed), served.clone());
    }
}

/// GitHub's anchor of a heading: lower case, punctuation but `-` and `_`
/// dropped, spaces as `-`.
fn slug(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(text: &str) -> BTreeSet<String> {
    let mut fenced = false;
    let mut out = BTreeSet::new();
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            out.insert(slug(line.trim_start_matches('#').trim()));
        }
    }
    out
}

/// Every relative link in the docs leads to a file that exists, and to a
/// heading of it: a topic moved from one page to another is found there.
#[test]
fn every_link_between_the_docs_resolves() {
    let mut pages = vec![
        "README.md".to_owned(),
        "CONTRIBUTING.md".to_owned(),
        "benches/README.md".to_owned(),
    ];
    for entry in std::fs::read_dir(format!("{ROOT}/docs")).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".md") {
            pages.push(format!("docs/{name}"));
        }
    }
    for page in &pages {
        let text = read(page);
        let dir = std::path::Path::new(page).parent().unwrap();
        for (at, _) in text.match_indices("](") {
            let rest = &text[at + 2..];
            let target = &rest[..rest.find(')').unwrap_or(rest.len())];
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
            let file = if path.is_empty() {
                std::path::PathBuf::from(page)
            } else {
                dir.join(path)
            };
            let full = std::path::Path::new(ROOT).join(&file);
            assert!(
                full.exists(),
                "{page}: link to {target}: no {}",
                file.display()
            );
            if !anchor.is_empty() {
                let target_text = std::fs::read_to_string(&full).unwrap();
                assert!(
                    anchors(&target_text).contains(anchor),
                    "{page}: link to {target}: no heading #{anchor} in {}",
                    file.display()
                );
            }
        }
    }
}

/// The values of vocabulary `name`, as the code defines them.
fn vocabulary(name: &str) -> BTreeSet<String> {
    git_loop::vocabularies()
        .into_iter()
        .find(|(n, _)| *n == name)
        .map(|(_, values)| set(values))
        .unwrap_or_else(|| panic!("no vocabulary {name:?}"))
}

/// The code spans of `text` outside parentheses (a value's gloss, a
/// parenthesized aside), up to the end of its sentence: a `.` followed by
/// a space or a line end, outside a code span and outside parentheses.
fn listed_spans(text: &str) -> BTreeSet<String> {
    let mut spans = BTreeSet::new();
    let (mut depth, mut code, mut current) = (0usize, false, String::new());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '`' if code => {
                code = false;
                if depth == 0 {
                    spans.insert(std::mem::take(&mut current));
                }
                current.clear();
            }
            '`' => code = true,
            _ if code => current.push(c),
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            '.' if depth == 0 && chars.peek().is_none_or(|n| n.is_whitespace()) => break,
            _ => {}
        }
    }
    spans
}

/// The sentences of every page in docs/ and the README (a table's rows
/// each one), with where each is: a sentence ends at a `.` followed by a
/// space or a line end, outside a code span.
fn sentences() -> Vec<(String, String)> {
    let mut pages = vec!["README.md".to_owned()];
    for entry in std::fs::read_dir(format!("{ROOT}/docs")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".md") {
            pages.push(format!("docs/{name}"));
        }
    }
    let mut out = Vec::new();
    for page in pages {
        for (i, paragraph) in read(&page).split("\n\n").enumerate() {
            let place = format!("{page}, paragraph {}", i + 1);
            if paragraph.trim_start().starts_with('|') {
                out.extend(paragraph.lines().map(|l| (place.clone(), l.to_owned())));
                continue;
            }
            let (mut code, mut current) = (false, String::new());
            let mut chars = paragraph.chars().peekable();
            while let Some(c) = chars.next() {
                current.push(c);
                match c {
                    '`' => code = !code,
                    '.' if !code && chars.peek().is_none_or(|n| n.is_whitespace()) => {
                        out.push((place.clone(), std::mem::take(&mut current)));
                    }
                    _ => {}
                }
            }
            out.push((place, current));
        }
    }
    out
}

/// Vocabulary `name`'s list in docs/cli.md (the sentence after `marker`)
/// names exactly the code's values; and any other paragraph of the docs
/// sentence (or table row) that lists most of them (five or more, and at
/// least half) lists them all: a list that is not the whole set says so in
/// words, not by omission.
fn assert_vocabulary_documented(name: &str, marker: &str) {
    let code = vocabulary(name);
    let cli = read("docs/cli.md");
    let start = cli
        .find(marker)
        .unwrap_or_else(|| panic!("docs/cli.md has no {marker:?}"))
        + marker.len();
    let listed: BTreeSet<String> = listed_spans(&cli[start..]);
    let listed: BTreeSet<String> = listed
        .into_iter()
        .filter(|s| !s.contains(['{', '/', ' ']))
        .collect();
    assert_same(
        &format!("docs/cli.md's {name} ({marker})"),
        listed,
        code.clone(),
    );
    let enough = 5.max(code.len().div_ceil(2));
    let mut partial = Vec::new();
    for (place, text) in sentences() {
        let named: BTreeSet<String> = text
            .split('`')
            .skip(1)
            .step_by(2)
            .filter(|s| code.contains(*s))
            .map(str::to_owned)
            .collect();
        if named.len() >= enough && named.len() < code.len() {
            let missing: Vec<&String> = code.difference(&named).collect();
            partial.push(format!("  {place}: lists {name} without {missing:?}"));
        }
    }
    assert!(
        partial.is_empty(),
        "a list of {name} in the docs is not the whole set:\n{}",
        partial.join("\n")
    );
}

#[test]
fn the_statuses_are_documented_as_the_code_has_them() {
    assert_vocabulary_documented("statuses", "STATUS is one of");
}

#[test]
fn the_event_kinds_are_documented_as_the_code_has_them() {
    assert_vocabulary_documented("event kinds", "Event kinds:");
}

#[test]
fn the_skip_codes_are_documented_as_the_code_has_them() {
    assert_vocabulary_documented("skip codes", "**Skip codes**");
}

#[test]
fn the_land_codes_are_documented_as_the_code_has_them() {
    assert_vocabulary_documented("land codes", "**Land codes**");
}

#[test]
fn the_fleet_codes_are_documented_as_the_code_has_them() {
    assert_vocabulary_documented("fleet codes", "**Fleet codes**");
}

#[test]
fn the_sync_codes_are_documented_as_the_code_has_them() {
    assert_vocabulary_documented("sync codes", "**Sync codes**");
}

#[test]
fn the_error_codes_are_documented_as_the_code_has_them() {
    assert_vocabulary_documented("error codes", "**Error codes**");
}

#[test]
fn the_activities_are_documented_as_the_code_has_them() {
    assert_vocabulary_documented("activities", "Records what a run is doing:");
}

#[test]
fn the_trash_reasons_are_documented_as_the_code_has_them() {
    assert_vocabulary_documented("trash reasons", "(reasons");
    // `trash list --help` (and its man page) names them all too.
    let help = read("man/git-loop-trash-list.1").replace("\\-", "-");
    let missing: Vec<String> = vocabulary("trash reasons")
        .into_iter()
        .filter(|r| !help.contains(r.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "trash list --help does not name {missing:?}"
    );
}
