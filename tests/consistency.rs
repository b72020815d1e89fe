//! One question, one answer: deleting a folder gets the same verdict whichever spelling asks
//! for it. Every deleting spelling below runs, with the repository context on, against four
//! kinds of folder in one repository, and each folder must get one verdict from all of them:
//!
//! - someone's untracked files, which git has no copy of: stopped;
//! - ignored build output: passes;
//! - a package manager's install folder beside its manifest, not ignored: passes;
//! - a temporary folder outside any checkout: passes.

use std::path::Path;
use std::process::Command;

use agent_guard::policy::Decision;
use agent_guard::settings::Settings;

/// Deleting spellings; `X` stands for the folder.
const SPELLINGS: &[&str] = &[
    "rm -rf X",
    "rm -r X",
    "rm -rf -- X",
    "/bin/rm -rf X",
    "sudo rm -rf X",
    "timeout 60 rm -rf X",
    "rm -rf X/*",
    "sh -c 'rm -rf X'",
    "bash -c \"rm -rf X\"",
    "find X -delete",
    "find X -mindepth 1 -delete",
    "find X -exec rm -rf {} +",
    "find X -type f -exec rm -f {} \\;",
    "rsync -a --delete empty/ X/",
    "rimraf X",
    "npx rimraf X",
    "shx rm -rf X",
    "cmd /c rd /s /q X",
    "cmd /c rmdir /s /q X",
    "pwsh -Command \"Remove-Item -Path X -Recurse -Force\"",
    "powershell -c \"rm -r -fo X\"",
    "python3 -c \"import shutil; shutil.rmtree('X')\"",
    "node -e \"require('fs').rmSync('X', {recursive: true, force: true})\"",
    "ruby -e 'require \"fileutils\"; FileUtils.rm_rf(\"X\")'",
    "perl -MFile::Path -e 'rmtree(\"X\")'",
    "echo X | xargs rm -rf",
    "printf '%s\\n' X | xargs -r rm -rf",
    "fd . X --exec-batch rm -rf",
    "fd -t f . X -x rm -f",
    "find X -exec sudo rm -rf {} +",
    "git clean -fdx X",
];

fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .status()
        .expect("run git");
    assert!(status.success(), "git {args:?}");
}

fn write(dir: &Path, path: &str, text: &str) {
    let full = dir.join(path);
    std::fs::create_dir_all(full.parent().expect("a parent")).expect("mkdir");
    std::fs::write(full, text).expect("write");
}

#[test]
fn every_spelling_of_deleting_a_folder_gets_that_folders_one_verdict() {
    let root = tempfile::tempdir().expect("a temp dir");
    let repo = root.path().join("repo");
    std::fs::create_dir(&repo).expect("mkdir");
    git(&repo, &["init", "-q"]);
    write(&repo, ".gitignore", "build/\n");
    write(&repo, "package.json", "{\"name\": \"app\"}\n");
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "init"]);
    write(&repo, "notes/todo.txt", "what I meant to do\n");
    write(&repo, "build/app.js", "bundle\n");
    write(
        &repo,
        "node_modules/left-pad/index.js",
        "module.exports = 1;\n",
    );
    std::fs::create_dir(repo.join("empty")).expect("mkdir");
    let scratch = tempfile::tempdir().expect("a temp dir");
    write(scratch.path(), "part.o", "object\n");
    let scratch = scratch.path().to_str().expect("a UTF-8 path").to_string();

    let folders = [
        ("notes", Decision::Deny),
        ("build", Decision::Allow),
        ("node_modules", Decision::Allow),
        (scratch.as_str(), Decision::Allow),
    ];
    let settings = Settings::default();
    let mut wrong = Vec::new();
    for spelling in SPELLINGS {
        for (folder, expect) in &folders {
            let command = spelling.replace('X', folder);
            let verdict = agent_guard::evaluate_in(&command, Some(&repo), &settings);
            if verdict.decision != *expect {
                wrong.push(format!(
                    "{command}: expected {expect:?}, got {:?} ({})",
                    verdict.decision, verdict.reason
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} verdicts differ from their folder's:\n{}",
        wrong.len(),
        SPELLINGS.len() * folders.len(),
        wrong.join("\n")
    );
}
