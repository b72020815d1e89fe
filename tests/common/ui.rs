//! `agent-guard ui` as the tests run it: started on a free port in a throw-away world (its
//! own HOME, state and config folders), its address read from its first line of output, and
//! stopped when the value goes. Plus a plain HTTP/1.1 exchange over a socket, for the tests
//! that must send what a browser never would.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The folders the server's world is made of.
pub struct World {
    pub home: PathBuf,
    pub state: PathBuf,
    pub config: PathBuf,
}

impl World {
    pub fn new(root: &Path) -> World {
        let world = World {
            home: root.join("home"),
            state: root.join("state"),
            config: root.join("config"),
        };
        for dir in [&world.home, &world.state, &world.config] {
            std::fs::create_dir_all(dir).unwrap();
        }
        world
    }

    /// `agent-guard` with this world's environment and nothing of the caller's settings.
    pub fn command(&self, home: &Path) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_agent-guard"));
        for (key, _) in std::env::vars_os() {
            if key.to_string_lossy().starts_with("AGENT_GUARD_") {
                cmd.env_remove(key);
            }
        }
        cmd.env("HOME", home)
            .env("XDG_STATE_HOME", &self.state)
            .env("XDG_CONFIG_HOME", &self.config)
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CODEX_HOME");
        cmd
    }

    /// The audit log the server reads and the hook writes.
    pub fn audit_log(&self) -> PathBuf {
        self.state.join("agent-guard").join("audit.jsonl")
    }
}

/// A running `agent-guard ui`.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT/TOKEN/`, as printed.
    pub url: String,
    pub port: u16,
    /// `/TOKEN`.
    pub base: String,
}

impl Server {
    /// Starts `agent-guard ui --no-open --port 0 --cwd DIR` in `world`, with `home` as HOME.
    pub fn start(world: &World, home: &Path, dir: &Path) -> Server {
        let mut child = world
            .command(home)
            .args(["ui", "--no-open", "--port", "0", "--cwd"])
            .arg(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("agent-guard ui starts");
        let mut line = String::new();
        let stdout = child.stdout.take().expect("its stdout");
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("its first line");
        let url = line.trim().to_string();
        let rest = url
            .strip_prefix("http://127.0.0.1:")
            .unwrap_or_else(|| panic!("the address is on 127.0.0.1: {url:?}"));
        let (port, token) = rest.split_once('/').expect("a port, then the token");
        let token = token.trim_end_matches('/');
        assert_eq!(token.len(), 32, "a token of 128 bits: {url}");
        Server {
            port: port.parse().expect("a port number"),
            base: format!("/{token}"),
            url,
            child,
        }
    }

    /// `127.0.0.1:PORT`, what a browser sends as `Host`.
    pub fn authority(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A response's status and body.
pub struct Answer {
    pub status: u16,
    pub body: String,
}

/// Sends one HTTP/1.1 request to `127.0.0.1:port` exactly as given (headers as `Name: value`
/// lines) and reads the whole answer.
pub fn exchange(port: u16, method: &str, target: &str, headers: &[String], body: &str) -> Answer {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect to the server");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut request = format!("{method} {target} HTTP/1.1\r\nConnection: close\r\n");
    for header in headers {
        request.push_str(header);
        request.push_str("\r\n");
    }
    if method == "POST" {
        request.push_str("Content-Type: application/x-www-form-urlencoded\r\n");
        request.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    request.push_str("\r\n");
    request.push_str(body);
    stream.write_all(request.as_bytes()).unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    let raw = String::from_utf8_lossy(&raw).into_owned();
    let status = raw
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("an HTTP status line: {raw:?}"));
    let body = raw
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    Answer { status, body }
}
