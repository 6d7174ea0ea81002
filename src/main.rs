fn main() {
    // stdout buffered so that a terminal (or `2>&1`) reads in order and a
    // pipe gets few writes: see `git_loop::StdStreams`.
    let streams = git_loop::StdStreams::new();
    let code = git_loop::run(
        std::env::args_os().collect(),
        &mut streams.stdout(),
        &mut streams.stderr(),
        streams.terminal,
    );
    streams.flush();
    std::process::exit(code);
}
