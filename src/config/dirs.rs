//! Where the guard keeps its own files (configuration, audit log, trash) and where the home
//! folder is, on Unix and on Windows.
//!
//! Each answer is a plain function of the platform and the environment, so the Windows rules
//! are tested on every platform. An `XDG_*` variable set to an absolute path wins everywhere:
//! it is how a person, or `doctor`'s trial run, moves the files. Otherwise Unix follows the
//! XDG defaults under `$HOME`, and Windows uses `%APPDATA%` for the configuration (it roams
//! with the user) and `%LOCALAPPDATA%` for the log and the trash (they belong to the machine).

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

/// The two platform families whose conventions differ here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Os {
    Unix,
    Windows,
}

impl Os {
    /// The platform this binary was built for.
    pub const CURRENT: Os = if cfg!(windows) { Os::Windows } else { Os::Unix };

    /// The separator this platform writes between names.
    fn separator(self) -> char {
        match self {
            Os::Unix => '/',
            Os::Windows => '\\',
        }
    }
}

/// Reads one environment variable.
pub type Lookup<'a> = &'a dyn Fn(&str) -> Option<OsString>;

/// The process environment, as a [`Lookup`].
pub fn process_env(name: &str) -> Option<OsString> {
    std::env::var_os(name)
}

/// Which of the guard's folders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    /// `config.toml`.
    Config,
    /// The audit log.
    State,
    /// The user's trash.
    Data,
}

impl Dir {
    /// The XDG variable that moves it.
    fn xdg(self) -> &'static str {
        match self {
            Dir::Config => "XDG_CONFIG_HOME",
            Dir::State => "XDG_STATE_HOME",
            Dir::Data => "XDG_DATA_HOME",
        }
    }

    /// Its XDG default under the home folder.
    fn under_home(self) -> &'static [&'static str] {
        match self {
            Dir::Config => &[".config"],
            Dir::State => &[".local", "state"],
            Dir::Data => &[".local", "share"],
        }
    }

    /// The Windows variable that holds it, and where that variable points by default under the
    /// user's profile.
    fn windows(self) -> (&'static str, &'static [&'static str]) {
        match self {
            Dir::Config => ("APPDATA", &["AppData", "Roaming"]),
            Dir::State | Dir::Data => ("LOCALAPPDATA", &["AppData", "Local"]),
        }
    }
}

/// Whether `path` is absolute on `os`: `/...` on Unix; a drive and a separator (`C:\`, `C:/`)
/// or a UNC or device path (`\\server\share`, `\\?\C:\`) on Windows, where `\x` and `C:x` are
/// relative to the current drive or to a drive's current folder.
pub fn is_absolute(os: Os, path: &OsStr) -> bool {
    let bytes = path.as_encoded_bytes();
    match os {
        Os::Unix => bytes.first() == Some(&b'/'),
        Os::Windows => {
            let sep = |b: Option<&u8>| matches!(b, Some(b'\\' | b'/'));
            let drive = bytes.first().is_some_and(u8::is_ascii_alphabetic)
                && bytes.get(1) == Some(&b':')
                && sep(bytes.get(2));
            drive || (sep(bytes.first()) && sep(bytes.get(1)))
        }
    }
}

/// `base` followed by `names`, with `os`'s separator.
pub fn join(os: Os, base: &OsStr, names: &[&str]) -> PathBuf {
    let mut path = base.to_owned();
    for name in names {
        let needs_separator = match path.as_encoded_bytes().last() {
            None | Some(b'/') => false,
            Some(b'\\') => os == Os::Unix,
            Some(_) => true,
        };
        if needs_separator {
            path.push(os.separator().to_string());
        }
        path.push(name);
    }
    PathBuf::from(path)
}

/// A variable's value when it is an absolute path.
fn absolute(os: Os, lookup: Lookup, name: &str) -> Option<OsString> {
    lookup(name).filter(|v| is_absolute(os, v))
}

/// The home folder: `$HOME` on Unix; on Windows `%USERPROFILE%`, else `%HOMEDRIVE%%HOMEPATH%`.
pub fn home(os: Os, lookup: Lookup) -> Option<PathBuf> {
    match os {
        Os::Unix => absolute(os, lookup, "HOME").map(PathBuf::from),
        Os::Windows => absolute(os, lookup, "USERPROFILE")
            .or_else(|| {
                let mut path = lookup("HOMEDRIVE")?;
                path.push(lookup("HOMEPATH")?);
                Some(path).filter(|p| is_absolute(os, p))
            })
            .map(PathBuf::from),
    }
}

/// The guard's own folder of kind `dir` (`.../agent-guard`), `None` when the environment
/// names no place for it.
pub fn own(os: Os, dir: Dir, lookup: Lookup) -> Option<PathBuf> {
    if let Some(base) = absolute(os, lookup, dir.xdg()) {
        return Some(join(os, &base, &["agent-guard"]));
    }
    let home = home(os, lookup);
    match os {
        Os::Unix => {
            let home = home?;
            let mut names = dir.under_home().to_vec();
            names.push("agent-guard");
            Some(join(os, home.as_os_str(), &names))
        }
        Os::Windows => {
            let (var, default) = dir.windows();
            if let Some(base) = absolute(os, lookup, var) {
                return Some(join(os, &base, &["agent-guard"]));
            }
            let mut names = default.to_vec();
            names.push("agent-guard");
            Some(join(os, home?.as_os_str(), &names))
        }
    }
}

/// Why [`own`] found no folder of kind `dir`, for a message: the variables that were missing.
pub fn unset(os: Os, dir: Dir) -> String {
    match os {
        Os::Unix => format!("neither {} nor HOME is set to an absolute path", dir.xdg()),
        Os::Windows => format!(
            "none of {}, {} and USERPROFILE is set to an absolute path",
            dir.windows().0,
            dir.xdg()
        ),
    }
}

/// Why [`home`] found none, for a message.
pub fn home_unset(os: Os) -> &'static str {
    match os {
        Os::Unix => "HOME is not set to an absolute path",
        Os::Windows => "USERPROFILE is not set to an absolute path",
    }
}

/// Creates `dir` and the folders above it, readable by its owner alone: what the guard keeps
/// there (commands, the files agents made) may name private things.
pub fn create_private(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<OsString> {
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| OsString::from(v))
        }
    }

    fn text(path: Option<PathBuf>) -> Option<String> {
        path.map(|p| p.to_string_lossy().into_owned())
    }

    #[test]
    fn windows_paths_are_absolute_with_a_drive_and_separator_or_as_unc() {
        for path in [
            r"C:\Users\me",
            "c:/Users/me",
            r"\\server\share\x",
            r"\\?\C:\x",
            "//srv/x",
        ] {
            assert!(is_absolute(Os::Windows, OsStr::new(path)), "{path}");
        }
        // Relative to the current drive, or to a drive's current folder.
        for path in [r"C:Users", r"\Users\me", "Users", "", "C:", "/home/me"] {
            assert!(!is_absolute(Os::Windows, OsStr::new(path)), "{path}");
        }
        assert!(is_absolute(Os::Unix, OsStr::new("/home/me")));
        assert!(!is_absolute(Os::Unix, OsStr::new(r"C:\Users\me")));
    }

    #[test]
    fn unix_folders_follow_xdg_under_home() {
        let lookup = env(&[("HOME", "/home/me")]);
        assert_eq!(
            text(own(Os::Unix, Dir::Config, &lookup)).as_deref(),
            Some("/home/me/.config/agent-guard")
        );
        assert_eq!(
            text(own(Os::Unix, Dir::State, &lookup)).as_deref(),
            Some("/home/me/.local/state/agent-guard")
        );
        assert_eq!(
            text(own(Os::Unix, Dir::Data, &lookup)).as_deref(),
            Some("/home/me/.local/share/agent-guard")
        );
        let lookup = env(&[("HOME", "/home/me/"), ("XDG_DATA_HOME", "/data")]);
        assert_eq!(
            text(own(Os::Unix, Dir::Data, &lookup)).as_deref(),
            Some("/data/agent-guard")
        );
        assert_eq!(
            text(own(Os::Unix, Dir::Config, &lookup)).as_deref(),
            Some("/home/me/.config/agent-guard")
        );
        // A relative value names no place: it would move with the working folder.
        let lookup = env(&[("HOME", "me"), ("XDG_STATE_HOME", "state")]);
        assert_eq!(own(Os::Unix, Dir::State, &lookup), None);
    }

    #[test]
    fn windows_folders_are_appdata_and_localappdata() {
        let lookup = env(&[
            ("USERPROFILE", r"C:\Users\Me"),
            ("APPDATA", r"C:\Users\Me\AppData\Roaming"),
            ("LOCALAPPDATA", r"C:\Users\Me\AppData\Local"),
        ]);
        assert_eq!(
            text(own(Os::Windows, Dir::Config, &lookup)).as_deref(),
            Some(r"C:\Users\Me\AppData\Roaming\agent-guard")
        );
        assert_eq!(
            text(own(Os::Windows, Dir::State, &lookup)).as_deref(),
            Some(r"C:\Users\Me\AppData\Local\agent-guard")
        );
        assert_eq!(
            text(own(Os::Windows, Dir::Data, &lookup)).as_deref(),
            Some(r"C:\Users\Me\AppData\Local\agent-guard")
        );
        assert_eq!(
            text(home(Os::Windows, &lookup)).as_deref(),
            Some(r"C:\Users\Me")
        );
    }

    #[test]
    fn windows_falls_back_to_the_profile_and_takes_unc_and_xdg() {
        let lookup = env(&[("USERPROFILE", r"\\server\users\me\")]);
        assert_eq!(
            text(own(Os::Windows, Dir::State, &lookup)).as_deref(),
            Some(r"\\server\users\me\AppData\Local\agent-guard")
        );
        let lookup = env(&[("HOMEDRIVE", "D:"), ("HOMEPATH", r"\Home\me")]);
        assert_eq!(
            text(own(Os::Windows, Dir::Config, &lookup)).as_deref(),
            Some(r"D:\Home\me\AppData\Roaming\agent-guard")
        );
        let lookup = env(&[
            ("USERPROFILE", r"C:\Users\Me"),
            ("XDG_CONFIG_HOME", "C:/cfg"),
            ("APPDATA", "relative"),
        ]);
        assert_eq!(
            text(own(Os::Windows, Dir::Config, &lookup)).as_deref(),
            Some(r"C:/cfg\agent-guard")
        );
        assert_eq!(
            text(own(Os::Windows, Dir::State, &lookup)).as_deref(),
            Some(r"C:\Users\Me\AppData\Local\agent-guard")
        );
        // A Unix HOME means nothing to a Windows program.
        let lookup = env(&[("HOME", "/home/me")]);
        assert_eq!(own(Os::Windows, Dir::Data, &lookup), None);
        assert!(unset(Os::Windows, Dir::Data).contains("LOCALAPPDATA"));
    }
}
