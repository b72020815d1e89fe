//! The guard itself: an agent must not be able to switch it off through its own shell.

use super::opts::{self, flag, valued};
use super::{Hit, Rule, Tier};
use crate::shell::{SimpleCommand, Word};
use crate::syntax::argv::{self, Argv, Spelling, Style, Takes, Valued};
use crate::syntax::writes;

pub static TAMPER: Rule = Rule {
    id: "guard.tamper",
    catches: "commands that would switch the guard off from inside the agent: `agent-guard \
              uninstall`, `cargo uninstall agent-guard`, `chmod` taking execute away from the \
              `agent-guard` binary the hooks run, writing, moving or deleting its config \
              (`.agent-guard.toml`, `~/.config/agent-guard/`), its audit log, its journal of \
              what agent sessions made, or the agent hosts' settings files that hold its hook, and putting `AGENT_GUARD_OFF` into a \
              shell profile",
    why: "A guard the agent can remove is no guard: one blocked command later it would simply \
          be gone. Only the person at the keyboard may change it, from their own terminal, \
          where the hook does not run.",
    instead: "Ask the user to change the guard's settings themselves.",
    protected_when: Some("always"),
    strict_only: false,
    stops: &[
        "agent-guard uninstall",
        "echo 'profile = \"standard\"' > .agent-guard.toml",
        "sed -i 's/deny/ask/' ~/.config/agent-guard/config.toml",
        "rm .claude/settings.json",
        "echo 'export AGENT_GUARD_OFF=1' >> ~/.bashrc",
        "mv .codex/hooks.json /tmp/",
        "tee .gemini/settings.json < new.json",
        "chmod -x ~/.cargo/bin/agent-guard",
        "echo '{}' >> ~/.local/state/agent-guard/journal/app-0123456789abcdef.jsonl",
        "rm -f ~/.local/state/agent-guard/journal/app-0123456789abcdef.jsonl",
        "cd ~/.local/state/agent-guard/journal && echo '{}' >> app-0123456789abcdef.jsonl",
        "chmod 644 \"$(which agent-guard)\"",
        "cargo uninstall agent-guard",
        "cp settings.json ~/.claude/",
        "cp settings.json ~/.claude",
        "install -m 644 config.toml ~/.config/agent-guard/",
    ],
    passes: &[
        "cat .agent-guard.toml",
        "grep -n hooks .claude/settings.json",
        "agent-guard uninstall --dry-run",
        "agent-guard check -- 'git status'",
        "cp .claude/settings.json /tmp/settings-copy.json",
        "cp notes.json ~/.claude/",
        "cp crush.json /tmp/crush-backup.json",
        "cat ~/.local/state/agent-guard/journal/app-0123456789abcdef.jsonl",
        "echo 'alias ll=\"ls -l\"' >> ~/.bashrc",
        "chmod +x script.sh",
        "chmod 755 ~/.cargo/bin/agent-guard",
        "cargo uninstall ripgrep",
        "cargo install agent-guard",
    ],
};

/// Files whose content decides whether and how the guard runs.
const GUARD_FILES: &[&str] = &[
    ".agent-guard.toml",
    "agent-guard/config.toml",
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".codex/hooks.json",
    ".codex/config.toml",
    ".gemini/settings.json",
    ".cursor/hooks.json",
    ".factory/hooks.json",
    ".factory/settings.json",
    ".windsurf/hooks.json",
    "windsurf/hooks.json",
    ".kiro/hooks/agent-guard.json",
    ".github/hooks/agent-guard.json",
    ".copilot/hooks/agent-guard.json",
    ".clinerules/hooks/PreToolUse",
    "Cline/Hooks/PreToolUse",
    ".qwen/settings.json",
    ".augment/settings.json",
    ".vibe/hooks.toml",
    ".kimi-code/config.toml",
    "crush.json",
    ".crush.json",
    ".qoder/settings.json",
    ".grok/hooks/agent-guard.json",
    ".gemini/config/hooks.json",
    ".hermes/config.yaml",
    "plugin/agent-guard.ts",
    "amp/plugins/agent-guard.ts",
    "extensions/agent-guard.ts",
    ".openclaw/openclaw.json",
    "agent-guard/audit.jsonl",
];

/// Folders that hold guard files: moving or deleting one removes the hook with it.
const GUARD_FOLDERS: &[&str] = &[
    ".claude",
    ".codex",
    ".gemini",
    ".cursor",
    ".factory",
    ".windsurf",
    ".kiro",
    ".kiro/hooks",
    ".github/hooks",
    ".copilot",
    ".copilot/hooks",
    ".clinerules",
    ".clinerules/hooks",
    ".qwen",
    ".augment",
    ".vibe",
    ".kimi-code",
    ".config/crush",
    ".qoder",
    ".grok",
    ".grok/hooks",
    ".gemini/config",
    ".hermes",
    ".config/amp/plugins",
    ".pi/extensions",
    ".pi/agent/extensions",
    ".openclaw/extensions/agent-guard",
    ".config/agent-guard",
    "agent-guard",
    "agent-guard/journal",
];

/// Shell start-up files, where an `export AGENT_GUARD_OFF=1` would outlive the command.
const PROFILES: &[&str] = &[
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".profile",
    ".zshrc",
    ".zshenv",
    ".zprofile",
    ".zlogin",
    "config.fish",
    ".envrc",
    "/etc/environment",
    "/etc/profile",
];

/// The folder of the journal of what agent sessions made: whoever can write it decides what
/// counts as the agents' own work.
const JOURNAL: &str = "agent-guard/journal/";

fn is_guard_file(path: &str) -> bool {
    GUARD_FILES.iter().any(|f| names(path, f))
        || path
            .match_indices(JOURNAL)
            .any(|(at, _)| at == 0 || path.get(..at).is_some_and(|p| p.ends_with('/')))
}

/// Whether `path` is a guard file named with the folder it is kept in (`.claude/settings.json`,
/// not a bare `crush.json`).
fn is_guard_file_in_its_folder(path: &str) -> bool {
    GUARD_FILES
        .iter()
        .any(|f| f.contains('/') && names(path, f))
}

fn is_guard_folder(path: &str) -> bool {
    let path = path.trim_end_matches('/');
    GUARD_FOLDERS.iter().any(|f| names(path, f))
}

fn is_profile(path: &str) -> bool {
    PROFILES.iter().any(|p| names(path, p))
}

/// Whether `path` is `tail` or ends in `/tail`. Asked of every path every command writes, so
/// it allocates nothing.
fn names(path: &str, tail: &str) -> bool {
    path.strip_suffix(tail)
        .is_some_and(|rest| rest.is_empty() || rest.ends_with('/'))
}

/// What `cmd` would do to the guard, if anything.
pub(super) fn check(cmd: &SimpleCommand) -> Option<Hit> {
    match cmd.program() {
        Some("agent-guard") => return uninstall(cmd.args()),
        Some("cargo") if cargo_uninstalls_guard(cmd.args()) => {
            return Some(tamper(
                "uninstalls the `agent-guard` binary every hook runs".into(),
            ));
        }
        Some("chmod") => {
            if let Some(path) = chmod_disables_binary(cmd.args()) {
                return Some(tamper(format!(
                    "takes execute permission away from `{path}`, the binary the hooks run"
                )));
            }
        }
        _ => {}
    }
    let written = with_dirs(cmd, written_paths(cmd));
    if let Some(path) = written.iter().find(|p| is_guard_file(p)) {
        return Some(tamper(format!(
            "rewrites `{path}`, which decides whether the guard runs"
        )));
    }
    // Without `-r`, `rm` refuses a folder: of a guard folder it can only unlink a link.
    let folders_too = match cmd.program() {
        Some("rm") => super::fs::is_recursive(cmd.args()),
        Some("unlink" | "shred") => false,
        _ => true,
    };
    if let Some(path) = with_dirs(cmd, removed_paths(cmd))
        .iter()
        .find(|p| is_guard_file(p) || (folders_too || names_binary(p)) && is_guard_folder(p))
    {
        return Some(tamper(format!(
            "moves or deletes `{path}`, and the guard's hook with it"
        )));
    }
    let mentions_off = cmd.args().iter().any(|w| w.text.contains("AGENT_GUARD"))
        || cmd
            .input
            .as_deref()
            .is_some_and(|i| i.contains("AGENT_GUARD"));
    if mentions_off && let Some(path) = written.iter().find(|p| is_profile(p)) {
        return Some(tamper(format!(
            "puts an AGENT_GUARD setting into `{path}`, for every later shell"
        )));
    }
    None
}

/// A host's file tool writing `path` directly.
pub(super) fn file_edit(path: &str) -> Option<Hit> {
    is_guard_file(path).then(|| {
        tamper(format!(
            "rewrites `{path}`, which decides whether the guard runs"
        ))
    })
}

fn tamper(loses: String) -> Hit {
    Hit::new(&TAMPER, Tier::Protected, loses)
        .safer("ask the user to change the guard themselves; only they can")
}

fn uninstall(args: &[Word]) -> Option<Hit> {
    let first = args.first()?.text.as_str();
    let dry_run = args.iter().any(|w| w.text == "--dry-run");
    (first == "uninstall" && !dry_run)
        .then(|| tamper("removes the guard's hooks from the agent hosts".into()))
}

/// Whether `path` ends in the name of the guard's binary (`~/.cargo/bin/agent-guard`), a
/// file that a plain `rm` removes.
fn names_binary(path: &str) -> bool {
    is_guard_binary(&Word::literal(path))
}

/// Whether `word` names the guard's binary: a path ending in `agent-guard` (the hooks run
/// it by its absolute path), or a lookup such as `$(which agent-guard)`.
fn is_guard_binary(word: &Word) -> bool {
    let text = word.text.trim_end_matches('/');
    if word.literal {
        let name = text.rsplit('/').next().unwrap_or(text);
        return matches!(name, "agent-guard" | "agent-guard.exe");
    }
    text.match_indices("agent-guard").any(|(at, found)| {
        let after = text[at + found.len()..].chars().next();
        matches!(after, None | Some(')' | '`' | '"' | '\'' | '}'))
    })
}

/// The guard binary among chmod's operands, when the mode takes execute away from anyone.
fn chmod_disables_binary(args: &[Word]) -> Option<&str> {
    let line = chmod(args);
    let binary = line.files.into_iter().find(|w| is_guard_binary(w))?;
    let drops = match (line.modes.as_slice(), line.reference) {
        // `--reference`: whatever that file's mode is.
        ([], true) => true,
        (modes, _) => modes.iter().any(|m| m.value().is_none_or(drops_execute)),
    };
    drops.then_some(binary.text.as_str())
}

/// A chmod line: its modes, whether `--reference` stands for one, and its files.
struct Chmod<'a> {
    modes: Vec<&'a Word>,
    reference: bool,
    files: Vec<&'a Word>,
}

/// chmod's options: `-R`, `-c`, `-f`, `-v` and the long ones, of which `--reference` takes a
/// file. A mode may be written as an option (`-x`, `-rw`, `-755`): GNU chmod reads each such
/// letter as taking the rest of its word, and the whole word as a mode.
struct ChmodOptions;

/// The letters of a mode written as an option, as GNU chmod's own option table lists them.
const MODE_LETTERS: &str = "rwxXstugoa01234567,+=";

impl argv::Options for ChmodOptions {
    fn long(&self, name: &str) -> Option<Takes> {
        Some(if name == "reference" {
            Takes::Value
        } else {
            Takes::Nothing
        })
    }
    fn short(&self, letter: char) -> Option<Takes> {
        Some(if MODE_LETTERS.contains(letter) {
            Takes::Attached
        } else {
            Takes::Nothing
        })
    }
}

/// Reads chmod's words: the modes written as options, else the first operand (unless
/// `--reference` stands for the mode), and the files after it.
fn chmod(args: &[Word]) -> Chmod<'_> {
    let read = argv::read(args, Style::Getopt, &ChmodOptions);
    // A mode letter takes the rest of its word, so each word holds one mode at most.
    let mut modes: Vec<&Word> = read
        .opts
        .iter()
        .filter(|opt| opt.spelling == Spelling::Short && MODE_LETTERS.contains(opt.name))
        .filter_map(|opt| args.get(opt.word))
        .collect();
    let reference = read.opts.iter().any(|opt| opt.is("reference"));
    let mut operands = read.operands.iter().filter_map(|&at| args.get(at));
    if modes.is_empty() && !reference {
        modes.extend(operands.next());
    }
    Chmod {
        modes,
        reference,
        files: operands.collect(),
    }
}

/// Whether a chmod mode leaves someone without execute: an octal mode missing an `x` bit,
/// `-x` for anyone, or `=` with no `x`/`X`.
fn drops_execute(mode: &str) -> bool {
    if mode.bytes().all(|b| b.is_ascii_digit()) {
        return u32::from_str_radix(mode, 8).map_or(true, |m| m & 0o111 != 0o111);
    }
    mode.split(',').any(|clause| {
        let actions = clause.trim_start_matches(['u', 'g', 'o', 'a']);
        // Each action is an operator and the permissions after it: `-x`, `=r`, `+x-w`.
        let mut pieces = Vec::new();
        for (at, c) in actions.char_indices() {
            if matches!(c, '+' | '-' | '=') {
                pieces.push((c, at + 1));
            }
        }
        pieces.iter().enumerate().any(|(n, &(op, start))| {
            let end = pieces
                .get(n + 1)
                .map_or(actions.len(), |&(_, next)| next - 1);
            let perms = &actions[start..end];
            match op {
                '-' => perms.contains('x'),
                // `=r` clears x; `=rX` keeps it on a binary; `=u` copies another class.
                '=' => !perms.contains(['x', 'X', 'u', 'g', 'o']),
                _ => false,
            }
        })
    })
}

/// cargo's options before its subcommand that take a value.
const CARGO: Valued = Valued(&["color", "config", "Z", "C", "explain"]);

/// `cargo uninstall`'s options that take a value.
const CARGO_UNINSTALL: Valued = Valued(&[
    "p", "package", "bin", "root", "color", "config", "Z", "index", "registry",
]);

/// `cargo [+toolchain] [global options] uninstall ... agent-guard`.
fn cargo_uninstalls_guard(args: &[Word]) -> bool {
    let toolchain = args.iter().take_while(|w| w.text.starts_with('+')).count();
    let args = args.get(toolchain..).unwrap_or_default();
    let Some(sub) = argv::read_head(args, Style::Pflag, &CARGO).stopped_at else {
        return false;
    };
    if args.get(sub).is_none_or(|w| w.text != "uninstall") {
        return false;
    }
    let rest = args.get(sub + 1..).unwrap_or_default();
    let read = argv::read(rest, Style::Pflag, &CARGO_UNINSTALL);
    read.operands
        .iter()
        .filter_map(|&at| rest.get(at).map(|w| w.text.as_str()))
        .chain(read.values(&["p", "package", "bin"]))
        .any(|spec| spec.split('@').next() == Some("agent-guard"))
}

/// `paths` as written, and each relative one also as reached through the command's `cd`s
/// (`cd ~/.config/agent-guard && rm config.toml`).
fn with_dirs(cmd: &SimpleCommand, paths: Vec<String>) -> Vec<String> {
    if cmd.dirs.is_empty() {
        return paths;
    }
    let through: String = cmd.dirs.iter().fold(String::new(), |at, dir| {
        let dir = dir.text.trim_end_matches('/');
        if dir.starts_with(['/', '~']) || at.is_empty() {
            dir.to_string()
        } else {
            format!("{at}/{dir}")
        }
    });
    let mut all = paths.clone();
    all.extend(
        paths
            .iter()
            .filter(|p| !p.starts_with(['/', '~']))
            .map(|p| format!("{through}/{p}")),
    );
    all
}

/// Files the command writes: output redirections, what [`writes`] reads of `tee`, `cp` and
/// the like, `sed -i`, `perl -i`, and the files `chmod` and `chown` change.
fn written_paths(cmd: &SimpleCommand) -> Vec<String> {
    let mut paths: Vec<String> = cmd
        .redirects
        .iter()
        .filter(|r| r.writes())
        .map(|r| r.target.text.clone())
        .collect();
    let args = cmd.args();
    let texts =
        |words: Vec<&Word>| -> Vec<String> { words.into_iter().map(|w| w.text.clone()).collect() };
    match cmd.program() {
        Some(program @ ("tee" | "cp" | "install" | "ln" | "rsync" | "dd" | "truncate")) => {
            for write in writes::of(program, args).writes {
                // `cp settings.json ~/.claude/` writes the file of that name inside the folder:
                // one written as a folder, or a settings file's own folder (`~/.claude`).
                if let Some(name) = write.into.as_ref().and_then(writes::name_of) {
                    let folder = write.path.text.trim_end_matches('/');
                    let inside = format!("{folder}/{name}");
                    let a_folder = write.inside || write.path.text.ends_with('/');
                    if a_folder || is_guard_file_in_its_folder(&inside) {
                        paths.push(inside);
                    }
                }
                paths.push(write.path.text);
            }
        }
        Some("sed") => paths.extend(texts(sed_in_place(args))),
        Some("perl") => paths.extend(texts(perl_in_place(args))),
        Some("chmod") => paths.extend(texts(chmod(args).files)),
        Some("chown") => {
            let read = argv::read(args, Style::Getopt, &CHOWN);
            paths.extend(texts(operands(&read, args)));
        }
        _ => {}
    }
    paths
}

/// chown's options that take a value.
const CHOWN: Valued = Valued(&["from", "reference"]);

/// sed's options that take a value; `-i`/`--in-place` take only an attached suffix.
const SED: &[opts::Opt] = &[
    valued("expression", Some('e')),
    valued("file", Some('f')),
    valued("line-length", Some('l')),
    opts::Opt {
        long: "in-place",
        short: Some('i'),
        value: opts::Value::Optional,
    },
];

/// The files `sed -i` rewrites: its operands, after the script when no `-e`/`-f` gives one.
fn sed_in_place(args: &[Word]) -> Vec<&Word> {
    let read = opts::parse(args, SED);
    if !read.has("in-place") {
        return Vec::new();
    }
    let scripted = read
        .opts
        .iter()
        .any(|o| matches!(o.name, "expression" | "file"));
    read.operands
        .iter()
        .skip(usize::from(!scripted))
        .map(|&(_, w)| w)
        .collect()
}

/// perl's switches: `-e`/`-E` take the program and `-I` a folder; `-i` (the backup's
/// suffix), `-M`, `-m`, `-x`, `-d`, `-D`, `-F` and `-V` take the rest of their word. `-0`,
/// `-l` and `-C` take digits only, so a cluster goes on after them (`-lpi`).
struct PerlSwitches;

impl argv::Options for PerlSwitches {
    fn long(&self, _name: &str) -> Option<Takes> {
        Some(Takes::Nothing)
    }
    fn short(&self, letter: char) -> Option<Takes> {
        Some(match letter {
            'e' | 'E' | 'I' => Takes::Value,
            'i' | 'M' | 'm' | 'x' | 'd' | 'D' | 'F' | 'V' => Takes::Attached,
            _ => Takes::Nothing,
        })
    }
}

/// The files `perl -i` rewrites: the arguments after its switches (which end at the first
/// word that is none), after the program file when no `-e` gives the program.
fn perl_in_place(args: &[Word]) -> Vec<&Word> {
    let read = argv::read_head(args, Style::Getopt, &PerlSwitches);
    if !read.opts.iter().any(|o| o.is("i")) {
        return Vec::new();
    }
    let inline = read.opts.iter().any(|o| o.is("e") || o.is("E"));
    let rest = read
        .stopped_at
        .and_then(|at| args.get(at..))
        .unwrap_or_default();
    rest.iter().skip(usize::from(!inline)).collect()
}

/// The operands `read` found among `args`.
fn operands<'a>(read: &Argv, args: &'a [Word]) -> Vec<&'a Word> {
    read.operands
        .iter()
        .filter_map(|&at| args.get(at))
        .collect()
}

/// Paths the command deletes or moves away.
fn removed_paths(cmd: &SimpleCommand) -> Vec<String> {
    const RM: &[opts::Opt] = &[flag("recursive", Some('r')), flag("force", Some('f'))];
    match cmd.program() {
        Some("rm" | "unlink" | "shred" | "mv") => opts::parse(cmd.args(), RM)
            .operands
            .iter()
            .map(|(_, w)| w.text.clone())
            .collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stopped(line: &str) -> bool {
        crate::shell::analyze(line)
            .commands
            .iter()
            .any(|cmd| check(cmd).is_some())
    }

    #[test]
    fn options_and_their_values_read_as_each_program_reads_them() {
        for line in [
            "sed -ni.bak p .claude/settings.json",
            "sed --expression=p --in-place .agent-guard.toml",
            "perl -lpi -e 1 .agent-guard.toml",
            "chmod -R -x ~/.cargo/bin/agent-guard",
            "chmod --reference other ~/.cargo/bin/agent-guard",
            "cargo -Z unstable-options uninstall -pagent-guard",
            "chown --from=me you .codex/hooks.json",
        ] {
            assert!(stopped(line), "{line}");
        }
        for line in [
            "sed -f .agent-guard.toml -i notes.txt",
            "sed -n p .claude/settings.json",
            "perl -i -pe 1 -- notes.txt",
            "perl script.pl -i .agent-guard.toml",
            "chmod --reference ~/.cargo/bin/agent-guard notes.sh",
            "cargo uninstall --root agent-guard ripgrep",
        ] {
            assert!(!stopped(line), "{line}");
        }
    }
}
