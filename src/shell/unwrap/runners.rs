//! Package and environment runners: `npx`, `pnpm exec`, `yarn dlx`, `bundle exec`, `uv run`, ...
//! (A `yarn X` that is no yarn command asks for a script first: see the recipes.)

use super::wrappers::{PLAIN, Wrapper, peel};
use super::{Start, Word};

/// Package and environment runners that run a program of the project's dependencies
/// (`npx prisma ...`, `bundle exec rake ...`, `uv run alembic ...`): what runs is that
/// program. `None` when `argv` is not such a run; `npx -c '<script>'` runs a script of its
/// own and is left as it is.
pub(super) fn runner(name: &str, argv: &[Word]) -> Option<Start> {
    let sub = argv.get(1).map(|w| w.text.as_str());
    let node = Wrapper {
        short_value: "pw",
        long_value: &["--package", "--workspace", "--node-options", "--cache"],
        ..PLAIN
    };
    let (skip, spec) = match (name, sub) {
        ("npx" | "bunx" | "pnpx", _) => (0, node),
        ("pnpm", Some("dlx" | "exec")) | ("npm", Some("exec" | "x")) => (1, node),
        ("yarn", Some("dlx" | "exec")) => (1, node),
        ("bundle", Some("exec")) | ("poetry", Some("run")) | ("pipenv", Some("run")) => (1, PLAIN),
        ("uv", Some("run")) => (
            1,
            Wrapper {
                short_value: "pw",
                long_value: &[
                    "--with",
                    "--with-requirements",
                    "--with-editable",
                    "--python",
                    "--package",
                    "--project",
                    "--directory",
                    "--env-file",
                    "--extra",
                    "--group",
                    "--index",
                    "--index-url",
                ],
                ..PLAIN
            },
        ),
        _ => return None,
    };
    let start = match peel(&spec, argv.get(skip..).unwrap_or_default()) {
        Start::At(i) => i + skip,
        _ => return Some(Start::Nothing),
    };
    let calls_script = argv.iter().take(start).any(|w| {
        let t = w.text.as_str();
        t == "-c" || t == "--call" || t.starts_with("--call=")
    });
    (!calls_script).then_some(Start::At(start))
}
