//! Commands that run elsewhere (a container, a pod, another machine) are judged by the same
//! rules as here; then where they run decides two things the rules alone do not. A new
//! container's own files go with it, so deleting only those loses nothing. And a place whose
//! name, or the name of the way to it, says production protects whatever runs there.

use super::packs::names_word;
use super::{GitSubject, Hit, Subject, Tier, fs};
use crate::motion::channels::{Elsewhere, Landing};
use crate::shell::Word;

/// Whether `hit` touches only the own files of the new container `place`, which go with it.
/// `dirs` are the `cd`s made inside before the command.
pub(super) fn only_own_files(hit: &Hit, place: &Elsewhere, dirs: &[Word]) -> bool {
    if !place.fresh {
        return false;
    }
    match &hit.subject {
        Subject::Paths(targets) if !targets.is_empty() => targets
            .iter()
            .all(|target| place.lands(dirs, target) == Landing::Own),
        // A push writes to another repository, wherever it is run from.
        Subject::Git {
            what: GitSubject::Push { .. },
            ..
        } => false,
        Subject::Paths(_) | Subject::Git { .. } | Subject::Mirror(_) | Subject::WorkingCopy(_) => {
            place.mounts.is_empty()
        }
        Subject::Nothing if FILES_OF_THE_MACHINE.contains(&hit.rule.id) => place.mounts.is_empty(),
        _ => false,
    }
}

/// Rules whose findings are about files of the machine the command runs on, without naming
/// them as paths: in a new container with nothing mounted, those are the container's own.
const FILES_OF_THE_MACHINE: &[&str] = &[fs::RM_ANY.id, "system.rm-system", "system.permissions"];

/// Places what `hit` says in `place`: protected where a name of it says production, and a
/// file delete's safer way is one that works over there. `dirs` are the `cd`s made inside.
pub(super) fn place(hit: &mut Hit, place: &Elsewhere, dirs: &[Word], production: &[String]) {
    if hit.tier != Tier::Protected
        && let Some((name, pattern)) = production_name(place, production)
    {
        // A single file's delete or overwrite stands only when a look shows its bytes are
        // nowhere else, and over there nothing can be looked at; in production it stands
        // unless it is a temporary file or a new container's own.
        if hit.needs_confirmation {
            if !file_in_production(hit, place, dirs) {
                return;
            }
            hit.needs_confirmation = false;
            hit.recovery = Some("only a backup of that machine holds the old bytes".into());
        }
        hit.tier = Tier::Protected;
        hit.loses = format!(
            "{} (where it runs names production: `{name}` matches `{pattern}`)",
            hit.loses
        );
        hit.safer = Some(
            "never run this against production; ask the user, who can run it themselves".into(),
        );
        return;
    }
    if hit.rule.id.starts_with("fs.") && hit.tier != Tier::Protected {
        hit.safer = Some(
            "look first over the same channel (`ls -la <path>`), and move what must go aside \
             (`mv <path> <path>.old`) rather than delete it: `agent-guard rm` works on this \
             machine only"
                .into(),
        );
    }
}

/// Whether `hit` deletes or writes over a file that outlives the command in `place`: any
/// but a temporary one, in a place that is no new container.
fn file_in_production(hit: &Hit, place: &Elsewhere, dirs: &[Word]) -> bool {
    let Subject::Files(files) = &hit.subject else {
        return false;
    };
    !place.fresh
        && files.iter().any(|file| {
            let at: Vec<Word> = dirs.iter().cloned().chain([file.path.clone()]).collect();
            !fs::in_temporary_folder(&at)
        })
}

/// The first name of `place` that matches a production pattern, with the pattern.
fn production_name<'a>(place: &'a Elsewhere, patterns: &'a [String]) -> Option<(&'a str, &'a str)> {
    place
        .names
        .iter()
        .filter(|name| !name.contains(char::is_whitespace))
        .find_map(|name| {
            patterns
                .iter()
                .find(|p| names_word(name, p))
                .map(|p| (name.as_str(), p.as_str()))
        })
}

#[cfg(test)]
mod tests {
    use crate::rules::Tier;
    use crate::rules::packs::judged;
    use crate::settings::Settings;

    #[test]
    fn a_single_file_sent_to_production_is_protected() {
        let settings = Settings::default();
        for (command, rule) in [
            ("ssh prod-web1 rm /srv/app/.env", "fs.rm-file"),
            (
                "ssh prod-web1 'echo x > /srv/app/config.yml'",
                "fs.overwrite",
            ),
            (
                "kubectl -n production exec web-0 -- rm /data/a.db",
                "fs.rm-file",
            ),
        ] {
            assert_eq!(
                judged(command, &settings),
                [(rule, Tier::Protected)],
                "{command}"
            );
        }
        // Dropped here only for want of a look, as every single file is with context off:
        // with context on, over there, it is unknown and passes.
        for command in [
            "ssh staging-web1 rm /srv/app/.env",
            "ssh prod-web1 rm /tmp/deploy.lock",
            "ssh prod-web1 'cd /var/tmp && rm x.tar'",
            "heroku run -a shop-prod rm db/seeds.rb",
        ] {
            assert!(
                judged(command, &settings)
                    .iter()
                    .all(|(_, tier)| *tier == Tier::Destructive),
                "{command}"
            );
        }
    }
}
