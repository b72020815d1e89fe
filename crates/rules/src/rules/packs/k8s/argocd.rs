//! Argo CD: `argocd app delete`, which cascades to every resource the application manages
//! unless told not to, and `argocd appset delete`, which takes its generated applications along.

use crate::rules::git::list;
use crate::rules::packs::args::{Line, Style};
use crate::rules::{Hit, Rule, Tier};
use crate::shell::Word;

pub static ARGOCD_DELETE: Rule = Rule {
    id: "k8s.argocd-delete",
    catches: "`argocd app delete <app>...`/`-l <selector>` (cascading, the default) and \
              `argocd appset delete <set>...`",
    why: "`argocd app delete` cascades by default: Argo CD deletes every Kubernetes resource the \
          application manages (deployments, stateful sets, volume claims, secrets) along with \
          the application. Deleting an application set deletes the applications it generated, \
          and with them their resources unless the set preserves them.",
    instead: "`argocd app delete <app> --cascade=false` removes only the Argo CD application and \
              leaves the workloads running; `argocd app resources <app>` lists what a cascading \
              delete would take.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "argocd app delete shop --cascade",
        "argocd app delete shop -y",
        "argocd app delete -l team=payments --yes",
        "argocd --server argocd.example.com app delete api web",
        "argocd appset delete previews",
    ],
    passes: &[
        "argocd app delete shop --cascade=false",
        "argocd app list",
        "argocd app get shop",
        "argocd app resources shop",
        "argocd app sync shop --dry-run --prune",
        "argocd appset list",
        "argocd app delete --help",
    ],
};

/// argocd options that take a separate value: global ones and `app delete`'s.
const VALUED: &[&str] = &[
    "server",
    "auth-token",
    "config",
    "argocd-context",
    "grpc-web-root-path",
    "H",
    "header",
    "client-crt",
    "client-crt-key",
    "logformat",
    "loglevel",
    "port-forward-namespace",
    "kube-context",
    "redis-haproxy-name",
    "redis-name",
    "repo-server-name",
    "server-name",
    "server-crt",
    "http-retry-max",
    "redis-compress",
    "N",
    "app-namespace",
    "p",
    "propagation-policy",
    "l",
    "selector",
    "o",
    "output",
];

pub(super) fn check(args: &[Word]) -> Option<Hit> {
    let line = Line::parse(args, Style::Gnu, VALUED);
    if line.help() {
        return None;
    }
    let (group, names) = match line.operands.as_slice() {
        [group, "delete", names @ ..] => (*group, names),
        _ => return None,
    };
    let named = if let Some(selector) = line.value(&["l", "selector"]) {
        format!("every {{}} matching `{selector}`")
    } else if names.is_empty() {
        "the {} given".to_string()
    } else {
        format!("{{}} {}", list(names.iter().copied()))
    };
    match group {
        "app" | "apps" | "application" | "applications" => {
            if !line.on(&["cascade"]) && line.given(&["cascade"]) {
                return None;
            }
            let which = named.replace("{}", "application");
            Some(
                Hit::new(
                    &ARGOCD_DELETE,
                    Tier::Destructive,
                    format!(
                        "deletes {which} and, cascading (the default), every resource it \
                         manages in the cluster: deployments, stateful sets, volume claims and \
                         their volumes, secrets"
                    ),
                )
                .safer(
                    "`argocd app delete <app> --cascade=false` removes only the application; \
                     `argocd app resources <app>` lists what a cascading delete takes",
                )
                .recovery(
                    "re-create the application from Git and sync it to bring the objects back; \
                     data in deleted volumes comes back only from a backup or volume snapshot",
                ),
            )
        }
        "appset" | "appsets" | "applicationset" | "applicationsets" => {
            let which = named.replace("{}", "application set");
            Some(
                Hit::new(
                    &ARGOCD_DELETE,
                    Tier::Destructive,
                    format!(
                        "deletes {which} and every application it generated, whose resources \
                         go with them unless the set preserves resources on deletion"
                    ),
                )
                .safer(
                    "`argocd appset get <set>` to check `preserveResourcesOnDeletion`; set it \
                     before deleting the set to keep the workloads",
                )
                .recovery(
                    "re-create the application set from Git; data in deleted volumes comes \
                     back only from a backup or volume snapshot",
                ),
            )
        }
        _ => None,
    }
}
