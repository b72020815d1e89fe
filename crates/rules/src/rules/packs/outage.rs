//! Production outages: taking a running service down without losing data, by deleting a
//! workload or the service in front of it, scaling it to zero or rolling it back (Kubernetes,
//! Helm, Fly.io, Heroku, Cloud Run, ECS, App Service, Vercel). Outside production that is
//! routine, and passes; where the command names production it takes users' service away, so
//! it is a finding there only ([`Hit::only_in_production`]), and naming production makes
//! every pack finding protected.

use super::Pack;
use super::args::{Line, Style};
use crate::rules::{Hit, Rule, Tier};
use crate::shell::{SimpleCommand, Word};

pub static PRODUCTION_DOWN: Rule = Rule {
    id: "outage.production-down",
    catches: "in production only: `kubectl delete deployment|daemonset|replicaset|service|ingress|cronjob`, \
              `kubectl scale --replicas=0`, `kubectl rollout undo`; `helm rollback`; `fly scale \
              count 0`; `heroku ps:scale web=0`, `heroku rollback`; `gcloud run services \
              delete`; `aws ecs update-service --desired-count 0`, `aws ecs delete-service`; \
              `az webapp|functionapp delete|stop`; `vercel rollback`",
    why: "No data is lost, but production stops serving: a deleted deployment or service, a \
          workload scaled to zero, an app stopped or deleted takes users' requests away until \
          someone brings it back, and a rollback puts an older release in front of them. The \
          same commands against staging or a preview pass.",
    instead: "Ask the user, who can run it against production themselves; try it on staging \
              first; `kubectl rollout pause` or `--dry-run=server` to look before acting.",
    // A finding only where production is named, which makes every pack finding protected.
    protected_when: Some("always"),
    strict_only: false,
    stops: &[
        "kubectl --context prod delete deployment web",
        "kubectl -n production scale deployment web --replicas=0",
        "kubectl rollout undo deployment/web -n prod",
        "helm rollback web 3 --kube-context prod",
        "fly scale count 0 -a shop-prod",
        "heroku ps:scale web=0 -a shop-production",
        "gcloud run services delete api --project acme-prod",
        "aws ecs update-service --cluster prod --service web --desired-count 0",
        "az webapp stop -g rg-prod -n shop",
    ],
    passes: &[
        "kubectl --context staging delete deployment web",
        "kubectl -n staging scale deployment web --replicas=0",
        "kubectl -n prod scale deployment web --replicas=3",
        "kubectl rollout undo deployment/web -n dev",
        "kubectl --context prod get deployment web",
        "helm rollback web 3 --kube-context staging",
        "fly scale count 0 -a shop-staging",
        "heroku ps:scale web=2 -a shop-production",
        "gcloud run services describe api --project acme-prod",
        "aws ecs update-service --cluster prod --service web --desired-count 2",
        "az webapp start -g rg-prod -n shop",
    ],
};

pub static PACK: Pack = Pack {
    id: "outage",
    summary: "production outages: workloads and services deleted, scaled to zero, stopped or rolled back, where the command names production (Kubernetes, Helm, Fly.io, Heroku, Cloud Run, ECS, App Service, Vercel)",
    default_on: true,
    programs: &[
        "kubectl", "oc", "helm", "fly", "flyctl", "heroku", "gcloud", "aws", "az", "vercel",
    ],
    rules: &[&PRODUCTION_DOWN],
    check,
};

fn check(cmd: &SimpleCommand) -> Vec<Hit> {
    let args = cmd.args();
    let down = match cmd.program() {
        Some("kubectl" | "oc") => kubectl(args),
        Some("helm") => helm(args),
        Some("fly" | "flyctl") => fly(args),
        Some("heroku") => heroku(args),
        Some("gcloud") => gcloud(args),
        Some("aws") => ecs(args),
        Some("az") => az(args),
        Some("vercel") => vercel(args),
        _ => None,
    };
    down.map(|(what, back)| {
        Hit::new(
            &PRODUCTION_DOWN,
            Tier::Destructive,
            format!("{what}: production stops serving until someone brings it back"),
        )
        .recovery(back)
        .only_in_production()
    })
    .into_iter()
    .collect()
}

/// What goes down, and how it comes back.
type Down = (String, &'static str);

/// Options of `kubectl delete|scale|rollout` that take a value.
const KUBECTL_VALUED: &[&str] = &[
    "l",
    "selector",
    "f",
    "filename",
    "k",
    "kustomize",
    "o",
    "output",
    "field-selector",
    "grace-period",
    "timeout",
    "cascade",
    "replicas",
    "current-replicas",
    "resource-version",
    "to-revision",
    "template",
    "dry-run",
];

/// The kinds whose deletion stops serving without taking data: a stateful set's and the
/// rest are the kubernetes pack's.
fn serving_kind(kind: &str) -> bool {
    let name = kind.split('.').next().unwrap_or(kind);
    matches!(
        name.to_ascii_lowercase().as_str(),
        "deploy"
            | "deployment"
            | "deployments"
            | "ds"
            | "daemonset"
            | "daemonsets"
            | "rs"
            | "replicaset"
            | "replicasets"
            | "svc"
            | "service"
            | "services"
            | "ing"
            | "ingress"
            | "ingresses"
            | "cj"
            | "cronjob"
            | "cronjobs"
            | "dc"
            | "deploymentconfig"
            | "deploymentconfigs"
            | "route"
            | "routes"
    )
}

fn kubectl(args: &[Word]) -> Option<Down> {
    let (_, verb, line) = super::k8s::kubectl_verb(args, KUBECTL_VALUED)?;
    match verb {
        // A file, a kustomization or every object at once is the kubernetes pack's.
        "delete" if !line.given(&["f", "filename", "k", "kustomize", "all"]) => {
            let first = line.operand(0)?;
            let named: Vec<&str> = if first.contains('/') {
                line.operands.clone()
            } else {
                first.split(',').collect()
            };
            let kinds: Vec<&str> = named
                .iter()
                .map(|n| n.split('/').next().unwrap_or(n))
                .filter(|kind| serving_kind(kind))
                .collect();
            if kinds.is_empty() {
                return None;
            }
            Some((
                format!("deletes {}", line.operands.join(" ")),
                "re-apply its manifest (`kubectl apply -f <manifest>`)",
            ))
        }
        "scale" if line.value(&["replicas"]) == Some("0") => Some((
            format!("scales {} to zero replicas", line.operands.join(" ")),
            "scale it back (`kubectl scale --replicas=<N>`)",
        )),
        "rollout" if line.operand(0) == Some("undo") => Some((
            format!(
                "rolls {} back to an older release",
                line.operands.get(1..).unwrap_or_default().join(" ")
            ),
            "`kubectl rollout undo --to-revision=<the current revision>`",
        )),
        _ => None,
    }
}

const HELM_VALUED: &[&str] = &[
    "n",
    "namespace",
    "kube-context",
    "kubeconfig",
    "kube-apiserver",
    "kube-token",
    "kube-as-user",
    "kube-as-group",
    "kube-ca-file",
    "kube-tls-server-name",
    "registry-config",
    "repository-cache",
    "repository-config",
    "burst-limit",
    "qps",
    "timeout",
    "history-max",
];

fn helm(args: &[Word]) -> Option<Down> {
    let line = Line::parse(args, Style::Gnu, HELM_VALUED);
    if line.help() || line.dry_run(&["dry-run"]) || line.operand(0) != Some("rollback") {
        return None;
    }
    let release = line.operand(1)?;
    Some((
        format!("rolls release `{release}` back to an older revision"),
        "`helm history <release>`, then `helm rollback <release> <the current revision>`",
    ))
}

fn fly(args: &[Word]) -> Option<Down> {
    let line = Line::parse(
        args,
        Style::Gnu,
        &[
            "a",
            "app",
            "c",
            "config",
            "r",
            "region",
            "process-group",
            "max-per-region",
            "vm-size",
        ],
    );
    let counts = line.operands.get(2..).unwrap_or_default();
    if line.help()
        || line.operands.get(..2) != Some(&["scale", "count"])
        || counts.is_empty()
        || !counts
            .iter()
            .all(|c| c.rsplit('=').next().is_some_and(|n| n == "0"))
    {
        return None;
    }
    let app = line.value(&["a", "app"]).unwrap_or("of fly.toml");
    Some((
        format!("scales app `{app}` to zero machines"),
        "`fly scale count <N>`",
    ))
}

fn heroku(args: &[Word]) -> Option<Down> {
    let line = Line::parse(args, Style::Gnu, &["a", "app", "r", "remote"]);
    let app = line
        .value(&["a", "app"])
        .unwrap_or("of this folder's git remote");
    match line.operand(0)? {
        "ps:scale" | "scale" => {
            let zero: Vec<&str> = line
                .operands
                .iter()
                .skip(1)
                .filter_map(|spec| spec.split_once('='))
                .filter(|(_, n)| n.split(':').next() == Some("0"))
                .map(|(process, _)| process)
                .collect();
            (!zero.is_empty()).then(|| {
                (
                    format!(
                        "scales `{}` of app `{app}` to zero dynos",
                        zero.join("`, `")
                    ),
                    "`heroku ps:scale <process>=<N>`",
                )
            })
        }
        "rollback" | "releases:rollback" => Some((
            format!("rolls app `{app}` back to an older release"),
            "`heroku releases`, then `heroku rollback <the current release>`",
        )),
        _ => None,
    }
}

fn gcloud(args: &[Word]) -> Option<Down> {
    let line = Line::parse(
        args,
        Style::Gnu,
        &[
            "project",
            "region",
            "account",
            "configuration",
            "impersonate-service-account",
            "billing-project",
            "flags-file",
            "verbosity",
            "format",
            "platform",
            "cluster",
            "cluster-location",
            "namespace",
            "kubeconfig",
            "context",
        ],
    );
    let path: Vec<&str> = line
        .operands
        .iter()
        .copied()
        .skip_while(|w| matches!(*w, "alpha" | "beta"))
        .collect();
    if line.help() || path.get(..3) != Some(&["run", "services", "delete"]) {
        return None;
    }
    let service = path.get(3)?;
    Some((
        format!("deletes Cloud Run service `{service}`"),
        "`gcloud run deploy <service>` again from its image and settings",
    ))
}

fn ecs(args: &[Word]) -> Option<Down> {
    let line = Line::parse(
        args,
        Style::Gnu,
        &[
            "cluster",
            "service",
            "desired-count",
            "task-definition",
            "profile",
            "region",
            "output",
            "query",
            "endpoint-url",
            "cli-input-json",
            "cli-input-yaml",
            "deployment-configuration",
            "network-configuration",
            "capacity-provider-strategy",
            "launch-type",
            "platform-version",
            "health-check-grace-period-seconds",
        ],
    );
    if line.operand(0) != Some("ecs") || line.help() {
        return None;
    }
    let service = line.value(&["service"]).unwrap_or("named in its input");
    match line.operand(1)? {
        "update-service" if line.value(&["desired-count"]) == Some("0") => Some((
            format!("scales ECS service `{service}` to zero tasks"),
            "`aws ecs update-service --desired-count <N>`",
        )),
        "delete-service" => Some((
            format!("deletes ECS service `{service}`"),
            "`aws ecs create-service` again from its task definition",
        )),
        _ => None,
    }
}

fn az(args: &[Word]) -> Option<Down> {
    let line = Line::parse(
        args,
        Style::Gnu,
        &[
            "g",
            "resource-group",
            "n",
            "name",
            "s",
            "slot",
            "subscription",
            "ids",
            "o",
            "output",
            "query",
        ],
    );
    let app = line.operand(0)?;
    if line.help() || !matches!(app, "webapp" | "functionapp") {
        return None;
    }
    let name = line.value(&["n", "name"]).unwrap_or("of --ids");
    match line.operand(1)? {
        "stop" => Some((
            format!("stops {app} `{name}`"),
            "`az webapp start` (or `az functionapp start`)",
        )),
        "delete" => Some((
            format!("deletes {app} `{name}`"),
            "create and deploy it again",
        )),
        _ => None,
    }
}

fn vercel(args: &[Word]) -> Option<Down> {
    let line = Line::parse(
        args,
        Style::Gnu,
        &[
            "S",
            "scope",
            "t",
            "token",
            "A",
            "local-config",
            "Q",
            "global-config",
            "cwd",
            "timeout",
        ],
    );
    if line.help() || line.operand(0) != Some("rollback") {
        return None;
    }
    let to = line.operand(1).unwrap_or("the previous deployment");
    Some((
        format!("puts {to} back in front of production's domains"),
        "`vercel promote <the current deployment>`",
    ))
}

#[cfg(test)]
mod tests {
    use super::super::judged;
    use crate::rules::Tier;
    use crate::settings::Settings;

    #[test]
    fn an_outage_is_protected_in_production_and_nothing_elsewhere() {
        let settings = Settings::default();
        for command in [
            "kubectl --context prod delete deployment web",
            "ssh prod-bastion kubectl delete deployment web",
            "AWS_PROFILE=production aws ecs delete-service --service web",
            "heroku ps:scale web=0 worker=0 -r production",
        ] {
            assert_eq!(
                judged(command, &settings),
                [(super::PRODUCTION_DOWN.id, Tier::Protected)],
                "{command}"
            );
        }
        for command in [
            "kubectl --context staging delete deployment web",
            "ssh staging-bastion kubectl delete deployment web",
            "kubectl --context prod delete deployment web --dry-run=client",
            "kubectl --context prod scale deployment web --replicas=1",
            "kubectl --context prod rollout history deployment/web",
            "heroku ps:scale web=1 -r production",
        ] {
            assert_eq!(judged(command, &settings), [], "{command}");
        }
        let off = Settings {
            production: Vec::new(),
            ..Settings::default()
        };
        assert_eq!(
            judged("kubectl --context prod delete deployment web", &off),
            []
        );
    }
}
