//! Refresh the checked-in man pages, shell completions and JSON Schemas:
//! `cargo run --features generate --example generate` (the feature builds the
//! schema generator, `git_loop::schema`, which the binary does without). The
//! man pages' and completions' code is in `generator.rs` (also included by the
//! integration test that checks those files are current).

mod generator;

use std::path::Path;

fn main() -> std::io::Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (dir, files) in [
        ("man", generator::man_pages()),
        ("completions", generator::completions()),
        (
            "schema",
            git_loop::schema::files()
                .into_iter()
                .map(|(name, text)| (name, text.into_bytes()))
                .collect(),
        ),
    ] {
        let dir = root.join(dir);
        std::fs::create_dir_all(&dir)?;
        for (name, bytes) in files {
            std::fs::write(dir.join(&name), bytes)?;
            println!("wrote {dir}/{name}", dir = dir.display());
        }
    }
    Ok(())
}
