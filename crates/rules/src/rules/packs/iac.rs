//! Infrastructure as code: the commands that tear down what a Terraform, OpenTofu, Terragrunt,
//! Pulumi or CDK project manages, or make the tool forget it. `apply` recreates the resources,
//! but empty: the data in the databases, buckets and disks it destroyed does not come back.

use super::Pack;
use super::args::{Line, Style};
use crate::rules::git::list;
use crate::rules::{Hit, Rule, Tier};
use crate::shell::{SimpleCommand, Word};

pub static DESTROY: Rule = Rule {
    id: "iac.destroy",
    catches: "`terraform`/`tofu`/`terragrunt destroy`, `apply -destroy`, `terragrunt run-all destroy`, `pulumi destroy`/`down`, `cdk destroy`",
    why: "A destroy deletes every resource the project manages (or the targeted ones and what \
          depends on them): databases, buckets, disks, DNS. `apply` builds them again, empty; \
          their data comes back only from snapshots or backups taken elsewhere.",
    instead: "`terraform plan -destroy` (`tofu plan -destroy`, `pulumi destroy --preview-only`, \
              `cdk diff`) to see what would go; remove one resource from the configuration and \
              review the plan instead of destroying the whole stack.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "terraform destroy -auto-approve",
        "terraform -chdir=infra apply -destroy",
        "tofu destroy -target=aws_db_instance.main",
        "terragrunt run-all destroy",
        "pulumi destroy --yes -s dev",
        "pulumi down",
        "cdk destroy --all --force",
        "npx cdk destroy ApiStack",
    ],
    passes: &[
        "terraform plan -destroy",
        "tofu plan -destroy -out=destroy.tfplan",
        "terraform apply",
        "terraform destroy -help",
        "pulumi destroy --preview-only",
        "pulumi preview",
        "cdk diff",
        "tldr pulumi destroy",
    ],
};

pub static STATE_DELETE: Rule = Rule {
    id: "iac.state-delete",
    catches: "`terraform`/`tofu`/`terragrunt state rm`, `workspace delete -force`, `pulumi stack rm`, `pulumi state delete`",
    why: "Removing a resource or a stack from the state makes the tool forget it: the resource \
          keeps running (and costing) unmanaged, the next apply may create a duplicate, and a \
          removed stack takes its configuration, secrets and history with it.",
    instead: "`terraform state rm -dry-run <address>` to check the addresses; keep a copy first \
              with `terraform state pull > backup.tfstate` (`pulumi stack export --file \
              backup.json`).",
    protected_when: None,
    strict_only: false,
    stops: &[
        "terraform state rm aws_s3_bucket.assets",
        "tofu state rm 'module.db.aws_db_instance.main'",
        "terraform workspace delete -force staging",
        "pulumi stack rm dev --yes",
        "pulumi state delete 'urn:pulumi:dev::app::aws:s3/bucket:Bucket::assets'",
    ],
    passes: &[
        "terraform state list",
        "terraform state rm -dry-run aws_s3_bucket.assets",
        "terraform state mv a.b a.c",
        "terraform workspace delete staging",
        "pulumi stack ls",
        "pulumi stack export --file backup.json",
        "pulumi config rm region",
    ],
};

pub static PACK: Pack = Pack {
    id: "iac",
    summary: "infrastructure as code: `terraform`/`tofu`/`terragrunt destroy`, `apply -destroy`, `state rm`; `pulumi destroy`, `stack rm`; `cdk destroy`",
    default_on: true,
    programs: &[
        "terraform",
        "tofu",
        "terragrunt",
        "pulumi",
        "cdk",
        "aws-cdk",
    ],
    rules: &[&DESTROY, &STATE_DELETE],
    check,
};

fn check(cmd: &SimpleCommand) -> Vec<Hit> {
    let args = cmd.args();
    let hit = match cmd.program() {
        Some(tool @ ("terraform" | "tofu" | "terragrunt")) => terraform(tool, cmd, args),
        Some("pulumi") => pulumi(args),
        // `npx aws-cdk` reaches here as `aws-cdk`: the shell module peels package runners.
        Some("cdk" | "aws-cdk") => cdk(args),
        _ => None,
    };
    hit.into_iter().collect()
}

/// Terraform's options that take a separate value (`-var x=1`; most are written `-opt=v`).
const TERRAFORM_VALUED: &[&str] = &[
    "var",
    "var-file",
    "target",
    "replace",
    "state",
    "state-out",
    "backup",
    "lock-timeout",
    "parallelism",
    "out",
    "exclude",
];

fn terraform(tool: &str, cmd: &SimpleCommand, args: &[Word]) -> Option<Hit> {
    let (globals, at) = Line::head(args, Style::Go, &[]);
    let mut at = at?;
    let run_all = args.get(at)?.text == "run-all";
    let mut everywhere = run_all || globals.on(&["all"]);
    // The words that approve without asking, left out of the plan suggested instead.
    let mut approvals = globals.words(&["auto-approve"]);
    // Terragrunt runs a terraform command, possibly in every module: `run-all destroy`,
    // `run --all -- destroy`.
    if tool == "terragrunt" && (run_all || args.get(at)?.text == "run") {
        let (runs, sub) = Line::head(args.get(at + 1..)?, Style::Go, TERRAFORM_VALUED);
        everywhere |= runs.on(&["all"]);
        approvals.extend(runs.words(&["auto-approve"]).iter().map(|i| i + at + 1));
        at += 1 + sub?;
    }
    let line = Line::parse(args.get(at + 1..)?, Style::Go, TERRAFORM_VALUED);
    everywhere |= line.on(&["all"]);
    approvals.extend(line.words(&["auto-approve"]).iter().map(|i| i + at + 1));
    if globals.help() || line.help() {
        return None;
    }
    let dir = globals
        .value(&["chdir"])
        .map_or_else(String::new, |d| format!(" in `{d}`"));
    let workspace = cmd
        .assigned("TF_WORKSPACE")
        .map_or_else(String::new, |w| format!(" (workspace `{w}`)"));
    let everywhere = if everywhere {
        " in every module below this folder"
    } else {
        ""
    };
    match args.get(at)?.text.as_str() {
        "destroy" | "destroy-all" => {}
        "apply" if line.on(&["destroy"]) => {}
        "state" if line.operand(0) == Some("rm") && !line.on(&["dry-run"]) => {
            let addresses = line.operands.get(1..).unwrap_or_default();
            return Some(
                Hit::new(
                    &STATE_DELETE,
                    Tier::Destructive,
                    format!(
                        "makes {tool} forget {}{dir}{workspace}: the resources keep running \
                         unmanaged, and the next apply may create duplicates of them",
                        if addresses.is_empty() {
                            "the resources it is given".to_string()
                        } else {
                            list(addresses.iter().copied())
                        }
                    ),
                )
                .safer(format!(
                    "`{tool} state rm -dry-run {}` to check the addresses; `{tool} state pull > \
                     backup.tfstate` first",
                    addresses.join(" ")
                ))
                .recovery(format!(
                    "`{tool} import <address> <id>` takes a resource back under management; \
                     `{tool} state push backup.tfstate` restores a saved state"
                )),
            );
        }
        "workspace" if line.operand(0) == Some("delete") && line.on(&["force"]) => {
            let name = line.operand(1).unwrap_or("the workspace");
            return Some(
                Hit::new(
                    &STATE_DELETE,
                    Tier::Destructive,
                    format!(
                        "deletes the workspace `{name}` and its state even though it still \
                         manages resources: they keep running, unmanaged"
                    ),
                )
                .safer(format!(
                    "`{tool} workspace select {name} && {tool} state pull > {name}.tfstate` \
                     first; `{tool} workspace delete {name}` without `-force` refuses while \
                     resources remain"
                ))
                .recovery(format!(
                    "re-create the workspace and `{tool} state push` a saved copy of its state"
                )),
            );
        }
        _ => return None,
    }
    let targets: Vec<&str> = line
        .opts
        .iter()
        .filter(|(name, _)| *name == "target")
        .filter_map(|(_, value)| *value)
        .collect();
    let what = if targets.is_empty() {
        format!("every resource the configuration{dir} manages{workspace}{everywhere}")
    } else {
        format!(
            "{} and everything that depends on {}{dir}{workspace}",
            list(targets.iter().copied()),
            if targets.len() == 1 { "it" } else { "them" }
        )
    };
    // The same command line as a plan: `destroy` becomes `plan -destroy`, `apply -destroy`
    // becomes `plan -destroy`, and nothing is approved.
    let mut plan: Vec<String> = cmd
        .argv
        .first()
        .map(Word::shell_quoted)
        .into_iter()
        .collect();
    for (i, word) in args.iter().enumerate() {
        if i == at {
            plan.push(
                if word.text == "apply" {
                    "plan"
                } else {
                    "plan -destroy"
                }
                .to_string(),
            );
        } else if !approvals.contains(&i) {
            plan.push(word.shell_quoted());
        }
    }
    let plan = plan.join(" ");
    Some(
        Hit::new(
            &DESTROY,
            Tier::Destructive,
            format!("destroys {what}: databases, buckets and disks go with their data"),
        )
        .safer(format!(
            "`{plan}` to see what would go; remove only what should go from the \
             configuration and review the plan"
        ))
        .recovery(format!(
            "`{tool} apply` recreates the resources, empty; their data comes back only from \
             snapshots or backups (RDS final snapshots, bucket versioning or replicas)"
        )),
    )
}

const PULUMI_VALUED: &[&str] = &[
    "C",
    "cwd",
    "s",
    "stack",
    "color",
    "m",
    "message",
    "c",
    "config",
    "config-file",
    "t",
    "target",
    "exclude",
    "p",
    "parallel",
    "tracing",
    "v",
    "verbose",
];

fn pulumi(args: &[Word]) -> Option<Hit> {
    let line = Line::parse(args, Style::Gnu, PULUMI_VALUED);
    if line.help() {
        return None;
    }
    let stack = line.value(&["s", "stack"]).map_or_else(
        || "the selected stack".to_string(),
        |s| format!("the stack `{s}`"),
    );
    match (line.operand(0), line.operand(1)) {
        (Some("destroy" | "down" | "dn"), _) if !line.on(&["preview-only"]) => Some(
            Hit::new(
                &DESTROY,
                Tier::Destructive,
                format!(
                    "destroys every resource in {stack}: databases, buckets and disks go with \
                     their data"
                ),
            )
            .safer("`pulumi destroy --preview-only` to see what would go; `pulumi preview` after removing only what should go from the program")
            .recovery(
                "`pulumi up` recreates the resources, empty; their data comes back only from \
                 snapshots or backups",
            ),
        ),
        (Some("stack"), Some("rm" | "remove")) => {
            let stack = line
                .operand(2)
                .map_or(stack, |s| format!("the stack `{s}`"));
            Some(
                Hit::new(
                    &STATE_DELETE,
                    Tier::Destructive,
                    format!(
                        "removes {stack} with its state, configuration, secrets and update \
                         history{}",
                        if line.on(&["f", "force"]) {
                            "; with `--force`, any resources it still manages keep running unmanaged"
                        } else {
                            ""
                        }
                    ),
                )
                .safer("`pulumi stack export --file backup.json` and `pulumi config --show-secrets` first; `pulumi destroy --preview-only` to see what it still manages")
                .recovery("`pulumi stack init` and `pulumi stack import --file backup.json` restore an exported stack"),
            )
        }
        (Some("state"), Some("delete")) => Some(
            Hit::new(
                &STATE_DELETE,
                Tier::Destructive,
                format!(
                    "makes Pulumi forget {} in {stack}: the resource keeps running unmanaged",
                    line.operand(2)
                        .map_or_else(|| "a resource".to_string(), |u| format!("`{u}`"))
                ),
            )
            .safer("`pulumi stack export --file backup.json` first")
            .recovery("`pulumi import` takes the resource back; `pulumi stack import --file backup.json` restores the state"),
        ),
        _ => None,
    }
}

const CDK_VALUED: &[&str] = &[
    "a",
    "app",
    "c",
    "context",
    "profile",
    "o",
    "output",
    "r",
    "role-arn",
    "plugin",
    "p",
    "proxy",
    "ca-bundle-path",
    "build",
];

fn cdk(args: &[Word]) -> Option<Hit> {
    let line = Line::parse(args, Style::Gnu, CDK_VALUED);
    if line.operand(0) != Some("destroy") || line.help() {
        return None;
    }
    let stacks = line.operands.get(1..).unwrap_or_default();
    let which = if line.on(&["all"]) || stacks.is_empty() {
        "every stack of the app".to_string()
    } else {
        format!(
            "the stack{} {}",
            if stacks.len() == 1 { "" } else { "s" },
            list(stacks.iter().copied())
        )
    };
    Some(
        Hit::new(
            &DESTROY,
            Tier::Destructive,
            format!(
                "deletes {which} through CloudFormation: every resource whose removal policy \
                 is not `RETAIN` goes, with its data"
            ),
        )
        .safer("`cdk diff` to see what the stacks hold; set `RemovalPolicy.RETAIN` (or snapshots) on stateful resources before a destroy")
        .recovery(
            "`cdk deploy` recreates the stacks, empty; retained resources and snapshots keep \
             their data",
        ),
    )
}
