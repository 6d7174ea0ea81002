//! zsh: clap_complete's script plus what it lacks (see the parent module's
//! doc): no hidden flags; run ids (never one already typed), salvaged ids,
//! trash entries, tasks, attempts, branches and statuses completed by
//! git-loop's own helpers; and `mark`'s run ids then status as one rest
//! argument.

use super::{Completion, Dynamic};

/// zsh's completer of a completion.
fn completer(completion: &Completion) -> String {
    match completion {
        Completion::Ids => "_git_loop_ids".to_owned(),
        Completion::Salvaged => "_git_loop_salvaged".to_owned(),
        Completion::Trash => "_git_loop_trash".to_owned(),
        Completion::Tasks => "_git_loop_tasks".to_owned(),
        Completion::Attempts => "_git_loop_attempts".to_owned(),
        Completion::Branches => "_git_loop_branches".to_owned(),
        Completion::Statuses => "_git_loop_statuses".to_owned(),
        Completion::RemovableStatuses => "_git_loop_removable_statuses".to_owned(),
        Completion::Choices(values) => format!("({})", values.join(" ")),
    }
}

/// zsh's `_arguments` cannot say "values, then one more" (`mark <RUN_ID>...
/// <STATUS>`): a rest spec (`'*::run_ids -- …`) followed by a positional
/// spec makes zsh complete that positional first. So a subcommand with two
/// or more positionals completed from a position on ([`Dynamic::rest`])
/// gets one rest spec, the first one's, whose completer
/// `_git_loop_<sub>_words` offers each of them from its position on (`mark`:
/// run ids at every word, statuses from the second, or from the first when
/// the run ids are optional), as the bash script does; the specs of the
/// others are dropped. Returns the helpers, and for each such subcommand
/// its first rest argument's id and the ids of the dropped ones.
fn rest_words(dynamic: &[Dynamic]) -> (String, Vec<(String, String, Vec<String>)>) {
    let mut helpers = String::new();
    let mut subs = Vec::new();
    let mut names: Vec<&str> = dynamic
        .iter()
        .filter(|d| d.rest)
        .map(|d| d.sub.as_str())
        .collect();
    names.dedup();
    for sub in names {
        let rest: Vec<&Dynamic> = dynamic.iter().filter(|d| d.rest && d.sub == sub).collect();
        if rest.len() < 2 {
            continue;
        }
        let function = format!("_git_loop_{}_words", sub.replace(['/', '-'], "_"));
        helpers.push_str(&format!(
            "(( $+functions[{function}] )) ||\n{function}() {{\n    local -a alts\n"
        ));
        for d in &rest {
            let at = d.position.expect("a rest argument is positional");
            let id = d.arg.get_id();
            let alt = format!("'{id}:{id}:{}'", completer(&d.completion));
            if at == 0 {
                helpers.push_str(&format!("    alts+=({alt})\n"));
            } else {
                helpers.push_str(&format!("    (( CURRENT > {at} )) && alts+=({alt})\n"));
            }
        }
        helpers.push_str("    _alternative $alts\n}\n");
        let ids: Vec<String> = rest.iter().map(|d| d.arg.get_id().to_string()).collect();
        subs.push((sub.to_owned(), ids[0].clone(), ids[1..].to_vec()));
    }
    (helpers, subs)
}

/// The subcommand a line of clap_complete's zsh script is in, as
/// [`super::subcommands`] names it: `(mark)` opens the specs of `mark`, and inside
/// the `case $line[1]` that follows `curcontext=…:git-loop-trash-command-…`
/// a `(restore)` opens those of `trash/restore`.
#[derive(Default)]
struct ZshSection {
    /// One entry per open `case`: the parent it names subcommands of, if it
    /// is a `case $line[1]`.
    cases: Vec<Option<String>>,
    /// The parent named by the last `curcontext=` line.
    pending: String,
    sub: String,
}

impl ZshSection {
    fn read(&mut self, line: &str) {
        let trimmed = line.trim();
        if let Some(rest) = trimmed.strip_prefix("curcontext=\"${curcontext%:*:*}:git-loop-") {
            let parent = rest.split("command-").next().unwrap_or("");
            self.pending = parent.strip_suffix('-').unwrap_or(parent).to_owned();
        } else if trimmed == "case $line[1] in" {
            self.cases.push(Some(std::mem::take(&mut self.pending)));
        } else if trimmed.starts_with("case ") && trimmed.ends_with(" in") {
            self.cases.push(None);
        } else if trimmed == "esac" {
            self.cases.pop();
        } else if let Some(name) = trimmed.strip_prefix('(').and_then(|l| l.strip_suffix(')')) {
            let parent = self
                .cases
                .iter()
                .rev()
                .flatten()
                .next()
                .map_or("", String::as_str);
            self.sub = if parent.is_empty() {
                name.to_owned()
            } else {
                format!("{parent}/{name}")
            };
        }
    }
}

/// zsh: clap_complete's script, less the hidden flags, with run ids and
/// statuses completed. clap_complete writes one argument spec a line; the
/// `:_default` completer of each dynamic argument's line is replaced, and a
/// dynamic argument whose line is not found fails the generator (so a change
/// in the clap tree or in clap_complete cannot silently drop one).
pub fn fixup(text: &str, dynamic: &[Dynamic], hidden: &[(String, String)]) -> String {
    let (rest_helpers, rest_subs) = rest_words(dynamic);
    let helpers = format!(
        r#"# Run ids from the manifest, salvaged ids, trash entries, branches, and
# comma-separated status values.
# An id already typed on the line is not offered again (`mark a <TAB>`).
(( $+functions[_git_loop_ids] )) ||
_git_loop_ids() {{
    local -a ids typed
    ids=(${{(f)"$(git-loop list --ids 2>/dev/null)"}})
    typed=(${{words[1,CURRENT-1]}} ${{words[CURRENT+1,-1]}})
    ids=(${{ids:|typed}})
    _describe -t run-ids 'run id' ids
}}
# Task names: the ids of attempts (<TASK>.<n>) without their .<n>, each once.
(( $+functions[_git_loop_tasks] )) ||
_git_loop_tasks() {{
    local id
    local -a tasks
    for id in ${{(f)"$(git-loop list --ids 2>/dev/null)"}}; do
        [[ $id =~ '\.[0-9]+$' ]] && tasks+=(${{id%.*}})
    done
    tasks=(${{(u)tasks}})
    _describe -t tasks 'task' tasks
}}
# The ids of attempts, <TASK>.<n>.
(( $+functions[_git_loop_attempts] )) ||
_git_loop_attempts() {{
    local id
    local -a ids
    for id in ${{(f)"$(git-loop list --ids 2>/dev/null)"}}; do
        [[ $id =~ '\.[0-9]+$' ]] && ids+=($id)
    done
    _describe -t attempts 'attempt' ids
}}
(( $+functions[_git_loop_salvaged] )) ||
_git_loop_salvaged() {{
    local -a ids
    ids=(${{(f)"$(git for-each-ref --format='%(refname:lstrip=3)' refs/loop/salvage/ 2>/dev/null)"}})
    _describe -t salvaged-ids 'salvaged run id' ids
}}
(( $+functions[_git_loop_trash] )) ||
_git_loop_trash() {{
    local -a names
    names=(${{(f)"$(git for-each-ref --format='%(refname:lstrip=3)' refs/loop/trash/ 2>/dev/null)"}})
    _describe -t trash-entries 'trash entry' names
}}
(( $+functions[_git_loop_branches] )) ||
_git_loop_branches() {{
    local -a branches
    branches=(${{(f)"$(git for-each-ref --format='%(refname:short)' refs/heads/ refs/remotes/ 2>/dev/null)"}})
    _describe -t branches 'branch' branches
}}
(( $+functions[_git_loop_statuses] )) ||
_git_loop_statuses() {{
    _values -s , 'status' {statuses}
}}
(( $+functions[_git_loop_removable_statuses] )) ||
_git_loop_removable_statuses() {{
    _values -s , 'status' {removable}
}}
{rest_helpers}
_git-loop() {{"#,
        statuses = super::statuses(),
        removable = super::removable_statuses()
    );
    // Each dynamic argument's line starts with one of its prefixes.
    let specs: Vec<(Vec<String>, String, &Dynamic)> = dynamic
        .iter()
        .filter_map(|d| {
            let rest = rest_subs.iter().find(|(sub, _, _)| *sub == d.sub);
            let completer = match (rest, &d.completion) {
                (Some((_, first, _)), _) if first == d.arg.get_id() => {
                    format!("_git_loop_{}_words", d.sub.replace(['/', '-'], "_"))
                }
                // Dropped: the first one's completer offers it.
                (Some(_), _) => return None,
                // clap_complete lists them.
                (None, Completion::Choices(_)) => return None,
                (None, completion) => completer(completion),
            };
            let prefixes = match (d.position, d.arg.get_long()) {
                (Some(_), _) => {
                    let id = d.arg.get_id();
                    vec![
                        format!("':{id} -- "),
                        format!("'::{id} -- "),
                        format!("'*:{id} -- "),
                        format!("'*::{id} -- "),
                    ]
                }
                (None, Some(long)) => vec![format!("'--{long}=["), format!("'*--{long}=[")],
                (None, None) => panic!("{}: a dynamic option without a long flag", d.sub),
            };
            Some((prefixes, completer, d))
        })
        .collect();
    let mut found = vec![0; specs.len()];
    let mut dropped = 0;
    let mut out = String::new();
    let mut section = ZshSection::default();
    for line in text.lines() {
        section.read(line);
        let sub = section.sub.as_str();
        let dropped_line = rest_subs.iter().any(|(s, _, others)| {
            s == sub
                && others
                    .iter()
                    .any(|id| line.starts_with(&format!("':{id} -- ")))
        });
        if dropped_line {
            dropped += 1;
            continue;
        }
        let hidden_line = hidden.iter().any(|(s, long)| {
            s == sub
                && (line.starts_with(&format!("'--{long}["))
                    || line.starts_with(&format!("'--{long}=[")))
        });
        if hidden_line {
            continue;
        }
        // An option's spec may start with the options it excludes,
        // `'(--salvaged -l --long)--task=[…`.
        let bare = match line.strip_prefix("'(").and_then(|l| l.split_once(')')) {
            Some((_, rest)) => format!("'{rest}"),
            None => line.to_owned(),
        };
        let spec = specs.iter().position(|(prefixes, _, d)| {
            d.sub == sub && prefixes.iter().any(|p| bare.starts_with(p.as_str()))
        });
        match spec {
            Some(i) if line.ends_with(":_default' \\") => {
                found[i] += 1;
                let head = line.strip_suffix("_default' \\").unwrap();
                out.push_str(&format!("{head}{}' \\\n", specs[i].1));
            }
            _ => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    let to_drop: usize = rest_subs.iter().map(|(_, _, others)| others.len()).sum();
    assert_eq!(
        dropped, to_drop,
        "zsh: not every positional after a rest spec found"
    );
    for ((_, _, d), n) in specs.iter().zip(found) {
        assert_eq!(
            n,
            1,
            "zsh: no single `:_default` spec for {} {}",
            d.sub,
            d.arg.get_id()
        );
    }
    out.replacen("_git-loop() {", &helpers, 1)
}
