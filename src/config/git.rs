//! The git-config layer: `loop.*` keys read through git's own cascade
//! (system < global < local < worktree, includes, `GIT_CONFIG_COUNT`, as gix
//! reads them), then `git -c key=value loop …`, which reaches a git
//! subcommand only through `GIT_CONFIG_PARAMETERS`.
//!
//! One layer per key, so each value names its exact origin: the key and the
//! file it was set in. `loop.createCopy` is a multivar, like git's own: every
//! value at every level is one item, in cascade order, and an empty value
//! clears the items before it. Any other key takes its last value.

use gix::bstr::ByteSlice;

use super::keys::Raw;
use super::keys::{self, Key};
use super::layers::Layer;
use super::source::{GitAt, Origin};
use super::validate::At;
use crate::error::Result;

/// The layers of every `loop.*` key that git config sets, each validated.
pub fn layers(config: &gix::config::File) -> Result<Vec<Layer>> {
    let params = std::env::var("GIT_CONFIG_PARAMETERS")
        .ok()
        .map(|p| parse_config_parameters(&p))
        .unwrap_or_default();
    let mut out = Vec::new();
    for key in keys::ALL {
        let values = values(config, &params, key);
        let Some((_, at)) = values.last() else {
            continue;
        };
        let origin = Origin::GitConfig {
            key: key.git,
            at: at.clone(),
        };
        let mut items: Vec<String> = Vec::new();
        for (value, _) in &values {
            if value.is_empty() {
                items.clear();
            } else {
                items.push(value.clone());
            }
        }
        let last = values.into_iter().last().expect("not empty").0;
        let at = At {
            origin: &origin,
            key,
            line: None,
        };
        let raw = Raw::from_text(key, last, items, &at)?;
        let values = raw.validate(&origin, &|_| None)?;
        out.push(Layer { origin, values });
    }
    Ok(out)
}

/// A warning for each `loop.*` key git config sets that is no setting
/// (`loop.cleanup.status`, `loop.cleanupStaus`): git-loop would ignore it
/// silently, and the user would wonder why their setting does nothing.
/// Names the key git-loop reads in its place when one is close: the same
/// words (`cleanup.status` is `loop.cleanupStatus`), or a typo of one.
pub fn unknown_keys(config: &gix::config::File) -> Vec<String> {
    let squash = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .map(|c| c.to_ascii_lowercase())
            .collect()
    };
    let known: Vec<&str> = keys::ALL.iter().map(|k| k.git).collect();
    let mut out = Vec::new();
    for section in config.sections_by_name("loop").into_iter().flatten() {
        let sub = section.header().subsection_name().map(|s| s.to_string());
        for name in section.value_names() {
            let name = name.to_string();
            let full = match &sub {
                Some(sub) => format!("loop.{sub}.{name}"),
                None => format!("loop.{name}"),
            };
            if sub.is_none() && known.iter().any(|k| k.eq_ignore_ascii_case(&full)) {
                continue;
            }
            let same_words = known.iter().find(|k| squash(k) == squash(&full));
            let hint = match same_words {
                Some(k) => format!("; did you mean {k}?"),
                None => crate::error::suggest::did_you_mean(&full, known.iter().copied()),
            };
            let line = format!(
                "warning: git config {} is no git-loop setting, and does nothing{hint} (`git loop config` lists them)",
                crate::style::escape(&full)
            );
            if !out.contains(&line) {
                out.push(line);
            }
        }
    }
    out
}

/// Every value of `key` in git's cascade order, each with where it was set:
/// the config files, then `git -c`.
fn values(
    config: &gix::config::File,
    params: &[(String, String)],
    key: Key,
) -> Vec<(String, GitAt)> {
    let name = key.git.strip_prefix("loop.").expect("loop.* key");
    let mut out = Vec::new();
    for section in config.sections_by_name("loop").into_iter().flatten() {
        if section.header().subsection_name().is_some() {
            continue;
        }
        let meta = section.meta();
        let at = match &meta.path {
            Some(p) => GitAt::File(p.clone()),
            None => GitAt::Other(format!("{:?}", meta.source)),
        };
        for value in section.values(name) {
            out.push((value.to_str_lossy().into_owned(), at.clone()));
        }
    }
    for (k, v) in params {
        if k.eq_ignore_ascii_case(key.git) {
            out.push((v.clone(), GitAt::CommandLine));
        }
    }
    out
}

/// Parse `GIT_CONFIG_PARAMETERS`: space-separated shell-single-quoted items,
/// each `'key'='value'` (git ≥ 2.31), `'key=value'` (older), or `'key'` (a
/// boolean true). A quote inside is written `'\''`.
pub fn parse_config_parameters(text: &str) -> Vec<(String, String)> {
    // Split into items of quoted parts; an unquoted `=` between parts
    // separates key and value.
    let mut items = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.peek().is_none() {
            break;
        }
        let mut parts: Vec<String> = vec![String::new()];
        let mut saw_eq = false;
        while let Some(&c) = chars.peek() {
            match c {
                '\'' => {
                    chars.next();
                    for q in chars.by_ref() {
                        if q == '\'' {
                            break;
                        }
                        parts.last_mut().expect("one part").push(q);
                    }
                }
                '\\' => {
                    chars.next();
                    if let Some(esc) = chars.next() {
                        parts.last_mut().expect("one part").push(esc);
                    }
                }
                '=' if !saw_eq => {
                    chars.next();
                    saw_eq = true;
                    parts.push(String::new());
                }
                c if c.is_whitespace() => break,
                _ => {
                    chars.next();
                    parts.last_mut().expect("one part").push(c);
                }
            }
        }
        let item = if saw_eq {
            (parts[0].clone(), parts[1].clone())
        } else {
            match parts[0].split_once('=') {
                Some((k, v)) => (k.to_owned(), v.to_owned()),
                None => (parts[0].clone(), "true".to_owned()),
            }
        };
        items.push(item);
    }
    items
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_parameters() {
        assert_eq!(
            parse_config_parameters("'loop.base'='dev' 'core.x'='a b'"),
            [
                ("loop.base".into(), "dev".into()),
                ("core.x".into(), "a b".into())
            ]
        );
        assert_eq!(
            parse_config_parameters("'loop.base=old style'"),
            [("loop.base".into(), "old style".into())]
        );
        assert_eq!(
            parse_config_parameters("'a.b'='it'\\''s'"),
            [("a.b".into(), "it's".into())]
        );
        assert_eq!(
            parse_config_parameters("'a.flag'"),
            [("a.flag".into(), "true".into())]
        );
        assert_eq!(parse_config_parameters(""), []);
    }
}
