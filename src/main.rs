fn main() {
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let code = git_loop::run(
        std::env::args_os().collect(),
        &mut stdout.lock(),
        &mut stderr.lock(),
    );
    std::process::exit(code);
}
