//! Reading a commit for the walks: from the commit-graph when it holds it
//! (parents, committer time, generation: no object decompressed), else from
//! the object database (parents and committer time; no generation).

use gix::ObjectId;

use super::{Inner, NO_GENERATION, Node, repo_err};
use crate::error::Result;

impl Inner {
    fn commit_graph(&mut self) -> Result<Option<&gix::commitgraph::Graph>> {
        if self.graph.is_none() {
            self.graph = Some(self.repo.commit_graph_if_enabled().map_err(repo_err)?);
        }
        Ok(self.graph.as_ref().and_then(Option::as_ref))
    }

    /// The node of commit `id`, read on first use.
    pub(super) fn node(&mut self, id: ObjectId) -> Result<u32> {
        if let Some(&i) = self.index.get(&id) {
            return Ok(i);
        }
        let node = match self.read_from_graph(id)? {
            Some(node) => node,
            None => self.read_from_objects(id)?,
        };
        let i = u32::try_from(self.nodes.len()).map_err(repo_err)?;
        self.nodes.push(node);
        self.flags.push(0);
        self.index.insert(id, i);
        Ok(i)
    }

    fn read_from_graph(&mut self, id: ObjectId) -> Result<Option<Node>> {
        let Some(graph) = self.commit_graph()? else {
            return Ok(None);
        };
        let Some(pos) = graph.lookup(id) else {
            return Ok(None);
        };
        let commit = graph.commit_at(pos);
        let generation = match commit.generation() {
            // Zero: written without generation numbers; at the maximum:
            // saturated. Neither orders commits.
            g if g == 0 || g >= gix::commitgraph::GENERATION_NUMBER_MAX => NO_GENERATION,
            g => g,
        };
        let time = i64::try_from(commit.committer_timestamp()).unwrap_or(i64::MAX);
        let mut parent_ids = Vec::with_capacity(2);
        for p in commit.iter_parents() {
            let p = p.map_err(|e| repo_err(format!("the commit-graph is corrupt: {e}")))?;
            parent_ids.push(graph.id_at(p).to_owned());
        }
        Ok(Some(Node {
            id,
            time,
            generation,
            parent_ids: parent_ids.into(),
            parents: None,
        }))
    }

    fn read_from_objects(&mut self, id: ObjectId) -> Result<Node> {
        use gix::objs::FindExt;
        use gix::objs::commit::ref_iter::Token;
        let iter = self
            .repo
            .objects
            .find_commit_iter(&id, &mut self.buf)
            .map_err(|e| repo_err(format!("could not read commit {id}: {e}")))?;
        let (mut parent_ids, mut time) = (Vec::with_capacity(2), 0);
        for token in iter {
            match token.map_err(|e| repo_err(format!("could not decode commit {id}: {e}")))? {
                Token::Parent { id } => parent_ids.push(id),
                Token::Committer { signature } => {
                    time = signature.seconds();
                    break;
                }
                _ => {}
            }
        }
        self.decoded += 1;
        if self.decoded == 1 {
            self.note_if_large();
        }
        Ok(Node {
            id,
            time,
            generation: NO_GENERATION,
            parent_ids: parent_ids.into(),
            parents: None,
        })
    }

    pub(super) fn parents(&mut self, i: u32) -> Result<Box<[u32]>> {
        if let Some(p) = &self.nodes[i as usize].parents {
            return Ok(p.clone());
        }
        let ids = self.nodes[i as usize].parent_ids.clone();
        let mut out = Vec::with_capacity(ids.len());
        for id in ids.iter() {
            out.push(self.node(*id)?);
        }
        let out: Box<[u32]> = out.into();
        self.nodes[i as usize].parents = Some(out.clone());
        Ok(out)
    }
}
