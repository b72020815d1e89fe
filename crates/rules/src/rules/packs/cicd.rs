//! CI/CD systems: Jenkins (its CLI and its `doDelete` endpoints), GitLab CI (runners and the
//! API's deletes) and CircleCI. Jobs, pipelines, environments and CI secrets hold history and
//! configuration that are rebuilt by hand, if at all.

use super::Pack;
use super::args::{asks_help, dry_run, has, operands, value};
use super::http::{Url, request_hits};
use crate::rules::{Hit, Rule, Tier};
use crate::shell::{SimpleCommand, Word};

pub static JENKINS_DELETE: Rule = Rule {
    id: "cicd.jenkins-delete",
    catches: "`jenkins-cli delete-job|delete-node|delete-view|delete-builds|delete-credentials` \
              (also `java -jar jenkins-cli.jar ...`) and an HTTP `POST` to a Jenkins \
              `.../doDelete` or `.../doWipeOutWorkspace` URL",
    why: "Deleting a Jenkins job deletes its configuration and every build's history, logs and \
          artifacts; deleting a credential breaks every job that uses it, and the secret \
          cannot be read back out of Jenkins to recreate it.",
    instead: "`jenkins-cli get-job <name> > job.xml` keeps the configuration; `jenkins-cli \
              disable-job <name>` stops a job without deleting it.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "java -jar jenkins-cli.jar -s http://jenkins.local/ delete-job deploy-prod",
        "java -jar jenkins-cli.jar -s http://jenkins.local/ -auth @creds delete-node agent-1",
        "jenkins-cli delete-view prod-view",
        "curl -X POST http://jenkins.local/job/deploy-prod/doDelete",
        "curl -X POST -u admin:token http://jenkins.local/credentials/store/system/domain/_/credential/old-token/doDelete",
    ],
    passes: &[
        "java -jar jenkins-cli.jar -s http://jenkins.local/ list-jobs",
        "java -jar jenkins-cli.jar -s http://jenkins.local/ get-job deploy-prod",
        "java -jar jenkins-cli.jar -s http://jenkins.local/ disable-job deploy-prod",
        "java -jar app.jar delete-job",
        "curl -X GET http://jenkins.local/job/deploy-prod/api/json",
        "curl -X POST http://jenkins.local/job/deploy-prod/build",
    ],
};

pub static GITLAB_DELETE: Rule = Rule {
    id: "cicd.gitlab-delete",
    catches: "`gitlab-runner unregister`, `glab ci delete` (unless `--dry-run`), `glab \
              variable delete`, `glab schedule delete`, and an HTTP `DELETE` to a GitLab API URL \
              (`/api/v4/...`: projects, pipelines, jobs, environments, variables, registry \
              repositories, ...), or `POST .../jobs/<id>/erase`",
    why: "Through the API a `DELETE` removes pipelines with their logs and artifacts, \
          environments with their deployment history, CI/CD variables whose values exist \
          nowhere else, or a whole project. Unregistering a runner revokes its token and every \
          job waiting for it stays pending.",
    instead: "`GET` the same URL first to see what it is and keep a copy of variables; `gitlab-\
              runner verify` and `gitlab-runner list` to check runners; pause a runner \
              (`PUT /api/v4/runners/<id>` with `paused=true`) instead of unregistering it.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "gitlab-runner unregister --all-runners",
        "sudo gitlab-runner unregister --name runner-prod",
        "curl -X DELETE 'https://gitlab.example.com/api/v4/projects/42/pipelines/1001'",
        "curl --request DELETE --header 'PRIVATE-TOKEN: x' 'https://gitlab.example.com/api/v4/projects/42/environments/15'",
        "curl -X DELETE 'https://gitlab.example.com/api/v4/projects/42/variables/DEPLOY_KEY'",
        "curl -X POST 'https://gitlab.example.com/api/v4/projects/42/jobs/5001/erase'",
        "glab ci delete 1001",
        "glab ci delete --status=failed -R group/app",
        "glab variable delete DEPLOY_KEY",
    ],
    passes: &[
        "gitlab-runner list",
        "gitlab-runner status",
        "gitlab-runner register --url https://gitlab.example.com --registration-token t",
        "curl -X GET 'https://gitlab.example.com/api/v4/projects/42/pipelines'",
        "curl -X POST 'https://gitlab.example.com/api/v4/projects/42/pipeline?ref=main'",
        "curl 'https://gitlab.example.com/api/v4/projects/42/variables'",
        "glab ci delete --status=failed --dry-run",
        "glab ci list",
        "glab variable get DEPLOY_KEY",
    ],
};

pub static CIRCLECI_DELETE: Rule = Rule {
    id: "cicd.circleci-delete",
    catches: "`circleci context|orb|namespace|pipeline|project ... delete` and `circleci \
              context remove-secret` (and `context secret remove|delete`)",
    why: "A CircleCI context holds the secrets pipelines deploy with: deleting it or one of its \
          secrets breaks every workflow that uses it, and the values cannot be read back out \
          of CircleCI. Deleting an orb or a namespace breaks every pipeline that imports it.",
    instead: "`circleci context show <vcs> <org> <context>` lists what a context holds; keep \
              the values elsewhere before removing them, and ask the user.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "circleci context delete org/my-org context/prod",
        "circleci context delete github my-org deploy",
        "circleci context remove-secret github my-org prod AWS_SECRET_ACCESS_KEY",
        "circleci orb delete my-org/my-orb",
        "circleci namespace delete my-org",
    ],
    passes: &[
        "circleci context list github my-org",
        "circleci context show github my-org prod",
        "circleci context store-secret github my-org prod API_KEY",
        "circleci orb info my-org/my-orb",
        "circleci config validate .circleci/config.yml",
        "circleci local execute build",
    ],
};

pub static PACK: Pack = Pack {
    id: "cicd",
    summary: "CI/CD: Jenkins jobs, nodes and credentials; GitLab runners and API deletes; \
              CircleCI contexts, secrets and orbs",
    default_on: true,
    programs: super::http::and_http_clients![
        "java",
        "jenkins-cli",
        "gitlab-runner",
        "glab",
        "circleci"
    ],
    rules: &[&JENKINS_DELETE, &GITLAB_DELETE, &CIRCLECI_DELETE],
    check,
};

fn check(cmd: &SimpleCommand) -> Vec<Hit> {
    if let Some(hits) = request_hits(cmd, |method, url| {
        jenkins_http(method, url).or_else(|| gitlab_api(method, url))
    }) {
        return hits;
    }
    let args = cmd.args();
    let hit = match cmd.program() {
        Some("java") => jenkins_jar(args),
        Some("jenkins-cli") => jenkins_cli(args),
        Some("gitlab-runner") => gitlab_runner(args),
        Some("glab") => glab(args),
        Some("circleci") => circleci(args),
        _ => None,
    };
    hit.into_iter().collect()
}

/// `java [opts] -jar .../jenkins-cli.jar <cli args>`.
fn jenkins_jar(args: &[Word]) -> Option<Hit> {
    let jar = args.iter().position(|w| w.text == "-jar")?;
    let path = args.get(jar + 1)?.text.as_str();
    let name = path.rsplit('/').next().unwrap_or(path);
    if !(name.starts_with("jenkins-cli") && name.ends_with(".jar")) {
        return None;
    }
    jenkins_cli(args.get(jar + 2..)?)
}

/// Jenkins CLI client options that take the next word as their value.
const JENKINS_VALUED: &[&str] = &["-s", "-auth", "-i", "-p", "-user", "-logger", "-bearer"];

fn jenkins_cli(args: &[Word]) -> Option<Hit> {
    if asks_help(args) {
        return None;
    }
    let ops = operands(args, JENKINS_VALUED);
    let (command, names) = ops.split_first()?;
    let kind = command.strip_prefix("delete-")?;
    let shown = if names.is_empty() {
        "(the one given)".to_string()
    } else {
        crate::rules::git::list(names.iter().copied())
    };
    let (loses, safer, recovery) = match kind {
        "job" => (
            format!(
                "deletes job {shown} with its configuration and every build's history, logs \
                 and artifacts"
            ),
            "`get-job <name> > job.xml` keeps its configuration; `disable-job <name>` stops it \
             without deleting it",
            "none for its builds; `create-job <name> < job.xml` from a saved configuration",
        ),
        "builds" => (
            format!("deletes builds {shown} with their logs and artifacts"),
            "let the job's build discarder remove old builds on its schedule",
            "none: the build records are gone",
        ),
        "node" => (
            format!("deletes node {shown} and its configuration"),
            "`get-node <name> > node.xml` keeps its configuration; `offline-node <name>` takes \
             it out of use",
            "`create-node <name> < node.xml` from a saved configuration",
        ),
        "view" => (
            format!("deletes view {shown}"),
            "`get-view <name> > view.xml` keeps its configuration",
            "`create-view <name> < view.xml` from a saved configuration; the jobs stay",
        ),
        "credentials" | "credentials-domain" => (
            // `delete-credentials STORE DOMAIN ID`: the last word names what goes.
            format!(
                "deletes {kind} {}: jobs using them fail",
                names.last().map_or(shown.clone(), |n| format!("`{n}`"))
            ),
            "list what uses them first and ask the user",
            "none: Jenkins does not show a stored secret again; add it anew from your own copy",
        ),
        _ => (
            format!("deletes {kind} {shown}"),
            "check what it is first and ask the user",
            "none, unless `JENKINS_HOME` is backed up",
        ),
    };
    Some(
        Hit::new(&JENKINS_DELETE, Tier::Destructive, loses)
            .safer(safer)
            .recovery(recovery),
    )
}

fn jenkins_http(method: &str, url: &Url) -> Option<Hit> {
    let (last, path) = url.segments.split_last()?;
    let last = last.as_str();
    if method != "POST" || !matches!(last, "doDelete" | "doWipeOutWorkspace") {
        return None;
    }
    let after = |key: &str| {
        path.iter()
            .position(|s| s == key)
            .and_then(|i| path.get(i + 1))
            .map(String::as_str)
    };
    let jobs: Vec<&str> = path
        .windows(2)
        .filter_map(|w| match w {
            [key, job] if key == "job" => Some(job.as_str()),
            _ => None,
        })
        .collect();
    let what = if let Some(id) = after("credential") {
        format!("credential `{id}`: the secret cannot be read back out of Jenkins")
    } else if let Some(node) = after("computer") {
        format!("node `{node}` and its configuration")
    } else if !jobs.is_empty() {
        let job = jobs.join("/");
        match path.last().map(String::as_str) {
            Some(n) if n.parse::<u32>().is_ok() => {
                format!("build {n} of job `{job}` with its logs and artifacts")
            }
            _ => format!(
                "job `{job}` with its configuration and every build's history, logs and artifacts"
            ),
        }
    } else if let Some(view) = after("view") {
        format!("view `{view}`")
    } else {
        format!("`{}`", url.path())
    };
    let loses = if last == "doWipeOutWorkspace" {
        format!("wipes the workspace of {what}")
    } else {
        format!("deletes {what}")
    };
    Some(
        Hit::new(&JENKINS_DELETE, Tier::Destructive, loses)
            .safer("`GET .../config.xml` keeps the configuration first; `POST .../disable` stops a job without deleting it")
            .recovery("none, unless `JENKINS_HOME` is backed up"),
    )
}

fn gitlab_api(method: &str, url: &Url) -> Option<Hit> {
    let start = url
        .segments
        .windows(2)
        .position(|w| matches!(w, [api, v4] if api == "api" && v4 == "v4"))?;
    let rest: Vec<&str> = url
        .segments
        .get(start + 2..)?
        .iter()
        .map(String::as_str)
        .collect();
    let erased = match rest.as_slice() {
        [_, .., "jobs", job, "erase"] if method == "POST" => Some(*job),
        _ => None,
    };
    if method != "DELETE" && erased.is_none() {
        return None;
    }
    // A project may be named by its URL-encoded path (`group%2Fapp`) instead of its number.
    let id = |raw: &str| raw.replace("%2F", "/").replace("%2f", "/");
    let project = match rest.as_slice() {
        ["projects", p, ..] => format!(" of project `{}`", id(p)),
        _ => String::new(),
    };
    let gone = "none through the API: the deleted data is gone";
    let (loses, recovery) = if let Some(job) = erased {
        (
            format!("erases the log and artifacts of job `{job}`{project}"),
            gone,
        )
    } else {
        match rest.as_slice() {
            ["projects", p] => (
                format!(
                    "deletes project `{}` with its repository, issues, merge requests, \
                     pipelines and packages",
                    id(p)
                ),
                "where the instance delays deletion, an administrator can restore the project \
                 until the delay ends; otherwise none",
            ),
            [.., "pipelines", n] => (
                format!("deletes pipeline `{n}`{project} with its jobs, logs and artifacts"),
                gone,
            ),
            [.., "jobs", n] => (
                format!("deletes job `{n}`{project} with its log and artifacts"),
                gone,
            ),
            [.., "jobs", n, "artifacts"] => (
                format!("deletes the artifacts of job `{n}`{project}"),
                "run the job again to rebuild them",
            ),
            [.., "environments", n] => (
                format!("deletes environment `{n}`{project} with its deployment history"),
                gone,
            ),
            [.., "variables", k] => (
                format!("deletes CI/CD variable `{k}`{project}: its value exists nowhere else"),
                "set it again from your own copy of the value",
            ),
            [.., "registry", "repositories", n] => (
                format!("deletes container registry repository `{n}`{project} with every tag"),
                "push the images again if you still have them; otherwise none",
            ),
            [.., "runners", n] => (
                format!("deletes runner `{n}`"),
                "register a runner again with `gitlab-runner register`",
            ),
            _ => (
                format!("deletes `/api/v4/{}` on GitLab", rest.join("/")),
                gone,
            ),
        }
    };
    Some(
        Hit::new(&GITLAB_DELETE, Tier::Destructive, loses)
            .safer("`GET` the same URL first to see what it is and keep a copy; ask the user before deleting")
            .recovery(recovery),
    )
}

fn gitlab_runner(args: &[Word]) -> Option<Hit> {
    if asks_help(args) {
        return None;
    }
    let ops = operands(
        args,
        &[
            "-c", "--config", "--url", "-u", "--token", "-t", "--name", "-n",
        ],
    );
    if ops.first() != Some(&"unregister") {
        return None;
    }
    let which = if has(args, &["--all-runners"]) {
        "every runner in its config".to_string()
    } else if let Some(name) = value(args, &["--name", "-n"]) {
        format!("runner `{name}`")
    } else {
        "the runner given".to_string()
    };
    Some(
        Hit::new(
            &GITLAB_DELETE,
            Tier::Destructive,
            format!("unregisters {which}: its token is revoked and jobs waiting for it stay pending"),
        )
        .safer("`gitlab-runner list` and `gitlab-runner verify` to check runners; pause a runner in GitLab instead of unregistering it")
        .recovery("`gitlab-runner register` again, with a new token"),
    )
}

/// glab options that take the next word as their value.
const GLAB_VALUED: &[&str] = &[
    "-R",
    "--repo",
    "-g",
    "--group",
    "-s",
    "--scope",
    "--status",
    "--source",
    "--older-than",
    "--page",
    "--per-page",
];

fn glab(args: &[Word]) -> Option<Hit> {
    if asks_help(args) {
        return None;
    }
    let ops = operands(args, GLAB_VALUED);
    let [noun, verb, rest @ ..] = ops.as_slice() else {
        return None;
    };
    if !matches!(*verb, "delete" | "remove" | "rm") {
        return None;
    }
    let repo = value(args, &["-R", "--repo"])
        .map(|r| format!(" of `{r}`"))
        .unwrap_or_default();
    let (loses, safer, recovery) = match *noun {
        "ci" | "pipe" | "pipeline" => {
            if dry_run(args, &["--dry-run"]) {
                return None;
            }
            let which = match (value(args, &["--status"]), rest.is_empty()) {
                (Some(status), _) => format!("every pipeline{repo} with status `{status}`"),
                (None, false) => format!(
                    "pipeline {}{repo}",
                    crate::rules::git::list(rest.iter().copied())
                ),
                (None, true) => format!("the pipelines given{repo}"),
            };
            (
                format!("deletes {which} with their jobs, logs and artifacts"),
                "`glab ci delete ... --dry-run` lists what would go",
                "none: the pipelines are gone",
            )
        }
        "variable" | "var" => (
            format!(
                "deletes CI/CD variable {}{repo}: its value exists nowhere else",
                rest.first()
                    .map_or("(the one given)".to_string(), |k| format!("`{k}`"))
            ),
            "`glab variable get <KEY>` first to keep the value",
            "`glab variable set` again from your own copy of the value",
        ),
        "schedule" => (
            format!(
                "deletes pipeline schedule {}{repo}",
                rest.first()
                    .map_or("(the one given)".to_string(), |k| format!("`{k}`"))
            ),
            "`glab schedule list` to record its cron and variables first",
            "`glab schedule create` again with the same settings",
        ),
        _ => return None,
    };
    Some(
        Hit::new(&GITLAB_DELETE, Tier::Destructive, loses)
            .safer(safer)
            .recovery(recovery),
    )
}

fn circleci(args: &[Word]) -> Option<Hit> {
    if asks_help(args) {
        return None;
    }
    let ops = operands(args, &["--token", "--host", "--org-id", "--config"]);
    let is_delete = |w: &str| matches!(w, "delete" | "remove" | "rm" | "remove-secret");
    let (noun, verb, rest) = match ops.as_slice() {
        ["context", "secret", verb, rest @ ..] if is_delete(verb) => {
            ("context", "remove-secret", rest)
        }
        [noun, verb, rest @ ..] if is_delete(verb) => (*noun, *verb, rest),
        _ => return None,
    };
    let last = rest
        .last()
        .map_or("(the one given)".to_string(), |n| format!("`{n}`"));
    let loses = match (noun, verb) {
        ("context", "remove-secret") => {
            let context = rest.len().checked_sub(2).and_then(|i| rest.get(i));
            format!(
                "removes secret {last} from context {}: its value cannot be read back",
                context.map_or("(the one given)".to_string(), |c| format!("`{c}`"))
            )
        }
        ("context", _) => format!("deletes context {last} with every secret in it"),
        ("orb", _) => format!("deletes orb {last}: pipelines that import it break"),
        ("namespace", _) => format!("deletes namespace {last} with every orb in it"),
        ("pipeline", _) => format!("deletes pipeline {last}"),
        ("project" | "policy" | "runner", _) => format!("deletes {noun} {last}"),
        _ => return None,
    };
    Some(
        Hit::new(&CIRCLECI_DELETE, Tier::Destructive, loses)
            .safer("`circleci context show <vcs> <org> <context>` to see what it holds; keep the values elsewhere first and ask the user")
            .recovery("none: CircleCI does not show secret values again; recreate from your own copy"),
    )
}
