//! The guard itself: an agent must not be able to switch it off through its own shell.

use super::opts::{self, flag};
use super::{Hit, Rule, Tier};
use crate::shell::{SimpleCommand, Word};

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
    ],
    passes: &[
        "cat .agent-guard.toml",
        "grep -n hooks .claude/settings.json",
        "agent-guard uninstall --dry-run",
        "agent-guard check -- 'git status'",
        "cp .claude/settings.json /tmp/settings-copy.json",
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
    let mut mode: Option<&Word> = None;
    let mut reference = false;
    let mut files = Vec::new();
    let mut options = true;
    for word in args {
        let w = word.text.as_str();
        if options && w == "--" {
            options = false;
        } else if options && w.starts_with("--") {
            reference |= w.starts_with("--reference");
        } else if options && mode.is_none() && !reference && is_mode(w) {
            // `-x`, `-w` look like options but are modes; `-R`, `-v`, `-f` are options.
            mode = Some(word);
        } else if options && w.starts_with('-') && w.len() > 1 {
        } else if mode.is_none() && !reference {
            mode = Some(word);
        } else {
            files.push(word);
        }
    }
    let binary = files.into_iter().find(|w| is_guard_binary(w))?;
    let drops = match mode {
        Some(m) => m.value().is_none_or(drops_execute),
        // `--reference`: whatever that file's mode is.
        None => reference,
    };
    drops.then_some(binary.text.as_str())
}

/// A symbolic or octal mode; `-R`, `-v`, `-c`, `-f`, `-h` are chmod's own options.
fn is_mode(w: &str) -> bool {
    !w.is_empty()
        && (w.bytes().all(|b| b.is_ascii_digit())
            || w.starts_with(['+', '=', 'u', 'g', 'o', 'a'])
            || w.starts_with('-') && w.len() > 1 && w[1..].bytes().all(|b| b"rwxXst".contains(&b)))
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

/// `cargo [+toolchain] [global options] uninstall ... agent-guard`.
fn cargo_uninstalls_guard(args: &[Word]) -> bool {
    let mut words = args.iter().skip_while(|w| w.text.starts_with('+'));
    let mut valued = false;
    let sub = words.find(|w| {
        let t = w.text.as_str();
        let skip = valued || t.starts_with('-');
        valued = !valued && matches!(t, "--color" | "--config" | "-Z" | "-C" | "--explain");
        !skip
    });
    if sub.is_none_or(|w| w.text != "uninstall") {
        return false;
    }
    words.any(|w| {
        let t = w.text.as_str();
        let value = t
            .strip_prefix("--package=")
            .or_else(|| t.strip_prefix("--bin="))
            .or_else(|| t.strip_prefix("-p"))
            .filter(|v| !v.is_empty())
            .unwrap_or(t);
        value.split('@').next() == Some("agent-guard")
    })
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

/// Files the command writes: output redirections, `tee`, `sed -i`, and copy destinations.
fn written_paths(cmd: &SimpleCommand) -> Vec<String> {
    let mut paths: Vec<String> = cmd
        .redirects
        .iter()
        .filter(|r| r.writes())
        .map(|r| r.target.text.clone())
        .collect();
    let operands = || {
        cmd.args()
            .iter()
            .filter(|w| !w.text.starts_with('-'))
            .map(|w| w.text.clone())
    };
    match cmd.program() {
        Some("tee") => paths.extend(operands()),
        Some("sed" | "perl")
            if cmd.args().iter().any(|w| {
                w.text.starts_with("--in-place")
                    || (w.text.starts_with('-')
                        && !w.text.starts_with("--")
                        && w.text.contains('i'))
            }) =>
        {
            paths.extend(operands())
        }
        Some("cp" | "install" | "ln" | "rsync") => paths.extend(operands().next_back()),
        Some("dd") => paths.extend(
            cmd.args()
                .iter()
                .filter_map(|w| w.text.strip_prefix("of="))
                .map(str::to_string),
        ),
        Some("truncate" | "chmod" | "chown") => paths.extend(operands()),
        _ => {}
    }
    paths
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
