//! The AWS command line: `aws s3` bulk deletes and the API operations that delete data.

use crate::rules::git::list;
use crate::rules::packs::args::{Line, Style, without};
use crate::rules::{Hit, Rule, Tier};
use crate::shell::{SimpleCommand, Word};

pub static AWS_BUCKET_DELETE: Rule = Rule {
    id: "cloud.aws-bucket-delete",
    catches: "`aws s3 rm --recursive`, `aws s3 rb --force`, `aws s3 sync --delete`, `aws s3api delete-bucket`/`delete-object`/`delete-objects`/`delete-bucket-policy`",
    why: "S3 has no trash: a deleted object is gone unless the bucket keeps versions. A \
          recursive rm or a forced rb empties a whole prefix or bucket, and `sync --delete` \
          removes everything at the destination the source lacks.",
    instead: "the same command with `--dryrun` to list what would go; `aws s3 ls s3://<bucket>/<prefix> \
              --recursive --summarize` to see the size; `aws s3api get-bucket-versioning` to know \
              whether a delete can be undone.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "aws s3 rm s3://assets --recursive",
        "aws s3 rb s3://old-logs --force",
        "aws s3 sync ./site s3://www.example.com --delete",
        "aws s3api delete-bucket --bucket my-bucket",
        "aws s3api delete-bucket-policy --bucket my-bucket",
        "aws --profile dev s3api delete-objects --bucket b --delete file://keys.json",
        "aws s3 rm s3://my-bucket --recursive --exclude '*' --include '*'",
    ],
    passes: &[
        "aws s3 ls s3://assets --recursive",
        "aws s3 rm s3://assets --recursive --dryrun",
        "aws s3 rm s3://assets/logo.png",
        "aws s3 sync ./site s3://www.example.com",
        "aws s3 rb s3://empty-bucket",
        "aws s3 cp s3://a/b.txt .",
        "rg \"aws s3 rm\" README.md",
    ],
};

pub static AWS_DELETE: Rule = Rule {
    id: "cloud.aws-delete",
    catches: "AWS API deletes of data holders: `rds delete-db-*`, `dynamodb delete-table`, `ec2 terminate-instances`/`delete-volume`/`delete-snapshot`, `cloudformation delete-stack`, `secretsmanager delete-secret`, SQS/SNS deletes and purges, `kms schedule-key-deletion`, and more",
    why: "These delete a database, a table, a disk, a stack's resources, a secret or a queue's \
          messages in one call. Some keep a way back for a while (a final snapshot, a secret's \
          recovery window, a key's waiting period); most keep none.",
    instead: "`describe`/`list`/`get` the resource first; take a snapshot or backup \
              (`aws rds create-db-snapshot`, `aws dynamodb create-backup`, `aws ec2 \
              create-snapshot`); use `--dry-run` where the service offers it (EC2).",
    protected_when: None,
    strict_only: false,
    stops: &[
        "aws rds delete-db-instance --db-instance-identifier app-db --skip-final-snapshot",
        "aws dynamodb delete-table --table-name orders",
        "aws ec2 terminate-instances --instance-ids i-0abc123",
        "aws cloudformation delete-stack --stack-name api",
        "aws secretsmanager delete-secret --secret-id my/secret --force-delete-without-recovery",
        "aws sqs purge-queue --queue-url https://sqs.us-east-1.amazonaws.com/123456789012/jobs",
        "aws sns delete-topic --topic-arn arn:aws:sns:us-east-1:123456789012:alerts",
        "aws kms schedule-key-deletion --key-id 1234abcd",
    ],
    passes: &[
        "aws rds describe-db-instances",
        "aws rds create-db-snapshot --db-instance-identifier app-db --db-snapshot-identifier pre-change",
        "aws ec2 terminate-instances --instance-ids i-0abc123 --dry-run",
        "aws dynamodb delete-item --table-name users --key '{\"ID\": {\"N\": \"1\"}}'",
        "aws secretsmanager put-secret-value --secret-id my/secret --secret-string x",
        "aws sqs receive-message --queue-url https://sqs.us-east-1.amazonaws.com/1/jobs",
        "aws cloudformation delete-stack --generate-cli-skeleton",
        "aws s3 rm help",
    ],
};

/// Global options of the AWS command line that take a value.
const GLOBAL: &[&str] = &[
    "profile",
    "region",
    "output",
    "endpoint-url",
    "query",
    "color",
    "cli-read-timeout",
    "cli-connect-timeout",
    "ca-bundle",
    "cli-binary-format",
];

/// Options that name what an operation deletes, in the order they are looked for.
const IDS: &[&str] = &[
    "db-instance-identifier",
    "db-cluster-identifier",
    "db-snapshot-identifier",
    "db-cluster-snapshot-identifier",
    "global-cluster-identifier",
    "table-name",
    "backup-arn",
    "instance-ids",
    "volume-id",
    "snapshot-id",
    "stack-name",
    "secret-id",
    "name",
    "queue-url",
    "topic-arn",
    "subscription-arn",
    "repository-name",
    "file-system-id",
    "cache-cluster-id",
    "replication-group-id",
    "serverless-cache-name",
    "cluster-identifier",
    "cluster-arn",
    "key-id",
    "log-group-name",
    "user-pool-id",
    "id",
    "function-name",
    "stream-name",
    "domain-name",
    "backup-vault-name",
    "recovery-point-arn",
    "vault-name",
    "archive-id",
    "names",
    "bucket",
];

/// Operations that delete data: service, operation (a trailing `*` matches a prefix), what it
/// deletes, what to run first, and how it could come back.
const DELETES: &[(&str, &str, &str, &str, &str)] = &[
    (
        "rds",
        "delete-db-*",
        "the database resource",
        "`aws rds describe-db-instances` / `describe-db-clusters`, and `aws rds create-db-snapshot` (or keep `--final-db-snapshot-identifier`)",
        "a final snapshot (unless `--skip-final-snapshot`) or retained automated backups restore into a new instance (`aws rds restore-db-instance-from-db-snapshot`)",
    ),
    (
        "docdb",
        "delete-db-*",
        "the database resource",
        "a final snapshot (`--final-db-snapshot-identifier`)",
        "a final snapshot, if one was taken, restores into a new cluster",
    ),
    (
        "neptune",
        "delete-db-*",
        "the database resource",
        "a final snapshot (`--final-db-snapshot-identifier`)",
        "a final snapshot, if one was taken, restores into a new cluster",
    ),
    (
        "dynamodb",
        "delete-table",
        "the table and every item in it",
        "`aws dynamodb create-backup --table-name <table> --backup-name <name>` first",
        "an on-demand backup or point-in-time recovery (when it was on) restores into a new table",
    ),
    (
        "dynamodb",
        "delete-backup",
        "the table backup",
        "`aws dynamodb describe-backup --backup-arn <arn>` to check it is not the last one",
        "none",
    ),
    (
        "ec2",
        "terminate-instances",
        "the instances, their instance-store data and every EBS volume marked delete-on-termination",
        "`aws ec2 stop-instances` (reversible), or `--dry-run`; snapshot the volumes first",
        "none for the instance; volumes come back only from snapshots",
    ),
    (
        "ec2",
        "delete-volume",
        "the EBS volume and its data",
        "`aws ec2 create-snapshot --volume-id <id>` first",
        "only from an EBS snapshot taken before",
    ),
    (
        "ec2",
        "delete-snapshot",
        "the EBS snapshot",
        "`aws ec2 describe-snapshots --snapshot-ids <id>` to check what it backs up",
        "none",
    ),
    (
        "cloudformation",
        "delete-stack",
        "the stack and every resource in it without a `Retain` deletion policy",
        "`aws cloudformation describe-stack-resources --stack-name <name>` to see what goes; set `DeletionPolicy: Retain` or `Snapshot` on stateful resources",
        "re-create the stack from its template, empty; data comes back only from snapshots",
    ),
    (
        "secretsmanager",
        "delete-secret",
        "the secret and every version of its value",
        "`aws secretsmanager describe-secret --secret-id <id>`; keep the default recovery window (no `--force-delete-without-recovery`)",
        "`aws secretsmanager restore-secret --secret-id <id>` within the recovery window (7 to 30 days, 30 by default)",
    ),
    (
        "ssm",
        "delete-parameter*",
        "the parameters and their values",
        "`aws ssm get-parameters --with-decryption --names <name>` to keep the values",
        "none",
    ),
    (
        "sqs",
        "delete-queue",
        "the queue and every message in it",
        "`aws sqs get-queue-attributes --queue-url <url> --attribute-names All` to see what is waiting",
        "none",
    ),
    (
        "sqs",
        "purge-queue",
        "every message in the queue",
        "`aws sqs get-queue-attributes --queue-url <url> --attribute-names ApproximateNumberOfMessages`; drain with `receive-message` if the messages matter",
        "none",
    ),
    (
        "sqs",
        "delete-message*",
        "the messages",
        "let the visibility timeout return them to the queue",
        "none",
    ),
    (
        "sns",
        "delete-topic",
        "the topic and its subscriptions",
        "`aws sns list-subscriptions-by-topic --topic-arn <arn>` to see who listens",
        "none: re-create the topic and subscribe again",
    ),
    (
        "sns",
        "unsubscribe",
        "the subscription",
        "`aws sns get-subscription-attributes --subscription-arn <arn>` to see what it delivers",
        "subscribe again (and confirm, for email and HTTP endpoints)",
    ),
    (
        "ecr",
        "delete-repository",
        "the image repository",
        "`aws ecr list-images --repository-name <name>`",
        "none: push the images again from where they were built",
    ),
    (
        "ecr",
        "batch-delete-image",
        "the images",
        "`aws ecr list-images --repository-name <name>`; a lifecycle policy to expire old images",
        "none: push them again",
    ),
    (
        "eks",
        "delete-cluster",
        "the Kubernetes cluster",
        "`aws eks describe-cluster --name <name>`; back up its workloads and volumes (Velero)",
        "none: re-create it and re-deploy",
    ),
    (
        "efs",
        "delete-file-system",
        "the file system and every file on it",
        "an AWS Backup recovery point first",
        "only an AWS Backup recovery point",
    ),
    (
        "elasticache",
        "delete-*",
        "the cache",
        "`--final-snapshot-identifier` to keep a snapshot",
        "a final snapshot, if one was named",
    ),
    (
        "redshift",
        "delete-cluster",
        "the data warehouse",
        "`--final-cluster-snapshot-identifier` to keep a snapshot",
        "a final snapshot (unless `--skip-final-cluster-snapshot`)",
    ),
    (
        "kafka",
        "delete-cluster",
        "the Kafka cluster and its topics",
        "`aws kafka describe-cluster --cluster-arn <arn>`",
        "none",
    ),
    (
        "kms",
        "schedule-key-deletion",
        "the key: everything encrypted under it becomes unreadable for good",
        "`aws kms disable-key --key-id <id>` (reversible) to find out what still uses it",
        "`aws kms cancel-key-deletion --key-id <id>` during the waiting period",
    ),
    (
        "logs",
        "delete-log-group",
        "the log group and all its logs",
        "`aws logs create-export-task` to keep the logs in S3",
        "none",
    ),
    (
        "cognito-idp",
        "delete-user-pool",
        "the user pool and every user account in it",
        "`aws cognito-idp list-users --user-pool-id <id>` to see who is in it",
        "none",
    ),
    (
        "route53",
        "delete-hosted-zone",
        "the DNS zone",
        "`aws route53 list-resource-record-sets --hosted-zone-id <id>` to keep its records",
        "re-create the zone and its records (the name servers change)",
    ),
    (
        "lambda",
        "delete-function",
        "the function and its versions",
        "`aws lambda get-function --function-name <name>` to keep the code",
        "deploy it again from source",
    ),
    (
        "kinesis",
        "delete-stream",
        "the stream and its records",
        "`aws kinesis describe-stream-summary --stream-name <name>`",
        "none",
    ),
    (
        "opensearch",
        "delete-domain",
        "the search domain and its indices",
        "a manual snapshot to S3 first",
        "a manual snapshot in S3, if one was taken",
    ),
    (
        "es",
        "delete-elasticsearch-domain",
        "the search domain and its indices",
        "a manual snapshot to S3 first",
        "a manual snapshot in S3, if one was taken",
    ),
    (
        "backup",
        "delete-recovery-point",
        "the backup",
        "`aws backup describe-recovery-point` to check it is not the last one",
        "none",
    ),
    (
        "backup",
        "delete-backup-vault",
        "the backup vault",
        "`aws backup list-recovery-points-by-backup-vault`",
        "none",
    ),
    (
        "glacier",
        "delete-*",
        "the archive data",
        "`aws glacier describe-vault` first",
        "none",
    ),
];

pub(super) fn check(cmd: &SimpleCommand, args: &[Word]) -> Option<Hit> {
    let (globals, service) = Line::head(args, Style::Gnu, GLOBAL);
    let (service, after_service) = args.get(service?..)?.split_first()?;
    let (_, op) = Line::head(after_service, Style::Gnu, GLOBAL);
    let (op, after_op) = after_service.get(op?..)?.split_first()?;
    let valued: Vec<&str> = GLOBAL
        .iter()
        .chain(IDS)
        .chain(&[
            "final-db-snapshot-identifier",
            "final-snapshot-identifier",
            "final-cluster-snapshot-identifier",
            "key",
        ])
        .copied()
        .collect();
    let line = Line::parse(after_op, Style::Gnu, &valued);
    // Help, a request skeleton or a dry run prints and deletes nothing.
    if globals.help()
        || line.help()
        || line.on(&["generate-cli-skeleton", "dryrun", "dry-run"])
        || op.text == "help"
    {
        return None;
    }
    let service = service.text.as_str();
    let op = op.text.as_str();
    match service {
        "s3" => s3(cmd, op, &line, args),
        "s3api" => s3api(op, &line),
        _ => api(service, op, &line),
    }
}

fn urls(args: &[Word]) -> Vec<&str> {
    args.iter()
        .map(|w| w.text.as_str())
        .filter(|t| t.starts_with("s3://"))
        .collect()
}

const VERSIONED: &str = "only if the bucket keeps versions: delete the delete markers \
                         (`aws s3api list-object-versions` shows them)";

fn s3(cmd: &SimpleCommand, op: &str, line: &Line, args: &[Word]) -> Option<Hit> {
    let urls = urls(args);
    let shown = if urls.is_empty() {
        "the given prefix".to_string()
    } else {
        list(urls.iter().copied())
    };
    let filtered = line.on(&["include", "exclude"]);
    let dry = format!("`{} --dryrun` to list what would go", cmd.display());
    let hit = match op {
        "rm" if line.on(&["recursive"]) => Hit::new(
            &AWS_BUCKET_DELETE,
            Tier::Destructive,
            format!(
                "deletes every object under {shown}{}",
                if filtered {
                    " that the filters match"
                } else {
                    ""
                }
            ),
        ),
        "rb" if line.on(&["force"]) => Hit::new(
            &AWS_BUCKET_DELETE,
            Tier::Destructive,
            format!("deletes every object in {shown}, then the bucket itself"),
        ),
        "sync" if line.on(&["delete"]) => {
            let destination = urls
                .last()
                .copied()
                .or(line.operands.last().copied())
                .unwrap_or("the destination");
            return Some(
                Hit::new(
                    &AWS_BUCKET_DELETE,
                    Tier::Destructive,
                    format!(
                        "deletes every object under `{destination}` that the source does not \
                         have"
                    ),
                )
                .safer(format!(
                    "{dry}; `{}` copies without deleting",
                    without(cmd, &[GLOBAL, GLOBAL, GLOBAL], &["delete"], &[])
                ))
                .recovery(VERSIONED),
            );
        }
        _ => return None,
    };
    Some(hit.safer(dry).recovery(VERSIONED))
}

fn s3api(op: &str, line: &Line) -> Option<Hit> {
    let bucket = line.value(&["bucket"]).unwrap_or("the bucket");
    let loses = match op {
        "delete-bucket" => {
            format!("deletes the bucket `{bucket}` (its name can be taken by anyone)")
        }
        "delete-object" => format!(
            "deletes `{}` from `{bucket}`",
            line.value(&["key"]).unwrap_or("the object")
        ),
        "delete-objects" => format!("deletes every object the request lists from `{bucket}`"),
        // Not data, but a policy is often the only written record of who may reach the data,
        // and nothing keeps an old version of it.
        "delete-bucket-policy" => {
            return Some(
                Hit::new(
                    &AWS_BUCKET_DELETE,
                    Tier::Destructive,
                    format!(
                        "deletes the bucket policy of `{bucket}`: who may read and write it \
                         changes at once, and no earlier version of the policy is kept"
                    ),
                )
                .safer(format!(
                    "`aws s3api get-bucket-policy --bucket {bucket} > policy.json` first"
                ))
                .recovery(format!(
                    "only from a saved copy: `aws s3api put-bucket-policy --bucket {bucket} \
                     --policy file://policy.json`"
                )),
            );
        }
        _ => return None,
    };
    Some(
        Hit::new(&AWS_BUCKET_DELETE, Tier::Destructive, loses)
            .safer(format!(
                "`aws s3api list-objects-v2 --bucket {bucket}` and `aws s3api \
                 get-bucket-versioning --bucket {bucket}` first"
            ))
            .recovery(VERSIONED),
    )
}

fn api(service: &str, op: &str, line: &Line) -> Option<Hit> {
    let (_, _, what, first, recovery) = DELETES.iter().find(|(s, pattern, ..)| {
        *s == service
            && match pattern.strip_suffix('*') {
                Some(prefix) => op.starts_with(prefix),
                None => op == *pattern,
            }
    })?;
    let id = IDS.iter().find_map(|name| line.value(&[name]));
    let named = id.map_or_else(String::new, |id| format!(" (`{id}`)"));
    let kept = line.value(&[
        "final-db-snapshot-identifier",
        "final-snapshot-identifier",
        "final-cluster-snapshot-identifier",
    ]);
    let recovery = if service == "secretsmanager" && line.on(&["force-delete-without-recovery"]) {
        "none: `--force-delete-without-recovery` skips the recovery window".to_string()
    } else if let Some(snapshot) = kept {
        format!("restore from the final snapshot `{snapshot}` into a new resource")
    } else {
        recovery.to_string()
    };
    Some(
        Hit::new(
            &AWS_DELETE,
            Tier::Destructive,
            format!("deletes {what}{named}"),
        )
        .safer(*first)
        .recovery(recovery),
    )
}
