use std::io::IsTerminal;

fn main() {
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let terminal = git_loop::Terminal {
        stdout: stdout.is_terminal(),
        stderr: stderr.is_terminal(),
    };
    // Buffered: a 10,000-row list is one write, not one per line. Commands
    // flush before returning (a broken pipe is then seen, and is not an error).
    let mut out = std::io::BufWriter::with_capacity(64 * 1024, stdout.lock());
    let code = git_loop::run(
        std::env::args_os().collect(),
        &mut out,
        &mut stderr.lock(),
        terminal,
    );
    let _ = std::io::Write::flush(&mut out);
    std::process::exit(code);
}
