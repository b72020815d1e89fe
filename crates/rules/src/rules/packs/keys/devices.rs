//! Hardware that holds keys: YubiKeys through `ykman`, and the TPM through tpm2-tools. What
//! these devices generate never leaves them, so deleting it is final.

use crate::rules::packs::args::{self, value};
use crate::rules::{Hit, Rule, Tier};
use crate::shell::Word;

pub static SECURITY_KEY_RESET: Rule = Rule {
    id: "keys.security-key-reset",
    catches: "`ykman fido|oath|openpgp|piv|hsmauth|sd reset` and `ykman config reset`: wiping \
              one application of a YubiKey, or the whole key",
    why: "A reset erases every credential the application holds: FIDO2 passkeys and U2F \
          registrations, TOTP seeds, the OpenPGP and PIV private keys. They were generated on \
          the key and cannot be exported, so every account and server that trusted them loses \
          that way in; `--force` skips the only question ykman asks.",
    instead: "Look without touching: `ykman info`, `ykman fido credentials list`, `ykman oath \
              accounts list`, `ykman piv info`, `ykman openpgp info`. Resetting a security key \
              is for its owner to do, by hand.",
    protected_when: Some("always"),
    strict_only: false,
    stops: &[
        "ykman fido reset --force",
        "ykman oath reset -f",
        "ykman openpgp reset",
        "ykman piv reset --force",
        "ykman --device 12345678 hsmauth reset -f",
        "ykman config reset --force",
        "ykman sd reset",
    ],
    passes: &[
        "ykman info",
        "ykman list",
        "ykman fido info",
        "ykman oath accounts list",
        "ykman piv info",
        "ykman fido reset --help",
        "echo ykman fido reset",
    ],
};

pub static SECURITY_KEY_DELETE: Rule = Rule {
    id: "keys.security-key-delete",
    catches: "`ykman fido credentials delete`, `ykman oath accounts delete`, `ykman otp delete`, \
              `ykman piv keys|certificates delete`, `ykman openpgp certificates delete`, `ykman \
              hsmauth credentials delete`, `ykman sd keys delete` (and the older `ykman oath \
              delete`, `ykman piv delete-certificate`)",
    why: "Each deletes a credential stored on the key: a passkey, a TOTP seed, a programmed OTP \
          slot, a private key or its certificate. A key generated on the device exists nowhere \
          else, and the account or server that trusts it loses that login.",
    instead: "List first (`ykman fido credentials list`, `ykman oath accounts list`, `ykman otp \
              info`, `ykman piv info`) and leave removals to the key's owner; a credential no \
              longer wanted is better revoked on the service's side.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "ykman fido credentials delete 42",
        "ykman oath accounts delete github",
        "ykman otp delete 2 --force",
        "ykman piv keys delete 9a",
        "ykman piv certificates delete 9c",
        "ykman openpgp certificates delete sig",
        "ykman -d 12345678 oath accounts delete -f aws",
        "ykman otp --access-code 0123456789ab delete 1",
    ],
    passes: &[
        "ykman fido credentials list",
        "ykman oath accounts code github",
        "ykman oath accounts rename foo issuer:name",
        "ykman otp info",
        "ykman piv certificates export 9a cert.pem",
        "ykman fido fingerprints delete thumb",
        "ykman piv keys generate 9a pubkey.pem",
    ],
};

pub static TPM_CLEAR: Rule = Rule {
    id: "keys.tpm-clear",
    catches: "`tpm2_clear` (`tpm2 clear`), `tpm2_evictcontrol` of a persistent handle \
              (`0x81…`), `tpm2_nvundefine`",
    why: "Clearing the TPM destroys every key under its owner and endorsement hierarchies: \
          disk-encryption keys sealed to it (BitLocker, systemd-cryptenroll, Clevis), the keys \
          of TPM-backed SSH and signing tools, attestation identities. Evicting a persistent \
          handle or undefining an NV index deletes that one key or stored secret. The TPM keeps \
          no copy.",
    instead: "Read only: `tpm2_getcap handles-persistent`, `tpm2_nvreadpublic`, `tpm2_readpublic \
              -c 0x81000001`. Clearing or reprovisioning a TPM is for the machine's owner, with \
              the disks' recovery keys at hand.",
    protected_when: Some("for `tpm2_clear`"),
    strict_only: false,
    stops: &[
        "tpm2_clear",
        "tpm2_clear -c platform",
        "tpm2 clear",
        "tpm2_evictcontrol -C o -c 0x81000001",
        "tpm2 evictcontrol --object-context=0x81010002",
        "tpm2_nvundefine 0x1500016",
    ],
    passes: &[
        "tpm2_getcap handles-persistent",
        "tpm2 pcrread sha256:all",
        "tpm2_evictcontrol -C o -c key.ctx 0x81000001",
        "tpm2_clear --help",
        "tpm2_nvread 0x1500016",
        "tpm2 pcrreset 23",
    ],
};

/// ykman's global options and group options that take a value.
const YKMAN_VALUED: &[&str] = &[
    "-d",
    "--device",
    "-r",
    "--reader",
    "-t",
    "--scp-ca",
    "-s",
    "--scp",
    "-p",
    "--scp-password",
    "-l",
    "--log-level",
    "--log-file",
    "--access-code",
    "-c",
    "--scp-sd",
    "-o",
    "--scp-oce",
];
/// Those of them that take the word after their value too: the SCP key references.
const YKMAN_TWO_VALUED: &[&str] = &["c", "scp-sd", "o", "scp-oce"];

/// The first `n` words of ykman's command path (`piv keys delete`), options skipped.
fn ykman_path(args: &[Word], n: usize) -> Vec<&str> {
    let read = args::read(args, YKMAN_VALUED);
    let second_values: Vec<usize> = read
        .opts
        .iter()
        .filter(|opt| YKMAN_TWO_VALUED.contains(&opt.name))
        .filter_map(|opt| opt.value_word)
        .map(|at| at + 1)
        .collect();
    read.operands
        .iter()
        .filter(|at| !second_values.contains(at))
        .filter_map(|&at| args.get(at))
        .map(|w| w.text.as_str())
        .take(n)
        .collect()
}

pub(super) fn ykman(args: &[Word]) -> Option<Hit> {
    let path = ykman_path(args, 3);
    let app = |name: &str| match name {
        "fido" => "FIDO2 and U2F application: every passkey and security-key registration",
        "oath" => "OATH application: every TOTP/HOTP account's secret",
        "openpgp" => "OpenPGP application: its signing, encryption and authentication keys",
        "piv" => "PIV application: every private key and certificate in its slots",
        "hsmauth" => "YubiHSM Auth application: every stored credential",
        "sd" => "Security Domain: its SCP keys",
        _ => "whole key: every application and every credential on it",
    };
    match path.as_slice() {
        [
            group @ ("fido" | "oath" | "openpgp" | "piv" | "hsmauth" | "sd" | "config"),
            "reset",
            ..,
        ] => Some(
            Hit::new(
                &SECURITY_KEY_RESET,
                Tier::Protected,
                format!(
                    "wipes the YubiKey's {}, which exist nowhere else",
                    app(group)
                ),
            )
            .safer("leave resets to the key's owner; `ykman info` shows the key's state")
            .recovery("none: credentials generated on the key cannot be restored"),
        ),
        ["fido", "credentials", "delete"] => {
            one("passkey (FIDO2 credential)", "ykman fido credentials list")
        }
        ["oath", "accounts", "delete"] | ["oath", "delete", ..] => one(
            "TOTP/HOTP account and its secret",
            "ykman oath accounts list",
        ),
        ["otp", "delete", ..] => one("programmed OTP slot", "ykman otp info"),
        ["piv", "keys", "delete"] => one("PIV private key", "ykman piv info"),
        ["piv", "certificates", "delete"] | ["piv", "delete-certificate", ..] => {
            one("PIV certificate", "ykman piv info")
        }
        ["openpgp", "certificates", "delete"] => {
            one("OpenPGP card certificate", "ykman openpgp info")
        }
        ["hsmauth", "credentials", "delete"] => {
            one("YubiHSM Auth credential", "ykman hsmauth credentials list")
        }
        ["sd", "keys", "delete"] => one("Security Domain key", "ykman sd info"),
        _ => None,
    }
}

fn one(what: &str, list: &str) -> Option<Hit> {
    Some(
        Hit::new(
            &SECURITY_KEY_DELETE,
            Tier::Destructive,
            format!("deletes a {what} from the YubiKey; it exists nowhere else"),
        )
        .safer(format!(
            "`{list}` shows what is there; leave the removal to the key's owner"
        ))
        .recovery("none: a credential generated on the key cannot be restored"),
    )
}

/// `tpm2 <tool> ...`, the multi-call form of tpm2-tools.
pub(super) fn tpm2(args: &[Word]) -> Option<Hit> {
    let at = args::read_head(args, &["-T", "--tcti"]).stopped_at?;
    let (tool, rest) = args.get(at..)?.split_first()?;
    tpm2_tool(&tool.text, rest)
}

/// One tpm2-tools program (`clear` for `tpm2_clear`) and its arguments.
pub(super) fn tpm2_tool(tool: &str, args: &[Word]) -> Option<Hit> {
    match tool {
        "clear" => Some(
            Hit::new(
                &TPM_CLEAR,
                Tier::Protected,
                "clears the TPM: every key under its owner and endorsement hierarchies, \
                 including disk-encryption keys sealed to it, is destroyed",
            )
            .safer(
                "leave the TPM to the machine's owner; `tpm2_getcap handles-persistent` reads it",
            )
            .recovery("none: disks sealed to the TPM need their recovery keys"),
        ),
        "evictcontrol" => {
            let object = value(args, &["-c", "--object-context"])?;
            let persistent = object.len() > 4 && object[..4].eq_ignore_ascii_case("0x81");
            persistent.then(|| {
                Hit::new(
                    &TPM_CLEAR,
                    Tier::Destructive,
                    format!("evicts the persistent key `{object}` from the TPM, deleting it"),
                )
                .safer(format!(
                    "`tpm2_readpublic -c {object}` reads it without removing it"
                ))
                .recovery("none: the TPM keeps no copy of an evicted key")
            })
        }
        "nvundefine" => Some(
            Hit::new(
                &TPM_CLEAR,
                Tier::Destructive,
                "deletes a TPM NV index and the data stored in it",
            )
            .safer("`tpm2_nvreadpublic` lists the indices and `tpm2_nvread` reads one")
            .recovery("none: the TPM keeps no copy"),
        ),
        _ => None,
    }
}
