#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    agent_guard::cli::main()
}
