//! The reader of `git status --porcelain=v1 -z`.

/// `git status --porcelain=v1 -z` entries as (status code, path); renames and copies name the
/// new path.
pub fn porcelain(out: &str) -> Vec<(String, String)> {
    let mut entries = Vec::new();
    let mut fields = out.split('\0').filter(|f| !f.is_empty());
    while let Some(entry) = fields.next() {
        // A rename or copy, staged or in the work tree, is followed by the path it came
        // from, however short.
        let code = entry.get(..2).unwrap_or("");
        if code.contains(['R', 'C']) {
            fields.next();
        }
        if entry.len() > 3 {
            let (code, path) = entry.split_at(3);
            entries.push((code.trim().to_string(), path.to_string()));
        }
    }
    entries
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renames_name_the_new_path() {
        let out = " M src/a b.rs\0R  new.txt\0old.txt\0?? notes.txt\0";
        assert_eq!(
            porcelain(out),
            [
                ("M".to_string(), "src/a b.rs".to_string()),
                ("R".to_string(), "new.txt".to_string()),
                ("??".to_string(), "notes.txt".to_string()),
            ]
        );
    }

    #[test]
    fn a_short_old_path_is_not_taken_for_the_next_entry() {
        let out = "R  b\0a\0 R c\0d\0?? notes.txt\0";
        assert_eq!(
            porcelain(out),
            [
                ("R".to_string(), "b".to_string()),
                ("R".to_string(), "c".to_string()),
                ("??".to_string(), "notes.txt".to_string()),
            ]
        );
    }
}
