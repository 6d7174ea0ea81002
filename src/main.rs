fn main() {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // `<command> --help`: its man page, as git's commands open theirs.
    if let Some(code) = git_loop::cli::man::open(&args) {
        std::process::exit(code);
    }
    // stdout buffered so that a terminal (or `2>&1`) reads in order and a
    // pipe gets few writes: see `git_loop::StdStreams`.
    let streams = git_loop::StdStreams::new();
    let code = git_loop::invoke(
        args,
        &mut streams.stdout(),
        &mut streams.stderr(),
        streams.terminal,
    );
    streams.flush();
    std::process::exit(code);
}
