//! Pack `keys`: keys and personal state that live outside every repository. Security keys and
//! the TPM, GnuPG keyrings, the macOS keychain, password stores, the kernel keyring,
//! certificate databases, SSH keys and the user's crontab are each often the only copy of
//! what they hold, and none of them is under version control.

mod crontab;
mod devices;
mod gpg;
mod stores;

use super::Pack;
use super::args::asks_help;
use crate::rules::Hit;
use crate::shell::SimpleCommand;

pub use crontab::CRONTAB_REPLACE;
pub use devices::{SECURITY_KEY_DELETE, SECURITY_KEY_RESET, TPM_CLEAR};
pub use gpg::{GPG_DELETE, SSH_KEY_OVERWRITE};
pub use stores::{CERT_STORE_DELETE, KEYCHAIN_DELETE, KEYRING_CLEAR, PASSWORD_STORE_DELETE};

pub static PACK: Pack = Pack {
    id: "keys",
    summary: "keys and personal state: security keys (`ykman`), the TPM, GnuPG keyrings, the macOS keychain, `pass`/`gopass`, `keyctl`, certificate stores, SSH keys, the crontab",
    default_on: true,
    programs: &[
        "ykman",
        "tpm2",
        "tpm2_clear",
        "tpm2_evictcontrol",
        "tpm2_nvundefine",
        "gpg",
        "gpg2",
        "ssh-keygen",
        "security",
        "pass",
        "gopass",
        "keyctl",
        "certutil",
        "crontab",
    ],
    rules: &[
        &SECURITY_KEY_RESET,
        &SECURITY_KEY_DELETE,
        &TPM_CLEAR,
        &GPG_DELETE,
        &SSH_KEY_OVERWRITE,
        &KEYCHAIN_DELETE,
        &PASSWORD_STORE_DELETE,
        &KEYRING_CLEAR,
        &CERT_STORE_DELETE,
        &CRONTAB_REPLACE,
    ],
    check,
};

fn check(cmd: &SimpleCommand) -> Vec<Hit> {
    let args = cmd.args();
    if asks_help(args) {
        return Vec::new();
    }
    let hit = match cmd.program() {
        Some("ykman") => devices::ykman(args),
        Some("tpm2") => devices::tpm2(args),
        Some(tool @ ("tpm2_clear" | "tpm2_evictcontrol" | "tpm2_nvundefine")) => {
            devices::tpm2_tool(&tool["tpm2_".len()..], args)
        }
        Some("gpg" | "gpg2") => gpg::gpg(args),
        Some("ssh-keygen") => gpg::ssh_keygen(cmd),
        Some("security") => stores::security(args),
        Some(tool @ ("pass" | "gopass")) => stores::password_store(tool, args),
        Some("keyctl") => stores::keyctl(args),
        Some("certutil") => stores::certutil(args),
        Some("crontab") => crontab::crontab(cmd),
        _ => None,
    };
    hit.into_iter().collect()
}
