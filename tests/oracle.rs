//! The loss oracle (see `oracle_world`): allowed ⇒ nothing lost, checked by running each
//! generated line for real in a scratch world.
//!
//! A fixed-seed slice runs with the suite. The full corpus is one command:
//!
//! ```text
//! ORACLE_LINES=2400 cargo test --release --test oracle -- --ignored --nocapture
//! ```
//!
//! which prints the lines, the allowed-with-loss and the stopped-with-no-loss figures;
//! `ORACLE_REPLAY=<file>` runs the lines of a file instead (a line `judged<TAB>run` judges
//! the first and runs the second, as the corpus writes a container's command).
//!
//! Unix only: the lines run in a real POSIX shell with Unix tools.
#![cfg(unix)]

mod oracle_world;

use oracle_world::{Outcome, World, corpus, run};

/// Checks a tally: no allowed line lost anything; the false stops are printed.
fn assert_no_loss(tally: &oracle_world::Tally) {
    println!("{tally}");
    for line in &tally.stopped_with_no_loss {
        println!("false stop: {line}");
    }
    assert!(
        tally.allowed_with_loss.is_empty(),
        "allowed, and work was lost:\n{:#?}",
        tally.allowed_with_loss
    );
}

#[test]
fn a_fixed_seed_slice_loses_nothing_it_allows() {
    let world = World::build();
    let lines = corpus::generate(0x5eed, 30);
    let tally = run(&world, &lines);
    assert!(tally.allowed > 0 && tally.stopped_with_loss > 0, "{tally}");
    assert_no_loss(&tally);
}

#[test]
#[ignore = "the full corpus: a few minutes; run with ORACLE_LINES set"]
fn the_full_corpus_loses_nothing_it_allows() {
    let extra: usize = std::env::var("ORACLE_LINES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(2400);
    // `ORACLE_REPLAY=<file>`: the lines of that file instead, one a line (a failed run's);
    // a tab in a line parts the line judged from the local equivalent run in its place.
    let lines = match std::env::var_os("ORACLE_REPLAY") {
        Some(file) => std::fs::read_to_string(file)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect(),
        None => corpus::generate(0x2ac1e, extra),
    };
    let world = World::build();
    let tally = run(&world, &lines);
    assert_no_loss(&tally);
}

#[test]
fn the_full_corpus_crosses_every_decoration() {
    let lines = corpus::generate(0x2ac1e, 2400);
    assert!(lines.len() >= 2000);
    for table in [
        corpus::PREFIXES,
        corpus::CDS,
        corpus::GITS,
        corpus::WORD_WRAPPERS,
    ] {
        for piece in table.iter().filter(|p| !p.is_empty()) {
            assert!(lines.iter().any(|l| l.contains(piece)), "{piece:?} unused");
        }
    }
    for quiet in [" -q", " --quiet", " -v"] {
        assert!(lines.iter().any(|l| l.contains(quiet)), "{quiet:?} unused");
    }
    // A form whose program this machine lacks is left out, every other one is in.
    for (kind, text) in corpus::FORMS {
        let written = text.replace("{q}", "");
        let present = lines.contains(&written);
        match kind {
            corpus::Kind::Needs(program) => {
                assert_eq!(present, corpus::on_path(program), "{text}");
            }
            _ => assert!(present, "{text}"),
        }
    }
}

#[test]
fn lines_that_reach_outside_the_world_are_judged_but_never_run() {
    let world = World::build();
    let elsewhere = tempfile::tempdir().unwrap();
    let sentinel = elsewhere.path().join("sentinel");
    std::fs::write(&sentinel, "keep\n").unwrap();
    // Plain deletes of the sentinel are destructive, not protected: only the rail keeps
    // them from running.
    for line in [
        format!("rm -rf {}", elsewhere.path().display()),
        format!("cd {} && rm -rf sentinel", elsewhere.path().display()),
        format!("AGENT_GUARD_OFF=1 rm -f {}", sentinel.display()),
    ] {
        assert!(
            matches!(world.try_line(&line), Outcome::NotRun(_)),
            "{line}"
        );
    }
    assert!(sentinel.exists());
    for line in ["rm -rf /", "rm -rf ~", "rm -rf ../../..", "rm -rf $HOME"] {
        assert!(matches!(world.try_line(line), Outcome::NotRun(_)), "{line}");
    }
    // The world itself runs lines, absolute paths inside it included.
    let inside = format!("rm -f {}/app/notes.txt", world.root.display());
    assert!(!matches!(world.try_line(&inside), Outcome::NotRun(_)));
    assert!(oracle_world::outside(&world.root, "ls src/deep/x").is_none());
}
