//! One table of option spellings run through every rule that lets a preview pass: each
//! destructive line, with its preview option spelled every way a program reads it, must pass
//! where the spelling keeps the preview on and stop where it turns it off. The rules share
//! one reading of argv, so a spelling that fools one of them would fool them all.
//!
//! A row is a destructive command with `{}` where the preview option goes, the rule that
//! stops it, and how the preview is spelled. Each row expands into:
//! - stops: the command without the preview, with `=false`, with the preview given and then
//!   negated (`--no-dry-run`), and with the preview after `--` (an operand there);
//! - passes: the preview alone, with a value that keeps it on, and each short spelling,
//!   alone or bundled with other letters in either order.

use agent_guard::policy::Decision;
use agent_guard::rules;
use agent_guard::settings::{Profile, Settings};

struct Row {
    rule: &'static str,
    /// The destructive command, `{}` marking where the options go (before any operand the
    /// program would read after `--`).
    command: &'static str,
    /// The long preview option as the program spells it (`--dry-run`, `-dry-run`, `--dryrun`).
    long: &'static str,
    /// Values of the long option that keep the preview on.
    on_values: &'static [&'static str],
    /// Short spellings that are previews: `-n`, and bundles like `-vn` and `-nv`.
    shorts: &'static [&'static str],
}

const fn row(rule: &'static str, command: &'static str, long: &'static str) -> Row {
    Row {
        rule,
        command,
        long,
        on_values: &["true"],
        shorts: &[],
    }
}

const ROWS: &[Row] = &[
    Row {
        shorts: &["-n", "-vn", "-nv"],
        ..row(
            "fs.rsync-delete",
            "rsync -a --delete {} staging/ src/",
            "--dry-run",
        )
    },
    Row {
        shorts: &["-an", "-na"],
        ..row(
            "fs.rsync-delete",
            "rsync --delete {} -a staging/ src/",
            "--dry-run",
        )
    },
    Row {
        shorts: &["-d", "-vd", "-dv"],
        ..row("fs.rm-recursive", "del-cli {} build", "--dry-run")
    },
    Row {
        shorts: &["-n", "-fn", "-nf", "-dfn", "-ndf"],
        ..row("git.clean-force", "git clean -fd {}", "--dry-run")
    },
    Row {
        shorts: &["-n"],
        ..row(
            "git.push-force",
            "git push --force {} origin feature",
            "--dry-run",
        )
    },
    Row {
        shorts: &["-n"],
        ..row(
            "git.push-delete",
            "git push {} origin --delete feature",
            "--dry-run",
        )
    },
    Row {
        shorts: &["-n", "-rn", "-nr"],
        ..row("git.plumbing-discard", "git rm -r -f {} src", "--dry-run")
    },
    row(
        "git.recovery-destroy",
        "git reflog delete {} HEAD@{1}",
        "--dry-run",
    ),
    Row {
        shorts: &["-n", "-vn", "-nv"],
        ..row(
            "backup.restic-forget",
            "restic forget --keep-last 1 --prune {}",
            "--dry-run",
        )
    },
    Row {
        shorts: &["-n"],
        ..row(
            "backup.restic-forget",
            "restic -r /srv/restic forget --keep-daily=7 --prune {}",
            "--dry-run",
        )
    },
    Row {
        shorts: &["-n", "-n -r /srv/restic"],
        ..row(
            "backup.restic-forget",
            "restic --repo=/srv/restic prune {}",
            "--dry-run",
        )
    },
    Row {
        shorts: &["-n", "-sn", "-ns"],
        ..row(
            "backup.borg-delete",
            "borg delete {} repo::archive",
            "--dry-run",
        )
    },
    Row {
        shorts: &["-d"],
        ..row(
            "backup.duplicacy-prune",
            "duplicacy prune -exclusive {}",
            "-dry-run",
        )
    },
    Row {
        shorts: &["--dry-run"],
        ..row(
            "backup.duplicacy-prune",
            "duplicacy prune -r 344-350 {}",
            "-dry-run",
        )
    },
    row(
        "backup.duplicity-remove",
        "duplicity remove-older-than 1D --force {} file:///srv/backup",
        "--dry-run",
    ),
    row(
        "backup.rdiff-backup-remove",
        "rdiff-backup-delete {} /srv/backup/home/me/secret.txt",
        "--dry-run",
    ),
    row(
        "cicd.gitlab-delete",
        "glab ci delete --status=failed {}",
        "--dry-run",
    ),
    row(
        "cloud.aws-bucket-delete",
        "aws s3 rm s3://assets --recursive {}",
        "--dryrun",
    ),
    row(
        "cloud.aws-delete",
        "aws ec2 terminate-instances --instance-ids i-0abc123 {}",
        "--dry-run",
    ),
    row(
        "cloud.azure-delete",
        "azcopy rm 'https://acct.blob.core.windows.net/web/old' --recursive {}",
        "--dry-run",
    ),
    Row {
        shorts: &["-n", "-vn", "-nv"],
        ..row(
            "cloud.storage-delete",
            "rclone sync /src remote:important-bucket {}",
            "--dry-run",
        )
    },
    Row {
        shorts: &["-n"],
        ..row(
            "cloud.storage-delete",
            "rclone purge {} remote:bucket",
            "--dry-run",
        )
    },
    row(
        "disk.btrfs-subvolume-delete",
        "btrfs {} subvolume delete /mnt/data/@home",
        "--dry-run",
    ),
    row(
        "disk.device-erase",
        "sg_sanitize --crypto {} /dev/sdb",
        "--dry-run",
    ),
    row(
        "disk.device-erase",
        "sg_format --format {} /dev/sdb",
        "--dry-run",
    ),
    row(
        "iac.state-delete",
        "terraform state rm {} aws_s3_bucket.assets",
        "-dry-run",
    ),
    row(
        "iac.state-delete",
        "tofu state rm {} module.db.aws_db_instance.main",
        "--dry-run",
    ),
    Row {
        on_values: &["client", "server", "true"],
        ..row(
            "k8s.delete-namespace",
            "kubectl delete ns staging {}",
            "--dry-run",
        )
    },
    Row {
        on_values: &["client", "server"],
        ..row(
            "k8s.delete-storage",
            "kubectl -n db delete pvc data-postgres-0 {}",
            "--dry-run",
        )
    },
    Row {
        on_values: &["client", "server"],
        ..row(
            "k8s.delete-manifest",
            "kubectl delete --namespace=db -f k8s/ {}",
            "--dry-run",
        )
    },
    Row {
        on_values: &["client", "server"],
        ..row(
            "k8s.delete-bulk",
            "kubectl delete pods --all -n ci {}",
            "--dry-run",
        )
    },
    row(
        "k8s.helm-uninstall",
        "helm uninstall my-release {}",
        "--dry-run",
    ),
    row("k8s.cluster-delete", "kubeadm reset {}", "--dry-run"),
    row(
        "search.elasticsearch-delete",
        "curator_cli {} delete_indices --filter_list '{\"filtertype\":\"none\"}'",
        "--dry-run",
    ),
    Row {
        shorts: &["-n"],
        ..row("vcs.hg-strip", "hg rollback -f {}", "--dry-run")
    },
];

/// Spellings that turn the preview off, and so must stop.
fn stopping(row: &Row) -> Vec<String> {
    let negated = match row.long.strip_prefix("--") {
        Some(name) => format!("--no-{name}"),
        None => format!("-no-{}", &row.long[1..]),
    };
    let mut lines = vec![
        fill(row.command, ""),
        fill(row.command, &format!("{}=false", row.long)),
        fill(row.command, &format!("{}=0", row.long)),
        fill(row.command, &format!("{} {negated}", row.long)),
        format!("{} -- {}", fill(row.command, ""), row.long),
    ];
    if row.long == "--dry-run" {
        lines.push(fill(row.command, "--dry-run=none"));
    }
    lines
}

/// Spellings that keep the preview on, and so must pass.
fn passing(row: &Row) -> Vec<String> {
    let mut lines = vec![fill(row.command, row.long)];
    lines.extend(
        row.on_values
            .iter()
            .map(|value| fill(row.command, &format!("{}={value}", row.long))),
    );
    lines.extend(row.shorts.iter().map(|short| fill(row.command, short)));
    lines
}

fn fill(command: &str, options: &str) -> String {
    command.replacen("{}", options, 1).replace("  ", " ")
}

fn settings(rule: &str) -> Settings {
    let strict = rules::all().any(|r| r.id == rule && r.strict_only);
    Settings {
        profile: if strict {
            Profile::Strict
        } else {
            Profile::Standard
        },
        context: false,
        ..Settings::default()
    }
}

#[test]
fn preview_spellings_pass_and_their_negations_stop_in_every_pack() {
    let mut failures = Vec::new();
    let mut cases = 0;
    for row in ROWS {
        assert!(
            rules::all().any(|r| r.id == row.rule),
            "no rule {}",
            row.rule
        );
        let settings = settings(row.rule);
        for command in stopping(row) {
            cases += 1;
            let verdict = agent_guard::evaluate(&command, &settings);
            if !verdict.findings.iter().any(|f| f.rule.id == row.rule) {
                failures.push(format!("{}: should stop {command:?}", row.rule));
            }
        }
        for command in passing(row) {
            cases += 1;
            let verdict = agent_guard::evaluate(&command, &settings);
            if verdict.decision != Decision::Allow {
                failures.push(format!(
                    "{}: should pass {command:?}, got {}",
                    row.rule, verdict.reason
                ));
            }
        }
    }
    assert!(cases >= 250, "the table shrank to {cases} cases");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Bundled letters, `--` and values attached or separate read the same in the core rules
/// and the packs: the order of letters in a bundle never matters.
#[test]
fn bundles_dashdash_and_values_read_alike() {
    const STOPS: &[(&str, &str)] = &[
        ("fs.rm-recursive", "rm -rf build"),
        ("fs.rm-recursive", "rm -fr build"),
        ("fs.rm-recursive", "rm -r -f build"),
        ("fs.rm-recursive", "rm -rf -- build"),
        ("k8s.delete-namespace", "kubectl delete ns staging -n x"),
        ("k8s.delete-namespace", "kubectl --context=dev delete ns a"),
        ("k8s.delete-namespace", "kubectl --context dev delete ns a"),
        (
            "backup.restic-forget",
            "restic -r /srv/r forget --keep-last 1",
        ),
        (
            "backup.restic-forget",
            "restic --repo=/srv/r forget --keep-last 1",
        ),
        (
            "backup.restic-forget",
            "restic --repo /srv/r forget --keep-last=1",
        ),
        ("git.clean-force", "git clean -xdf"),
        ("git.clean-force", "git clean -fxd"),
        ("git.push-force", "git push -f origin main"),
        ("git.push-force", "git push -uf origin main"),
        ("git.push-force", "git push -fu origin main"),
    ];
    const PASSES: &[&str] = &[
        "rm -- -rf",
        "git clean -- -f",
        "restic -r /srv/r snapshots -- forget",
        "kubectl get ns staging -o=yaml",
        "rsync -a -- --delete b/",
    ];
    let mut failures = Vec::new();
    for (rule, command) in STOPS {
        let verdict = agent_guard::evaluate(command, &settings(rule));
        if !verdict.findings.iter().any(|f| f.rule.id == *rule) {
            failures.push(format!("{rule}: should stop {command:?}"));
        }
    }
    for command in PASSES {
        let verdict = agent_guard::evaluate(command, &settings(""));
        if verdict.decision != Decision::Allow {
            failures.push(format!("should pass {command:?}, got {}", verdict.reason));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
