//! Key files and keyrings of the user's own: GnuPG's keyring and SSH private keys.

use crate::rules::git::list;
use crate::rules::{Hit, Rule, Tier};
use crate::shell::{SimpleCommand, Word};
use crate::syntax::argv;

pub static GPG_DELETE: Rule = Rule {
    id: "keys.gpg-delete",
    catches: "`gpg --delete-secret-keys`, `--delete-keys`, `--delete-secret-and-public-keys` (and \
              every abbreviation gpg accepts, such as `--delete-key`), with or without `--batch \
              --yes`",
    why: "A secret key in the keyring is often its only copy: whatever was encrypted to it can \
          no longer be read, and what it signed can no longer be answered for. A deleted public \
          key takes the signatures and ownertrust set on it along. With `--batch` and a \
          fingerprint gpg deletes without asking, and where a terminal is attached the agent is \
          the one who answers its question, so the flags do not make it safe.",
    instead: "Back the key up before anything else (`gpg --export-secret-keys --armor KEYID > \
              key-backup.asc`, kept somewhere safe), or leave the key alone; `gpg \
              --list-secret-keys` and `gpg --list-keys` show what is there. Test keys belong in \
              their own `--homedir`, which can be deleted whole.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "gpg --batch --yes --delete-secret-keys ABCD1234",
        "gpg --delete-secret-keys alice@example.com",
        "gpg --delete-key 0x5F3A2B1C",
        "gpg --batch --delete-secret-and-public-key 3AA5C34371567BD2A1B9D0F5E6C7D8E9F0A1B2C3",
        "gpg2 --homedir ~/.gnupg --delete-keys bob@example.com",
        "gpg --yes --delete-secret-key ABCD1234",
    ],
    passes: &[
        "gpg --list-keys",
        "gpg -k",
        "gpg --list-secret-keys --keyid-format long",
        "gpg --export-secret-keys --armor ABCD1234 > key-backup.asc",
        "gpg --import key.asc",
        "gpg -d doc.txt.gpg",
        "gpg --batch --yes --passphrase-fd 0 --symmetric --output out.gpg data.tar.gz",
        "echo gpg --delete-secret-keys ABCD1234",
    ],
};

pub static SSH_KEY_OVERWRITE: Rule = Rule {
    id: "keys.ssh-key-overwrite",
    catches: "`ssh-keygen` generating a key with `y` fed to its \"Overwrite (y/n)?\" question \
              (`echo y | ssh-keygen -f ~/.ssh/id_rsa ...`, `ssh-keygen ... <<< y`)",
    why: "ssh-keygen asks before writing over an existing key and reads the answer from its \
          input. Feeding it `y` replaces the private key, and with it the access to every \
          server, repository and service that trusted the old public key.",
    instead: "Write the new key to a new file (`ssh-keygen -t ed25519 -f ~/.ssh/id_ed25519_new \
              -N ''`), or leave out the `y`: then ssh-keygen refuses when the file exists.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "echo y | ssh-keygen -t ed25519 -N '' -f ~/.ssh/id_ed25519",
        "echo -e 'y\\n' | ssh-keygen -q -t rsa -N '' -f ~/.ssh/id_rsa",
        "ssh-keygen -q -t rsa -N '' -f ~/.ssh/id_rsa <<< y",
        "printf 'y\\n' | ssh-keygen -f deploy_key -N ''",
        "echo y | ssh-keygen -t ed25519 -N ''",
    ],
    passes: &[
        "ssh-keygen -t ed25519 -f ~/.ssh/id_ed25519 -N ''",
        "ssh-keygen -R github.com",
        "ssh-keygen -l -f ~/.ssh/id_ed25519.pub",
        "ssh-keygen -y -f ~/.ssh/id_ed25519",
        "echo n | ssh-keygen -f deploy_key -N ''",
        "echo y | ssh-keygen -lf deploy_key.pub",
        "echo | ssh-keygen -P ''",
    ],
};

/// The deleting commands of gpg, as gpg spells them in full; any unambiguous abbreviation
/// of them works too.
const GPG_DELETES: &[(&str, Deleted)] = &[
    ("delete-keys", Deleted::Public),
    ("delete-secret-keys", Deleted::Secret),
    ("delete-secret-and-public-keys", Deleted::Both),
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Deleted {
    Public,
    Secret,
    Both,
}

/// gpg options that take the next word as their value (for naming the keys in a reason).
const GPG_VALUED: &[&str] = &[
    "--homedir",
    "--keyring",
    "--secret-keyring",
    "--primary-keyring",
    "--default-key",
    "-u",
    "--local-user",
    "-r",
    "--recipient",
    "-o",
    "--output",
    "--passphrase",
    "--passphrase-fd",
    "--passphrase-file",
    "--pinentry-mode",
    "--status-fd",
    "--status-file",
    "--command-fd",
    "--command-file",
    "--logger-fd",
    "--trust-model",
    "--keyserver",
    "--keyid-format",
    "--options",
    "--agent-program",
    "--compress-level",
    "-z",
];

/// What a gpg long option deletes, when it is one of the deleting commands or an
/// abbreviation of one longer than `--delete-` (shorter ones are ambiguous, and gpg refuses
/// them).
fn deleting(opt: &argv::Opt) -> Option<Deleted> {
    let name = opt.name;
    if opt.spelling != argv::Spelling::Long || name.len() <= "delete-".len() {
        return None;
    }
    GPG_DELETES
        .iter()
        .filter(|(full, _)| full.starts_with(name))
        .map(|(_, what)| *what)
        .reduce(|a, b| if a == b { a } else { Deleted::Secret })
}

pub(super) fn gpg(args: &[Word]) -> Option<Hit> {
    let options = argv::Written {
        names: GPG_VALUED,
        valued: GPG_VALUED,
    };
    let read = argv::read(args, argv::Style::Getopt, &options);
    let deleted = read.opts.iter().find_map(deleting)?;
    let keys = read.operands.iter().filter_map(|&at| args.get(at));
    let named = list(keys.map(|w| w.text.as_str()));
    let (loses, recovery) = match deleted {
        Deleted::Public => (
            format!(
                "deletes the public key {named} from the GnuPG keyring, with the signatures and \
                 trust set on it"
            ),
            "re-import it from where it came from (`gpg --import key.asc`, `gpg --recv-keys`); \
             local signatures and ownertrust must be set again",
        ),
        Deleted::Secret | Deleted::Both => (
            format!(
                "deletes the secret key {named} from the GnuPG keyring: what was encrypted to it \
                 can no longer be decrypted"
            ),
            "only from a backup of the secret key (`gpg --import key-backup.asc`)",
        ),
    };
    Some(
        Hit::new(&GPG_DELETE, Tier::Destructive, loses)
            .safer(
                "`gpg --export-secret-keys --armor KEYID > key-backup.asc` first, or leave the \
                 key; `gpg --list-secret-keys` shows what is there",
            )
            .recovery(recovery),
    )
}

/// ssh-keygen's options that choose something other than generating a key.
const SSH_KEYGEN_MODES: &[&str] = &[
    "A", "B", "c", "D", "e", "F", "G", "H", "i", "K", "k", "l", "L", "M", "p", "Q", "r", "R", "s",
    "T", "u", "y", "Y",
];
/// ssh-keygen's options that take a value.
const SSH_KEYGEN_VALUED: &[&str] = &[
    "a", "b", "C", "D", "E", "f", "F", "g", "I", "J", "j", "m", "N", "n", "O", "P", "r", "R", "s",
    "t", "V", "w", "z", "Z",
];

/// `ssh-keygen` generating a key, with its input answering yes to "Overwrite (y/n)?".
pub(super) fn ssh_keygen(cmd: &SimpleCommand) -> Option<Hit> {
    let answers_yes = cmd
        .input
        .as_deref()
        .is_some_and(|input| input.starts_with(['y', 'Y']));
    if !answers_yes {
        return None;
    }
    let read = argv::read(
        cmd.args(),
        argv::Style::Getopt,
        &argv::Valued(SSH_KEYGEN_VALUED),
    );
    if read
        .opts
        .iter()
        .any(|opt| SSH_KEYGEN_MODES.contains(&opt.name))
    {
        return None;
    }
    let file = read.last(&["f"]).and_then(|opt| opt.value);
    let kind = read.last(&["t"]).and_then(|opt| opt.value);
    let target = match file {
        Some(path) => format!("`{path}`"),
        None => format!(
            "the default key `~/.ssh/id_{}`",
            kind.unwrap_or("ed25519").trim_end_matches("-sk")
        ),
    };
    Some(
        Hit::new(
            &SSH_KEY_OVERWRITE,
            Tier::Destructive,
            format!(
                "answers yes to overwriting {target}: an existing private key there is replaced, \
                 and every server that trusted it no longer lets it in"
            ),
        )
        .safer(
            "generate into a new file (`-f ~/.ssh/id_ed25519_new`), or drop the `y` so \
             ssh-keygen refuses to overwrite",
        )
        .recovery("only from a backup of the old private key"),
    )
}
