//! The log's end, read backwards: each run's latest `activity` event, for
//! `list` (and for `activity`, which compares with the run's previous one).
//! `list` pays for the runs it shows, not for the length of the log: the
//! file is read from its end a chunk at a time, only as far back as the
//! oldest of the latest activities it looks for, and never further back than
//! its last [`WINDOW`] (1 MiB, about 7,000 events).
//!
//! The window, not an index: an index file would be one more file written
//! under the mutex by every `activity` (an agent says one at each turn) and
//! kept in step with the log by every writer, old versions included; the
//! window needs nothing written and costs at most a 1 MiB read. What it
//! gives up, documented: a run whose latest activity is further back than
//! the window (its agent has said nothing while thousands of other events
//! were logged) has none as far as `list` shows (`null`, `-`) and as
//! `activity` compares (its next `waiting` or `done` is a transition, and
//! notifies). Without the bound a run that never said anything (most runs,
//! in a repository whose agents never do) made every `list` read the whole
//! log: 10,000 events cost 5–8 ms of CPU in the test build.

use std::collections::{HashMap, HashSet};
use std::fs::OpenOptions;
use std::path::Path;

use super::{Activity, Event, State, path};
use crate::error::Error;

/// A run's latest activity: what it is, and when it was said.
#[derive(Debug, Clone, PartialEq)]
pub struct Latest {
    pub activity: Activity,
    pub at: String,
    pub note: Option<String>,
}

/// How much of the log's end [`latest_activities`] reads at a time.
const TAIL_CHUNK: u64 = 64 << 10;

/// How far back from the log's end [`latest_activities`] looks, at most
/// (see the module doc): the lines that start in its last 1 MiB.
pub const WINDOW: u64 = 1 << 20;

/// What every `activity` line holds, as [`super::append`] writes it
/// (compact JSON). Inside a string value (a note) the quotes are escaped, so
/// this text is only ever the field itself.
const NEEDLE: &[u8] = br#""event":"activity""#;

/// The latest `activity` event of each run in `ids`, read from the end of
/// the log backwards, a chunk at a time, and only as far back as the
/// oldest of them, within the log's last [`WINDOW`] (a run whose latest
/// activity is further back is not found): `list` pays for the runs it
/// shows, not for the length of the log. Each chunk is searched for
/// [`NEEDLE`] (memchr's SIMD search), and only the lines it is in are
/// parsed; a line that does not parse is passed over, as `log` passes over
/// it. Refused as [`super::read`] refuses: never through a symlink.
pub fn latest_activities(
    loop_dir: &Path,
    ids: &HashSet<&str>,
) -> crate::error::Result<HashMap<String, Latest>> {
    use std::io::{Read, Seek, SeekFrom};
    let mut found = HashMap::new();
    if ids.is_empty() {
        return Ok(found);
    }
    let path = path(loop_dir);
    let Some(mut file) = crate::fsx::open_regular(&path, OpenOptions::new().read(true))? else {
        return Ok(found);
    };
    let io = |e| Error::io("could not read", &path, e);
    let mut end = file.seek(SeekFrom::End(0)).map_err(io)?;
    // The lines that start in the window: from the byte before it, the
    // chunk that starts at `floor` drops the part of a line before its first
    // newline, as any chunk does.
    let floor = end.saturating_sub(WINDOW + 1);
    let finder = memchr::memmem::FinderRev::new(NEEDLE);
    // The start of a line whose beginning is in an earlier chunk.
    let mut carry: Vec<u8> = Vec::new();
    while end > floor && found.len() < ids.len() {
        let start = end.saturating_sub(TAIL_CHUNK).max(floor);
        let mut chunk = vec![0; (end - start) as usize];
        file.seek(SeekFrom::Start(start)).map_err(io)?;
        file.read_exact(&mut chunk).map_err(io)?;
        chunk.extend_from_slice(&carry);
        // The whole lines of the chunk: after its first newline, unless the
        // chunk starts the file. What comes before is carried over.
        let whole = match (start, memchr::memchr(b'\n', &chunk)) {
            (0, _) => 0,
            (_, Some(nl)) => nl + 1,
            (_, None) => chunk.len(),
        };
        let body = &chunk[whole..];
        let mut before = body.len();
        while let Some(hit) = finder.rfind(&body[..before]) {
            let line_start = memchr::memrchr(b'\n', &body[..hit]).map_or(0, |i| i + 1);
            let line_end = memchr::memchr(b'\n', &body[hit..]).map_or(body.len(), |i| hit + i);
            take(&body[line_start..line_end], ids, &mut found);
            if found.len() == ids.len() {
                break;
            }
            before = line_start;
        }
        carry = chunk[..whole].to_vec();
        end = start;
    }
    Ok(found)
}

/// Keep `line`'s activity when it is the first (newest) seen of a run in
/// `ids`.
fn take(line: &[u8], ids: &HashSet<&str>, found: &mut HashMap<String, Latest>) {
    // Most lines are of a run already found (or not listed): told by the
    // id alone, without parsing the line. An id with an escape in it (no
    // valid run id has one) is parsed.
    if let Some(id) = raw_id(line)
        && (found.contains_key(id) || !ids.contains(id))
    {
        return;
    }
    let Ok(e) = serde_json::from_slice::<Event>(line) else {
        return;
    };
    let Some(State::Activity(activity)) = e.to else {
        return;
    };
    if ids.contains(e.id.as_str()) && !found.contains_key(&e.id) {
        found.insert(
            e.id,
            Latest {
                activity,
                at: e.at,
                note: e.detail,
            },
        );
    }
}

/// The text of `line`'s `"id"` value, when it has no escape.
fn raw_id(line: &[u8]) -> Option<&str> {
    const KEY: &[u8] = br#""id":""#;
    let from = memchr::memmem::find(line, KEY)? + KEY.len();
    let len = memchr::memchr(b'"', &line[from..])?;
    let id = std::str::from_utf8(&line[from..from + len]).ok()?;
    (!id.contains('\\')).then_some(id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::{Activity, EventKind};

    /// Over several chunks, with lines across their boundaries: the newest
    /// activity of each run, as a forward read finds it.
    #[test]
    fn reads_back_what_a_forward_read_finds_across_chunks() {
        let dir = tempfile::tempdir().unwrap();
        let mut events = Vec::new();
        let mut expected: HashMap<String, Latest> = HashMap::new();
        for i in 0..5000_usize {
            let id = format!("r{}", i % 7);
            let mut e = Event::new(EventKind::Mark, &id);
            if i % 13 == 0 {
                let activity = Activity::ALL[i % 3];
                e = Event::new(EventKind::Activity, &id);
                e.to = Some(State::Activity(activity));
                e.detail = Some(format!("note {i} with \"event\":\"activity\" in it"));
                expected.insert(
                    id.clone(),
                    Latest {
                        activity,
                        at: e.at.clone(),
                        note: e.detail.clone(),
                    },
                );
            }
            events.push(e);
        }
        let mutex = crate::lock::ManifestMutex::acquire(dir.path()).unwrap();
        super::super::append(dir.path(), &events, &mutex).unwrap();
        let size = std::fs::metadata(path(dir.path())).unwrap().len();
        assert!(size > 3 * TAIL_CHUNK, "{size}");
        let ids: HashSet<&str> = ["r0", "r1", "r2", "r3", "r4", "r5", "r6", "none"].into();
        assert_eq!(latest_activities(dir.path(), &ids).unwrap(), expected);
    }

    /// The window holds the lines that start in the log's last [`WINDOW`]
    /// bytes: one starting exactly there is found, one a byte earlier not.
    #[test]
    fn the_window_holds_the_lines_that_start_in_it() {
        let dir = tempfile::tempdir().unwrap();
        let mut e = Event::new(EventKind::Activity, "a");
        e.to = Some(State::Activity(Activity::Done));
        let line = serde_json::to_string(&e).unwrap() + "\n";
        let ids: HashSet<&str> = ["a"].into();
        for (after, found) in [
            (WINDOW as usize - line.len(), true),
            (WINDOW as usize - line.len() + 1, false),
        ] {
            // `after` bytes of other lines after the activity's.
            let other = "x".repeat(after - 1) + "\n";
            std::fs::write(path(dir.path()), format!("{{}}\n{line}{other}")).unwrap();
            let got = latest_activities(dir.path(), &ids).unwrap();
            assert_eq!(got.contains_key("a"), found, "{after}");
        }
    }
}
