//! `agent-guard ui` without a browser: the pages answer with the token, and every request
//! a browser page elsewhere (or another local program without the address) could send is
//! refused: no token or a wrong one, another `Host`, a write from another origin. Policy
//! changes are checked by the hook's parser and keep the file's comments.

mod common;

use std::path::Path;

use common::ui::{Answer, Server, World, exchange};
use common::{git, git_commit};

/// A repository with one commit, in `root/repo`.
fn repository(root: &Path) -> std::path::PathBuf {
    let repo = root.join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    std::fs::write(repo.join("a.txt"), "one\n").unwrap();
    git(&repo, &["add", "."]);
    git_commit(&repo, "first");
    repo
}

struct Setup {
    root: tempfile::TempDir,
    repo: std::path::PathBuf,
    server: Server,
}

fn setup() -> Setup {
    let root = tempfile::tempdir().unwrap();
    let world = World::new(root.path());
    let repo = repository(root.path());
    let server = Server::start(&world, &world.home, &repo);
    Setup { root, repo, server }
}

impl Setup {
    fn get(&self, target: &str) -> Answer {
        exchange(
            self.server.port,
            "GET",
            target,
            &[format!("Host: {}", self.server.authority())],
            "",
        )
    }

    fn post(&self, target: &str, headers: &[String], body: &str) -> Answer {
        let mut all = vec![format!("Host: {}", self.server.authority())];
        all.extend_from_slice(headers);
        exchange(self.server.port, "POST", target, &all, body)
    }

    /// The headers a browser sends with a form of the page itself.
    fn own_page(&self) -> Vec<String> {
        vec![
            format!("Origin: http://{}", self.server.authority()),
            "Sec-Fetch-Site: same-origin".into(),
        ]
    }
}

#[test]
fn every_page_answers_with_the_token() {
    let s = setup();
    for (page, title) in [
        ("/", "Stops"),
        ("/stops", "Stops"),
        ("/stops?decision=deny&since=7d", "Stops"),
        ("/replay", "Replay"),
        ("/snapshots", "Snapshots"),
        ("/policy", "Policy"),
    ] {
        let answer = s.get(&format!("{}{page}", s.server.base));
        assert_eq!(answer.status, 200, "{page}: {}", answer.body);
        assert!(
            answer.body.contains(&format!("<h1>{title}</h1>")),
            "{page}: {}",
            answer.body
        );
    }
    let missing = s.get(&format!("{}/nothing", s.server.base));
    assert_eq!(missing.status, 404);
}

#[test]
fn a_request_without_the_token_is_refused() {
    let s = setup();
    let wrong = format!("/{}", "0".repeat(32));
    let short = s.server.base.get(..20).unwrap().to_string();
    for target in [
        "/".to_string(),
        "/stops".to_string(),
        "/policy".to_string(),
        format!("{wrong}/stops"),
        format!("{short}/stops"),
        format!("{}x/stops", s.server.base),
    ] {
        let answer = s.get(&target);
        assert_eq!(answer.status, 403, "{target}: {}", answer.body);
        assert!(answer.body.contains("token"), "{target}: {}", answer.body);
        assert!(!answer.body.contains("<h1>"), "{target}: a page leaked");
    }
}

#[test]
fn another_host_header_is_refused() {
    let s = setup();
    let target = format!("{}/stops", s.server.base);
    for host in [
        "Host: attacker.example".to_string(),
        format!("Host: attacker.example:{}", s.server.port),
        "Host: 127.0.0.1".to_string(),
        format!("Host: 127.0.0.1:{}", s.server.port + 1),
    ] {
        let answer = exchange(
            s.server.port,
            "GET",
            &target,
            std::slice::from_ref(&host),
            "",
        );
        assert_eq!(answer.status, 403, "{host}: {}", answer.body);
        assert!(answer.body.contains("Host"), "{host}: {}", answer.body);
    }
    let no_host = exchange(s.server.port, "GET", &target, &[], "");
    assert_eq!(no_host.status, 403);
    let localhost = exchange(
        s.server.port,
        "GET",
        &target,
        &[format!("Host: localhost:{}", s.server.port)],
        "",
    );
    assert_eq!(localhost.status, 200);
}

#[test]
fn a_write_from_another_origin_is_refused_and_changes_nothing() {
    let s = setup();
    let target = format!("{}/policy", s.server.base);
    let change = "action=rule&scope=project&rule=git.stash-drop&state=off";
    let file = s.repo.join(".agent-guard.toml");
    let authority = s.server.authority();
    for headers in [
        vec![],
        vec!["Origin: http://attacker.example".to_string()],
        vec!["Origin: null".to_string()],
        vec![
            format!("Origin: http://{authority}"),
            "Sec-Fetch-Site: cross-site".to_string(),
        ],
        vec![
            format!("Origin: http://{authority}"),
            "Sec-Fetch-Site: same-site".to_string(),
        ],
        vec!["Sec-Fetch-Site: same-origin".to_string()],
    ] {
        let answer = s.post(&target, &headers, change);
        assert_eq!(answer.status, 403, "{headers:?}: {}", answer.body);
        assert!(
            answer.body.contains("own pages"),
            "{headers:?}: {}",
            answer.body
        );
        assert!(!file.exists(), "{headers:?}: the file was written");
    }
    let undo = s.post(
        &format!("{}/undo", s.server.base),
        &["Origin: http://attacker.example".to_string()],
        "id=x&confirm=yes",
    );
    assert_eq!(undo.status, 403);
    let own = s.post(&target, &s.own_page(), change);
    assert_eq!(own.status, 200, "{}", own.body);
    assert!(own.body.contains("turned off"), "{}", own.body);
    assert!(
        std::fs::read_to_string(&file)
            .unwrap()
            .contains("git.stash-drop")
    );
}

#[test]
fn a_policy_change_keeps_comments_and_a_bad_one_is_not_written() {
    let s = setup();
    let file = s.repo.join(".agent-guard.toml");
    let before = "# The team's settings.\nprofile = \"standard\" # kept\n\n[rules]\n# Why: we stash on purpose.\ndisable = [\"git.tag-delete\"]\n";
    std::fs::write(&file, before).unwrap();
    let target = format!("{}/policy", s.server.base);
    let answer = s.post(
        &target,
        &s.own_page(),
        "action=rule&scope=project&rule=git.stash-drop&state=off",
    );
    assert!(answer.body.contains("turned off"), "{}", answer.body);
    let after = std::fs::read_to_string(&file).unwrap();
    assert_eq!(
        after,
        "# The team's settings.\nprofile = \"standard\" # kept\n\n[rules]\n# Why: we stash on purpose.\ndisable = [\"git.tag-delete\", \"git.stash-drop\"]\n"
    );
    let answer = s.post(
        &target,
        &s.own_page(),
        "action=allow&scope=project&rule=git.reset-hard&reason=fixtures+are+rebuilt&expires=2031-02-03",
    );
    assert!(answer.body.contains("Allow entry added"), "{}", answer.body);
    let with_allow = std::fs::read_to_string(&file).unwrap();
    assert!(with_allow.starts_with(&after), "{with_allow}");
    assert!(with_allow.ends_with("[[allow]]\nrule = \"git.reset-hard\"\nreason = \"fixtures are rebuilt\"\nexpires = 2031-02-03\n"), "{with_allow}");
    for bad in [
        "action=file&scope=project&text=profile+%3D+%22reckless%22",
        "action=file&scope=project&text=%5Brules",
        "action=rule&scope=project&rule=no.such-rule&state=off",
        "action=allow&scope=project&rule=git.reset-hard&reason=x&expires=tomorrow",
        "action=allow&scope=project&reason=no+rule+nor+command",
    ] {
        let answer = s.post(&target, &s.own_page(), bad);
        assert!(
            answer.body.contains("Nothing was written"),
            "{bad}: {}",
            answer.body
        );
        assert_eq!(std::fs::read_to_string(&file).unwrap(), with_allow, "{bad}");
    }
    let saved = s.post(
        &target,
        &s.own_page(),
        "action=file&scope=project&text=%23+only+a+comment%0D%0Amode+%3D+%22observe%22%0D%0A",
    );
    assert!(saved.body.contains("Saved"), "{}", saved.body);
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "# only a comment\nmode = \"observe\"\n"
    );
}

#[test]
fn an_undo_writes_nothing_until_confirmed() {
    let root = tempfile::tempdir().unwrap();
    let world = World::new(root.path());
    let repo = repository(root.path());
    std::fs::write(repo.join("a.txt"), "one\ntwo\n").unwrap();
    let payload = format!(
        r#"{{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{{"command":"git reset --hard"}},"cwd":{}}}"#,
        serde_json::to_string(&repo).unwrap()
    );
    let mut hook = world
        .command(&world.home)
        .env("AGENT_GUARD_MODE", "observe")
        .current_dir(&repo)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut hook.stdin.take().unwrap(), payload.as_bytes()).unwrap();
    assert!(hook.wait().unwrap().success());
    std::fs::write(repo.join("a.txt"), "one\n").unwrap();

    let server = Server::start(&world, &world.home, &repo);
    let host = format!("Host: {}", server.authority());
    let listed = exchange(
        server.port,
        "GET",
        &format!("{}/snapshots", server.base),
        std::slice::from_ref(&host),
        "",
    );
    assert!(
        listed.body.contains("<code>a.txt</code>"),
        "{}",
        listed.body
    );
    let id = listed
        .body
        .split("name=\"id\" value=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap()
        .to_string();
    let own = [host, format!("Origin: http://{}", server.authority())];
    let asked = exchange(
        server.port,
        "POST",
        &format!("{}/undo", server.base),
        &own,
        &format!("id={id}"),
    );
    assert!(
        asked.body.contains("Would restore 1 file(s)"),
        "{}",
        asked.body
    );
    assert!(
        asked.body.contains("name=\"confirm\" value=\"yes\""),
        "{}",
        asked.body
    );
    assert_eq!(
        std::fs::read_to_string(repo.join("a.txt")).unwrap(),
        "one\n"
    );
    let done = exchange(
        server.port,
        "POST",
        &format!("{}/undo", server.base),
        &own,
        &format!("id={id}&confirm=yes"),
    );
    assert!(done.body.contains("Restored 1 file(s)"), "{}", done.body);
    assert_eq!(
        std::fs::read_to_string(repo.join("a.txt")).unwrap(),
        "one\ntwo\n"
    );
}

#[test]
fn team_rules_are_added_listed_and_removed_keeping_comments() {
    let s = setup();
    let file = s.repo.join(".agent-guard.toml");
    let before = "# The team's settings.\nprofile = \"standard\" # kept\n\n# Applies belong to CI.\n[[deny]]\nid = \"team.terraform-apply\"\nreason = \"CI applies reviewed plans\"\ncommand = \"terraform ** apply **\"\n";
    std::fs::write(&file, before).unwrap();
    let target = format!("{}/policy", s.server.base);
    let add = "action=team&scope=project&stop=ask&id=fly-prod&reason=production+deploys+need+a+person&key=command&pattern=fly+deploy+**+--app+*-prod";

    // A form of another page, or of no page, writes nothing.
    for headers in [
        vec!["Origin: http://attacker.example".to_string()],
        vec![
            format!("Origin: http://{}", s.server.authority()),
            "Sec-Fetch-Site: cross-site".to_string(),
        ],
        vec![],
    ] {
        let answer = s.post(&target, &headers, add);
        assert_eq!(answer.status, 403, "{headers:?}: {}", answer.body);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), before);
    }

    // The page lists the rule the file holds, with its file and line.
    let page = s.get(&target);
    assert!(
        page.body.contains("<code>team.terraform-apply</code>"),
        "{}",
        page.body
    );
    assert!(
        page.body
            .contains("command <code>terraform ** apply **</code>"),
        "{}",
        page.body
    );
    assert!(
        page.body.contains(&format!("{}:5", file.display())),
        "{}",
        page.body
    );

    let answer = s.post(&target, &s.own_page(), add);
    assert!(answer.body.contains("Team rule added"), "{}", answer.body);
    assert!(
        answer.body.contains("<code>team.fly-prod</code>"),
        "{}",
        answer.body
    );
    let added = std::fs::read_to_string(&file).unwrap();
    assert_eq!(
        added,
        format!(
            "{before}\n[[ask]]\nid = \"fly-prod\"\nreason = \"production deploys need a person\"\ncommand = \"fly deploy ** --app *-prod\"\n"
        )
    );
    let path_rule = s.post(
        &target,
        &s.own_page(),
        "action=team&scope=project&stop=deny&id=team.data&reason=raw+exports&key=path&pattern=data%2F**",
    );
    assert!(
        path_rule.body.contains("Team rule added"),
        "{}",
        path_rule.body
    );
    // Each kind stays together: the new [[deny]] goes after the file's last one.
    let with_path = std::fs::read_to_string(&file).unwrap();
    assert_eq!(
        with_path,
        format!(
            "{before}\n[[deny]]\nid = \"team.data\"\nreason = \"raw exports\"\npath = \"data/**\"\n\n[[ask]]\nid = \"fly-prod\"\nreason = \"production deploys need a person\"\ncommand = \"fly deploy ** --app *-prod\"\n"
        )
    );

    // A pattern the hook's parser cannot read, or a rule it would not take, is refused with
    // the parser's words, and the file stays as it was.
    for (bad, why) in [
        (
            "action=team&scope=project&stop=deny&id=broken&reason=x&key=command&pattern=rm+%5Bdata",
            "deny[3].command",
        ),
        (
            "action=team&scope=project&stop=deny&id=up&reason=x&key=path&pattern=..%2Fshared%2F**",
            "deny[3].path",
        ),
        (
            "action=team&scope=project&stop=ask&id=no-reason&key=command&pattern=make+release",
            "reason",
        ),
        (
            "action=team&scope=project&stop=deny&id=bad+id&reason=x&key=command&pattern=make",
            "deny[3].id",
        ),
        (
            "action=team&scope=user&stop=deny&id=terraform-apply&reason=x&key=command&pattern=make",
            "already declared",
        ),
        (
            "action=team&scope=project&stop=block&id=x&reason=x&key=command&pattern=make",
            "deny or ask",
        ),
        (
            "action=team-remove&scope=project&id=team.nothing",
            "no [[deny]] or [[ask]] table",
        ),
    ] {
        let answer = s.post(&target, &s.own_page(), bad);
        assert!(
            answer.body.contains("Nothing was written"),
            "{bad}: {}",
            answer.body
        );
        assert!(answer.body.contains(why), "{bad}: {}", answer.body);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), with_path, "{bad}");
    }
    let user_files = std::fs::read_dir(s.root.path().join("config"))
        .unwrap()
        .count();
    assert_eq!(user_files, 0, "the user's file was written");

    // Removing takes out that entry alone; the others and the comments stay.
    for id in ["team.fly-prod", "team.data"] {
        let answer = s.post(
            &target,
            &s.own_page(),
            &format!("action=team-remove&scope=project&id={id}"),
        );
        assert!(
            answer.body.contains(&format!("Team rule {id} removed")),
            "{}",
            answer.body
        );
        assert!(
            !answer.body.contains(&format!("<code>{id}</code>")),
            "{}",
            answer.body
        );
    }
    assert_eq!(std::fs::read_to_string(&file).unwrap(), before);
    let answer = s.post(
        &target,
        &s.own_page(),
        "action=team-remove&scope=project&id=team.terraform-apply",
    );
    assert!(answer.body.contains("removed"), "{}", answer.body);
    assert!(answer.body.contains("id=\"team-none\""), "{}", answer.body);
    // The comment just above an entry is that entry's, and goes with it.
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "# The team's settings.\nprofile = \"standard\" # kept\n"
    );
}
