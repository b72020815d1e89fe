//! The user's crontab: one table of scheduled jobs, kept by cron and nowhere else.

use crate::rules::packs::args::{has, operands};
use crate::rules::{Hit, Rule, Tier};
use crate::shell::SimpleCommand;

pub static CRONTAB_REPLACE: Rule = Rule {
    id: "keys.crontab-replace",
    catches: "`crontab -r`, and installing a new table from a file or from input the line \
              spells out (`crontab FILE`, `crontab < FILE`, `echo ... | crontab -`), which \
              replaces the whole current table",
    why: "The crontab is the only copy of the user's scheduled jobs; cron keeps no backup. \
          `crontab -r` deletes it, and `crontab FILE` replaces every job with the file's, so the \
          jobs the file lacks (backups, certificate renewals, clean-ups) silently stop.",
    instead: "Back it up first (`crontab -l > crontab.bak`) and add to the table instead of \
              replacing it: `(crontab -l 2>/dev/null; echo '0 3 * * * /path/job') | crontab -`. \
              Edits that start from `crontab -l` (`crontab -l | sed ... | crontab -`) keep the \
              other jobs and pass.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "crontab -r",
        "crontab -u alice -r",
        "crontab -ri",
        "crontab path/to/file",
        "sudo crontab -u www-data jobs.txt",
        "crontab - < new.cron",
        "echo '* * * * * /usr/bin/backup' | crontab -",
        "crontab - <<'EOF'\n0 3 * * * /srv/job\nEOF",
    ],
    passes: &[
        "crontab -l",
        "crontab -e",
        "crontab -u apache -l",
        "crontab -l > crontab.bak",
        "(crontab -l 2>/dev/null; echo '0 8 * * * /srv/job.sh') | crontab -",
        "crontab -l | sed 's/^5 /10 /' | crontab -",
        "echo crontab -r",
    ],
};

/// crontab options that take a value.
const VALUED: &[&str] = &["-u", "-x", "-n"];

pub(super) fn crontab(cmd: &SimpleCommand) -> Option<Hit> {
    let args = cmd.args();
    // Listing, editing, testing and cluster-host modes leave the table as it is.
    if has(args, &["-l", "-e", "-T", "-c", "-n", "-V"]) {
        return None;
    }
    let user = args
        .windows(2)
        .find_map(|pair| match pair {
            [flag, user] if flag.text == "-u" => Some(user),
            _ => None,
        })
        .map_or("the user's".to_string(), |user| format!("{}'s", user.text));
    let backup = "`crontab -l > crontab.bak` first";
    if has(args, &["-r"]) {
        return Some(
            Hit::new(
                &CRONTAB_REPLACE,
                Tier::Destructive,
                format!("deletes {user} whole crontab: every scheduled job in it"),
            )
            .safer(format!(
                "{backup}; remove single jobs with `crontab -l | grep -v PATTERN | crontab -`"
            ))
            .recovery(RECOVERY),
        );
    }
    let ops = operands(args, VALUED);
    let from_redirect = cmd
        .redirects
        .iter()
        .find(|r| r.op == "<")
        .map(|r| &r.target);
    let source = match (ops.first(), from_redirect, cmd.input.as_deref()) {
        (Some(&file), _, _) if file != "-" => format!("the contents of `{file}`"),
        (_, Some(file), _) => format!("the contents of `{}`", file.text),
        (_, _, Some(text)) => match text.lines().filter(|l| !l.trim().is_empty()).count() {
            0 => "nothing (an empty table)".to_string(),
            1 => "the one line the command gives".to_string(),
            n => format!("the {n} lines the command gives"),
        },
        // Input that is not spelled out may well start from `crontab -l`: the usual way
        // to add a job while keeping the others.
        _ => return None,
    };
    Some(
        Hit::new(
            &CRONTAB_REPLACE,
            Tier::Destructive,
            format!("replaces {user} whole crontab with {source}: every job not in it is dropped"),
        )
        .safer(format!(
            "{backup}, and keep the current jobs: `(crontab -l 2>/dev/null; cat NEW) | crontab -`"
        ))
        .recovery(RECOVERY),
    )
}

const RECOVERY: &str = "only from a copy made before (`crontab crontab.bak`); cron keeps none";
