//! `git loop publish [<ID>…]`: this machine's runs pushed to the fleet's
//! remote ([`crate::ops::fleet::publish`]). stdout: `published <id>` per
//! run (a `kept` branch says why), `unpublished <id>`, `renewed claim
//! <task>`; `--json` the outcome.

use serde::Serialize;

use crate::cli::PublishArgs;
use crate::ctx::Ctx;
use crate::error::Result;
use crate::ops::fleet::publish::{PublishOutcome, PublishRequest};
use crate::output::{Out, Report};
use crate::style::escape;

#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(transparent)]
pub struct PublishReport(pub PublishOutcome);

impl Report for PublishReport {
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        let o = &self.0;
        for p in &o.published {
            if !out.quiet {
                writeln!(out.stdout, "published {}", escape(&p.id))?;
            }
        }
        for k in &o.kept {
            writeln!(
                out.stdout,
                "{}: branch kept ({}): {}",
                escape(&k.id),
                k.code,
                escape(&k.reason)
            )?;
        }
        for id in &o.unpublished {
            writeln!(out.stdout, "unpublished {}", escape(id))?;
        }
        for task in &o.renewed {
            writeln!(out.stdout, "renewed claim {}", escape(task))?;
        }
        out.note(format_args!(
            "{} run(s) published to {} as {}",
            o.published.len(),
            o.remote,
            o.machine
        ));
        Ok(())
    }
}

pub fn exec(ctx: &Ctx, args: &PublishArgs, out: &mut Out<'_>) -> Result<PublishReport> {
    let ids: Vec<String> = args.run_ids.iter().map(|id| id.to_string()).collect();
    let request = PublishRequest {
        ids: &ids,
        timeout: None,
        handing_off: None,
    };
    Ok(PublishReport(crate::ops::fleet::publish::publish(
        ctx,
        &request,
        &mut out.notes(),
    )?))
}
