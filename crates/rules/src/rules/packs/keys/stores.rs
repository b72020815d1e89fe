//! Stores of secrets on the machine: the macOS keychain, `pass` and `gopass`, the Linux kernel
//! keyring, and certificate databases (NSS's and Windows').

use crate::rules::git::list;
use crate::rules::packs::args::{has, operands};
use crate::rules::{Hit, Rule, Tier};
use crate::shell::Word;

pub static KEYCHAIN_DELETE: Rule = Rule {
    id: "keys.keychain-delete",
    catches: "macOS `security delete-keychain`, `delete-certificate`, `delete-identity`, \
              `delete-generic-password` and `delete-internet-password`",
    why: "The keychain holds saved passwords, the tokens apps and command-line tools stored \
          for themselves, and private keys with their certificates. `delete-keychain` removes \
          the keychain file itself and `delete-identity` a private key; nothing goes to a \
          trash, and a token or key that only the keychain held is gone.",
    instead: "Read first: `security find-generic-password -s SERVICE` (without `-w`), `security \
              find-identity -v`, `security list-keychains`. Store a replacement under a new \
              name, and leave removals to the user.",
    protected_when: Some("when it deletes the login or System keychain"),
    strict_only: false,
    stops: &[
        "security delete-keychain login.keychain",
        "security delete-keychain ~/Library/Keychains/build.keychain-db",
        "security delete-generic-password -s github -a alice",
        "security delete-internet-password -s example.com",
        "security delete-certificate -c 'Apple Development: Alice'",
        "security delete-identity -Z 3F2A9C0B1D4E5F60718293A4B5C6D7E8F9012345",
    ],
    passes: &[
        "security list-keychains",
        "security find-generic-password -s github -a alice",
        "security find-identity -v -p codesigning",
        "security create-keychain -p hunter2 build.keychain",
        "security add-generic-password -s github -a alice -w token",
        "security remove-trusted-cert path/to/ca-cert_file.pem",
        "systemd-analyze security",
    ],
};

pub static PASSWORD_STORE_DELETE: Rule = Rule {
    id: "keys.password-store-delete",
    catches: "`pass rm|remove|delete`, `gopass rm|remove|delete`, and `pass generate \
              --in-place` (which replaces an entry's password)",
    why: "A password store entry is often the only place a password or recovery code is \
          written down. `pass` asks before deleting only when its input is a terminal, so from \
          an agent's shell it deletes without a question; `generate --in-place` writes over \
          the old password.",
    instead: "`pass show NAME` (`gopass show NAME`) to read it first; `pass mv NAME \
              archive/NAME` moves it out of the way without deleting it. When the store is a git \
              repository (`pass git log`), a deletion is undone with `pass git revert HEAD`.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "pass rm email/work",
        "pass rm -rf web",
        "pass remove --force bank/pin",
        "pass delete -r old",
        "gopass rm -r websites/old",
        "gopass delete -f api/token",
        "pass generate --in-place email/work 32",
    ],
    passes: &[
        "pass show email/work",
        "pass ls",
        "pass insert -m notes/new",
        "pass git log",
        "pass generate -c path/to/data 32",
        "gopass show foo",
        "gopass mounts remove store_name",
        "pass otp -c path/to/pass",
    ],
};

pub static KEYRING_CLEAR: Rule = Rule {
    id: "keys.keyring-clear",
    catches: "`keyctl clear`, `purge`, `unlink`, `revoke` and `invalidate` (the Linux kernel \
              keyring)",
    why: "Keys in the kernel keyring live only in memory: a secret a script added with `keyctl \
          add`, the key that unlocks an fscrypt or eCryptfs folder, Kerberos and NFS \
          credentials. Clearing, revoking or unlinking them drops the only copy until whoever \
          put it there adds it again.",
    instead: "`keyctl show @u` or `keyctl list @s` to see what is there; `keyctl timeout KEY \
              SECONDS` if a key should expire; leave other keys to their owners.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "keyctl clear @u",
        "keyctl revoke 123456789",
        "keyctl unlink 123456789 @s",
        "keyctl purge user mykey",
        "keyctl invalidate %user:api-token",
    ],
    passes: &[
        "keyctl show @u",
        "keyctl list @us",
        "keyctl read key_name",
        "keyctl add user key_name key_value @u",
        "keyctl pipe key_name",
        "keyctl reap",
    ],
};

pub static CERT_STORE_DELETE: Rule = Rule {
    id: "keys.cert-store-delete",
    catches: "NSS `certutil -D` (a certificate) and `-F` (a private key); Windows `certutil \
              -delstore`, `-delkey` and `-deleterow`",
    why: "A certificate database (a browser profile's, a server's NSS database, a Windows \
          certificate store) holds certificates with the private keys they were issued for. A \
          deleted private key cannot be brought back: the certificate has to be requested \
          again, and everything that pinned it updated.",
    instead: "List first: `certutil -L -d DIR` and `certutil -K -d DIR` (NSS), `certutil -store \
              My` (Windows). Export before removing anything (`pk12util -o backup.p12 -n NAME -d \
              DIR`, `certutil -exportPFX`).",
    protected_when: None,
    strict_only: false,
    stops: &[
        "certutil -D -n server_certificate -d .",
        "certutil -F -n server_name -d sql:/etc/pki/nssdb",
        "certutil -delstore My 3a4b5c6d",
        "certutil -user -delstore Root 1f2e3d4c",
        "certutil -delkey oldcontainer",
    ],
    passes: &[
        "certutil -L -d .",
        "certutil -K -d . -f path/to/password_file.txt",
        "certutil -A -n server_certificate -t ',,' -i cert.crt -d .",
        "certutil -N -d .",
        "certutil -store My",
        "certutil -hashfile setup.exe SHA256",
    ],
};

/// `security`'s own options that take a value, before the command.
const SECURITY_VALUED: &[&str] = &["-p"];

pub(super) fn security(args: &[Word]) -> Option<Hit> {
    let ops = operands(args, SECURITY_VALUED);
    let sub = *ops.first()?;
    let rest = args.get(args.iter().position(|w| w.text == sub)? + 1..)?;
    let what = match sub {
        "delete-keychain" => {
            let keychains = operands(rest, &[]);
            // With no keychain named, the default one (the login keychain) is meant.
            let system = keychains.is_empty()
                || keychains.iter().any(|k| {
                    let name = k.rsplit('/').next().unwrap_or(k);
                    name == "login"
                        || name.starts_with("login.keychain")
                        || name.starts_with("System.keychain")
                });
            let hit = Hit::new(
                &KEYCHAIN_DELETE,
                if system {
                    Tier::Protected
                } else {
                    Tier::Destructive
                },
                format!(
                    "deletes the keychain {} and every password, token and key in it",
                    match keychains.is_empty() {
                        true => "`login.keychain` (the default)".to_string(),
                        false => list(keychains.iter().copied()),
                    }
                ),
            )
            .safer("`security list-keychains` and `security show-keychain-info KEYCHAIN` to look at it; leave its removal to the user")
            .recovery("only from a backup of the keychain file (Time Machine keeps `~/Library/Keychains`)");
            return Some(hit);
        }
        "delete-certificate" => "a certificate (with `-t`, its trust settings too)",
        "delete-identity" => "a certificate and its private key",
        "delete-generic-password" => "a saved password or token",
        "delete-internet-password" => "a saved internet password",
        _ => return None,
    };
    let find = sub.replacen("delete-", "find-", 1);
    Some(
        Hit::new(
            &KEYCHAIN_DELETE,
            Tier::Destructive,
            format!("deletes {what} from the keychain; nothing keeps a copy"),
        )
        .safer(format!(
            "`security {find}` with the same search options shows the item first; leave its \
             removal to the user"
        ))
        .recovery("only from a backup of the keychain"),
    )
}

/// `pass` and `gopass`: deleting entries, or `pass generate --in-place`.
pub(super) fn password_store(tool: &str, args: &[Word]) -> Option<Hit> {
    let ops = operands(args, &[]);
    let sub = *ops.first()?;
    let entries = || list(ops.iter().skip(1).copied());
    let recovery = match tool {
        "pass" => {
            "if the store is a git repository (`pass git log`), `pass git revert HEAD`; otherwise only from a backup of the store"
        }
        _ => {
            "if the store is a git repository (`gopass git log`), revert that commit; otherwise only from a backup of the store"
        }
    };
    match sub {
        "rm" | "remove" | "delete" => Some(
            Hit::new(
                &PASSWORD_STORE_DELETE,
                Tier::Destructive,
                format!(
                    "deletes {} from the password store{}",
                    entries(),
                    if has(args, &["-r", "--recursive"]) {
                        ", with every entry under it"
                    } else {
                        ""
                    }
                ),
            )
            .safer(format!(
                "`{tool} show NAME` to read it first; `{tool} mv NAME archive/NAME` keeps it \
                 out of the way"
            ))
            .recovery(recovery),
        ),
        "generate" if tool == "pass" && has(args, &["-i", "--in-place"]) => Some(
            Hit::new(
                &PASSWORD_STORE_DELETE,
                Tier::Destructive,
                format!("replaces the password of {} with a new one", entries()),
            )
            .safer("`pass generate NEW-NAME` stores a new password beside the old one")
            .recovery(recovery),
        ),
        _ => None,
    }
}

pub(super) fn keyctl(args: &[Word]) -> Option<Hit> {
    let ops = operands(args, &[]);
    let (sub, rest) = ops.split_first()?;
    let what = match *sub {
        "clear" => format!("empties the keyring {}", list(rest.iter().copied())),
        "purge" => "revokes and unlinks every key of that type matching the description".into(),
        "unlink" => format!("unlinks the key {}", list(rest.iter().take(1).copied())),
        "revoke" => format!("revokes the key {}", list(rest.iter().copied())),
        "invalidate" => format!(
            "invalidates and destroys the key {}",
            list(rest.iter().copied())
        ),
        _ => return None,
    };
    Some(
        Hit::new(
            &KEYRING_CLEAR,
            Tier::Destructive,
            format!("{what}: keys held only in kernel memory are gone"),
        )
        .safer("`keyctl show @u` lists the keys; leave removing them to whoever added them")
        .recovery("whoever added a key must add it again (`keyctl add`, or logging in again)"),
    )
}

/// Windows `certutil` verbs that delete (matched case-insensitively, as Windows does).
const WINDOWS_DELETES: &[&str] = &["delstore", "delkey", "deleterow"];

pub(super) fn certutil(args: &[Word]) -> Option<Hit> {
    let windows = args.iter().find_map(|w| {
        let verb = w.text.strip_prefix(['-', '/'])?.to_ascii_lowercase();
        WINDOWS_DELETES.contains(&verb.as_str()).then_some(verb)
    });
    let what = match windows {
        Some(verb) if verb == "delkey" => "a key container and its private key".to_string(),
        Some(verb) if verb == "deleterow" => {
            "rows of the certification authority's database".to_string()
        }
        Some(_) => "a certificate from a Windows certificate store".to_string(),
        None if args.iter().any(|w| w.text == "-F") => {
            "a private key from the NSS database".to_string()
        }
        None if args.iter().any(|w| w.text == "-D") => {
            "a certificate from the NSS database".to_string()
        }
        None => return None,
    };
    Some(
        Hit::new(
            &CERT_STORE_DELETE,
            Tier::Destructive,
            format!("deletes {what}; a deleted private key cannot be restored"),
        )
        .safer(
            "list first (`certutil -L -d DIR`, `certutil -K -d DIR`, `certutil -store My`) and \
             export a backup before removing anything",
        )
        .recovery("only from an exported backup (`pk12util -i`, `certutil -importPFX`)"),
    )
}
