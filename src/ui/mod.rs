//! `agent-guard ui`: a local web page for people. What the guard stopped (the audit log), what
//! it would stop in past sessions (replay), the snapshots and their undo, and the policy files.
//!
//! One synchronous server on the loopback interface, one request at a time: it serves one
//! person's browser, and nothing of it runs on the hook's path. Every request passes
//! `guard` first. Each page reads through the modules the command line uses (`audit`,
//! `host::transcript`, `snapshot`, `config`), so the page and the terminal never disagree.
//!
//! ```text
//! stops, replay, snapshots, policy    the pages
//!   html, form                        markup and form fields
//! guard                               token, Host and Origin checks
//! ```

mod form;
mod guard;
mod html;
mod policy;
mod replay;
mod snapshots;
mod stops;

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use form::Form;
use guard::{Asked, Gate};

/// How `agent-guard ui` was asked to run.
#[derive(Debug, Clone)]
pub struct Options {
    /// 0 for any free port.
    pub port: u16,
    /// Open the page in the user's browser.
    pub open: bool,
    /// The folder whose repository the Snapshots and Policy pages show first.
    pub dir: PathBuf,
}

/// What a page handler knows.
pub(crate) struct Ctx {
    /// `/TOKEN`: every link and form starts with it.
    pub base: String,
    pub dir: PathBuf,
}

/// A page's answer.
pub(crate) struct Reply {
    pub status: u16,
    pub body: String,
}

impl Reply {
    pub fn ok(body: String) -> Reply {
        Reply { status: 200, body }
    }
}

/// The most a form may send: the policy editor's text is the largest field.
const MAX_BODY: u64 = 1 << 20;

/// Runs the server until the process is stopped. Prints the page's address (with its token)
/// as the first line on stdout.
pub fn run(options: &Options) -> ExitCode {
    let token = match guard::new_token() {
        Ok(token) => token,
        Err(why) => {
            eprintln!("agent-guard ui: {why}");
            return ExitCode::from(1);
        }
    };
    let server = match tiny_http::Server::http(("127.0.0.1", options.port)) {
        Ok(server) => server,
        Err(e) => {
            eprintln!(
                "agent-guard ui: cannot listen on 127.0.0.1:{}: {e}",
                options.port
            );
            return ExitCode::from(1);
        }
    };
    let Some(port) = server.server_addr().to_ip().map(|a| a.port()) else {
        eprintln!("agent-guard ui: the server has no TCP port");
        return ExitCode::from(1);
    };
    let url = format!("http://127.0.0.1:{port}/{token}/");
    println!("{url}");
    let _ = std::io::stdout().flush();
    eprintln!("agent-guard ui: serving on 127.0.0.1 only; stop it with Ctrl-C");
    if options.open {
        open_browser(&url);
    }
    let gate = Gate { token, port };
    let ctx = Ctx {
        base: format!("/{}", gate.token),
        dir: options.dir.clone(),
    };
    for request in server.incoming_requests() {
        serve(&gate, &ctx, request);
    }
    ExitCode::SUCCESS
}

/// Answers one request: refused, or the page it asks for.
fn serve(gate: &Gate, ctx: &Ctx, mut request: tiny_http::Request) {
    let header = |name: &'static str| {
        request
            .headers()
            .iter()
            .find(|h| h.field.equiv(name))
            .map(|h| h.value.as_str().to_string())
    };
    let (host, origin, fetch_site) = (header("Host"), header("Origin"), header("Sec-Fetch-Site"));
    let post = *request.method() == tiny_http::Method::Post;
    let target = request.url().to_string();
    let asked = Asked {
        post,
        target: &target,
        host: host.as_deref(),
        origin: origin.as_deref(),
        fetch_site: fetch_site.as_deref(),
    };
    let reply = match gate.admit(&asked) {
        Err(refusal) => Reply {
            status: 403,
            body: refusal.message().to_string(),
        },
        Ok(page) => {
            let mut body = String::new();
            let read = request.as_reader().take(MAX_BODY).read_to_string(&mut body);
            if post && read.is_err() {
                Reply {
                    status: 400,
                    body: "the form did not arrive as text".into(),
                }
            } else {
                route(ctx, post, page, &Form::parse(&body))
            }
        }
    };
    let content_type = if reply.status == 403 {
        "text/plain; charset=utf-8"
    } else {
        "text/html; charset=utf-8"
    };
    let mut response = tiny_http::Response::from_string(reply.body).with_status_code(reply.status);
    for (name, value) in [
        ("Content-Type", content_type),
        (
            "Content-Security-Policy",
            "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        ),
        ("X-Frame-Options", "DENY"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "same-origin"),
        ("Cache-Control", "no-store"),
    ] {
        if let Ok(h) = tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()) {
            response.add_header(h);
        }
    }
    // A browser that went away before the answer is nobody's problem.
    let _ = request.respond(response);
}

/// The page for `page` (`/stops?rule=x`), a GET or a POST with its form.
fn route(ctx: &Ctx, post: bool, page: &str, body: &Form) -> Reply {
    let (path, query) = page.split_once('?').unwrap_or((page, ""));
    let query = Form::parse(query);
    match (post, path) {
        (false, "/" | "/stops") => stops::page(ctx, &query),
        (false, "/replay") => replay::page(ctx, &query),
        (false, "/snapshots") => snapshots::page(ctx, &query),
        (true, "/undo") => snapshots::undo(ctx, body),
        (false, "/policy") => policy::page(ctx, &query, None),
        (true, "/policy") => policy::change(ctx, body),
        _ => Reply {
            status: 404,
            body: html::page(&ctx.base, "", "Not found", "<p>No such page.</p>"),
        },
    }
}

/// Opens `url` in the user's browser, or says to.
fn open_browser(url: &str) {
    let mut command = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(windows) {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else {
        std::process::Command::new("xdg-open")
    };
    let started = command
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if started.is_err() {
        eprintln!("agent-guard ui: could not open a browser; open the address above");
    }
}
