//! Comparing and classifying paths the way the platform does. Unix paths are compared name
//! by name, exactly. A Windows path starts with a volume (`C:`, `\\server\share`), takes `\`
//! and `/` alike, and names a file whatever the case of its letters, as NTFS does by default.
//!
//! The Windows rules are functions of text ([`windows`]), so they are tested on every
//! platform; the functions at the top apply the current platform's rules to a [`Path`].

use std::io;
use std::path::{Path, PathBuf};

use crate::config::dirs::Os;

/// Top-level folders whose direct children are the system's or other users' (`/usr/lib`,
/// `/home/alice`), on Linux and macOS.
const UNIX_SYSTEM_PARENTS: &[&str] = &[
    "usr",
    "var",
    "etc",
    "home",
    "opt",
    "nix",
    "snap",
    "Users",
    "System",
    "Library",
    "Applications",
    "Volumes",
    "private",
];

/// The same on Windows (`C:\Windows\System32`, `C:\Users\alice`), compared without case.
const WINDOWS_SYSTEM_PARENTS: &[&str] = &[
    "Windows",
    "Users",
    "Program Files",
    "Program Files (x86)",
    "ProgramData",
];

/// Whether `path` is `base` or inside it.
pub(crate) fn within(path: &Path, base: &Path) -> bool {
    match Os::CURRENT {
        Os::Unix => path.starts_with(base),
        Os::Windows => windows::within(&path.to_string_lossy(), &base.to_string_lossy()),
    }
}

/// Whether `a` and `b` name the same path.
pub(crate) fn same(a: &Path, b: &Path) -> bool {
    match Os::CURRENT {
        Os::Unix => a == b,
        Os::Windows => within(a, b) && within(b, a),
    }
}

/// Whether two names are one: exactly on Unix, without regard to case on Windows.
pub(crate) fn same_name(a: &str, b: &str) -> bool {
    match Os::CURRENT {
        Os::Unix => a == b,
        Os::Windows => windows::same_name(a, b),
    }
}

/// A top-level folder (`/usr`, `/tmp`, `C:\Windows`, `D:\work`), or one directly under a
/// system folder (`/usr/lib`, `/home/alice`, `C:\Users\alice`, `C:\Program Files\Git`).
pub(crate) fn is_system(path: &Path) -> bool {
    match Os::CURRENT {
        Os::Unix => unix_is_system(path),
        Os::Windows => windows::is_system(&path.to_string_lossy()),
    }
}

fn unix_is_system(path: &Path) -> bool {
    use std::path::Component;
    let parts: Vec<Component> = path.components().skip(1).collect();
    match parts.as_slice() {
        [_] => true,
        [Component::Normal(top), _] => top
            .to_str()
            .is_some_and(|t| UNIX_SYSTEM_PARENTS.contains(&t)),
        _ => false,
    }
}

/// How a path with no parent is named in a reason.
pub(crate) fn root_noun() -> &'static str {
    match Os::CURRENT {
        Os::Unix => "the filesystem root `/`",
        Os::Windows => "the root of a drive or network share",
    }
}

/// `path` absolute, with every symbolic link resolved, spelled as the rest of the system
/// spells it ([`plain`]).
pub(crate) fn canonical(path: &Path) -> io::Result<PathBuf> {
    path.canonicalize().map(plain)
}

/// A canonical path as the rest of the system writes it: on Windows without the `\\?\`
/// prefix that `canonicalize` adds (`C:\x`, `\\server\share\x`), which git and people do
/// not read; unchanged elsewhere, and when the path has no plainer spelling.
fn plain(path: PathBuf) -> PathBuf {
    if Os::CURRENT == Os::Unix {
        return path;
    }
    match path.to_str().and_then(windows::strip_verbatim) {
        Some(plain) => PathBuf::from(plain),
        None => path,
    }
}

/// Whether a path as typed names what it leads to rather than its last name: it ends in a
/// separator, `.` or `..` (`build/`, `link/.`), so a link there is followed.
pub(crate) fn names_a_folder(os: Os, raw: &[u8]) -> bool {
    let is_sep = |b: u8| b == b'/' || (os == Os::Windows && b == b'\\');
    let last_name = match raw.iter().rposition(|&b| is_sep(b)) {
        Some(at) => raw.get(at + 1..).unwrap_or_default(),
        None => raw,
    };
    raw.last().is_some_and(|&b| is_sep(b)) || last_name == b"." || last_name == b".."
}

/// Windows paths as text.
pub(crate) mod windows {
    use super::WINDOWS_SYSTEM_PARENTS;

    /// A path's volume, lowercased (`c:`, `\\server\share`; empty when it names none), and
    /// its names, without the empty ones and `.`.
    pub(crate) struct Split<'a> {
        pub(crate) volume: String,
        pub(crate) names: Vec<&'a str>,
    }

    pub(crate) fn split(text: &str) -> Split<'_> {
        fn names_of(rest: &str) -> Vec<&str> {
            rest.split(['\\', '/'])
                .filter(|n| !n.is_empty() && *n != ".")
                .collect()
        }
        // How many leading names make the volume: a share is two (`\\server\share`), a
        // device such as `\\?\Volume{..}` one.
        let (rest, volume_names) = match text.strip_prefix(r"\\?\") {
            Some(rest) => match rest
                .strip_prefix(r"UNC\")
                .or_else(|| rest.strip_prefix(r"unc\"))
            {
                Some(share) => (share, 2),
                None if has_drive(rest) => (rest, 0),
                None => (rest, 1),
            },
            None if text.starts_with(r"\\") || text.starts_with("//") => (text, 2),
            None => (text, 0),
        };
        if has_drive(rest) {
            let (drive, names) = rest.split_at(2);
            return Split {
                volume: drive.to_ascii_lowercase(),
                names: names_of(names),
            };
        }
        let mut names = names_of(rest);
        if volume_names == 0 {
            return Split {
                volume: String::new(),
                names,
            };
        }
        let volume: Vec<&str> = names.drain(..names.len().min(volume_names)).collect();
        Split {
            volume: format!(r"\\{}", volume.join("\\")).to_lowercase(),
            names,
        }
    }

    /// Whether `text` starts with a drive letter and a colon.
    fn has_drive(text: &str) -> bool {
        let bytes = text.as_bytes();
        bytes.first().is_some_and(u8::is_ascii_alphabetic) && bytes.get(1) == Some(&b':')
    }

    /// `C:\x` for `\\?\C:\x`, `\\server\share\x` for `\\?\UNC\server\share\x`; `None` for a
    /// path without that prefix, or one that needs it (a volume by its id).
    pub(crate) fn strip_verbatim(text: &str) -> Option<String> {
        let rest = text.strip_prefix(r"\\?\")?;
        if let Some(unc) = rest
            .strip_prefix(r"UNC\")
            .or_else(|| rest.strip_prefix(r"unc\"))
        {
            return Some(format!(r"\\{unc}"));
        }
        let plain = has_drive(rest) && matches!(rest.as_bytes().get(2), Some(b'\\') | None);
        plain.then(|| rest.to_string())
    }

    /// Whether two names are one, as NTFS compares them by default: without regard to case.
    pub(crate) fn same_name(a: &str, b: &str) -> bool {
        a.chars()
            .flat_map(char::to_lowercase)
            .eq(b.chars().flat_map(char::to_lowercase))
    }

    /// Whether `path` is `base` or inside it.
    pub(crate) fn within(path: &str, base: &str) -> bool {
        let (path, base) = (split(path), split(base));
        path.volume == base.volume
            && path.names.len() >= base.names.len()
            && path
                .names
                .iter()
                .zip(&base.names)
                .all(|(a, b)| same_name(a, b))
    }

    /// A folder directly on a volume (`C:\Windows`, `D:\work`), or one directly under a
    /// system folder (`C:\Users\alice`, `C:\Program Files\Git`).
    pub(crate) fn is_system(path: &str) -> bool {
        match split(path).names.as_slice() {
            [_] => true,
            [top, _] => WINDOWS_SYSTEM_PARENTS.iter().any(|s| same_name(s, top)),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_volumes_are_drives_and_shares_whatever_the_spelling() {
        for (path, volume, names) in [
            (r"C:\Users\Me\repo", "c:", vec!["Users", "Me", "repo"]),
            ("c:/Users/Me/", "c:", vec!["Users", "Me"]),
            (r"\\?\C:\Users\.\Me", "c:", vec!["Users", "Me"]),
            (r"\\Server\Share\dir\x", r"\\server\share", vec!["dir", "x"]),
            (r"\\?\UNC\server\share\dir", r"\\server\share", vec!["dir"]),
            (r"\\?\Volume{1234}\dir", r"\\volume{1234}", vec!["dir"]),
            (r"relative\dir", "", vec!["relative", "dir"]),
        ] {
            let split = windows::split(path);
            assert_eq!(split.volume, volume, "{path}");
            assert_eq!(split.names, names, "{path}");
        }
    }

    #[test]
    fn verbatim_prefixes_come_off_where_a_plain_spelling_exists() {
        assert_eq!(
            windows::strip_verbatim(r"\\?\C:\x\y").as_deref(),
            Some(r"C:\x\y")
        );
        assert_eq!(windows::strip_verbatim(r"\\?\D:").as_deref(), Some("D:"));
        assert_eq!(
            windows::strip_verbatim(r"\\?\UNC\srv\share\x").as_deref(),
            Some(r"\\srv\share\x")
        );
        assert_eq!(windows::strip_verbatim(r"\\?\Volume{1234}\x"), None);
        assert_eq!(windows::strip_verbatim(r"C:\x"), None);
    }

    #[test]
    fn windows_containment_ignores_case_and_separator_style() {
        assert!(windows::within(
            r"C:\Users\me\Repo\build",
            r"c:\users\ME\repo"
        ));
        assert!(windows::within(r"C:\repo", "C:/REPO/"));
        assert!(windows::within(r"\\?\C:\repo\x", r"C:\repo"));
        assert!(windows::within(r"\\srv\share\repo\x", r"\\SRV\Share\repo"));
        assert!(!windows::within(r"C:\repo2", r"C:\repo"));
        assert!(!windows::within(r"D:\repo\x", r"C:\repo"));
        assert!(!windows::within(r"C:\repo", r"C:\repo\x"));
        assert!(windows::same_name("ÄRGER", "ärger"));
    }

    #[test]
    fn windows_system_folders_are_on_a_volume_or_directly_under_one() {
        for path in [
            r"C:\Windows",
            r"c:\windows\system32",
            r"C:\Users\alice",
            r"C:\Program Files (x86)\Git",
            r"D:\work",
            r"\\srv\share\top",
        ] {
            assert!(windows::is_system(path), "{path}");
        }
        for path in [
            r"C:\Users\alice\src",
            r"D:\work\build",
            r"C:\Windows\System32\drivers\etc",
        ] {
            assert!(!windows::is_system(path), "{path}");
        }
    }

    #[test]
    fn unix_system_folders_are_top_level_or_directly_under_one() {
        for path in [
            "/usr",
            "/tmp",
            "/etc",
            "/usr/lib",
            "/home/alice",
            "/private/var",
            "/Users/bob",
        ] {
            assert!(unix_is_system(Path::new(path)), "{path}");
        }
        for path in ["/tmp/x", "/home/alice/src", "/usr/lib/x/y", "/srv/app/src"] {
            assert!(!unix_is_system(Path::new(path)), "{path}");
        }
    }

    #[test]
    fn a_trailing_separator_dot_or_dotdot_names_a_folder() {
        for raw in ["build/", "link/.", "dir/..", ".", "..", "a//"] {
            assert!(names_a_folder(Os::Unix, raw.as_bytes()), "{raw}");
        }
        for raw in ["build", "a.", "..a", r"build\"] {
            assert!(!names_a_folder(Os::Unix, raw.as_bytes()), "{raw}");
        }
        for raw in [r"build\", r"link\.", r"dir\..", "build/"] {
            assert!(names_a_folder(Os::Windows, raw.as_bytes()), "{raw}");
        }
        assert!(!names_a_folder(Os::Windows, br"C:\repo\build"));
    }
}
