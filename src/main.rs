use std::io::IsTerminal;

fn main() {
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let terminal = git_loop::Terminal {
        stdout: stdout.is_terminal(),
        stderr: stderr.is_terminal(),
    };
    let code = git_loop::run(
        std::env::args_os().collect(),
        &mut stdout.lock(),
        &mut stderr.lock(),
        terminal,
    );
    std::process::exit(code);
}
