//! Hosting and platforms: GitHub through `gh`, and the app platforms' command lines (Heroku,
//! Fly.io, Vercel, Netlify, Firebase). A deleted repository, release, app or database there
//! takes issues, assets, configuration and data that no local checkout holds.

use super::Pack;
use super::args::{Line, Style};
use crate::rules::git::list;
use crate::rules::{Hit, Rule, Tier};
use crate::shell::{SimpleCommand, Word};

pub static GITHUB_DELETE: Rule = Rule {
    id: "hosting.github-delete",
    catches: "`gh repo delete`, `gh release delete`/`delete-asset`, `gh gist`/`issue`/`run`/`project`/`codespace`/`ssh-key`/`gpg-key`/`secret` `delete`, `gh repo deploy-key delete`, `gh api -X DELETE`",
    why: "A deleted repository takes its issues, pull requests, wiki, releases and settings \
          with it, which no clone holds; a deleted release takes its uploaded assets; a deleted \
          issue, gist, codespace or secret value cannot be fetched again.",
    instead: "`gh repo archive` (read-only, undone by `gh repo unarchive`); `gh release edit \
              --draft` to hide a release; `gh issue close` instead of delete; `gh api` with \
              `GET` to look first.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "gh repo delete owner/repo --yes",
        "gh release delete v2.0 --yes",
        "gh gist delete 12345",
        "gh issue delete 123",
        "gh api -X DELETE /repos/owner/repo",
        "gh api --method=delete repos/o/r/git/refs/heads/main",
        "gh codespace delete --all",
    ],
    passes: &[
        "gh repo archive owner/repo",
        "gh repo view owner/repo",
        "gh release list",
        "gh issue close 123",
        "gh api /repos/owner/repo",
        "gh api -X PATCH repos/o/r -f description=x",
        "gh cache delete --all",
        "gh label delete stale",
    ],
};

pub static APP_DELETE: Rule = Rule {
    id: "hosting.app-delete",
    catches: "`heroku apps:destroy` (`heroku destroy`), `fly`/`flyctl apps destroy`, `vercel remove`/`rm`, `vercel project rm`, `netlify sites:delete`",
    why: "Deleting an app or site removes its deployments, domains, environment variables and \
          add-ons at once; the configuration and secrets it held are not in the repository.",
    instead: "scale it down or pause it (`heroku ps:scale web=0`, `fly scale count 0`); export \
              its configuration first (`heroku config -s`, `vercel env pull`, `netlify env:list`).",
    protected_when: None,
    strict_only: false,
    stops: &[
        "heroku apps:destroy --app myapp --confirm myapp",
        "heroku destroy -a myapp",
        "fly apps destroy my-app --yes",
        "flyctl apps destroy my-app",
        "vercel remove my-project --yes",
        "netlify sites:delete 1234-abcd --force",
    ],
    passes: &[
        "heroku apps",
        "heroku ps:scale web=0 -a myapp",
        "fly apps list",
        "fly -t ci destroy-pipeline -p old",
        "vercel ls",
        "netlify sites:list",
    ],
};

pub static DATA_DELETE: Rule = Rule {
    id: "hosting.data-delete",
    catches: "`firebase firestore:delete`, `firebase database:remove`, `heroku pg:reset`, `heroku addons:destroy`, `fly volumes destroy`",
    why: "These delete a hosted database's contents or the database itself: Firestore \
          documents, Realtime Database paths, a Heroku Postgres database, a Fly volume. The \
          platform keeps no copy unless backups were set up.",
    instead: "export first (`gcloud firestore export`, `firebase database:get / > backup.json`, \
              `heroku pg:backups:capture`, `fly volumes snapshots create`), then delete only \
              the documents or paths you mean.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "firebase firestore:delete --all-collections --force",
        "firebase firestore:delete users -r",
        "firebase database:remove /sessions --force",
        "heroku pg:reset DATABASE_URL --confirm myapp",
        "heroku addons:destroy heroku-postgresql -a myapp",
        "fly volumes destroy vol_123abc --yes",
    ],
    passes: &[
        "firebase deploy",
        "firebase firestore:indexes",
        "firebase database:get /sessions",
        "heroku pg:backups:capture -a myapp",
        "heroku addons -a myapp",
        "fly volumes list",
    ],
};

pub static PACK: Pack = Pack {
    id: "hosting",
    summary: "GitHub (`gh repo`/`release`/`issue`/`gist … delete`, `gh api -X DELETE`) and app platforms: Heroku, Fly.io, Vercel, Netlify, Firebase deletes",
    default_on: true,
    programs: &[
        "gh", "heroku", "fly", "flyctl", "vercel", "netlify", "firebase",
    ],
    rules: &[&GITHUB_DELETE, &APP_DELETE, &DATA_DELETE],
    check,
};

fn check(cmd: &SimpleCommand) -> Vec<Hit> {
    let args = cmd.args();
    let hit = match cmd.program() {
        Some("gh") => gh(args),
        Some("heroku") => heroku(args),
        Some("fly" | "flyctl") => fly(cmd, args),
        Some("vercel") => vercel(args),
        Some("netlify") => netlify(args),
        Some("firebase") => firebase(args),
        _ => None,
    };
    hit.into_iter().collect()
}

const GH_VALUED: &[&str] = &[
    "R",
    "repo",
    "hostname",
    "X",
    "method",
    "F",
    "field",
    "f",
    "raw-field",
    "H",
    "header",
    "q",
    "jq",
    "t",
    "template",
    "input",
    "p",
    "preview",
    "cache",
    "L",
    "limit",
    "c",
    "codespace",
    "o",
    "org",
    "e",
    "env",
    "u",
    "user",
    "owner",
    "format",
];

fn gh(args: &[Word]) -> Option<Hit> {
    let line = Line::parse(args, Style::Gnu, GH_VALUED);
    if line.help() {
        return None;
    }
    let repo = line.value(&["R", "repo"]);
    let in_repo = repo.map_or_else(String::new, |r| format!(" in `{r}`"));
    // " `name`" when the command names the object, for "deletes the release `v2`".
    let named = |n: usize| {
        line.operand(n)
            .map_or_else(String::new, |name| format!(" `{name}`"))
    };
    let (loses, safer, recovery): (String, &str, &str) = match (line.operand(0)?, line.operand(1)) {
        ("api", _) => {
            let method = line.value(&["X", "method"])?;
            if !method.eq_ignore_ascii_case("delete") {
                return None;
            }
            (
                format!(
                    "sends DELETE to `{}`: whatever that endpoint names (a repository, a \
                     branch, a release, a comment) is deleted",
                    line.operand(1).unwrap_or("the endpoint")
                ),
                "`gh api <endpoint>` (a GET) to see what is there first",
                "depends on the endpoint; most GitHub deletes have no undo",
            )
        }
        ("repo", Some("delete")) => (
            format!(
                "deletes {} with its issues, pull requests, wiki, releases, actions history and \
                 settings, none of which a clone holds",
                line.operand(2).map_or_else(
                    || "the current repository".to_string(),
                    |r| format!("the repository `{r}`")
                )
            ),
            "`gh repo archive` (read-only, undone by `gh repo unarchive`)",
            "an organisation owner can restore a deleted repository from the organisation's settings within 90 days; a personal repository from the account settings",
        ),
        ("repo", Some("deploy-key")) if line.operand(2) == Some("delete") => (
            format!("deletes the deploy key{}{in_repo}", named(3)),
            "`gh repo deploy-key list` first",
            "add the public key again, if it is still around",
        ),
        ("release", Some("delete")) => (
            format!(
                "deletes the release{}{in_repo} with its notes and uploaded assets (the tag stays unless `--cleanup-tag`)",
                named(2)
            ),
            "`gh release edit <tag> --draft` to hide it; `gh release download <tag>` to keep the assets",
            "re-create it with `gh release create`, with the assets from a download",
        ),
        ("release", Some("delete-asset")) => (
            format!(
                "deletes an uploaded asset of the release{}{in_repo}",
                named(2)
            ),
            "`gh release download <tag>` first",
            "upload the asset again from a copy",
        ),
        ("gist", Some("delete")) => (
            format!("deletes the gist{} and its revisions", named(2)),
            "`gh gist clone <id>` first",
            "none",
        ),
        ("issue", Some("delete")) => (
            format!("deletes the issue{}{in_repo} with its comments", named(2)),
            "`gh issue close` (reopened any time)",
            "none",
        ),
        ("run", Some("delete")) => (
            format!(
                "deletes the workflow run{}{in_repo} with its logs and artifacts",
                named(2)
            ),
            "`gh run download` to keep the artifacts",
            "none",
        ),
        ("project", Some("delete")) => (
            format!("deletes the project{} and its items' fields", named(2)),
            "`gh project close` (reopened any time)",
            "none",
        ),
        ("codespace" | "cs", Some("delete")) => (
            if line.on(&["all"]) {
                "deletes every codespace, with any work not pushed from them".to_string()
            } else {
                "deletes the codespace, with any work not pushed from it".to_string()
            },
            "`gh codespace stop`; push its work first",
            "none for work that was not pushed",
        ),
        ("ssh-key" | "gpg-key", Some("delete")) => (
            format!("deletes the account's {}{}", line.operand(0)?, named(2)),
            "`gh ssh-key list` / `gh gpg-key list` first",
            "add the public key again, if it is still around",
        ),
        ("secret", Some("delete" | "remove")) => (
            format!(
                "deletes the secret{}{in_repo}; its value cannot be read back",
                named(2)
            ),
            "make sure the value is kept elsewhere first",
            "set it again with `gh secret set`, if the value is still known",
        ),
        _ => return None,
    };
    Some(
        Hit::new(&GITHUB_DELETE, Tier::Destructive, loses)
            .safer(safer)
            .recovery(recovery),
    )
}

fn heroku(args: &[Word]) -> Option<Hit> {
    let line = Line::parse(
        args,
        Style::Gnu,
        &["a", "app", "r", "remote", "c", "confirm"],
    );
    if line.help() {
        return None;
    }
    let app = line
        .value(&["a", "app", "confirm", "c"])
        .map_or_else(|| "the app".to_string(), |a| format!("the app `{a}`"));
    let hit = match line.operand(0)? {
        "apps:destroy" | "apps:delete" | "destroy" => Hit::new(
            &APP_DELETE,
            Tier::Destructive,
            format!(
                "deletes {app} with its releases, config vars, domains and add-ons (databases \
                 included)"
            ),
        )
        .safer("`heroku ps:scale web=0` or `heroku maintenance:on` to take it offline; `heroku config -s` and `heroku pg:backups:capture` first")
        .recovery("none: re-create the app, restore config from a copy and databases from backups"),
        "pg:reset" => Hit::new(
            &DATA_DELETE,
            Tier::Destructive,
            format!(
                "deletes every table and row of {} of {app}",
                line.operand(1)
                    .map_or_else(|| "the database".to_string(), |d| format!("`{d}`"))
            ),
        )
        .safer("`heroku pg:backups:capture` first")
        .recovery("`heroku pg:backups:restore` from a backup taken before"),
        "addons:destroy" | "addons:remove" => Hit::new(
            &DATA_DELETE,
            Tier::Destructive,
            format!(
                "deletes the add-on {} of {app} with its data (a database add-on takes the \
                 database)",
                line.operand(1)
                    .map_or_else(|| "given".to_string(), |a| format!("`{a}`"))
            ),
        )
        .safer("`heroku pg:backups:capture` (or the add-on's own export) first")
        .recovery("none, unless a backup was taken"),
        _ => return None,
    };
    Some(hit)
}

fn fly(cmd: &SimpleCommand, args: &[Word]) -> Option<Hit> {
    let line = Line::parse(
        args,
        Style::Gnu,
        &[
            "a", "app", "t", "target", "c", "config", "r", "region", "o", "org",
        ],
    );
    if line.help() {
        return None;
    }
    let tool = cmd.program().unwrap_or("fly");
    let names = || {
        let names = line.operands.get(2..).unwrap_or_default();
        if names.is_empty() {
            line.value(&["a", "app"])
                .map_or_else(|| "the app".to_string(), |a| format!("`{a}`"))
        } else {
            list(names.iter().copied())
        }
    };
    let hit = match (line.operand(0)?, line.operand(1)) {
        ("apps" | "app", Some("destroy" | "delete" | "remove" | "rm")) => Hit::new(
            &APP_DELETE,
            Tier::Destructive,
            format!(
                "deletes the app {} with its machines, volumes, secrets and certificates",
                names()
            ),
        )
        .safer(format!(
            "`{tool} scale count 0` to stop it; `{tool} volumes snapshots create <volume>` first"
        ))
        .recovery("none: re-create the app and restore volumes from snapshots"),
        ("destroy", _) => Hit::new(
            &APP_DELETE,
            Tier::Destructive,
            format!(
                "deletes the app {} with its machines, volumes, secrets and certificates",
                line.operand(1)
                    .map_or_else(|| "given".to_string(), |a| format!("`{a}`"))
            ),
        )
        .safer(format!(
            "`{tool} scale count 0` to stop it; `{tool} volumes snapshots create <volume>` first"
        ))
        .recovery("none: re-create the app and restore volumes from snapshots"),
        ("volumes" | "volume" | "vol", Some("destroy" | "delete" | "remove" | "rm")) => Hit::new(
            &DATA_DELETE,
            Tier::Destructive,
            format!("deletes the volume {} and its data", names()),
        )
        .safer(format!("`{tool} volumes snapshots create <volume>` first"))
        .recovery(format!(
            "`{tool} volumes create --snapshot-id <id>` from a snapshot, while it is retained"
        )),
        _ => return None,
    };
    Some(hit)
}

fn vercel(args: &[Word]) -> Option<Hit> {
    let line = Line::parse(
        args,
        Style::Gnu,
        &[
            "t",
            "token",
            "scope",
            "S",
            "A",
            "local-config",
            "Q",
            "global-config",
        ],
    );
    if line.help() {
        return None;
    }
    let names = match (line.operand(0)?, line.operand(1)) {
        ("remove" | "rm", _) => line.operands.get(1..)?,
        ("project" | "projects", Some("remove" | "rm")) => line.operands.get(2..)?,
        _ => return None,
    };
    let shown = if names.is_empty() {
        "the given projects or deployments".to_string()
    } else {
        list(names.iter().copied())
    };
    Some(
        Hit::new(
            &APP_DELETE,
            Tier::Destructive,
            format!(
                "deletes {shown}: a project goes with every deployment, domain assignment and \
                 environment variable"
            ),
        )
        .safer("`vercel ls` to see the deployments; `vercel env pull` to keep the environment; `vercel remove --safe` keeps aliased deployments")
        .recovery("none: redeploy from the repository and set the environment again"),
    )
}

fn netlify(args: &[Word]) -> Option<Hit> {
    let line = Line::parse(args, Style::Gnu, &["auth", "filter"]);
    if line.help() || line.operand(0)? != "sites:delete" {
        return None;
    }
    Some(
        Hit::new(
            &APP_DELETE,
            Tier::Destructive,
            format!(
                "deletes the site {} with its deploys, forms, environment variables and domain \
                 settings",
                line.operand(1)
                    .map_or_else(|| "given".to_string(), |s| format!("`{s}`"))
            ),
        )
        .safer("`netlify env:list` and `netlify sites:list` first")
        .recovery("none: create a new site and deploy again"),
    )
}

fn firebase(args: &[Word]) -> Option<Hit> {
    let line = Line::parse(
        args,
        Style::Gnu,
        &["P", "project", "database", "instance", "token"],
    );
    if line.help() {
        return None;
    }
    let project = line
        .value(&["P", "project"])
        .map_or_else(String::new, |p| format!(" in project `{p}`"));
    let path = line.operand(1);
    let hit = match line.operand(0)? {
        "firestore:delete" => Hit::new(
            &DATA_DELETE,
            Tier::Destructive,
            if line.on(&["all-collections"]) {
                format!("deletes every document in every Firestore collection{project}")
            } else {
                format!(
                    "deletes `{}`{}{project}",
                    path.unwrap_or("the given path"),
                    if line.on(&["r", "recursive"]) {
                        " and every document and subcollection under it"
                    } else {
                        ""
                    }
                )
            },
        )
        .safer("`gcloud firestore export gs://<bucket>` first")
        .recovery("`gcloud firestore import` from an export, or point-in-time recovery if it was on (7 days)"),
        "database:remove" => Hit::new(
            &DATA_DELETE,
            Tier::Destructive,
            format!(
                "deletes `{}` and everything under it in the Realtime Database{project}",
                path.unwrap_or("the given path")
            ),
        )
        .safer(format!(
            "`firebase database:get {} > backup.json` first",
            path.unwrap_or("<path>")
        ))
        .recovery("`firebase database:set <path> backup.json` from a copy, or a daily backup if that plan has them"),
        _ => return None,
    };
    Some(hit)
}
