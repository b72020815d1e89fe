//! `agent-guard install`, `uninstall` and `doctor` against throw-away project and home folders:
//! the exact file written for each host (golden files), merging into existing settings without
//! disturbing them, idempotence, an exact undo, dry runs, unreadable files, and the doctor's
//! end-to-end check with the real binary.
//!
//! Regenerate the golden files with `AGENT_GUARD_BLESS=1 cargo test --test install`.

mod common;

use std::path::{Path, PathBuf};

use agent_guard::host::Host;
use agent_guard::install::{self, Backup, Locations, Outcome, Scope};
use common::{Sandbox, test_file};
use tempfile::TempDir;

/// The binary named in golden files: any absolute path does, and it must not be this machine's.
const BIN: &str = "/opt/agent-guard/bin/agent-guard";

/// A project folder and a home folder, both empty.
struct Folders {
    root: TempDir,
}

impl Folders {
    fn new() -> Self {
        let root = tempfile::tempdir().expect("a temp dir");
        for sub in ["project", "home"] {
            std::fs::create_dir(root.path().join(sub)).unwrap();
        }
        Folders { root }
    }

    fn project(&self) -> PathBuf {
        self.root.path().join("project")
    }

    fn home(&self) -> PathBuf {
        self.root.path().join("home")
    }

    fn locations(&self) -> Locations {
        common::locations(self.project(), self.home())
    }

    /// Writes `text` at `relative` under the project.
    fn put(&self, relative: &str, text: &str) -> PathBuf {
        let path = self.project().join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }
}

/// Compares `actual` with tests/fixtures/install/golden/<name>, or rewrites it when blessing.
fn golden(name: &str, actual: &str) {
    common::golden_in("fixtures/install/golden", name, actual);
}

fn existing(name: &str) -> String {
    std::fs::read_to_string(test_file(&format!("fixtures/install/existing/{name}")))
        .expect("fixture exists")
}

fn install(host: Host, scope: Scope, loc: &Locations, bin: &str) -> install::Change {
    install_with(host, scope, loc, bin, false)
}

/// `install`, with `--file-tools` or without.
fn install_with(
    host: Host,
    scope: Scope,
    loc: &Locations,
    bin: &str,
    file_tools: bool,
) -> install::Change {
    install::plan_install(host, scope, loc, Path::new(bin), file_tools)
        .unwrap_or_else(|p| panic!("{}: {p}", host.name()))
}

fn uninstall(host: Host, scope: Scope, loc: &Locations) -> Vec<install::Change> {
    install::plan_uninstall(host, scope, loc).unwrap_or_else(|p| panic!("{}: {p}", host.name()))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Where each host's hooks go in each scope, relative to the project and the home folder.
/// Kimi Code, which has no project settings, is tested on its own.
const FILES: [(Host, &str, &str); 14] = [
    (
        Host::ClaudeCode,
        ".claude/settings.json",
        ".claude/settings.json",
    ),
    (Host::Codex, ".codex/hooks.json", ".codex/hooks.json"),
    (
        Host::Gemini,
        ".gemini/settings.json",
        ".gemini/settings.json",
    ),
    (Host::Cursor, ".cursor/hooks.json", ".cursor/hooks.json"),
    (
        Host::Copilot,
        ".github/hooks/agent-guard.json",
        ".copilot/hooks/agent-guard.json",
    ),
    (
        Host::Droid,
        ".factory/settings.json",
        ".factory/settings.json",
    ),
    (
        Host::Kiro,
        ".kiro/hooks/agent-guard.json",
        ".kiro/hooks/agent-guard.json",
    ),
    (
        Host::Windsurf,
        ".windsurf/hooks.json",
        ".codeium/windsurf/hooks.json",
    ),
    (
        Host::Cline,
        ".clinerules/hooks/PreToolUse",
        "Documents/Cline/Hooks/PreToolUse",
    ),
    (Host::Qwen, ".qwen/settings.json", ".qwen/settings.json"),
    (
        Host::Auggie,
        ".augment/settings.json",
        ".augment/settings.json",
    ),
    (Host::Vibe, ".vibe/hooks.toml", ".vibe/hooks.toml"),
    (Host::Crush, "crush.json", ".config/crush/crush.json"),
    (Host::Qoder, ".qoder/settings.json", ".qoder/settings.json"),
];

fn golden_name(host: Host, path: &Path) -> String {
    format!(
        "{}-{}",
        host.name(),
        path.file_name().unwrap().to_string_lossy()
    )
}

/// From nothing: the exact file per host, in both scopes; twice is once; uninstall deletes the
/// file again and leaves no backup behind.
#[test]
fn each_hosts_file_is_created_from_nothing() {
    for (host, in_project, in_home) in FILES {
        for (scope, relative) in [(Scope::Project, in_project), (Scope::User, in_home)] {
            let folders = Folders::new();
            let loc = folders.locations();
            let change = install(host, scope, &loc, BIN);
            let base = match scope {
                Scope::Project => folders.project(),
                Scope::User => folders.home(),
            };
            assert_eq!(change.path, base.join(relative), "{}", host.name());
            assert_eq!(change.outcome, Outcome::Created);
            assert_eq!(change.apply().unwrap(), Backup::Untouched);
            let written = read(&change.path);
            golden(&golden_name(host, &change.path), &written);

            let again = install(host, scope, &loc, BIN);
            assert_eq!(again.outcome, Outcome::AlreadyThere, "{}", host.name());
            again.apply().unwrap();
            assert_eq!(
                read(&change.path),
                written,
                "{}: a second install changed the file",
                host.name()
            );

            let removed = uninstall(host, scope, &loc);
            assert_eq!(removed.len(), 1, "{}", host.name());
            assert_eq!(removed[0].outcome, Outcome::Deleted, "{}", host.name());
            assert_eq!(removed[0].apply().unwrap(), Backup::Untouched);
            assert!(
                !change.path.exists(),
                "{}: the file install created is still there",
                host.name()
            );
            assert!(!removed[0].backup_path().exists());
            assert!(uninstall(host, scope, &loc).is_empty());
        }
    }
}

#[cfg(unix)]
#[test]
fn clines_hook_file_is_executable() {
    use std::os::unix::fs::PermissionsExt;
    let folders = Folders::new();
    let change = install(Host::Cline, Scope::Project, &folders.locations(), BIN);
    change.apply().unwrap();
    let mode = std::fs::metadata(&change.path)
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o111, 0o111, "mode {mode:o}");
}

/// Existing settings with other hooks (some on the same event) and other keys: our entry is
/// appended (golden file), the original is backed up, twice is once, and uninstall gives back
/// the original bytes and drops the backup, which it no longer needs.
#[test]
fn merges_into_existing_settings_and_undoes_exactly() {
    let cases = [
        ("claude.json", Host::ClaudeCode, ".claude/settings.json"),
        ("codex.json", Host::Codex, ".codex/hooks.json"),
        ("codex-toml.toml", Host::Codex, ".codex/config.toml"),
        ("gemini.json", Host::Gemini, ".gemini/settings.json"),
        ("cursor.json", Host::Cursor, ".cursor/hooks.json"),
        (
            "copilot.json",
            Host::Copilot,
            ".github/hooks/agent-guard.json",
        ),
        ("droid.json", Host::Droid, ".factory/hooks.json"),
        ("droid-settings.json", Host::Droid, ".factory/settings.json"),
        ("kiro.json", Host::Kiro, ".kiro/hooks/agent-guard.json"),
        ("windsurf.json", Host::Windsurf, ".windsurf/hooks.json"),
        ("qwen.json", Host::Qwen, ".qwen/settings.json"),
        ("auggie.json", Host::Auggie, ".augment/settings.json"),
        ("vibe.toml", Host::Vibe, ".vibe/hooks.toml"),
        ("crush.json", Host::Crush, "crush.json"),
        ("crush-hidden.json", Host::Crush, ".crush.json"),
        ("qoder.json", Host::Qoder, ".qoder/settings.json"),
    ];
    for (fixture, host, relative) in cases {
        let folders = Folders::new();
        let loc = folders.locations();
        let original = existing(fixture);
        let path = folders.put(relative, &original);

        let change = install(host, Scope::Project, &loc, BIN);
        assert_eq!(change.path, path, "{fixture}: wrote to another file");
        assert_eq!(change.outcome, Outcome::Added, "{fixture}");
        assert_eq!(
            change.apply().unwrap(),
            Backup::Written(change.backup_path())
        );
        assert_eq!(
            read(&change.backup_path()),
            original,
            "{fixture}: the backup is not the original"
        );
        let merged = read(&path);
        let (stem, ext) = fixture.rsplit_once('.').unwrap();
        golden(&format!("{stem}-merged.{ext}"), &merged);

        let again = install(host, Scope::Project, &loc, BIN);
        assert_eq!(again.outcome, Outcome::AlreadyThere, "{fixture}");
        again.apply().unwrap();
        assert_eq!(
            read(&path),
            merged,
            "{fixture}: a second install changed the file"
        );

        let removed = uninstall(host, Scope::Project, &loc);
        assert_eq!(removed.len(), 1, "{fixture}");
        assert_eq!(removed[0].outcome, Outcome::Removed, "{fixture}");
        assert_eq!(
            removed[0].apply().unwrap(),
            Backup::Restored(change.backup_path())
        );
        assert_eq!(
            read(&path),
            original,
            "{fixture}: uninstall did not restore the original bytes"
        );
        assert!(!change.backup_path().exists(), "{fixture}");
    }
}

// --- --file-tools ---------------------------------------------------------------------------

/// The hosts whose file-writing tools `--file-tools` sends to the hook, and the file each
/// writes from nothing in a project.
const FILE_TOOL_HOSTS: [(Host, &str); 11] = [
    (Host::ClaudeCode, ".claude/settings.json"),
    (Host::Gemini, ".gemini/settings.json"),
    (Host::Droid, ".factory/settings.json"),
    // No file tools, but the hook after each call, which goes with them.
    (Host::Codex, ".codex/hooks.json"),
    (Host::Qoder, ".qoder/settings.json"),
    (Host::Qwen, ".qwen/settings.json"),
    (Host::Auggie, ".augment/settings.json"),
    (Host::Cursor, ".cursor/hooks.json"),
    (Host::Copilot, ".github/hooks/agent-guard.json"),
    (Host::Vibe, ".vibe/hooks.toml"),
    (Host::Windsurf, ".windsurf/hooks.json"),
];

/// Existing settings for those hosts, and where each goes in the project.
const FILE_TOOL_CASES: [(&str, Host, &str); 13] = [
    ("claude.json", Host::ClaudeCode, ".claude/settings.json"),
    ("gemini.json", Host::Gemini, ".gemini/settings.json"),
    ("droid.json", Host::Droid, ".factory/hooks.json"),
    ("droid-settings.json", Host::Droid, ".factory/settings.json"),
    ("codex.json", Host::Codex, ".codex/hooks.json"),
    ("qoder.json", Host::Qoder, ".qoder/settings.json"),
    ("qwen.json", Host::Qwen, ".qwen/settings.json"),
    ("auggie.json", Host::Auggie, ".augment/settings.json"),
    ("cursor.json", Host::Cursor, ".cursor/hooks.json"),
    ("codex-toml.toml", Host::Codex, ".codex/config.toml"),
    ("vibe.toml", Host::Vibe, ".vibe/hooks.toml"),
    ("windsurf.json", Host::Windsurf, ".windsurf/hooks.json"),
    (
        "copilot.json",
        Host::Copilot,
        ".github/hooks/agent-guard.json",
    ),
];

/// With `--file-tools`, from nothing: the exact file (golden), twice is once, and uninstall
/// deletes it again, as it does the shell-only file.
#[test]
fn file_tools_files_are_created_from_nothing() {
    for (host, relative) in FILE_TOOL_HOSTS {
        let folders = Folders::new();
        let loc = folders.locations();
        let change = install_with(host, Scope::Project, &loc, BIN, true);
        assert_eq!(change.path, folders.project().join(relative));
        assert_eq!(change.outcome, Outcome::Created, "{}", host.name());
        change.apply().unwrap();
        let written = read(&change.path);
        golden(
            &format!(
                "{}-file-tools-{}",
                host.name(),
                relative.rsplit('/').next().unwrap()
            ),
            &written,
        );

        let again = install_with(host, Scope::Project, &loc, BIN, true);
        assert_eq!(again.outcome, Outcome::AlreadyThere, "{}", host.name());
        again.apply().unwrap();
        assert_eq!(read(&change.path), written, "{}", host.name());

        let removed = uninstall(host, Scope::Project, &loc);
        assert_eq!(removed.len(), 1, "{}", host.name());
        assert_eq!(removed[0].outcome, Outcome::Deleted, "{}", host.name());
        removed[0].apply().unwrap();
        assert!(!change.path.exists(), "{}", host.name());
        assert!(!removed[0].backup_path().exists(), "{}", host.name());
    }
}

/// With `--file-tools`, into existing settings: our entry is appended with the wider matcher
/// (golden), twice is once, and uninstall gives back the original bytes.
#[test]
fn file_tools_merge_into_existing_settings_and_undo_exactly() {
    for (fixture, host, relative) in FILE_TOOL_CASES {
        let folders = Folders::new();
        let loc = folders.locations();
        let original = existing(fixture);
        let path = folders.put(relative, &original);

        let change = install_with(host, Scope::Project, &loc, BIN, true);
        assert_eq!(change.path, path, "{fixture}");
        assert_eq!(change.outcome, Outcome::Added, "{fixture}");
        change.apply().unwrap();
        assert_eq!(read(&change.backup_path()), original, "{fixture}");
        let merged = read(&path);
        let (stem, ext) = fixture.rsplit_once('.').unwrap();
        golden(&format!("{stem}-file-tools-merged.{ext}"), &merged);

        let again = install_with(host, Scope::Project, &loc, BIN, true);
        assert_eq!(again.outcome, Outcome::AlreadyThere, "{fixture}");
        again.apply().unwrap();
        assert_eq!(read(&path), merged, "{fixture}");

        let removed = uninstall(host, Scope::Project, &loc);
        assert_eq!(removed.len(), 1, "{fixture}");
        assert_eq!(removed[0].outcome, Outcome::Removed, "{fixture}");
        assert_eq!(
            removed[0].apply().unwrap(),
            Backup::Restored(change.backup_path())
        );
        assert_eq!(read(&path), original, "{fixture}");
    }
}

/// Our shell-only entry is widened in place by `--file-tools`, giving exactly the file a first
/// install with the flag writes; install without the flag narrows it back to the shell-only
/// file. The backup keeps the original throughout, and uninstall restores it.
#[test]
fn file_tools_widen_and_narrow_our_entry_in_place() {
    for (fixture, host, relative) in FILE_TOOL_CASES {
        let direct = Folders::new();
        direct.put(relative, &existing(fixture));
        install_with(host, Scope::Project, &direct.locations(), BIN, true)
            .apply()
            .unwrap();
        let wide = read(&direct.project().join(relative));

        let folders = Folders::new();
        let loc = folders.locations();
        let original = existing(fixture);
        let path = folders.put(relative, &original);
        let first = install(host, Scope::Project, &loc, BIN);
        first.apply().unwrap();
        let shell = read(&path);

        let widened = install_with(host, Scope::Project, &loc, BIN, true);
        assert_eq!(widened.outcome, Outcome::Rematched, "{fixture}");
        assert_eq!(widened.apply().unwrap(), Backup::Untouched, "{fixture}");
        assert_eq!(
            read(&path),
            wide,
            "{fixture}: not the same as installing it directly"
        );
        let again = install_with(host, Scope::Project, &loc, BIN, true);
        assert_eq!(again.outcome, Outcome::AlreadyThere, "{fixture}");

        let narrowed = install(host, Scope::Project, &loc, BIN);
        assert_eq!(narrowed.outcome, Outcome::Rematched, "{fixture}");
        narrowed.apply().unwrap();
        assert_eq!(read(&path), shell, "{fixture}: not narrowed back");

        install_with(host, Scope::Project, &loc, BIN, true)
            .apply()
            .unwrap();
        assert_eq!(read(&first.backup_path()), original, "{fixture}");
        for change in uninstall(host, Scope::Project, &loc) {
            change.apply().unwrap();
        }
        assert_eq!(read(&path), original, "{fixture}");
        assert!(!first.backup_path().exists(), "{fixture}");
    }
}

/// Our handler in a group of the user's, under the wider matcher, next to another handler: the
/// group's matcher stays with or without the file-writing tools (it decides when the other
/// handler runs), and uninstall takes out our handler alone.
#[test]
fn our_handler_in_a_shared_wide_group_is_found_and_removed() {
    let folders = Folders::new();
    let loc = folders.locations();
    let ours = format!(
        ",\n          {{\"type\": \"command\", \"command\": \"{BIN} hook --host claude\"}}"
    );
    let theirs = r#"{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash|Write|Edit|MultiEdit|NotebookEdit",
        "hooks": [
          {"type": "command", "command": "lint"}OURS
        ]
      }
    ]
  }
}
"#;
    let path = folders.put(".claude/settings.json", &theirs.replace("OURS", &ours));
    let shell = install_with(Host::ClaudeCode, Scope::Project, &loc, BIN, false);
    assert_eq!(shell.outcome, Outcome::AlreadyThere);
    // With the file-writing tools, only the hook after each call is added.
    let wide = install_with(Host::ClaudeCode, Scope::Project, &loc, BIN, true);
    assert_eq!(wide.outcome, Outcome::Rematched);
    let diff = wide.diff();
    assert!(diff.contains("+    \"PostToolUse\": ["), "{diff}");
    assert!(!diff.contains("-        \"matcher\""), "{diff}");
    let found = install::wired(Host::ClaudeCode, &loc).unwrap();
    assert_eq!(found.len(), 1);
    let removed = uninstall(Host::ClaudeCode, Scope::Project, &loc);
    assert_eq!(removed.len(), 1);
    assert_eq!(removed[0].outcome, Outcome::Removed);
    removed[0].apply().unwrap();
    assert_eq!(read(&path), theirs.replace("OURS", ""));
}

/// A binary that moved: the entry's command is rewritten in place, nothing else changes.
#[test]
fn a_moved_binary_updates_the_path() {
    for (host, _, _) in FILES {
        let folders = Folders::new();
        let loc = folders.locations();
        let first = install(host, Scope::Project, &loc, BIN);
        first.apply().unwrap();
        let before = read(&first.path);
        let moved = install(host, Scope::Project, &loc, "/usr/local/bin/agent-guard");
        assert_eq!(moved.outcome, Outcome::Updated, "{}", host.name());
        moved.apply().unwrap();
        assert_eq!(
            read(&moved.path),
            before.replace(BIN, "/usr/local/bin/agent-guard"),
            "{}",
            host.name()
        );
        // The file existed, so it was backed up before the rewrite.
        assert_eq!(read(&moved.backup_path()), before);
    }
}

/// Codex keeps its hooks in config.toml when the file already does, and in hooks.json
/// otherwise; an entry of ours in either is found by uninstall.
#[test]
fn codex_follows_where_hooks_already_are() {
    let folders = Folders::new();
    let loc = folders.locations();
    folders.put(
        ".codex/config.toml",
        "model = \"gpt-5.5-codex\"\n\n[hooks.state]\nx = 1\n",
    );
    let change = install(Host::Codex, Scope::Project, &loc, BIN);
    assert_eq!(
        change.path,
        folders.project().join(".codex/hooks.json"),
        "[hooks.state] is not a hook"
    );
    change.apply().unwrap();
    let found = install::wired(Host::Codex, &loc).unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].command, format!("{BIN} hook --host codex"));
}

/// Droid's hooks.json is followed as written: keyed by event, or wrapped in `hooks`.
#[test]
fn droid_follows_the_layout_of_its_hooks_file() {
    let folders = Folders::new();
    let loc = folders.locations();
    let path = folders.put(".factory/hooks.json", "{\n  \"hooks\": {}\n}\n");
    install(Host::Droid, Scope::Project, &loc, BIN)
        .apply()
        .unwrap();
    let text = read(&path);
    assert!(
        text.contains("\"hooks\": {\n    \"PreToolUse\": ["),
        "{text}"
    );
    assert!(!folders.project().join(".factory/settings.json").exists());
}

/// `QWEN_HOME`, `VIBE_HOME`, `KIMI_CODE_HOME`, `GROK_HOME`, `HERMES_HOME` and the variables
/// that move Crush's and Qoder's user folders are followed, as the hosts read them.
#[test]
fn hosts_follow_their_home_variables() {
    let folders = Folders::new();
    let elsewhere = folders.root.path().join("elsewhere");
    let loc = Locations {
        qwen_home: Some(elsewhere.join("qwen")),
        vibe_home: Some(elsewhere.join("vibe")),
        kimi_home: Some(elsewhere.join("kimi")),
        crush_home: Some(elsewhere.join("crush")),
        qoder_home: Some(elsewhere.join("qoder")),
        grok_home: Some(elsewhere.join("grok")),
        hermes_home: Some(elsewhere.join("hermes")),
        ..folders.locations()
    };
    for (host, file) in [
        (Host::Qwen, "qwen/settings.json"),
        (Host::Vibe, "vibe/hooks.toml"),
        (Host::Kimi, "kimi/config.toml"),
        (Host::Crush, "crush/crush.json"),
        (Host::Qoder, "qoder/settings.json"),
        (Host::Grok, "grok/hooks/agent-guard.json"),
        (Host::Hermes, "hermes/config.yaml"),
    ] {
        let change = install(host, Scope::User, &loc, BIN);
        assert_eq!(change.path, elsewhere.join(file), "{}", host.name());
        change.apply().unwrap();
        assert_eq!(
            install::wired(host, &loc).unwrap().len(),
            1,
            "{}",
            host.name()
        );
    }
}

/// Kimi Code reads hooks from `~/.kimi-code/config.toml` alone: the file is created with our
/// table and nothing else (Kimi refuses unknown keys in it), merged into with every other table
/// and comment kept, backed up, left alone by a second install, updated in place when the
/// binary moves, and given back byte for byte by uninstall. Project scope is refused, and never
/// chosen by itself even where the project has a `.kimi-code` folder.
/// With `--file-tools` (install's default), Kimi Code's config gets a second table for its
/// `PostToolUse` event, with the same command: from nothing and into the user's config, twice
/// is once, install without the flag narrows it back, and uninstall gives back the original.
#[test]
fn kimi_takes_an_after_call_table_too() {
    let folders = Folders::new();
    let loc = folders.locations();
    let path = folders.home().join(".kimi-code/config.toml");
    install_with(Host::Kimi, Scope::User, &loc, BIN, true)
        .apply()
        .unwrap();
    let both = read(&path);
    golden("kimi-file-tools-config.toml", &both);
    let again = install_with(Host::Kimi, Scope::User, &loc, BIN, true);
    assert_eq!(again.outcome, Outcome::AlreadyThere);
    let narrowed = install(Host::Kimi, Scope::User, &loc, BIN);
    assert_eq!(narrowed.outcome, Outcome::Rematched);
    narrowed.apply().unwrap();
    assert_eq!(
        read(&path),
        read(&test_file("fixtures/install/golden/kimi-config.toml"))
    );
    install_with(Host::Kimi, Scope::User, &loc, BIN, true)
        .apply()
        .unwrap();
    assert_eq!(read(&path), both);
    let removed = uninstall(Host::Kimi, Scope::User, &loc);
    assert_eq!(removed.len(), 1);
    assert_eq!(removed[0].outcome, Outcome::Deleted);
    removed[0].apply().unwrap();
    assert!(!path.exists());

    let original = existing("kimi.toml");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, &original).unwrap();
    let change = install_with(Host::Kimi, Scope::User, &loc, BIN, true);
    assert_eq!(change.outcome, Outcome::Added);
    change.apply().unwrap();
    golden("kimi-file-tools-merged.toml", &read(&path));
    for change in uninstall(Host::Kimi, Scope::User, &loc) {
        change.apply().unwrap();
    }
    assert_eq!(read(&path), original);
}

/// An entry the previous release wrote, whose matcher named the shell tool alone, takes the MCP
/// tools on the next install, in place: a table's `matcher`, Crush's handler's own.
#[test]
fn an_earlier_shell_only_matcher_is_widened_to_the_mcp_tools() {
    for (host, scope, relative, golden_file, was, now) in [
        (
            Host::Kimi,
            Scope::User,
            "home/.kimi-code/config.toml",
            "kimi-config.toml",
            "\"^Bash$\"",
            "\"^Bash$|^mcp__\"",
        ),
        (
            Host::Vibe,
            Scope::Project,
            "project/.vibe/hooks.toml",
            "vibe-hooks.toml",
            "process_start\"",
            "process_start|mcp_.*\"",
        ),
        (
            Host::Crush,
            Scope::Project,
            "project/crush.json",
            "crush-crush.json",
            "\"^bash$\"",
            "\"^bash$|^mcp_\"",
        ),
    ] {
        let folders = Folders::new();
        let loc = folders.locations();
        let path = folders.root.path().join(relative);
        let wired = read(&test_file(&format!(
            "fixtures/install/golden/{golden_file}"
        )));
        assert!(wired.contains(now), "{host:?}: {wired}");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, wired.replace(now, was)).unwrap();
        let change = install(host, scope, &loc, BIN);
        assert_eq!(change.outcome, Outcome::Rematched, "{host:?}");
        change.apply().unwrap();
        assert_eq!(read(&path), wired, "{host:?}");
    }
}

#[test]
fn kimi_keeps_its_hooks_in_the_users_config() {
    let folders = Folders::new();
    let loc = folders.locations();
    let path = folders.home().join(".kimi-code/config.toml");
    let created = install(Host::Kimi, Scope::User, &loc, BIN);
    assert_eq!(
        (created.path.as_path(), created.outcome),
        (path.as_path(), Outcome::Created)
    );
    created.apply().unwrap();
    golden("kimi-config.toml", &read(&path));
    let removed = uninstall(Host::Kimi, Scope::User, &loc);
    assert_eq!(removed.len(), 1);
    assert_eq!(removed[0].outcome, Outcome::Deleted);
    removed[0].apply().unwrap();
    assert!(!path.exists());

    let original = existing("kimi.toml");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, &original).unwrap();
    let change = install(Host::Kimi, Scope::User, &loc, BIN);
    assert_eq!(change.outcome, Outcome::Added);
    assert_eq!(
        change.apply().unwrap(),
        Backup::Written(change.backup_path())
    );
    assert_eq!(read(&change.backup_path()), original);
    let merged = read(&path);
    golden("kimi-merged.toml", &merged);
    assert_eq!(
        install(Host::Kimi, Scope::User, &loc, BIN).outcome,
        Outcome::AlreadyThere
    );
    let moved = install(Host::Kimi, Scope::User, &loc, "/usr/local/bin/agent-guard");
    assert_eq!(moved.outcome, Outcome::Updated);
    moved.apply().unwrap();
    assert_eq!(
        read(&path),
        merged.replace(BIN, "/usr/local/bin/agent-guard")
    );
    let removed = uninstall(Host::Kimi, Scope::User, &loc);
    assert_eq!(removed.len(), 1);
    assert_eq!(
        removed[0].apply().unwrap(),
        Backup::Restored(change.backup_path())
    );
    assert_eq!(read(&path), original);

    std::fs::create_dir_all(folders.project().join(".kimi-code")).unwrap();
    assert_eq!(install::detect(&loc), [Host::Kimi]);
    assert_eq!(
        install::scope_for(Host::Kimi, &loc, None).unwrap(),
        Scope::User
    );
    let refused = install::scope_for(Host::Kimi, &loc, Some(Scope::Project)).unwrap_err();
    assert!(refused.contains("--user"), "{refused}");
    assert!(uninstall(Host::Kimi, Scope::Project, &loc).is_empty());
}

/// Crush's project settings are `crush.json` or `.crush.json` at the top level: its `.crush`
/// data folder says Crush is used but not that the project keeps settings, so the user's are
/// chosen until a settings file is there. A lone `.crush.json` takes the hook; with both, or
/// neither, `crush.json` does.
#[test]
fn crush_follows_its_settings_files() {
    let folders = Folders::new();
    let loc = folders.locations();
    std::fs::create_dir_all(folders.project().join(".crush")).unwrap();
    assert_eq!(install::detect(&loc), [Host::Crush]);
    assert_eq!(
        install::scope_for(Host::Crush, &loc, None).unwrap(),
        Scope::User
    );
    let hidden = folders.put(".crush.json", "{}\n");
    assert_eq!(
        install::scope_for(Host::Crush, &loc, None).unwrap(),
        Scope::Project
    );
    assert_eq!(install(Host::Crush, Scope::Project, &loc, BIN).path, hidden);
    let plain = folders.put("crush.json", "{}\n");
    let change = install(Host::Crush, Scope::Project, &loc, BIN);
    assert_eq!(change.path, plain);
    change.apply().unwrap();
    // Found where it is, whichever file that is.
    let found = install::wired(Host::Crush, &loc).unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].path, plain);
    assert_eq!(
        install(Host::Crush, Scope::Project, &loc, BIN).outcome,
        Outcome::AlreadyThere
    );
}

/// Vibe's `hooks.toml` with a `hooks` key of another shape is left alone, with the line.
#[test]
fn a_vibe_hooks_file_of_another_shape_is_refused_at_its_line() {
    let folders = Folders::new();
    let loc = folders.locations();
    let text = "# inline hooks\nhooks = [{ name = \"lint\", type = \"post_agent\", command = \"make\" }]\n";
    let path = folders.put(".vibe/hooks.toml", text);
    let problem =
        install::plan_install(Host::Vibe, Scope::Project, &loc, Path::new(BIN), false).unwrap_err();
    assert_eq!(
        (problem.path.as_path(), problem.line.map(|l| l.0)),
        (path.as_path(), Some(2))
    );
    assert!(install::plan_uninstall(Host::Vibe, Scope::Project, &loc).is_err());
    assert_eq!(read(&path), text);
}

/// A PreToolUse file of Cline's that is someone else's script is never rewritten.
#[test]
fn another_cline_hook_is_left_alone() {
    let folders = Folders::new();
    let loc = folders.locations();
    let script = "#!/bin/sh\necho '{\"cancel\": false}'\n";
    let path = folders.put(".clinerules/hooks/PreToolUse", script);
    let problem = install::plan_install(Host::Cline, Scope::Project, &loc, Path::new(BIN), false)
        .unwrap_err();
    assert_eq!(problem.path, path);
    assert!(
        problem.to_string().contains("another PreToolUse hook"),
        "{problem}"
    );
    assert!(uninstall(Host::Cline, Scope::Project, &loc).is_empty());
    assert_eq!(read(&path), script);
}

/// A host's project settings are used when the project has its folder, the user's otherwise;
/// without `--host`, the hosts are the ones whose folder exists.
#[test]
fn hosts_and_scopes_follow_the_folders() {
    let folders = Folders::new();
    let loc = folders.locations();
    std::fs::create_dir_all(folders.project().join(".claude")).unwrap();
    std::fs::create_dir_all(folders.project().join(".github/workflows")).unwrap();
    std::fs::create_dir_all(folders.home().join(".gemini")).unwrap();
    std::fs::create_dir_all(folders.home().join(".codeium/windsurf")).unwrap();
    assert_eq!(
        install::detect(&loc),
        [Host::ClaudeCode, Host::Gemini, Host::Windsurf]
    );
    let scope = |host| install::scope_for(host, &loc, None).unwrap();
    assert_eq!(scope(Host::ClaudeCode), Scope::Project);
    assert_eq!(scope(Host::Gemini), Scope::User);
    // `.github/` alone does not mean Copilot is in use, but it can take Copilot's hooks.
    assert_eq!(scope(Host::Copilot), Scope::Project);
    assert_eq!(
        install::scope_for(Host::ClaudeCode, &loc, Some(Scope::User)).unwrap(),
        Scope::User
    );
    let outside = Locations {
        project: None,
        ..loc.clone()
    };
    assert!(install::scope_for(Host::ClaudeCode, &outside, Some(Scope::Project)).is_err());
}

// --- through the binary -------------------------------------------------------------------

/// The sandbox's home folder (a sibling of its working folder).
fn home_of(sandbox: &Sandbox) -> PathBuf {
    sandbox.cwd().parent().unwrap().join("home")
}

fn run(sandbox: &Sandbox, args: &[&str]) -> (String, String, i32) {
    let mut cmd = sandbox.command();
    cmd.env_remove("CODEX_HOME")
        .env_remove("COPILOT_HOME")
        .env_remove("QWEN_HOME")
        .env_remove("VIBE_HOME")
        .env_remove("KIMI_CODE_HOME")
        .env_remove("CRUSH_GLOBAL_CONFIG")
        .env_remove("QODER_CONFIG_DIR")
        .env_remove("QODER_CLI_HOME")
        .env_remove("GEMINI_CLI_HOME")
        .env_remove("GROK_HOME")
        .env_remove("HERMES_HOME")
        .args(args);
    let out = cmd.output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap(),
    )
}

#[test]
fn dry_run_prints_a_diff_and_changes_nothing() {
    let sandbox = Sandbox::new();
    let settings = sandbox.cwd().join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(&settings, existing("claude.json")).unwrap();
    let (stdout, stderr, code) = run(
        &sandbox,
        &["install", "--dry-run", "--host", "claude,cursor"],
    );
    assert_eq!(code, 0, "{stderr}");
    let shown = settings.display().to_string();
    assert!(
        stdout.contains(&format!("--- {shown}\n+++ {shown}\n@@ ")),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "+                \"matcher\": \"Bash|PowerShell|Write|Edit|MultiEdit|NotebookEdit|mcp__.*\",\n"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("--- /dev/null\n+++ "), "{stdout}");
    assert!(
        stdout.contains(
            "would add the PreToolUse hook (matcher Bash|PowerShell|Write|Edit|MultiEdit|NotebookEdit|mcp__.*) and the PostToolUse hook"
        ),
        "{stdout}"
    );
    assert_eq!(read(&settings), existing("claude.json"));
    let files: Vec<_> = walk(sandbox.cwd().parent().unwrap());
    assert_eq!(files, [settings], "a dry run wrote files");
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}

#[test]
fn an_unparseable_file_is_left_untouched_and_named_with_its_line() {
    let sandbox = Sandbox::new();
    // Line 2 lacks its comma, which the parser misses at its end.
    let broken = "{\n  \"model\": \"opus\"\n  \"hooks\": {}\n}\n";
    let settings = sandbox.cwd().join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(&settings, broken).unwrap();
    std::fs::create_dir_all(sandbox.cwd().join(".cursor")).unwrap();
    let (stdout, stderr, code) = run(&sandbox, &["install"]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stderr.contains(&format!("{}:2:18: not valid JSON", settings.display())),
        "{stderr}"
    );
    assert!(stderr.contains("left the file untouched"), "{stderr}");
    assert_eq!(read(&settings), broken);
    assert!(
        !sandbox
            .cwd()
            .join(".claude/settings.json.agent-guard.bak")
            .exists()
    );
    // The other host was still wired.
    assert!(stdout.contains("cursor"), "{stdout}");
    assert!(sandbox.cwd().join(".cursor/hooks.json").exists());
}

#[test]
fn finding_no_host_says_how_to_name_one() {
    let sandbox = Sandbox::new();
    let (_, stderr, code) = run(&sandbox, &["install"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("--host NAME"), "{stderr}");
}

#[test]
fn install_then_uninstall_through_the_binary() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.cwd().join(".git")).unwrap();
    std::fs::create_dir_all(sandbox.cwd().join(".claude")).unwrap();
    std::fs::create_dir_all(home_of(&sandbox).join(".codex")).unwrap();
    let (stdout, stderr, code) = run(&sandbox, &["install"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("claude    project  "), "{stdout}");
    assert!(stdout.contains("codex     user     "), "{stdout}");
    assert!(stdout.contains("trust agent-guard"), "{stdout}");
    let written = read(&sandbox.cwd().join(".claude/settings.json"));
    let binary = assert_cmd::cargo::cargo_bin("agent-guard");
    assert!(
        written.contains(&format!("{} hook --host claude", binary.display())),
        "{written}"
    );

    let (stdout, _, code) = run(&sandbox, &["uninstall"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("deleted the file"), "{stdout}");
    assert!(walk(sandbox.cwd().parent().unwrap()).is_empty());
}

#[test]
fn doctor_passes_every_host_wired_with_the_real_binary() {
    doctor_passes_every_host_installed_with(&[]);
}

#[test]
fn doctor_passes_every_host_wired_for_file_tools() {
    doctor_passes_every_host_installed_with(&["--file-tools"]);
}

fn doctor_passes_every_host_installed_with(flags: &[&str]) {
    let sandbox = Sandbox::new();
    let hosts: Vec<&str> = Host::ALL.iter().map(|h| h.name()).collect();
    let all = hosts.join(",");
    let args = [&["install", "--user", "--host", &all], flags].concat();
    let (_, stderr, code) = run(&sandbox, &args);
    assert_eq!(code, 0, "{stderr}");
    let (stdout, stderr, code) = run(&sandbox, &["doctor"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    for host in hosts {
        let row = stdout
            .lines()
            .find(|l| l.starts_with(&format!("{host} ")))
            .unwrap_or_else(|| panic!("no row for {host}:\n{stdout}"));
        let cells: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(cells[cells.len() - 3..], ["ok", "ok", "ok"], "{row}");
    }
}

/// `--file-tools` widens the matcher where the host has file-writing tools and is noted, not
/// refused, for the others; install without it narrows the matcher again.
#[test]
fn file_tools_through_the_binary() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.cwd().join(".git")).unwrap();
    std::fs::create_dir_all(sandbox.cwd().join(".claude")).unwrap();
    let (stdout, stderr, code) = run(
        &sandbox,
        &["install", "--file-tools", "--host", "claude,crush"],
    );
    assert_eq!(code, 0, "{stderr}");
    let row = |out: &str, host: &str| {
        out.lines()
            .find(|l| l.starts_with(&format!("{host} ")))
            .unwrap_or_else(|| panic!("no row for {host}:\n{out}"))
            .to_string()
    };
    assert!(
        row(&stdout, "claude").ends_with(
            "created with the PreToolUse hook (matcher Bash|PowerShell|Write|Edit|MultiEdit|NotebookEdit|mcp__.*) and the PostToolUse hook"
        ),
        "{stdout}"
    );
    assert!(
        row(&stdout, "crush").ends_with(
            "created with the PreToolUse hook (matcher ^bash$|^mcp_) (--file-tools does not apply: its hook sees no file tool)"
        ),
        "{stdout}"
    );

    assert!(stdout.contains("--no-file-tools"), "{stdout}");

    let (stdout, stderr, code) = run(
        &sandbox,
        &["install", "--no-file-tools", "--host", "claude,crush"],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(
        row(&stdout, "claude")
            .contains("changed the hook to the PreToolUse hook (matcher Bash|PowerShell|mcp__.*) "),
        "{stdout}"
    );
    assert!(!stdout.contains("--no-file-tools"), "{stdout}");
    assert!(
        row(&stdout, "crush").ends_with("already wired; nothing to change"),
        "{stdout}"
    );
    let settings = read(&sandbox.cwd().join(".claude/settings.json"));
    assert!(
        settings.contains("\"matcher\": \"Bash|PowerShell|mcp__.*\","),
        "{settings}"
    );
    assert!(!settings.contains("PostToolUse"), "{settings}");

    // The file-writing tools are the default, and the shell-only host is not told otherwise.
    let (stdout, stderr, code) = run(&sandbox, &["install", "--host", "claude,crush"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        row(&stdout, "claude").contains("and the PostToolUse hook"),
        "{stdout}"
    );
    assert!(
        row(&stdout, "crush").ends_with("already wired; nothing to change"),
        "{stdout}"
    );
}

#[test]
fn doctor_reports_a_command_that_does_not_run() {
    let sandbox = Sandbox::new();
    let settings = home_of(&sandbox).join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    let missing = sandbox.cwd().join("gone/agent-guard");
    std::fs::write(
        &settings,
        format!(
            r#"{{"hooks": {{"PreToolUse": [{{"matcher": "Bash", "hooks": [{{"type": "command", "command": "{} hook --host claude"}}]}}]}}}}"#,
            missing.display()
        ),
    )
    .unwrap();
    let (stdout, stderr, code) = run(&sandbox, &["doctor"]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.contains("does not run"), "{stdout}");
    assert!(stdout.contains("gone/agent-guard"), "{stdout}");
}

/// Cursor sends MCP calls under an event of their own: a hooks file wired for shell commands
/// alone (as install wrote it before it wired that event) is reported, with what to run.
#[test]
fn doctor_reports_cursors_mcp_event_left_unwired() {
    let sandbox = Sandbox::new();
    let hooks = home_of(&sandbox).join(".cursor/hooks.json");
    std::fs::create_dir_all(hooks.parent().unwrap()).unwrap();
    let command = format!("{} hook --host cursor", env!("CARGO_BIN_EXE_agent-guard"));
    let shell_only = serde_json::json!({"version": 1, "hooks": {
        "beforeShellExecution": [{"command": command}]}});
    std::fs::write(&hooks, shell_only.to_string()).unwrap();
    let (stdout, _, code) = run(&sandbox, &["doctor"]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("no hook under the host's MCP event"),
        "{stdout}"
    );
    let wired = serde_json::json!({"version": 1, "hooks": {
        "beforeShellExecution": [{"command": command}],
        "beforeMCPExecution": [{"command": command}]}});
    std::fs::write(&hooks, wired.to_string()).unwrap();
    let (stdout, _, _) = run(&sandbox, &["doctor"]);
    assert!(!stdout.contains("MCP"), "{stdout}");
}

#[test]
fn doctor_reports_a_host_in_use_but_not_wired() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(home_of(&sandbox).join(".gemini")).unwrap();
    let (stdout, _, code) = run(&sandbox, &["doctor"]);
    assert_eq!(code, 1);
    assert!(
        stdout.contains("gemini: not wired; run `agent-guard install --host gemini`"),
        "{stdout}"
    );
}

/// Grok Build, Antigravity CLI and Hermes Agent read hooks from the user's settings alone: each
/// file is created from nothing (golden), merged into with everything else kept (golden),
/// backed up, left alone by a second install, updated in place when the binary moves, and given
/// back byte for byte by uninstall. Project scope is refused; the host's folder in the home
/// folder says it is in use.
#[test]
fn user_only_hosts_keep_their_hooks_in_the_users_settings() {
    let cases = [
        (
            Host::Grok,
            ".grok/hooks/agent-guard.json",
            "grok.json",
            ".grok",
        ),
        (
            Host::Antigravity,
            ".gemini/config/hooks.json",
            "antigravity.json",
            ".gemini/antigravity",
        ),
        (
            Host::Hermes,
            ".hermes/config.yaml",
            "hermes.yaml",
            ".hermes",
        ),
    ];
    for (host, relative, fixture, marker) in cases {
        let name = host.name();
        let folders = Folders::new();
        let loc = folders.locations();
        assert!(install::detect(&loc).is_empty(), "{name}");
        std::fs::create_dir_all(folders.home().join(marker)).unwrap();
        // Antigravity's folder is inside Gemini CLI's, which is detected with it.
        assert!(install::detect(&loc).contains(&host), "{name}");
        assert_eq!(install::scope_for(host, &loc, None).unwrap(), Scope::User);
        let refused = install::scope_for(host, &loc, Some(Scope::Project)).unwrap_err();
        assert!(refused.contains("--user"), "{name}: {refused}");

        let path = folders.home().join(relative);
        let created = install(host, Scope::User, &loc, BIN);
        assert_eq!(
            (created.path.as_path(), created.outcome),
            (path.as_path(), Outcome::Created)
        );
        created.apply().unwrap();
        golden(&golden_name(host, &path), &read(&path));
        assert_eq!(install::wired(host, &loc).unwrap().len(), 1, "{name}");
        let removed = uninstall(host, Scope::User, &loc);
        assert_eq!(removed.len(), 1, "{name}");
        assert_eq!(removed[0].outcome, Outcome::Deleted, "{name}");
        removed[0].apply().unwrap();
        assert!(!path.exists(), "{name}");

        let original = existing(fixture);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &original).unwrap();
        let change = install(host, Scope::User, &loc, BIN);
        assert_eq!(change.outcome, Outcome::Added, "{name}");
        assert_eq!(
            change.apply().unwrap(),
            Backup::Written(change.backup_path())
        );
        let merged = read(&path);
        golden(&format!("{name}-merged-{fixture}"), &merged);
        assert_eq!(
            install(host, Scope::User, &loc, BIN).outcome,
            Outcome::AlreadyThere
        );
        let moved = install(host, Scope::User, &loc, "/usr/local/bin/agent-guard");
        assert_eq!(moved.outcome, Outcome::Updated, "{name}");
        moved.apply().unwrap();
        assert_eq!(
            read(&path),
            merged.replace(BIN, "/usr/local/bin/agent-guard"),
            "{name}"
        );
        let removed = uninstall(host, Scope::User, &loc);
        assert_eq!(removed.len(), 1, "{name}");
        assert_eq!(
            removed[0].apply().unwrap(),
            Backup::Restored(change.backup_path())
        );
        assert_eq!(read(&path), original, "{name}");
        assert!(uninstall(host, Scope::Project, &loc).is_empty(), "{name}");
    }
}

/// A Hermes `config.yaml` that already has a `hooks:` section is left as it is: install names
/// the lines to add to it.
#[test]
fn hermes_does_not_merge_into_a_hooks_section() {
    let folders = Folders::new();
    let loc = folders.locations();
    let path = folders.home().join(".hermes/config.yaml");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let original = "model: x\nhooks:\n  on_session_start:\n    - command: notify-send hi\n";
    std::fs::write(&path, original).unwrap();
    let problem =
        install::plan_install(Host::Hermes, Scope::User, &loc, Path::new(BIN), true).unwrap_err();
    assert_eq!(problem.line, Some((2, 1)));
    assert!(
        problem.message.contains("pre_tool_call:"),
        "{}",
        problem.message
    );
    assert_eq!(read(&path), original);
}

/// opencode, Amp, Pi and OpenClaw have no hook that runs a program: their folders are detected,
/// and install and uninstall say how to put in and take out the plugin that ships for each,
/// touching no file.
#[test]
fn plugin_hosts_are_detected_and_told_how_to_wire_their_plugin() {
    let folders = Folders::new();
    let loc = folders.locations();
    for plugin in install::Plugin::ALL {
        assert!(!plugin.in_use(&loc), "{}", plugin.name());
    }
    let marks = [
        (
            install::Plugin::Opencode,
            folders.project().join(".opencode"),
        ),
        (install::Plugin::Amp, folders.home().join(".config/amp")),
        (install::Plugin::Pi, folders.project().join(".pi")),
        (install::Plugin::OpenClaw, folders.home().join(".openclaw")),
    ];
    for (plugin, dir) in marks {
        std::fs::create_dir_all(&dir).unwrap();
        assert!(plugin.in_use(&loc), "{}", plugin.name());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    let sandbox = Sandbox::new();
    std::fs::create_dir_all(home_of(&sandbox).join(".openclaw")).unwrap();
    std::fs::create_dir_all(home_of(&sandbox).join(".pi/agent")).unwrap();
    let (stdout, stderr, code) = run(&sandbox, &["install"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("integrations/openclaw"), "{stdout}");
    assert!(
        stdout.contains("integrations/pi/agent-guard.ts"),
        "{stdout}"
    );
    let (stdout, stderr, code) = run(&sandbox, &["install", "--host", "amp"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("integrations/amp/agent-guard.ts"),
        "{stdout}"
    );
    let (stdout, _, code) = run(&sandbox, &["uninstall", "--host", "amp,pi,openclaw"]);
    assert_eq!(code, 0);
    assert!(
        stdout.contains("openclaw plugins uninstall agent-guard"),
        "{stdout}"
    );
    assert!(walk(sandbox.cwd().parent().unwrap()).is_empty());
    let (_, stderr, code) = run(&sandbox, &["install", "--host", "nope"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("amp, pi, openclaw"), "{stderr}");
}

/// Where there is no `sh` (Windows without Git Bash), doctor runs the wired command as the
/// program and words it is, and still checks it end to end.
#[test]
fn doctor_runs_its_trial_without_a_shell() {
    let sandbox = Sandbox::new();
    let (_, stderr, code) = run(&sandbox, &["install", "--user", "--host", "claude,copilot"]);
    assert_eq!(code, 0, "{stderr}");
    let empty = sandbox.cwd().parent().unwrap().join("no-programs");
    std::fs::create_dir_all(&empty).unwrap();
    let out = sandbox
        .command()
        .env("PATH", &empty)
        .arg("doctor")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for host in ["claude", "copilot"] {
        let row = stdout
            .lines()
            .find(|l| l.starts_with(&format!("{host} ")))
            .unwrap_or_else(|| panic!("no row for {host}:\n{stdout}"));
        let cells: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(cells[cells.len() - 3..], ["ok", "ok", "ok"], "{row}");
    }
}
