//! Kubernetes: `kubectl delete` (and OpenShift's `oc delete`) of what holds a cluster's data or
//! everything at once, `helm uninstall` and `helmfile destroy`, Argo CD's cascading deletes,
//! and the tools that delete whole clusters (kops, eksctl, kubeadm, kind, k3d, minikube,
//! MicroK8s). A single pod or deployment is recreated from its manifest; a namespace, a volume
//! claim, a stateful set or a custom resource definition takes data with it.

mod argocd;
mod clusters;

use super::Pack;
use super::args::{Line, Style};
use crate::rules::git::list;
use crate::rules::{Hit, Rule, Tier};
use crate::shell::{SimpleCommand, Word};
use crate::syntax::kubectl;

pub use argocd::ARGOCD_DELETE;
pub use clusters::{CLUSTER_DELETE, LOCAL_CLUSTER_DELETE};

pub static DELETE_NAMESPACE: Rule = Rule {
    id: "k8s.delete-namespace",
    catches: "`kubectl delete namespace`/`ns`/`namespaces <name>` (also `ns/<name>`, `oc delete project`)",
    why: "Deleting a namespace deletes everything in it: deployments, services, secrets, config \
          maps and persistent volume claims, whose volumes usually go with them. Nothing in the \
          cluster keeps a copy.",
    instead: "`kubectl get all,pvc,secrets,configmaps -n <name>` to see what is in it; \
              `kubectl delete namespace <name> --dry-run=server` to check the request; delete \
              the workloads you mean by name.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "kubectl delete ns staging",
        "kubectl delete namespace prod",
        "kubectl --context dev delete namespaces team-a team-b",
        "kubectl delete ns/preview-42",
        "oc delete project demo",
    ],
    passes: &[
        "kubectl get ns",
        "kubectl create namespace staging",
        "kubectl delete ns staging --dry-run=server",
        "kubectl delete pod web-0 -n staging",
        "kubectl describe namespace staging",
        "echo kubectl delete ns staging",
    ],
};

pub static DELETE_STORAGE: Rule = Rule {
    id: "k8s.delete-storage",
    catches: "`kubectl delete pv`/`pvc`/`persistentvolume(claim)s ...`, of stateful sets \
              (`sts`) and of volume snapshots (`volumesnapshot`/`vs`, `volumesnapshotcontent`)",
    why: "A persistent volume claim is the data of a stateful workload (a database, a queue). \
          Deleting it releases the volume, and with the usual `Delete` reclaim policy the disk \
          itself is destroyed. Deleting a stateful set stops the database it runs and, where its \
          volume claim retention policy says `whenDeleted: Delete`, deletes its claims too. A \
          volume snapshot is the copy that brings a volume back; deleting it (with the usual \
          `Delete` deletion policy) deletes the snapshot in the storage system.",
    instead: "`kubectl get pvc -n <ns>` and `kubectl get pv` to check the reclaim policy; take a \
              volume snapshot first; `kubectl delete pvc <name> --dry-run=server`; \
              `kubectl delete sts <name> --cascade=orphan` leaves the pods and their data \
              running.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "kubectl delete pvc data-postgres-0",
        "kubectl delete pv pvc-3f2a",
        "kubectl -n db delete persistentvolumeclaims --all",
        "kubectl delete pvc/data-redis-0",
        "kubectl --context prod-eu delete statefulset db",
        "kubectl delete sts redis -n cache",
        "kubectl delete volumesnapshot nightly-2025-01-01",
    ],
    passes: &[
        "kubectl get pvc -A",
        "kubectl describe pv pvc-3f2a",
        "kubectl delete pvc data-postgres-0 --dry-run=client",
        "kubectl delete pod postgres-0",
        "kubectl get statefulsets -A",
        "kubectl delete sts redis --cascade=orphan",
        "kubectl rollout restart statefulset db",
    ],
};

pub static DELETE_BULK: Rule = Rule {
    id: "k8s.delete-bulk",
    catches: "`kubectl delete` with `--all`, `-A`/`--all-namespaces`, the type `all`, or of custom resource definitions",
    why: "These delete every matching object at once: all of a kind in a namespace, in every \
          namespace, or, for a custom resource definition, every custom resource of that kind \
          in the cluster with it.",
    instead: "`kubectl get <type> -A` to list what matches; `kubectl delete <type> <name>` for \
              the objects you mean; add `--dry-run=server` to check a bulk delete first.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "kubectl delete all --all",
        "kubectl delete pods --all -n ci",
        "kubectl delete deploy -A -l app=old",
        "kubectl delete crd certificates.cert-manager.io",
        "kubectl delete all -l app=web",
    ],
    passes: &[
        "kubectl get all --all-namespaces",
        "kubectl delete pod web-0",
        "kubectl delete deploy web -n staging",
        "kubectl delete all --all --dry-run=client",
        "kubectl get crd",
    ],
};

pub static DELETE_MANIFEST: Rule = Rule {
    id: "k8s.delete-manifest",
    catches: "`kubectl delete -f <file, folder, URL or ->` and `-k <dir>` (so also `kubectl delete -f -` fed by `kustomize build`)",
    why: "A manifest or kustomization usually declares a whole application: its namespace, \
          volume claims, secrets. Deleting by manifest removes all of it, and what the files \
          hold is only known when they are read.",
    instead: "`kubectl delete -f <file> --dry-run=server` (or `kubectl diff -f <file>`) to see \
              what would go; delete the objects you mean by name.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "kubectl delete -f k8s/",
        "kubectl delete -k overlays/staging",
        "kustomize build overlays/dev | kubectl delete -f -",
        "kubectl delete --filename=deploy.yaml",
    ],
    passes: &[
        "kubectl apply -f k8s/",
        "kubectl diff -f k8s/",
        "kubectl delete -f k8s/ --dry-run=server",
        "kustomize build overlays/dev | kubectl apply -f -",
    ],
};

pub static HELM_UNINSTALL: Rule = Rule {
    id: "k8s.helm-uninstall",
    catches: "`helm uninstall`/`delete`/`del`/`un <release>`, `helmfile destroy`/`delete`",
    why: "Uninstalling a release deletes every object its chart created, the claims of its \
          stateful sets aside only when the chart says so, and without `--keep-history` the \
          release history `helm rollback` needs. `helmfile destroy` does that to every release \
          the helmfile declares (or its selector matches) at once.",
    instead: "`helm uninstall <release> --dry-run` to list what goes; `helm get manifest \
              <release>` and `helm get values <release>` to keep a copy first; `helmfile list` \
              shows the releases `helmfile destroy` would remove.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "helm uninstall my-release",
        "helm delete redis -n cache",
        "helm un web --keep-history",
        "helm --kube-context dev del api",
        "helmfile destroy",
        "helmfile -e staging -l name=api destroy",
        "helmfile delete --purge",
    ],
    passes: &[
        "helm list -A",
        "helm uninstall my-release --dry-run",
        "helm repo rm bitnami",
        "helm upgrade --install web ./chart",
        "helm rollback web 3",
        "helmfile diff",
        "helmfile -e dev apply",
        "helmfile list",
        "helmfile destroy --help",
    ],
};

pub static PACK: Pack = Pack {
    id: "k8s",
    summary: "Kubernetes: `kubectl delete` of namespaces, volumes, stateful sets, snapshots, CRDs, `--all`/`-A`/`all`, by manifest; `helm uninstall`, `helmfile destroy`; Argo CD cascading deletes; cluster deletes (kops, eksctl, kubeadm reset, kind, k3d, minikube, MicroK8s)",
    default_on: true,
    programs: &[
        "kubectl",
        "oc",
        "helm",
        "helmfile",
        "argocd",
        "kops",
        "eksctl",
        "kubeadm",
        "kind",
        "k3d",
        "minikube",
        "microk8s",
        "microk8s.reset",
        "microk8s.kubectl",
        "microk8s.helm",
        "microk8s.helm3",
        "k3s",
    ],
    rules: &[
        &DELETE_NAMESPACE,
        &DELETE_STORAGE,
        &DELETE_BULK,
        &DELETE_MANIFEST,
        &HELM_UNINSTALL,
        &ARGOCD_DELETE,
        &CLUSTER_DELETE,
        &LOCAL_CLUSTER_DELETE,
    ],
    check,
};

/// `kubectl delete`'s options that take a separate value (the globals may come here too).
const KUBECTL_DELETE: &[&str] = &[
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
    "raw",
];

const HELM_GLOBAL: &[&str] = &[
    "n",
    "namespace",
    "kube-context",
    "kubeconfig",
    "kube-apiserver",
    "kube-as-user",
    "kube-as-group",
    "kube-token",
    "kube-ca-file",
    "kube-tls-server-name",
    "registry-config",
    "repository-cache",
    "repository-config",
    "burst-limit",
    "qps",
];

fn check(cmd: &SimpleCommand) -> Vec<Hit> {
    let args = cmd.args();
    let hit = match cmd.program() {
        Some(tool @ ("kubectl" | "oc" | "microk8s.kubectl")) => kubectl(tool, args, cmd),
        Some(tool @ ("helm" | "microk8s.helm" | "microk8s.helm3")) => helm(tool, args, cmd),
        // `microk8s kubectl ...`, `k3s kubectl ...`: the bundled client, same arguments.
        Some(tool @ ("microk8s" | "k3s")) => match args.split_first() {
            Some((client, rest)) if client.text == "kubectl" => {
                kubectl(&format!("{tool} {}", client.text), rest, cmd)
            }
            Some((client, rest)) if matches!(client.text.as_str(), "helm" | "helm3") => {
                helm(&format!("{tool} {}", client.text), rest, cmd)
            }
            _ if tool == "microk8s" => clusters::microk8s(args),
            _ => None,
        },
        Some("helmfile") => helmfile(args),
        Some("argocd") => argocd::check(args),
        Some(tool) => clusters::check(tool, args),
        None => None,
    };
    hit.into_iter().collect()
}

/// What kind of object a `kubectl delete` type names, for the rules here.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Namespace,
    Storage,
    Snapshot,
    Stateful,
    Definition,
    All,
    Other,
}

fn kind(resource: &str) -> Kind {
    // `persistentvolumeclaims.v1.`, `crd.apiextensions.k8s.io`: the name before the group.
    let name = resource.split('.').next().unwrap_or(resource);
    match name.to_ascii_lowercase().as_str() {
        "ns" | "namespace" | "namespaces" | "project" | "projects" => Kind::Namespace,
        "pv"
        | "pvc"
        | "persistentvolume"
        | "persistentvolumes"
        | "persistentvolumeclaim"
        | "persistentvolumeclaims" => Kind::Storage,
        "vs"
        | "vsc"
        | "volumesnapshot"
        | "volumesnapshots"
        | "volumesnapshotcontent"
        | "volumesnapshotcontents" => Kind::Snapshot,
        "sts" | "statefulset" | "statefulsets" => Kind::Stateful,
        "crd" | "crds" | "customresourcedefinition" | "customresourcedefinitions" => {
            Kind::Definition
        }
        "all" => Kind::All,
        _ => Kind::Other,
    }
}

/// `kubectl [globals] VERB [options]`: the global options, the verb, and the verb's line read
/// with `valued` (the globals may come after the verb too). `None` without a verb, and for
/// help or a dry run, which change nothing.
pub(super) fn kubectl_verb<'a>(
    args: &'a [Word],
    valued: &[&str],
) -> Option<(Line<'a>, &'a str, Line<'a>)> {
    let (globals, at) = Line::head(args, Style::Gnu, kubectl::GLOBAL_VALUED);
    let (verb, rest) = args.get(at?..)?.split_first()?;
    let valued: Vec<&str> = kubectl::GLOBAL_VALUED
        .iter()
        .chain(valued)
        .copied()
        .collect();
    let line = Line::parse(rest, Style::Gnu, &valued);
    if globals.help() || line.help() || line.dry_run(&["dry-run"]) {
        return None;
    }
    Some((globals, verb.text.as_str(), line))
}

fn kubectl(tool: &str, args: &[Word], cmd: &SimpleCommand) -> Option<Hit> {
    let (globals, verb, line) = kubectl_verb(args, KUBECTL_DELETE)?;
    if verb != "delete" {
        return None;
    }
    let namespace = line
        .value(&["n", "namespace"])
        .or_else(|| globals.value(&["n", "namespace"]));
    let in_ns = namespace.map_or(String::new(), |ns| format!(" in namespace `{ns}`"));
    let every_ns = line.on(&["A", "all-namespaces"]);
    let dry = format!("{} --dry-run=server", cmd.display());
    let all = line.on(&["all"]);

    if let Some(source) = line.value(&["f", "filename", "k", "kustomize"]) {
        let what = if source == "-" {
            "whatever the manifests piped in declare".to_string()
        } else {
            format!("everything `{source}` declares")
        };
        return Some(
            Hit::new(
                &DELETE_MANIFEST,
                Tier::Destructive,
                format!("deletes {what}, which can include namespaces, volume claims and secrets"),
            )
            .safer(format!(
                "`{dry}` to see what would go; delete the objects you mean by name"
            ))
            .recovery(
                "re-apply the manifests to recreate the objects; data in deleted volumes comes \
                 back only from a backup or volume snapshot",
            ),
        );
    }

    let types = line.operand(0)?;
    // `type/name` works in the type list and as later operands (`delete ns/a ns/b`).
    let mut kinds = Vec::new();
    let mut names = Vec::new();
    for part in types.split(',') {
        match part.split_once('/') {
            Some((resource, name)) => {
                kinds.push(kind(resource));
                names.push(name);
            }
            None => kinds.push(kind(part)),
        }
    }
    for operand in line.operands.get(1..).unwrap_or_default() {
        match operand.split_once('/') {
            Some((resource, name)) => {
                kinds.push(kind(resource));
                names.push(name);
            }
            None => names.push(operand),
        }
    }
    let selected = line.value(&["l", "selector", "field-selector"]).is_some();
    let shown = if all || every_ns || names.is_empty() {
        None
    } else {
        Some(list(names.iter().copied()))
    };
    let scope = if every_ns {
        " in every namespace".to_string()
    } else {
        in_ns.clone()
    };
    let recovery_data = "data in deleted volumes comes back only from a backup or volume \
                         snapshot (Velero, CSI snapshots)";

    let kind = kinds.iter().copied().min().unwrap_or(Kind::Other);
    // kubectl refuses a type with no name, `--all` or selector, unless xargs adds the names.
    if names.is_empty() && !(all || every_ns || selected || cmd.uncertain || kind == Kind::All) {
        return None;
    }
    let hit = match kind {
        Kind::Namespace => {
            let which = shown.map_or_else(
                || "every namespace it matches".to_string(),
                |n| format!("the namespace {n}"),
            );
            Hit::new(
                &DELETE_NAMESPACE,
                Tier::Destructive,
                format!(
                    "deletes {which} and everything in it: deployments, services, secrets, \
                     config maps and persistent volume claims (their volumes usually go too)"
                ),
            )
            .safer(format!(
                "`{tool} get all,pvc,secrets,configmaps -n {}` to see what is in it; `{dry}` to \
                 check the request",
                match names[..] {
                    [one] => one,
                    _ => "<namespace>",
                }
            ))
            .recovery(format!(
                "re-apply the manifests from version control; {recovery_data}"
            ))
        }
        Kind::Storage => {
            let which = shown.map_or_else(
                || format!("every persistent volume (claim) it matches{scope}"),
                |n| format!("the persistent volume (claim) {n}{scope}"),
            );
            Hit::new(
                &DELETE_STORAGE,
                Tier::Destructive,
                format!(
                    "deletes {which}; with the usual `Delete` reclaim policy the disk and its \
                     data go too"
                ),
            )
            .safer(format!(
                "`{tool} get pv` to check the reclaim policy (set it to `Retain` to keep the \
                 disk); take a volume snapshot first; `{dry}` to check the request"
            ))
            .recovery(format!(
                "{recovery_data}; a `Retain`ed volume can be bound again"
            ))
        }
        // `--cascade=orphan` leaves the pods, and so the volumes they use, running.
        Kind::Stateful if line.value(&["cascade"]) == Some("orphan") => return None,
        Kind::Stateful => {
            let which = shown.map_or_else(
                || format!("every stateful set it matches{scope}"),
                |n| format!("the stateful set {n}{scope}"),
            );
            Hit::new(
                &DELETE_STORAGE,
                Tier::Destructive,
                format!(
                    "deletes {which}: its pods stop (the database or queue it runs goes down), \
                     and where its volume claim retention policy is `whenDeleted: Delete` its \
                     volume claims and their data go too"
                ),
            )
            .safer(format!(
                "`{tool} get sts -o yaml` to keep its definition and see its retention policy; \
                 `{} --cascade=orphan` leaves the pods running; `{dry}` to check the request",
                cmd.display()
            ))
            .recovery(format!(
                "re-apply the stateful set: retained claims are bound again by the new pods; \
                 {recovery_data}"
            ))
        }
        Kind::Snapshot => {
            let which = shown.map_or_else(
                || format!("every volume snapshot it matches{scope}"),
                |n| format!("the volume snapshot {n}{scope}"),
            );
            Hit::new(
                &DELETE_STORAGE,
                Tier::Destructive,
                format!(
                    "deletes {which}; with the usual `Delete` deletion policy the snapshot in \
                     the storage system goes too, and with it the way back for its volume"
                ),
            )
            .safer(format!(
                "`{tool} get volumesnapshotcontent` to check the deletion policy (set it to \
                 `Retain` to keep the snapshot); `{dry}` to check the request"
            ))
            .recovery(
                "none once the storage system deleted it; a `Retain`ed snapshot content can be \
                 bound again",
            )
        }
        Kind::Definition => {
            let which = shown.map_or_else(
                || "custom resource definitions".to_string(),
                |n| format!("the custom resource definition {n}"),
            );
            Hit::new(
                &DELETE_BULK,
                Tier::Destructive,
                format!(
                    "deletes {which} and, with it, every custom resource of that kind in every \
                     namespace"
                ),
            )
            .safer(format!(
                "`{tool} get <kind> -A` to see the custom resources that would go; export \
                 them with `{tool} get <kind> -A -o yaml` first"
            ))
            .recovery("re-create the definition and re-apply the custom resources from version control or an export")
        }
        _ if all || every_ns || kind == Kind::All => {
            let what = if kind == Kind::All {
                "every deployment, stateful set, service, pod and job".to_string()
            } else {
                format!("every `{types}`")
            };
            let filter = if selected {
                " matching the selector"
            } else {
                ""
            };
            Hit::new(
                &DELETE_BULK,
                Tier::Destructive,
                format!("deletes {what}{filter}{scope}"),
            )
            .safer(format!(
                "`{tool} get {types}{}` to list what matches; delete the objects you mean by \
                 name, or run `{dry}` first",
                if every_ns { " -A" } else { "" }
            ))
            .recovery("re-apply the manifests from version control to recreate the objects")
        }
        _ => return None,
    };
    Some(hit)
}

fn helm(tool: &str, args: &[Word], cmd: &SimpleCommand) -> Option<Hit> {
    let (globals, at) = Line::head(args, Style::Gnu, HELM_GLOBAL);
    let (verb, rest) = args.get(at?..)?.split_first()?;
    if !matches!(verb.text.as_str(), "uninstall" | "delete" | "del" | "un") {
        return None;
    }
    let valued: Vec<&str> = HELM_GLOBAL
        .iter()
        .chain(&["timeout", "cascade", "description"])
        .copied()
        .collect();
    let line = Line::parse(rest, Style::Gnu, &valued);
    if globals.help() || line.help() || line.on(&["dry-run"]) {
        return None;
    }
    let releases = if line.operands.is_empty() {
        "the release".to_string()
    } else {
        format!(
            "the release{} {}",
            if line.operands.len() == 1 { "" } else { "s" },
            list(line.operands.iter().copied())
        )
    };
    let kept = line.on(&["keep-history"]);
    let recovery = if kept {
        "`helm rollback <release> <revision>` re-creates the objects (the history was kept); \
         data in deleted volumes comes back only from a backup"
    } else {
        "re-install the chart with the same values; data in deleted volumes comes back only \
         from a backup"
    };
    Some(
        Hit::new(
            &HELM_UNINSTALL,
            Tier::Destructive,
            format!(
                "uninstalls {releases}: every object the chart created goes (deployments, \
                 services, secrets, and volume claims the chart owns){}",
                if kept {
                    ""
                } else {
                    ", and so does the release history `helm rollback` needs"
                }
            ),
        )
        .safer(format!(
            "`{} --dry-run` to list what goes; `{tool} get values` and `{tool} get manifest` to \
             keep a copy first",
            cmd.display()
        ))
        .recovery(recovery),
    )
}

/// helmfile's options that take a separate value (global ones and `destroy`'s).
const HELMFILE_VALUED: &[&str] = &[
    "f",
    "file",
    "e",
    "environment",
    "l",
    "selector",
    "n",
    "namespace",
    "kube-context",
    "b",
    "helm-binary",
    "state-values-set",
    "state-values-set-string",
    "state-values-file",
    "chart",
    "c",
    "log-level",
    "kustomize-binary",
    "k",
    "concurrency",
    "args",
    "cascade",
    "deleteTimeout",
    "deleteWait",
];

/// `helmfile destroy`, and `delete`, its older name: `helm uninstall` of every release the
/// helmfile declares, or those its selector matches.
fn helmfile(args: &[Word]) -> Option<Hit> {
    let line = Line::parse(args, Style::Gnu, HELMFILE_VALUED);
    if line.help() || !matches!(line.operand(0), Some("destroy" | "delete")) {
        return None;
    }
    let which = match line.value(&["l", "selector"]) {
        Some(selector) => format!("every release matching `{selector}`"),
        None => "every release".to_string(),
    };
    let from = line
        .value(&["f", "file"])
        .map_or_else(String::new, |f| format!(" in `{f}`"));
    let env = line
        .value(&["e", "environment"])
        .map_or_else(String::new, |e| format!(" (environment `{e}`)"));
    Some(
        Hit::new(
            &HELM_UNINSTALL,
            Tier::Destructive,
            format!(
                "uninstalls {which} the helmfile declares{from}{env}: every object their charts \
                 created goes, with the volume claims the charts own and the release history \
                 `helm rollback` needs"
            ),
        )
        .safer(
            "`helmfile list` with the same `-f`/`-e`/`-l` options lists the releases it would \
             remove; `helm get values <release>` keeps a copy of each first",
        )
        .recovery(
            "`helmfile sync` re-installs the releases; data in deleted volumes comes back only \
             from a backup",
        ),
    )
}
