//! `agent-guard report` and `replay --html`: an audit log written by the real binary's hook
//! in a scratch repository, read back as text (a golden file, with the day, times and paths
//! that change from run to run written as placeholders) and as an HTML page, checked for its
//! structure: well-formed, charts as inline SVG, every stop with its reason and safe twin,
//! nothing loaded from outside the page.
//!
//! Regenerate the golden file with `AGENT_GUARD_BLESS=1 cargo test --test report`.

mod common;
mod scratch;

use std::path::Path;

use common::golden;
use roxmltree::{Document, Node, ParsingOptions};
use scratch::{World, stderr, stdout};

/// A log with denials (one command twice), an ask, an override and an observed stop.
fn world_with_a_log() -> World {
    let world = World::repo();
    let off = [("AGENT_GUARD_CONTEXT", "off")];
    for command in ["git reset --hard", "git clean -fdx", "git reset --hard"] {
        let out = world.hook("claude", &world.claude(command), &off);
        assert!(stdout(&out).contains("deny"), "{}", stderr(&out));
    }
    let ask = [
        ("AGENT_GUARD_CONTEXT", "off"),
        ("AGENT_GUARD_ON_DESTRUCTIVE", "ask"),
    ];
    let out = world.hook("claude", &world.claude("git checkout -- ."), &ask);
    assert!(stdout(&out).contains("ask"), "{}", stderr(&out));
    world.hook(
        "claude",
        &world.claude("AGENT_GUARD_OFF=1 git stash drop"),
        &off,
    );
    let observe = [
        ("AGENT_GUARD_CONTEXT", "off"),
        ("AGENT_GUARD_MODE", "observe"),
    ];
    world.hook("claude", &world.claude("git branch -D old"), &observe);
    world.hook("claude", &world.claude("git status"), &off);
    let decisions: Vec<String> = world
        .audit()
        .iter()
        .map(|r| r["decision"].as_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(
        decisions,
        ["deny", "deny", "deny", "ask", "override", "observe"]
    );
    world
}

/// `text` with what changes from run to run (the day, each record's time, the scratch
/// repository's path) written as placeholders.
fn stable(world: &World, text: &str) -> String {
    let mut out = text.replace(&world.repo.display().to_string(), "<repo>");
    for record in world.audit() {
        let time = record["time"].as_str().unwrap_or("");
        if let (Some(day), Some(clock)) = (time.get(..10), time.get(11..19)) {
            out = out.replace(clock, "<time>").replace(day, "<day>");
        }
    }
    out
}

#[test]
fn the_text_report_counts_and_explains_every_stop() {
    let world = world_with_a_log();
    let out = world
        .guard()
        .args(["report", "--since", "7d"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stderr(&out), "", "nothing but the report when piped");
    golden("report.txt", &stable(&world, &stdout(&out)));
}

#[test]
fn a_report_for_another_repository_is_empty() {
    let world = world_with_a_log();
    let other = world.home();
    let out = world
        .guard()
        .args(["report", "--repo"])
        .arg(&other)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("0 records: 0 stopped"),
        "{}",
        stdout(&out)
    );
    let here = world
        .guard()
        .args(["report", "--repo", "."])
        .output()
        .unwrap();
    assert!(
        stdout(&here).contains("6 records: 4 stopped"),
        "{}",
        stdout(&here)
    );
}

fn class<'a>(node: Node<'a, 'a>, name: &str) -> Vec<Node<'a, 'a>> {
    node.descendants()
        .filter(|n| n.attribute("class") == Some(name))
        .collect()
}

fn text_of(node: Node) -> String {
    node.descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect()
}

/// Reads `page` as XML and checks what every report page must be: one document with no
/// script and no reference to anything outside it, charts as inline SVG with drawn bars
/// and text labels. Returns the stops' list items.
fn check_page(page: &str, charts: &[&str]) -> Vec<(String, String, String)> {
    // `<!DOCTYPE html>` is a document type declaration without a DTD to read.
    let options = ParsingOptions {
        allow_dtd: true,
        ..ParsingOptions::default()
    };
    let doc = Document::parse_with_options(page, options)
        .unwrap_or_else(|e| panic!("the page is not well-formed: {e}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "html");
    for node in root.descendants().filter(Node::is_element) {
        let tag = node.tag_name().name();
        assert!(
            !matches!(tag, "script" | "link" | "img" | "iframe" | "object"),
            "<{tag}> in the page"
        );
        for attr in node.attributes() {
            assert!(
                !matches!(attr.name(), "src" | "href") && !attr.name().starts_with("on"),
                "{}={:?} on <{tag}>",
                attr.name(),
                attr.value()
            );
        }
    }
    for id in charts {
        let figure = root
            .descendants()
            .find(|n| n.attribute("id") == Some(*id))
            .unwrap_or_else(|| panic!("no chart {id}"));
        let svg = figure
            .children()
            .find(|n| n.tag_name().name() == "svg")
            .unwrap_or_else(|| panic!("chart {id} is no inline SVG"));
        assert!(
            svg.descendants()
                .filter(|n| n.tag_name().name() == "rect")
                .count()
                >= 2
        );
        assert!(svg.descendants().any(|n| n.tag_name().name() == "text"));
    }
    class(root, "stop")
        .into_iter()
        .map(|li| {
            let one = |name: &str| {
                let found = class(li, name);
                assert_eq!(found.len(), 1, "{name} in {}", text_of(li));
                found.first().map(|n| text_of(*n)).unwrap_or_default()
            };
            (one("command"), one("reason"), one("safer"))
        })
        .collect()
}

#[test]
fn the_html_report_is_one_page_with_charts_and_every_stop() {
    let world = world_with_a_log();
    let page_path = world.home().join("report.html");
    let out = world
        .guard()
        .args(["report", "--html"])
        .arg(&page_path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    let page = std::fs::read_to_string(&page_path).unwrap();
    let stops = check_page(&page, &["by-day", "by-decision", "by-rule"]);
    let commands: Vec<&str> = stops.iter().map(|s| s.0.as_str()).collect();
    assert_eq!(
        commands,
        [
            "git reset --hard",
            "git clean -fdx",
            "git reset --hard",
            "git checkout -- ."
        ]
    );
    for (command, reason, safer) in &stops {
        assert!(
            reason.starts_with("Loses: ") && reason.len() > 20,
            "{command}: {reason}"
        );
        assert!(
            safer.starts_with("Instead: ") && safer.len() > 12,
            "{command}: {safer}"
        );
    }
    assert!(stops[0].2.contains("git stash"), "{}", stops[0].2);
    let options = ParsingOptions {
        allow_dtd: true,
        ..ParsingOptions::default()
    };
    let doc = Document::parse_with_options(&page, options).unwrap();
    let labels: Vec<String> = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "text")
        .map(|n| text_of(n).trim().to_string())
        .collect();
    assert!(page.contains("<p id=\"by-host\">By host: claude (6)</p>"));
    for label in ["deny", "ask", "override", "observe", "git.reset-hard"] {
        assert!(labels.iter().any(|l| l == label), "{label} in {labels:?}");
    }
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
}

#[test]
fn replay_writes_the_same_page_for_past_sessions() {
    let world = World::bare_folder();
    let sessions = world.home().join("sessions");
    std::fs::create_dir_all(&sessions).unwrap();
    write(
        &sessions.join("one.jsonl"),
        "{\"command\": \"git status\"}\n{\"command\": \"git reset --hard HEAD~2\"}\n",
    );
    write(
        &sessions.join("two.jsonl"),
        "{\"command\": \"ls\"}\n{\"command\": \"cargo test\"}\n{\"command\": \"git clean -fd\"}\n",
    );
    let page_path = world.home().join("replay.html");
    let out = world
        .guard()
        .arg("replay")
        .arg(&sessions)
        .arg("--html")
        .arg(&page_path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "", "the page instead of the text");
    assert!(stderr(&out).contains("2 stopped"), "{}", stderr(&out));
    let page = std::fs::read_to_string(&page_path).unwrap();
    let stops = check_page(&page, &["by-decision", "by-rule", "by-session"]);
    assert_eq!(stops.len(), 2);
    assert!(page.contains("2 of 5 commands would have been stopped (40.00%), in 2 of 2 sessions."));
    assert!(page.contains("<td>one.jsonl</td><td class=\"n\">2</td><td class=\"n\">1</td>"));

    let text = world.guard().arg("replay").arg(&sessions).output().unwrap();
    assert!(text.status.success());
    assert_eq!(stderr(&text), "", "no progress bar when piped");
}
