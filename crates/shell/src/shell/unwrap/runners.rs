//! Package and environment runners: `npx`, `pnpm exec`, `yarn dlx`, `bundle exec`, `uv run`, ...
//! (A `yarn X` that is no yarn command asks for a script first: see the recipes.)

use super::wrappers::{PLAIN, Wrapper, peel};
use super::{Start, Word};
use crate::syntax::argv::{self, Style};

/// The option syntax of the JavaScript package runners: `-p`/`--package` name a package to
/// install, `-c`/`--call` give a script to run instead of a program.
const NODE: Wrapper = Wrapper {
    short_value: "pwc",
    long_value: &["package", "workspace", "node-options", "cache", "call"],
    ..PLAIN
};

/// How many words a JavaScript package runner takes before its own options (`npx`: none;
/// `pnpm dlx`: one), `None` when `argv` is no such run.
fn node_runner(name: &str, argv: &[Word]) -> Option<usize> {
    match (name, argv.get(1).map(|w| w.text.as_str())) {
        ("npx" | "bunx" | "pnpx", _) => Some(0),
        ("pnpm", Some("dlx" | "exec")) | ("npm", Some("exec" | "x")) => Some(1),
        ("yarn", Some("dlx" | "exec")) => Some(1),
        _ => None,
    }
}

/// Package and environment runners that run a program of the project's dependencies
/// (`npx prisma ...`, `bundle exec rake ...`, `uv run alembic ...`): what runs is that
/// program. `None` when `argv` is not such a run. `npx -c '<script>'` (`npm exec -c`,
/// `pnpm exec -c`) runs a script of its own.
pub(super) fn runner(name: &str, argv: &[Word]) -> Option<Start> {
    let sub = argv.get(1).map(|w| w.text.as_str());
    let (skip, spec) = match (name, sub) {
        _ if let Some(skip) = node_runner(name, argv) => (skip, NODE),
        ("bundle", Some("exec")) | ("poetry", Some("run")) | ("pipenv", Some("run")) => (1, PLAIN),
        ("uv", Some("run")) => (
            1,
            Wrapper {
                short_value: "pw",
                long_value: &[
                    "with",
                    "with-requirements",
                    "with-editable",
                    "python",
                    "package",
                    "project",
                    "directory",
                    "env-file",
                    "extra",
                    "group",
                    "index",
                    "index-url",
                ],
                ..PLAIN
            },
        ),
        _ => return None,
    };
    let own = argv.get(skip..).unwrap_or_default();
    if spec.short_value.contains('c') {
        let args = own.get(1..).unwrap_or_default();
        let head = argv::read_head(args, Style::Getopt, &spec);
        if let Some(script) = head.last(&["c", "call"]).and_then(|o| o.value_in(args)) {
            return Some(Start::script(script));
        }
    }
    Some(match peel(&spec, own) {
        Start::At(i) => Start::At(i + skip),
        _ => Start::Nothing,
    })
}

/// The program a JavaScript package runner runs at `at`, as the rules know it, when the
/// word names it otherwise: a version asked for (`rimraf@5`, `@scope/x@2` is `@scope/x`),
/// or `del` from the `del-cli` package (alone, `del` is mostly Windows' own).
pub(super) fn package_bin(name: &str, argv: &[Word], at: usize) -> Option<String> {
    let skip = node_runner(name, argv)?;
    let word = argv.get(at)?.value()?;
    let scope = usize::from(word.starts_with('@'));
    let bare = match word.get(scope..).and_then(|w| w.find('@')) {
        Some(version) => word.get(..scope + version)?,
        None => word,
    };
    let args = argv.get(skip + 1..at).unwrap_or_default();
    let head = argv::read(args, Style::Getopt, &NODE);
    let packages: Vec<&str> = head.values(&["p", "package"]).collect();
    if bare == "del"
        && packages
            .iter()
            .any(|p| p.split('@').next() == Some("del-cli"))
    {
        return Some("del-cli".into());
    }
    (bare != word && !bare.is_empty()).then(|| bare.to_string())
}
