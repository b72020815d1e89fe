//! Real scripts of real tools (build wrappers, generated scripts, install and activate
//! scripts), run the way people run them: the guard reads each as it reads any script file
//! a line runs, and must let every one through. The scripts are not in the repository:
//! tests/tool-scripts/sources.jsonl names each by its package in a registry, its version,
//! its path inside the package and its sha256, and tests/tool-scripts/fetch.sh puts them
//! in target/tool-scripts/. Without that folder the test says it is skipped, except in CI,
//! whose script fetches them and where they must be read.
//!
//! Line format: `{"id", "registry", "package", "version", "path", "sha256", "place":
//! "<where the script lies in the project>", "commands": ["..."], "note"}`.

mod common;

use std::io::Write;
use std::path::PathBuf;

use common::{Sandbox, fail_if_any, par_map, read_jsonl, test_file};
use serde_json::Value;

/// At least this many scripts are in the table.
const MIN_SCRIPTS: usize = 10;

struct Script {
    at: String,
    id: String,
    place: String,
    commands: Vec<String>,
}

fn load() -> Vec<Script> {
    let path = test_file("tool-scripts/sources.jsonl");
    let mut scripts = Vec::new();
    let mut errors = Vec::new();
    for (line, value) in read_jsonl(&path) {
        let at = format!("tests/tool-scripts/sources.jsonl:{line}");
        let parsed = value.and_then(|v| {
            let text = |key: &str| {
                v[key]
                    .as_str()
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .ok_or_else(|| format!("{key} must be a non-empty string"))
            };
            for key in ["registry", "package", "version", "path", "sha256", "note"] {
                text(key)?;
            }
            let commands = v["commands"]
                .as_array()
                .filter(|c| !c.is_empty())
                .ok_or("commands must be a non-empty list")?
                .iter()
                .map(|c| {
                    c.as_str()
                        .map(str::to_string)
                        .ok_or("a command is a string")
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok::<_, String>(Script {
                at: at.clone(),
                id: text("id")?,
                place: text("place")?,
                commands,
            })
        });
        match parsed {
            Ok(script) => scripts.push(script),
            Err(e) => errors.push(format!("{at}: {e}")),
        }
    }
    fail_if_any("invalid tool script lines", &errors);
    scripts
}

fn cache() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/tool-scripts")
}

/// The decision and the findings' reasons for `command` run where `script` lies at its place.
fn judge(script: &Script, text: &[u8], command: &str) -> Result<(String, Vec<String>), String> {
    let sandbox = Sandbox::new();
    let full = sandbox.cwd().join(&script.place);
    if let Some(parent) = full.parent() {
        std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
    }
    std::fs::write(&full, text).map_err(|e| e.to_string())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&full, std::fs::Permissions::from_mode(0o755))
            .map_err(|e| e.to_string())?;
    }
    let out = sandbox
        .command()
        .args(["check", "--json", "--profile", "standard", "--", command])
        .output()
        .map_err(|e| e.to_string())?;
    let value: Value = serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())?;
    let reasons = value["findings"]
        .as_array()
        .map(|all| {
            all.iter()
                .map(|f| f["reason"].as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default();
    Ok((
        value["decision"].as_str().unwrap_or("").to_string(),
        reasons,
    ))
}

#[test]
fn tool_scripts_run_as_people_run_them_pass() {
    let scripts = load();
    assert!(
        scripts.len() >= MIN_SCRIPTS,
        "the table needs at least {MIN_SCRIPTS} scripts"
    );
    let missing: Vec<&str> = scripts
        .iter()
        .filter(|s| !cache().join(&s.id).is_file())
        .map(|s| s.id.as_str())
        .collect();
    if !missing.is_empty() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must fetch the tool scripts (.ci/run runs tests/tool-scripts/fetch.sh); missing: {missing:?}"
        );
        let _ = writeln!(
            std::io::stderr(),
            "skipped: the tool scripts are not fetched (run tests/tool-scripts/fetch.sh)"
        );
        return;
    }
    let runs: Vec<(&Script, &String)> = scripts
        .iter()
        .flat_map(|s| s.commands.iter().map(move |c| (s, c)))
        .collect();
    let failures: Vec<String> = par_map(&runs, |(script, command)| {
        let text = std::fs::read(cache().join(&script.id)).map_err(|e| e.to_string())?;
        match judge(script, &text, command)? {
            (decision, _) if decision == "allow" => Ok(()),
            (decision, reasons) => Err(format!("{decision}: {}", reasons.join(" | "))),
        }
        .map_err(|e: String| format!("{} `{command}`: {e}", script.at))
    })
    .into_iter()
    .filter_map(Result::err)
    .collect();
    fail_if_any("tool scripts the guard stops", &failures);
}
