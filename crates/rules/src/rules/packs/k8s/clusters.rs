//! Whole clusters: cloud clusters deleted by kops or eksctl, a node wiped by `kubeadm reset`,
//! and the local clusters of kind, k3d, minikube and MicroK8s. Everything a cluster runs and
//! every volume it provisioned goes with it.

use crate::rules::git::list;
use crate::rules::packs::args::{Line, Style};
use crate::rules::{Hit, Rule, Tier};
use crate::shell::Word;

pub static CLUSTER_DELETE: Rule = Rule {
    id: "k8s.cluster-delete",
    catches: "`kops delete cluster`/`instancegroup`/`-f` with `--yes`, `eksctl delete \
              cluster`/`nodegroup`, `kubeadm reset` (without `--dry-run`)",
    why: "Deleting a cluster deletes its machines, its load balancers and the volumes it \
          provisioned, and kops also removes the cluster's spec from its state store. \
          `kubeadm reset` wipes a node's Kubernetes state, on a control-plane node the local \
          etcd data: on a single-node control plane that is the whole cluster's state.",
    instead: "`kops delete cluster <name>` without `--yes` only lists what it would delete; \
              `eksctl get cluster` / `eksctl get nodegroup --cluster <name>` to see what is \
              there; `kubeadm reset --dry-run`; back up first (Velero, `etcdctl snapshot save`).",
    protected_when: None,
    strict_only: false,
    stops: &[
        "kops delete cluster --name k8s.example.com --yes",
        "kops delete cluster k8s.example.com -y --state s3://kops-state",
        "kops delete ig nodes-us-east-1a --name k8s.example.com --yes",
        "kops delete -f cluster.yaml --yes",
        "eksctl delete cluster --name demo --region eu-west-1",
        "eksctl delete cluster -f cluster.yaml --wait",
        "eksctl delete nodegroup --cluster demo --name ng-1",
        "kubeadm reset -f",
        "sudo kubeadm reset",
    ],
    passes: &[
        "kops delete cluster --name k8s.example.com",
        "kops get cluster k8s.example.com -o yaml",
        "kops update cluster --name k8s.example.com --yes",
        "eksctl get cluster",
        "eksctl get nodegroup --cluster demo",
        "eksctl delete nodegroup -f cluster.yaml --only-missing",
        "eksctl create cluster --name demo",
        "kubeadm reset --dry-run",
        "kubeadm token list",
        "kubeadm upgrade plan",
    ],
};

pub static LOCAL_CLUSTER_DELETE: Rule = Rule {
    id: "k8s.local-cluster-delete",
    catches: "`kind delete cluster(s)`, `k3d cluster delete`, `minikube delete` (`--all`, \
              `--purge`), `microk8s reset`",
    why: "A local cluster keeps its workloads, their volumes and any data loaded into it inside \
          its node containers or VM. Deleting the cluster deletes all of it; `minikube delete \
          --purge` also deletes `~/.minikube`, and `microk8s reset --destroy-storage` the \
          volumes MicroK8s provisioned.",
    instead: "Stop the cluster instead (`minikube stop`, `k3d cluster stop`, `microk8s stop`); \
              `kind get clusters` / `k3d cluster list` / `minikube profile list` to check which \
              cluster is meant; `kubectl get pvc -A` to see what data it holds.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "kind delete cluster",
        "kind delete cluster --name dev",
        "kind delete clusters --all",
        "k3d cluster delete dev",
        "k3d cluster rm --all",
        "minikube delete",
        "minikube delete --all --purge",
        "minikube delete -p staging",
        "microk8s reset --destroy-storage",
    ],
    passes: &[
        "kind get clusters",
        "kind create cluster --name dev",
        "kind export kubeconfig",
        "k3d cluster list",
        "k3d cluster stop dev",
        "minikube stop",
        "minikube status",
        "minikube profile list",
        "microk8s status",
        "microk8s stop",
    ],
};

/// Options of these tools that take a separate value (their global ones and their delete's).
const VALUED: &[&str] = &[
    "name",
    "state",
    "config",
    "f",
    "filename",
    "config-file",
    "v",
    "verbose",
    "vmodule",
    "log_dir",
    "log_file",
    "o",
    "output",
    "cluster",
    "region",
    "r",
    "profile",
    "p",
    "timeout",
    "color",
    "C",
    "cri-socket",
    "cert-dir",
    "kubeconfig",
    "ignore-preflight-errors",
    "skip-phases",
    "rootfs",
    "n",
    "verbosity",
];

pub(super) fn check(tool: &str, args: &[Word]) -> Option<Hit> {
    let line = Line::parse(args, Style::Gnu, VALUED);
    if line.help() {
        return None;
    }
    match tool {
        "kops" => kops(&line),
        "eksctl" => eksctl(&line),
        "kubeadm" => kubeadm(&line),
        "kind" => kind(&line),
        "k3d" => k3d(&line),
        "minikube" => minikube(&line),
        "microk8s.reset" => microk8s_reset(&line),
        _ => None,
    }
}

/// `microk8s <subcommand>`, when it is not the bundled kubectl or helm.
pub(super) fn microk8s(args: &[Word]) -> Option<Hit> {
    let line = Line::parse(args, Style::Gnu, VALUED);
    if line.help() || line.operand(0) != Some("reset") {
        return None;
    }
    microk8s_reset(&line)
}

fn named(line: &Line, fallback: &str) -> String {
    match (line.value(&["name"]), line.operand(2)) {
        (Some(name), _) | (None, Some(name)) => format!("`{name}`"),
        (None, None) => fallback.to_string(),
    }
}

fn kops(line: &Line) -> Option<Hit> {
    if line.operand(0) != Some("delete") || !line.on(&["y", "yes"]) {
        return None;
    }
    let preview = "the same command without `--yes` lists what it would delete; `kops get \
                   cluster <name> -o yaml --full` keeps a copy of the spec";
    let (loses, recovery) = match line.operand(1) {
        Some("cluster" | "clusters") => (
            format!(
                "deletes the cluster {} with its cloud resources (instances, the etcd and \
                 application volumes, load balancers, DNS records, its network) and removes its \
                 spec from the state store",
                named(line, "named by `--name`/`KOPS_CLUSTER_NAME`")
            ),
            "none: the cluster's volumes are deleted; only backups taken before (Velero, etcd \
             snapshots) bring its data back",
        ),
        Some("instancegroup" | "instancegroups" | "ig") => (
            format!(
                "deletes the instance group {} and terminates its instances with their local \
                 disks",
                line.operand(2)
                    .map_or("given".to_string(), |ig| format!("`{ig}`"))
            ),
            "`kops create instancegroup` again from a saved spec re-creates the machines; \
             what was on their local disks is gone",
        ),
        _ if line.given(&["f", "filename"]) => (
            format!(
                "deletes every cluster and instance group `{}` declares, with their cloud \
                 resources",
                line.value(&["f", "filename"]).unwrap_or("the file")
            ),
            "none for the deleted volumes; only backups taken before bring their data back",
        ),
        _ => return None,
    };
    Some(
        Hit::new(&CLUSTER_DELETE, Tier::Destructive, loses)
            .safer(preview)
            .recovery(recovery),
    )
}

fn eksctl(line: &Line) -> Option<Hit> {
    if line.operand(0) != Some("delete") {
        return None;
    }
    // With `--only-missing`, eksctl only plans the deletion until `--approve` is given.
    if line.on(&["only-missing"]) && !line.on(&["approve"]) {
        return None;
    }
    let cluster = line
        .value(&["cluster"])
        .or_else(|| {
            line.value(&["name", "n"])
                .filter(|_| line.operand(1) == Some("cluster"))
        })
        .or_else(|| {
            line.operand(2)
                .filter(|_| line.operand(1) == Some("cluster"))
        });
    let file = line.value(&["f", "config-file"]);
    let which = match (cluster, file) {
        (Some(name), _) => format!("`{name}`"),
        (None, Some(file)) => format!("declared in `{file}`"),
        (None, None) => "given".to_string(),
    };
    let loses = match line.operand(1) {
        Some("cluster" | "clusters") => format!(
            "deletes the EKS cluster {which}, its node groups and the stacks eksctl created: \
             every workload goes, and the volumes it provisioned unless their reclaim policy \
             retains them"
        ),
        Some("nodegroup" | "nodegroups" | "ng") => format!(
            "deletes node group {} of the cluster {which}: its instances are drained and \
             terminated with their local disks",
            line.value(&["name", "n"])
                .or(line.operand(2))
                .map_or("given".to_string(), |ng| format!("`{ng}`"))
        ),
        _ => return None,
    };
    Some(
        Hit::new(&CLUSTER_DELETE, Tier::Destructive, loses)
            .safer(
                "`eksctl get cluster` and `eksctl get nodegroup --cluster <name>` to see what is \
                 there; back up the workloads and volumes (Velero, volume snapshots) first",
            )
            .recovery(
                "none: `eksctl create cluster` makes a new, empty cluster; data in deleted \
                 volumes comes back only from snapshots taken before",
            ),
    )
}

fn kubeadm(line: &Line) -> Option<Hit> {
    if line.operand(0) != Some("reset") || line.on(&["dry-run"]) {
        return None;
    }
    Some(
        Hit::new(
            &CLUSTER_DELETE,
            Tier::Destructive,
            "wipes this node's Kubernetes state: `/etc/kubernetes`, the kubelet's files and, on \
             a control-plane node, the local etcd data (on a single control-plane node, the \
             whole cluster's state)",
        )
        .safer(
            "`kubeadm reset --dry-run` shows what it would remove; `etcdctl snapshot save` \
             backs up etcd first",
        )
        .recovery("only from an etcd snapshot taken before (`etcdctl snapshot restore`)"),
    )
}

fn local(loses: String, safer: &str) -> Option<Hit> {
    Some(
        Hit::new(&LOCAL_CLUSTER_DELETE, Tier::Destructive, loses)
            .safer(safer)
            .recovery(
                "none: re-create the cluster and re-apply the manifests; data that lived only \
                 in its volumes is gone",
            ),
    )
}

fn kind(line: &Line) -> Option<Hit> {
    let which = match line.operands.as_slice() {
        ["delete", "cluster", ..] => format!(
            "the kind cluster `{}`",
            line.value(&["name", "n"]).unwrap_or("kind")
        ),
        ["delete", "clusters", names @ ..] => {
            if line.on(&["all", "A"]) {
                "every kind cluster".to_string()
            } else if names.is_empty() {
                return None;
            } else {
                format!("the kind clusters {}", list(names.iter().copied()))
            }
        }
        _ => return None,
    };
    local(
        format!("deletes {which}: its node containers with every workload and volume in them"),
        "`kind get clusters` to check which cluster it is; `kubectl get pvc -A` to see what \
         data it holds",
    )
}

fn k3d(line: &Line) -> Option<Hit> {
    let names = match line.operands.as_slice() {
        [
            "cluster" | "clusters" | "c",
            "delete" | "del" | "rm",
            names @ ..,
        ] => names,
        _ => return None,
    };
    let which = if line.on(&["all", "a"]) {
        "every k3d cluster".to_string()
    } else if names.is_empty() {
        "the k3d cluster `k3s-default`".to_string()
    } else {
        format!("the k3d cluster {}", list(names.iter().copied()))
    };
    local(
        format!("deletes {which}: its node containers with every workload and volume in them"),
        "`k3d cluster stop <name>` keeps the cluster and its data; `k3d cluster list` to check \
         which cluster it is",
    )
}

fn minikube(line: &Line) -> Option<Hit> {
    if line.operand(0) != Some("delete") {
        return None;
    }
    let which = if line.on(&["all"]) {
        "every minikube cluster (all profiles)".to_string()
    } else {
        format!(
            "the minikube cluster `{}`",
            line.value(&["p", "profile"]).unwrap_or("minikube")
        )
    };
    let purge = if line.on(&["purge"]) {
        ", and the `~/.minikube` folder (cached images, certificates, settings)"
    } else {
        ""
    };
    local(
        format!("deletes {which}: its VM or container with every workload and volume{purge}"),
        "`minikube stop` keeps the cluster and its data; `minikube profile list` to check which \
         cluster it is",
    )
}

fn microk8s_reset(line: &Line) -> Option<Hit> {
    let storage = if line.on(&["destroy-storage"]) {
        ", and deletes the volumes it provisioned"
    } else {
        ""
    };
    local(
        format!(
            "removes every workload, add-on and setting from MicroK8s, back to a fresh \
             install{storage}"
        ),
        "`microk8s stop` pauses the cluster; `microk8s kubectl get all,pvc -A` to see what \
         would go",
    )
}
