//! `agent-guard ui` in a real browser: headless Chromium driven over the W3C WebDriver
//! protocol (chromedriver), with a client of a few requests written here over plain sockets.
//!
//! It loads every page, filters the stops, runs an undo from the Snapshots page and finds the
//! file back in the repository, turns a rule off on the Policy page and finds `agent-guard
//! config` reporting it, and writes a screenshot of each page into `docs/ui/`.
//!
//! Needs `chromium` and `chromedriver` on PATH (Debian: `chromium`, `chromium-driver`).
//! Without them the test says so and passes, unless `CI` is set: then it fails.

mod common;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use common::ui::{Server, World};

/// The key under which WebDriver names an element.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// The first of `names` found on PATH.
fn on_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
        .find(|p| p.is_file())
}

/// A port nobody listens on now.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// One HTTP/1.1 exchange with chromedriver: the JSON answer's `value`, or a panic naming the
/// WebDriver error.
fn webdriver(port: u16, method: &str, path: &str, body: Option<&Value>) -> Value {
    try_webdriver(port, method, path, body).unwrap_or_else(|e| panic!("{e}"))
}

/// [`webdriver`], with the WebDriver error as `Err`.
fn try_webdriver(
    port: u16,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> Result<Value, String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let body = body.map(Value::to_string).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\
         Content-Type: application/json; charset=utf-8\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).unwrap();
    let payload = read_answer(&mut stream);
    let answer: Value = serde_json::from_slice(&payload).unwrap_or_else(|e| {
        panic!(
            "{method} {path}: not JSON ({e}): {}",
            String::from_utf8_lossy(&payload)
        )
    });
    let value = answer.get("value").cloned().unwrap_or(Value::Null);
    match value.get("error") {
        Some(error) => Err(format!("{method} {path}: {error}: {}", value["message"])),
        None => Ok(value),
    }
}

/// The body of one HTTP answer. chromedriver keeps the connection open after it, whatever the
/// request asked, so the body ends where `Content-Length` (or the last chunk) says.
fn read_answer(stream: &mut TcpStream) -> Vec<u8> {
    let mut raw = Vec::new();
    let mut buf = [0u8; 65536];
    loop {
        if let Some(split) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&raw[..split]).to_ascii_lowercase();
            let body = &raw[split + 4..];
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .map(|n| n.trim().parse::<usize>().unwrap());
            match length {
                Some(n) if body.len() >= n => return body[..n].to_vec(),
                None if head.contains("transfer-encoding: chunked")
                    && body.ends_with(b"0\r\n\r\n") =>
                {
                    return dechunk(body);
                }
                _ => {}
            }
        }
        let n = stream.read(&mut buf).unwrap();
        assert!(n > 0, "chromedriver closed the connection mid-answer");
        raw.extend_from_slice(&buf[..n]);
    }
}

/// A chunked HTTP body, joined.
fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let end = raw
            .windows(2)
            .position(|w| w == b"\r\n")
            .expect("a chunk size line");
        let size = usize::from_str_radix(String::from_utf8_lossy(&raw[..end]).trim(), 16).unwrap();
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&raw[end + 2..end + 2 + size]);
        raw = &raw[end + 2 + size + 2..];
    }
}

/// Standard base64, as WebDriver sends screenshots.
fn base64(text: &str) -> Vec<u8> {
    let digit = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let clean: Vec<u8> = text
        .bytes()
        .filter(|c| !c.is_ascii_whitespace() && *c != b'=')
        .collect();
    let mut out = Vec::with_capacity(clean.len() * 3 / 4);
    for group in clean.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in group.iter().enumerate() {
            n |= u32::from(digit(c)) << (18 - 6 * i);
        }
        let bytes = n.to_be_bytes();
        out.extend_from_slice(&bytes[1..group.len()]);
    }
    out
}

/// chromedriver, and one browser session in it; both go when the value goes.
struct Browser {
    driver: Child,
    port: u16,
    session: String,
}

impl Browser {
    fn start(chromium: &Path, chromedriver: &Path, profile: &Path) -> Browser {
        let port = free_port();
        let driver = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let mut browser = Browser {
            driver,
            port,
            session: String::new(),
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "chromedriver did not listen on {port}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium,
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--window-size=1280,1000", "--hide-scrollbars",
                         format!("--user-data-dir={}", profile.display())],
            }
        }}});
        let created = webdriver(port, "POST", "/session", Some(&capabilities));
        browser.session = created["sessionId"]
            .as_str()
            .expect("a session id")
            .to_string();
        browser
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        webdriver(
            self.port,
            method,
            &format!("/session/{}{path}", self.session),
            body.as_ref(),
        )
    }

    fn go(&self, url: &str) {
        self.call("POST", "/url", Some(json!({ "url": url })));
    }

    fn find(&self, css: &str) -> String {
        let found = self.call(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        found[ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("no element {css}: {found}"))
            .to_string()
    }

    fn count(&self, css: &str) -> usize {
        let found = self.call(
            "POST",
            "/elements",
            Some(json!({"using": "css selector", "value": css})),
        );
        found.as_array().map_or(0, Vec::len)
    }

    fn click(&self, css: &str) {
        let id = self.find(css);
        self.call("POST", &format!("/element/{id}/click"), Some(json!({})));
    }

    fn type_into(&self, css: &str, text: &str) {
        let id = self.find(css);
        self.call("POST", &format!("/element/{id}/clear"), Some(json!({})));
        self.call(
            "POST",
            &format!("/element/{id}/value"),
            Some(json!({ "text": text })),
        );
    }

    fn text(&self, css: &str) -> String {
        let id = self.find(css);
        self.call("GET", &format!("/element/{id}/text"), None)
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// The text of `css` once it satisfies `ready`: a click that submits a form returns
    /// before the next page is there.
    fn text_once(&self, css: &str, ready: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        let base = format!("/session/{}", self.session);
        let mut last = String::new();
        while Instant::now() < deadline {
            let query = json!({"using": "css selector", "value": css});
            let text = try_webdriver(self.port, "POST", &format!("{base}/element"), Some(&query))
                .and_then(|found| {
                    let id = found[ELEMENT].as_str().unwrap_or_default().to_string();
                    try_webdriver(self.port, "GET", &format!("{base}/element/{id}/text"), None)
                });
            if let Ok(Value::String(text)) = text {
                if ready(&text) {
                    return text;
                }
                last = text;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("{css} never got ready; it last read {last:?}")
    }

    fn title(&self) -> String {
        self.call("GET", "/title", None)
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// Saves what the window shows as `docs/ui/NAME.png`.
    fn screenshot(&self, name: &str) {
        let png = base64(
            self.call("GET", "/screenshot", None)
                .as_str()
                .expect("a screenshot"),
        );
        assert!(png.starts_with(b"\x89PNG"), "a PNG image");
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("docs")
            .join("ui");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
        println!("wrote docs/ui/{name}.png");
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = std::panic::catch_unwind(|| {
                webdriver(
                    self.port,
                    "DELETE",
                    &format!("/session/{}", self.session),
                    None,
                )
            });
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Copies the folder `from` into `to`, which it makes.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn git(repo: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args(["-c", "user.name=Dev", "-c", "user.email=dev@example.com"])
        .args(args)
        .current_dir(repo)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "git {args:?}");
}

/// Runs the hook on one Claude Code call in `repo`, with `env`.
fn hook(world: &World, repo: &Path, command: &str, env: &[(&str, &str)]) {
    let payload = json!({
        "session_id": "7d7c5a0e-1f3b-4c55-9a0e-2b6c0f1e9d11",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": { "command": command },
        "cwd": repo,
    });
    let mut child = world
        .command(&world.home)
        .envs(env.iter().copied())
        .current_dir(repo)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.to_string().as_bytes())
        .unwrap();
    assert!(child.wait().unwrap().success());
}

#[test]
fn every_page_in_headless_chromium() {
    let chromium = on_path(&["chromium", "chromium-browser"]);
    let chromedriver = on_path(&["chromedriver"]);
    let (Some(chromium), Some(chromedriver)) = (chromium, chromedriver) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but chromium or chromedriver is missing (Debian: apt-get install chromium chromium-driver)"
        );
        println!(
            "skipped: the browser test needs chromium and chromedriver on PATH (Debian: chromium, chromium-driver)"
        );
        return;
    };

    // A repository whose agent ran three destructive commands: two were denied, one was let
    // through in observe mode after a snapshot, and it lost an uncommitted change.
    let root = tempfile::tempdir().unwrap();
    let world = World::new(root.path());
    let repo = root.path().join("shop");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    std::fs::write(repo.join("prices.csv"), "apple,1\n").unwrap();
    std::fs::write(
        repo.join(".agent-guard.toml"),
        "# The shop's guard settings, reviewed by the team.\nprofile = \"standard\"\n",
    )
    .unwrap();
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-qm", "prices"]);
    std::fs::write(repo.join("prices.csv"), "apple,1\npear,2\n").unwrap();
    std::fs::create_dir(repo.join("data")).unwrap();
    std::fs::write(repo.join("data/orders.db"), "1,apple\n").unwrap();
    hook(&world, &repo, "git push --force origin main", &[]);
    hook(&world, &repo, "rm -rf data", &[]);
    std::fs::remove_dir_all(repo.join("data")).unwrap();
    hook(
        &world,
        &repo,
        "git reset --hard",
        &[("AGENT_GUARD_MODE", "observe")],
    );
    git(&repo, &["reset", "-q", "--hard"]);
    assert_eq!(
        std::fs::read_to_string(repo.join("prices.csv")).unwrap(),
        "apple,1\n"
    );
    let log = std::fs::read_to_string(world.audit_log()).unwrap();
    assert_eq!(log.lines().count(), 3, "{log}");

    // The hosts' own session folders in the home the page runs with, for Replay.
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/replay/home"),
        &world.home,
    );
    let sessions = world.home.clone();
    let server = Server::start(&world, &world.home, &repo);
    let page = |name: &str| format!("{}{name}", server.url);
    let browser = Browser::start(&chromium, &chromedriver, &root.path().join("chromium"));

    // Stops: all three, then only the denials.
    browser.go(&page("stops"));
    assert_eq!(browser.title(), "Stops · agent-guard");
    assert!(
        browser.text("#count").starts_with("3 of 3 records"),
        "{}",
        browser.text("#count")
    );
    browser.click("#decision option[value=\"deny\"]");
    browser.type_into("#since", "1d");
    browser.click("#apply");
    browser.text_once("#count", |t| t.starts_with("2 of 3 records"));
    let table = browser.text("#stops");
    assert!(
        table.contains("git push --force origin main") && table.contains("rm -rf data"),
        "{table}"
    );
    assert!(!table.contains("git reset --hard"), "{table}");
    browser.screenshot("stops");

    // Replay: the three hosts' sessions in the fixture.
    browser.go(&page("replay"));
    assert_eq!(browser.title(), "Replay · agent-guard");
    browser.type_into("#path", &sessions.display().to_string());
    browser.click("#run");
    browser.text_once("#summary", |t| {
        t.contains("3 file(s), 9 command(s): 5 would have been stopped")
    });
    assert_eq!(browser.count("#replay tbody tr"), 5);
    browser.screenshot("replay");

    // Snapshots: the one taken before the reset, its undo, its confirmation, the file back.
    browser.go(&page("snapshots"));
    assert_eq!(browser.title(), "Snapshots · agent-guard");
    assert_eq!(browser.count("#snapshots tbody tr"), 1);
    assert!(browser.text("#snapshots").contains("prices.csv"));
    browser.screenshot("snapshots");
    browser.click("button.undo");
    browser.text_once("#outcome", |t| t.starts_with("Would restore 1 file(s)"));
    assert_eq!(
        std::fs::read_to_string(repo.join("prices.csv")).unwrap(),
        "apple,1\n",
        "not before the confirmation"
    );
    browser.screenshot("undo-confirm");
    browser.click("button.confirm");
    browser.text_once("#outcome", |t| t.starts_with("Restored 1 file(s)"));
    assert_eq!(
        std::fs::read_to_string(repo.join("prices.csv")).unwrap(),
        "apple,1\npear,2\n"
    );

    // Policy: turn a rule off in the project file; `agent-guard config` reports it.
    browser.go(&page("policy"));
    assert_eq!(browser.title(), "Policy · agent-guard");
    browser.click("#rule-id option[value=\"git.stash-drop\"]");
    browser.click("#rule-state option[value=\"off\"]");
    browser.click("#rule-scope option[value=\"project\"]");
    browser.click("#rule-apply");
    browser.text_once("#outcome", |t| t.contains("Rule git.stash-drop turned off"));
    assert!(browser.text("#effective").contains("git.stash-drop"));
    // Tall enough for the forms and the file below the settings.
    browser.call(
        "POST",
        "/window/rect",
        Some(json!({"width": 1280, "height": 2100})),
    );
    browser.screenshot("policy");
    let file = std::fs::read_to_string(repo.join(".agent-guard.toml")).unwrap();
    assert!(
        file.starts_with("# The shop's guard settings, reviewed by the team.\n"),
        "{file}"
    );
    let config = world
        .command(&world.home)
        .args(["config", "--json", "--cwd"])
        .arg(&repo)
        .output()
        .unwrap();
    assert!(
        config.status.success(),
        "{}",
        String::from_utf8_lossy(&config.stderr)
    );
    let config: Value = serde_json::from_slice(&config.stdout).unwrap();
    assert_eq!(
        config["settings"]["rules.disable"]["value"],
        json!(["git.stash-drop"])
    );
}
