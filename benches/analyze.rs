//! In-process cost of judging one command line: `agent_guard::evaluate` with repository
//! context off, so only shell parsing, rules and policy are measured.
//!
//! - `mix/all`: ~40 typical agent commands per iteration; criterion's throughput line is
//!   commands per second (budget: at least 100k/s on one core).
//! - `command/<name>`: each command of the mix on its own (per-command time).
//! - `interpreter/<name>`: one-line interpreter, PowerShell and `cmd` commands, whose code
//!   is parsed with its own grammar (budget: under 1 ms each). They are kept out of the mix
//!   so its figure stays the cost of commands that never meet a grammar.
//! - `recipes/<name>`: a task runner whose recipe file is read (a package.json of 40 scripts,
//!   a Makefile of 30 targets) and whose recipe is judged (budget: under 1 ms each).
//! - `scripts/<name>`: a 500-line shell script file read from disk and judged: 500 plain
//!   commands, and a build script with variables, functions called a hundred times, loops and
//!   pipelines, run by `bash` with arguments, as a program by its path, and `source`d (budget:
//!   under 2 ms).
//! - `tools/<name>`: MCP tool calls, beside the allowed `ls` (budget: an MCP call with no SQL
//!   and no shell line costs no more than `ls`).
//! - `pathological/*`: a 100 KB command, 500 nested `$( )`, 5,000 `;`-separated commands;
//!   these must stay bounded, not be fast.
//!
//! Run:
//!
//!     cargo bench --bench analyze                  # everything (~2 min)
//!     cargo bench --bench analyze -- mix           # only the mix's throughput

use std::hint::black_box;
use std::time::Duration;

use agent_guard::policy::Decision;
use agent_guard::settings::Settings;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

/// (name, command): what coding agents run all day, plus a few destructive ones.
const MIX: &[(&str, &str)] = &[
    ("git_status", "git status"),
    ("git_status_short", "git status --short"),
    ("git_diff", "git diff"),
    ("git_diff_cached_stat", "git diff --cached --stat"),
    ("git_log", "git log --oneline -20"),
    ("git_add", "git add -A"),
    ("git_add_files", "git add src/lib.rs tests/cli.rs"),
    (
        "git_commit",
        r#"git commit -m "Fix off-by-one in the tokenizer""#,
    ),
    ("git_branch", "git branch --show-current"),
    ("git_checkout_b", "git checkout -b feature/bench"),
    ("git_push", "git push -u origin feature/bench"),
    ("cargo_build", "cargo build"),
    ("cargo_test", "cargo test --all-targets 2>&1 | tail -50"),
    ("cargo_clippy", "cargo clippy --all-targets -- -D warnings"),
    ("npm_test", "npm test"),
    ("npm_install", "npm install --save-dev typescript"),
    ("ls", "ls -la"),
    ("ls_dir", "ls src/"),
    ("cat", "cat src/main.rs"),
    ("head", "head -n 40 README.md"),
    ("grep_rn", r#"grep -rn "fn main" src/"#),
    ("rg", "rg -n 'TODO|FIXME' --type rust"),
    ("sed_n", "sed -n '10,80p' src/lib.rs"),
    (
        "find_name",
        r#"find . -name "*.rs" -not -path "./target/*""#,
    ),
    ("pytest", "python -m pytest -x -q tests/"),
    (
        "pytest_k",
        "pytest tests/test_api.py -k 'login and not slow' -v",
    ),
    ("cd_make", "cd build && make -j4"),
    ("mkdir_p", "mkdir -p src/bin"),
    (
        "pipeline_sort",
        "cat access.log | grep ERROR | sort | uniq -c | sort -rn | head",
    ),
    ("wc", "wc -l src/*.rs"),
    ("echo_redirect", "echo 'hello' > /tmp/out.txt"),
    ("env_var", "RUST_LOG=debug cargo run -- --help"),
    ("subst", "echo $(git rev-parse --short HEAD)"),
    ("for_loop", "for f in *.txt; do wc -l \"$f\"; done"),
    (
        "heredoc_commit",
        "git commit -F - <<'EOF'\nAdd latency benchmarks\n\nMeasures the hook against an empty \
         binary.\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nEOF",
    ),
    ("rm_file", "rm /tmp/out.txt"),
    ("rm_rf_build", "rm -rf build"),
    ("git_reset_hard", "git reset --hard HEAD~1"),
    ("git_clean_fdx", "git clean -fdx"),
    ("git_push_force", "git push --force origin main"),
];

/// (name, command): code handed to interpreters, stopped and passed.
const INTERPRETER: &[(&str, &str)] = &[
    (
        "python_rmtree",
        "python3 -c \"import shutil; shutil.rmtree('out')\"",
    ),
    ("python_print", "python3 -c \"print('ok')\""),
    (
        "node_rmsync",
        "node -e \"require('fs').rmSync('cache', {recursive: true})\"",
    ),
    ("node_print", "node -e \"console.log(process.version)\""),
    (
        "ruby_rm_r",
        "ruby -e 'require \"fileutils\"; FileUtils.rm_r(\"tmp\")'",
    ),
    ("perl_system", "perl -e 'system \"git clean -fd\"'"),
    ("php_exec", "php -r 'exec(\"git reset --hard\");'"),
    (
        "pwsh_remove_item",
        "pwsh -Command \"Remove-Item -Recurse -Force out\"",
    ),
    ("cmd_rd", "cmd /c \"rd /s /q out\""),
];

fn settings() -> Settings {
    Settings {
        context: false,
        ..Settings::default()
    }
}

fn mix(c: &mut Criterion) {
    let settings = settings();
    let stopped: Vec<&str> = MIX
        .iter()
        .filter(|(_, cmd)| agent_guard::evaluate(cmd, &settings).decision != Decision::Allow)
        .map(|(name, _)| *name)
        .collect();
    eprintln!(
        "mix: {} commands, {} stopped: {}",
        MIX.len(),
        stopped.len(),
        stopped.join(" ")
    );

    let mut group = c.benchmark_group("mix");
    group.throughput(Throughput::Elements(MIX.len() as u64));
    group.bench_function("all", |b| {
        b.iter(|| {
            for (_, cmd) in MIX {
                black_box(agent_guard::evaluate(black_box(cmd), &settings));
            }
        })
    });
    group.finish();

    let mut group = c.benchmark_group("command");
    group
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    for (name, cmd) in MIX {
        group.bench_with_input(BenchmarkId::from_parameter(name), cmd, |b, cmd| {
            b.iter(|| agent_guard::evaluate(black_box(cmd), &settings))
        });
    }
    group.finish();
}

fn interpreter(c: &mut Criterion) {
    let settings = settings();
    let mut group = c.benchmark_group("interpreter");
    group
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    for (name, cmd) in INTERPRETER {
        eprintln!(
            "interpreter/{name}: {}",
            agent_guard::evaluate(cmd, &settings).decision.as_str()
        );
        group.bench_with_input(BenchmarkId::from_parameter(name), cmd, |b, cmd| {
            b.iter(|| agent_guard::evaluate(black_box(cmd), &settings))
        });
    }
    group.finish();
}

fn recipes(c: &mut Criterion) {
    let settings = settings();
    let dir = tempfile::tempdir().expect("a temp dir");
    let scripts: Vec<String> = (0..40)
        .map(|i| format!("\"task{i}\": \"tsc -p tsconfig.{i}.json && node dist/{i}.js\""))
        .collect();
    let package = format!(
        "{{\"name\": \"app\", \"version\": \"1.0.0\", \"scripts\": {{{}, \"prebuild\": \
         \"rm -rf dist\", \"build\": \"tsc\"}}, \"devDependencies\": {{\"typescript\": \"^5\"}}}}",
        scripts.join(", ")
    );
    let mut makefile = String::from("CC ?= cc\nCFLAGS := -O2 -Wall\nOUT = build\n\n");
    for i in 0..30u32 {
        let prereq = i
            .checked_sub(1)
            .map(|p| format!("t{p}"))
            .unwrap_or_default();
        makefile.push_str(&format!(
            "t{i}: {prereq}\n\t@$(CC) $(CFLAGS) -o $(OUT)/t{i} src/t{i}.c\n\n"
        ));
    }
    makefile.push_str("clean:\n\t-rm -rf $(OUT)\n");
    std::fs::write(dir.path().join("package.json"), package).expect("write package.json");
    std::fs::write(dir.path().join("Makefile"), makefile).expect("write Makefile");
    let mut group = c.benchmark_group("recipes");
    group
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    for (name, cmd) in [
        ("npm_run_build", "npm run build"),
        ("npm_run_task", "npm run task7"),
        ("make_chain", "make t29"),
        ("make_clean", "make clean"),
    ] {
        let verdict = agent_guard::evaluate_in(cmd, Some(dir.path()), &settings);
        eprintln!("recipes/{name}: {}", verdict.decision.as_str());
        group.bench_with_input(BenchmarkId::from_parameter(name), cmd, |b, cmd| {
            b.iter(|| agent_guard::evaluate_in(black_box(cmd), Some(dir.path()), &settings))
        });
    }
    group.finish();
}

/// A 500-line build script of the kind projects keep in `scripts/`: variables, functions
/// called with arguments, conditionals, loops, pipelines and the odd cleanup.
fn build_script() -> String {
    let mut text = String::from(
        "#!/usr/bin/env bash\nset -euo pipefail\nOUT=${1:-dist}\nMODE=${2:-release}\n\n\
         log() {\n  printf '[%s] %s\\n' \"$(date +%T)\" \"$*\"\n}\n\n\
         build_one() {\n  local name=$1\n  log \"building $name\"\n  cargo build --$MODE -p \"$name\"\n  \
         cp \"target/$MODE/$name\" \"$OUT/\"\n}\n\n",
    );
    let mut lines = text.lines().count();
    let mut i = 0;
    while lines < 500 {
        text.push_str(&format!(
            "if [ -f crates/c{i}/Cargo.toml ]; then\n  build_one c{i}\nfi\n\
             for f in crates/c{i}/src/*.rs; do wc -l \"$f\" | tee -a \"$OUT/lines.txt\"; done\n\
             git log --oneline -1 -- crates/c{i} >> \"$OUT/changes.txt\"\n"
        ));
        lines += 5;
        i += 1;
    }
    text.push_str("rm -rf \"$OUT/tmp\"\nlog done\n");
    text
}

fn scripts(c: &mut Criterion) {
    let settings = settings();
    let dir = tempfile::tempdir().expect("a temp dir");
    let text = build_script();
    assert!(text.lines().count() >= 500, "{}", text.lines().count());
    std::fs::create_dir(dir.path().join("scripts")).expect("make scripts/");
    std::fs::write(dir.path().join("scripts/build.sh"), text).expect("write build.sh");
    let plain: String = (0..500)
        .map(|i| match i % 5 {
            0 => format!("echo \"step {i}\"\n"),
            1 => format!("mkdir -p out/c{i}\n"),
            2 => format!("cargo build -p c{i} --release\n"),
            3 => format!("cp target/release/c{i} out/c{i}/\n"),
            _ => format!("git log --oneline -1 -- crates/c{i}\n"),
        })
        .collect();
    std::fs::write(dir.path().join("scripts/plain.sh"), plain).expect("write plain.sh");
    let mut group = c.benchmark_group("scripts");
    group
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    for (name, cmd) in [
        ("plain_500_lines", "bash scripts/plain.sh"),
        ("bash_500_lines", "bash scripts/build.sh dist release"),
        ("program_500_lines", "./scripts/build.sh"),
        ("source_500_lines", "source scripts/build.sh out debug"),
    ] {
        let verdict = agent_guard::evaluate_in(cmd, Some(dir.path()), &settings);
        eprintln!("scripts/{name}: {}", verdict.decision.as_str());
        group.bench_with_input(BenchmarkId::from_parameter(name), cmd, |b, cmd| {
            b.iter(|| agent_guard::evaluate_in(black_box(cmd), Some(dir.path()), &settings))
        });
    }
    group.finish();
}

fn pathological(c: &mut Criterion) {
    let settings = settings();
    let inputs = [
        ("100KB_word", format!("echo {}", "a".repeat(100 * 1024))),
        (
            "100KB_commit_msg",
            format!("git commit -m \"{}\"", "word ".repeat(20 * 1024)),
        ),
        (
            "500_nested_subst",
            format!("{}true{}", "echo $(".repeat(500), ")".repeat(500)),
        ),
        ("5000_commands", vec!["ls"; 5000].join("; ")),
    ];
    let mut group = c.benchmark_group("pathological");
    group.sample_size(10);
    for (name, cmd) in &inputs {
        let verdict = agent_guard::evaluate(cmd, &settings);
        eprintln!(
            "pathological/{name}: {} bytes -> {}",
            cmd.len(),
            verdict.decision.as_str()
        );
        group.throughput(Throughput::Bytes(cmd.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(name), cmd, |b, cmd| {
            b.iter(|| agent_guard::evaluate(black_box(cmd), &settings))
        });
    }
    group.finish();
}

fn tools(c: &mut Criterion) {
    use agent_guard::policy::Channel;
    use agent_guard::tools::{McpUse, ToolUse};
    let settings = settings();
    let mcp = |server: &str, tool: &str, input: serde_json::Value| {
        ToolUse::Mcp(McpUse {
            server: server.into(),
            tool: tool.into(),
            input: input.as_object().cloned().unwrap_or_default(),
        })
    };
    let calls = [
        (
            "mcp_read",
            mcp(
                "github",
                "get_file_contents",
                serde_json::json!({"owner": "o", "repo": "r", "path": "src/lib.rs"}),
            ),
        ),
        (
            "mcp_delete",
            mcp(
                "supabase",
                "reset_branch",
                serde_json::json!({"branch_id": "b"}),
            ),
        ),
        (
            "mcp_select",
            mcp(
                "postgres",
                "query",
                serde_json::json!({"sql": "SELECT * FROM users LIMIT 5"}),
            ),
        ),
    ];
    let mut group = c.benchmark_group("tools");
    group
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    group.bench_function("ls", |b| {
        b.iter(|| agent_guard::evaluate(black_box("ls -la"), &settings))
    });
    for (name, call) in &calls {
        let verdict = agent_guard::evaluate_tool(call, None, &settings, Channel::default());
        eprintln!("tools/{name}: {}", verdict.decision.as_str());
        group.bench_with_input(BenchmarkId::from_parameter(name), call, |b, call| {
            b.iter(|| {
                agent_guard::evaluate_tool(black_box(call), None, &settings, Channel::default())
            })
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    mix,
    interpreter,
    recipes,
    scripts,
    tools,
    pathological
);
criterion_main!(benches);
