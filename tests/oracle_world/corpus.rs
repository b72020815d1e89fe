//! The generated corpus: every destructive form the rules know, crossed with what real
//! command lines put around it. Each table is plain data; a new form is one more line.
//!
//! In a form, `{q}` takes a quiet or verbose flag (or none), and a form of kind `Git`
//! starts with `git ` so the repository can be redirected.

/// How a form may be decorated.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A git command: `git ` may become `git -C ..`, `GIT_DIR=.. git `, ...
    Git,
    /// Anything else.
    Plain,
}

/// Every destructive form, with the kind of decoration it takes.
pub const FORMS: &[(Kind, &str)] = &[
    (Kind::Git, "git reset{q} --hard"),
    (Kind::Git, "git reset{q} --hard HEAD~1"),
    (Kind::Git, "git reset{q} --hard origin/main"),
    (Kind::Git, "git reset{q} --hard origin/topic"),
    (Kind::Git, "git reset{q} --hard merged"),
    (Kind::Git, "git reset{q} --hard feature"),
    (Kind::Git, "git reset --ha"),
    (Kind::Git, "git checkout{q} -- ."),
    (Kind::Git, "git checkout{q} -- README.md"),
    (Kind::Git, "git checkout{q} -- docs"),
    (Kind::Git, "git checkout{q} -f merged"),
    (Kind::Git, "git checkout{q} src/lib.rs"),
    (Kind::Git, "git checkout{q} feature"),
    (Kind::Git, "git restore ."),
    (Kind::Git, "git restore --worktree --staged src/lib.rs"),
    (Kind::Git, "git restore docs"),
    (Kind::Git, "git switch{q} -f merged"),
    (Kind::Git, "git switch{q} --discard-changes feature"),
    (Kind::Git, "git clean{q} -f"),
    (Kind::Git, "git clean{q} -fd"),
    (Kind::Git, "git clean -fq"),
    (Kind::Git, "git clean -qdf"),
    (Kind::Git, "git clean --quiet --force -d"),
    (Kind::Git, "git clean{q} -fd src"),
    (Kind::Git, "git clean{q} -fd docs"),
    (Kind::Git, "git clean{q} -fd -e notes.txt"),
    (Kind::Git, "git clean{q} -fd -- drafts"),
    (Kind::Git, "git clean{q} -fx"),
    (Kind::Git, "git clean{q} -fX"),
    (Kind::Git, "git branch -D feature"),
    (Kind::Git, "git branch -D merged"),
    (Kind::Git, "git branch -d -f feature"),
    (Kind::Git, "git branch --delete --force wt"),
    (Kind::Git, "git stash drop{q}"),
    (Kind::Git, "git stash drop{q} stash@{1}"),
    (Kind::Git, "git stash drop 1"),
    (Kind::Git, "git stash clear"),
    (Kind::Git, "git worktree remove --force ../app-wt"),
    (Kind::Git, "git tag -d v1"),
    (Kind::Git, "git update-ref -d refs/heads/feature"),
    (Kind::Git, "git update-ref -d refs/heads/merged"),
    (Kind::Git, "git push{q} -f origin main"),
    (Kind::Git, "git push{q} origin +feature:main"),
    (Kind::Git, "git push{q} origin --delete topic"),
    (Kind::Git, "git push{q} origin :topic"),
    (Kind::Git, "git reflog expire --expire=now --all"),
    (Kind::Git, "git gc{q} --prune=now"),
    (Kind::Git, "git nuke"),
    (Kind::Git, "git back"),
    (Kind::Git, "git scrub"),
    (Kind::Plain, "rm -rf{q} src"),
    (Kind::Plain, "rm -rf{q} build"),
    (Kind::Plain, "rm -rf{q} target"),
    (Kind::Plain, "rm -rf{q} node_modules"),
    (Kind::Plain, "rm -rf{q} drafts"),
    (Kind::Plain, "rm -rf{q} .env"),
    (Kind::Plain, "rm -rf{q} docs"),
    (Kind::Plain, "rm -rf{q} old"),
    (Kind::Plain, "rm -rf{q} missing"),
    (Kind::Plain, "rm -r{q} src/scratch.rs"),
    (Kind::Plain, "rm -rf{q} build target"),
    (Kind::Plain, "rm -rf{q} ../app-wt"),
    (Kind::Plain, "rm -rf{q} draft*"),
    (Kind::Plain, "find . -name '*.o' -delete"),
    (Kind::Plain, "find src -delete"),
    (Kind::Plain, "find drafts -delete"),
    (Kind::Plain, "find . -name deep -exec rm -rf {} \\;"),
    (Kind::Plain, "find . -name drafts -exec rm -rf {} +"),
    (Kind::Plain, "find . -name old -exec rm -rf {} \\;"),
    (Kind::Plain, "echo drafts | xargs -I{} rm -rf {}"),
    (Kind::Plain, "echo drafts | xargs -I @ rm -rf @"),
    (Kind::Plain, "echo drafts | xargs rm -rf"),
    (
        Kind::Plain,
        "echo drafts | while read d; do rm -rf \"$d\"; done",
    ),
    (Kind::Plain, "rm -rf $(echo drafts)"),
    (Kind::Plain, "d=drafts; rm -rf $d"),
    (
        Kind::Plain,
        "git stash list --format=%gd | xargs -n1 git stash drop",
    ),
];

/// What `{q}` becomes.
pub const QUIET: &[&str] = &["", "", " -q", " --quiet", " -v"];

/// Commands before the destructive one that may change what it meets.
pub const PREFIXES: &[&str] = &[
    "",
    "",
    "",
    "git fetch -q origin && ",
    "git fetch -q origin topic:refs/remotes/origin/topic; ",
    "git stash -q && ",
    "git stash -q -u; ",
    "mkdir old && mv notes.txt old/ && ",
    "mv notes.txt build/ && ",
    "mv drafts target/ && ",
    "cp -r drafts old && ",
    "touch missing && ",
    "echo extra >> README.md && ",
    "echo new > fresh.txt; ",
    "git checkout -q -b newb && ",
    "git add -A && ",
    "git commit -qam wip && ",
    "git update-ref refs/heads/keep HEAD && ",
    "ls > /dev/null && ",
    "git status > /dev/null && ",
    "mkdir -p notes && echo hi > notes/today.md && ",
];

/// Where the command runs, from the main repository.
pub const CDS: &[&str] = &[
    "",
    "",
    "",
    "cd src && ",
    "cd .. && cd app && ",
    "cd ../app-wt && ",
    "cd ../sibling && ",
    "cd docs; cd .. && ",
];

/// What `git ` may become: another repository, through options or the environment.
pub const GITS: &[&str] = &[
    "git ",
    "git ",
    "git ",
    "git -C ../sibling ",
    "git -C ../app-wt ",
    "GIT_DIR=../sibling/.git GIT_WORK_TREE=../sibling git ",
    "env GIT_DIR=../sibling/.git GIT_WORK_TREE=../sibling git ",
    "git --git-dir=../sibling/.git --work-tree=../sibling ",
    "GIT_WORK_TREE=../app-wt git ",
    "git -c core.quotepath=off ",
];

/// Put in front of the destructive command alone.
pub const WORD_WRAPPERS: &[&str] = &["", "", "", "command ", "nice ", "timeout 30 ", "env "];

/// Around the whole line: `%` is the line.
pub const LINE_WRAPPERS: &[&str] = &[
    "%",
    "%",
    "%",
    "%",
    "bash -c '%'",
    "sh -c '%'",
    "for i in 1; do %; done",
    "(%)",
    "{ %; }",
];

/// A small fixed-seed generator (xorshift), so a corpus is the same on every run.
pub struct Seeded(u64);

impl Seeded {
    pub fn new(seed: u64) -> Seeded {
        Seeded(seed.max(1))
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[(self.next() % from.len() as u64) as usize]
    }
}

/// One line: `form` decorated by choices from `rng`.
pub fn decorate(form: (Kind, &str), rng: &mut Seeded) -> String {
    let (kind, text) = form;
    let mut core = text.replace("{q}", rng.pick(QUIET));
    if kind == Kind::Git {
        core = format!("{}{}", rng.pick(GITS), &core["git ".len()..]);
    }
    let line = format!(
        "{}{}{}{}",
        rng.pick(CDS),
        rng.pick(PREFIXES),
        rng.pick(WORD_WRAPPERS),
        core
    );
    let wrapper = rng.pick(LINE_WRAPPERS);
    if wrapper.contains('\'') && line.contains('\'') {
        return line;
    }
    wrapper.replace('%', &line)
}

/// Every form once as written, then `extra` decorated lines.
pub fn generate(seed: u64, extra: usize) -> Vec<String> {
    let mut rng = Seeded::new(seed);
    let mut lines: Vec<String> = FORMS
        .iter()
        .map(|(_, text)| text.replace("{q}", ""))
        .collect();
    for _ in 0..extra {
        let form = FORMS[(rng.next() % FORMS.len() as u64) as usize];
        lines.push(decorate(form, &mut rng));
    }
    lines
}
