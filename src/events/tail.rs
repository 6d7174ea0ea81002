//! The log's end, read backwards: each run's latest `activity` event, for
//! `list` (and for `activity`, which compares with the run's previous one).
//! `list` pays for the runs it shows, not for the length of the log: the
//! file is read from its end a chunk at a time, and only as far back as the
//! oldest of the latest activities it looks for (all of it when a run has
//! none). Measured: `list` over 10 runs with 10,000 events in the log —
//! see `ops::list`.

use std::collections::{HashMap, HashSet};
use std::fs::OpenOptions;
use std::path::Path;

use super::{Activity, Event, READ_CAP, State, path};
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

/// The latest `activity` event of each run in `ids`, read from the end of
/// the log backwards, a chunk at a time, and only as far back as the
/// oldest of them (all of it when a run has none): `list` pays for the
/// runs it shows, not for the length of the log. Only lines that hold
/// `"event":"activity"` are parsed (the log is written by [`append`] as
/// compact JSON); a line that does not parse is passed over, as `log`
/// passes over it. Refused as [`read`] refuses: never through a symlink.
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
    // Bytes after the last newline seen so far: the start of a line whose
    // beginning is in an earlier chunk.
    let mut carry: Vec<u8> = Vec::new();
    let wanted = |line: &[u8], found: &mut HashMap<String, Latest>| {
        if !contains(line, br#""event":"activity""#) {
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
    };
    while end > 0 && found.len() < ids.len() {
        let start = end.saturating_sub(TAIL_CHUNK);
        let mut chunk = vec![0; (end - start) as usize];
        file.seek(SeekFrom::Start(start)).map_err(io)?;
        file.read_exact(&mut chunk).map_err(io)?;
        chunk.extend_from_slice(&carry);
        // Every whole line of the chunk, newest first; the first (partial
        // unless the chunk starts the file) is carried to the next round.
        let mut pieces: Vec<&[u8]> = chunk.rsplit(|&b| b == b'\n').collect();
        let first = if start > 0 { pieces.pop() } else { None };
        for line in pieces {
            wanted(line, &mut found);
            if found.len() == ids.len() {
                break;
            }
        }
        carry = first.map(<[u8]>::to_vec).unwrap_or_default();
        if carry.len() as u64 > READ_CAP {
            break;
        }
        end = start;
    }
    Ok(found)
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}
