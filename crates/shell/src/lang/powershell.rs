//! PowerShell: `Remove-Item` and its aliases, `Clear-RecycleBin`, `Move-Item`, writes
//! (`Set-Content`, `Out-File`, `>`), `Invoke-Expression`, `Invoke-RestMethod` and
//! `Invoke-WebRequest` requests that change something, native commands (`git reset
//! --hard`) and .NET's `[IO.Directory]::Delete`/`[IO.File]::Delete`, inside script blocks
//! and pipelines too.

use tree_sitter::{Node, Tree};

use super::args::{self as script, ScriptArgs};
use super::tree::{self, named_nodes, text};
use super::{Effect, Lang, append, remove, remove_dir, rename, request, run, unknown, write};
use crate::syntax::Word;

pub(super) fn effects(tree: &Tree, code: &str, given: ScriptArgs) -> Vec<Effect> {
    let nodes = named_nodes(tree.root_node());
    let splats = splats(&nodes, code);
    let mut effects: Vec<Effect> = nodes
        .iter()
        .filter_map(|n| match n.kind() {
            "command" => command(*n, code, &splats),
            "redirection" => redirection(*n, code),
            "invokation_expression" => dotnet_delete(*n, code),
            _ => None,
        })
        .collect();
    bind_args(&mut effects, &nodes, code, given);
    effects
}

/// `$args[0]`, and `$d` after `$d = $args[0]`, as the arguments the script is run with.
/// Inside a function or a script block `$args` holds that block's own arguments: a script
/// that reads it there binds nothing.
fn bind_args(effects: &mut [Effect], nodes: &[Node], code: &str, given: ScriptArgs) {
    let mut lists = script::lists(code, &script::POWERSHELL, given);
    let in_block = |n: &Node| {
        let mut at = n.parent();
        while let Some(p) = at {
            if p.kind() == "script_block" {
                return true;
            }
            at = p.parent();
        }
        false
    };
    if !lists.is_empty()
        && nodes.iter().any(|n| {
            n.kind() == "variable" && text(*n, code).eq_ignore_ascii_case("$args") && in_block(n)
        })
    {
        lists.clear();
    }
    let names = script::names(
        nodes,
        code,
        &lists,
        &script::POWERSHELL,
        given,
        &["variable"],
        |node| {
            let (left, value) = assignment(node)?;
            let plain = tree::args(node)
                .iter()
                .any(|op| op.kind() == "assignement_operator" && text(*op, code) == "=");
            let name = named_nodes(left)
                .into_iter()
                .find(|n| n.kind() == "variable" && text(*n, code) == text(left, code).trim())?;
            plain.then_some((name, value))
        },
        // A command's argument, or a variable in a double-quoted string: reads only.
        |name| {
            let argument = name
                .parent()
                .filter(|p| p.kind() == "unary_expression")
                .and_then(|p| p.parent())
                .filter(|p| p.kind() == "array_literal_expression")
                .is_some_and(|p| script::within(p, &["command_elements"]));
            argument || script::within(name, &["expandable_string_literal"])
        },
    );
    script::bind(effects, &lists, &names, true, given);
}

/// `$a = value`, `$a += value`: what is assigned, and the value.
fn assignment(node: Node) -> Option<(Node, Node)> {
    if node.kind() != "assignment_expression" {
        return None;
    }
    Some((node.named_child(0)?, node.child_by_field_name("value")?))
}

/// One element after the command name.
enum Element {
    /// `-Name` or `-Name:value`, the name lower-cased without the dash.
    Parameter(String, Option<Word>, String),
    Value(Word),
}

/// Values a variable is given that a command may splat into its parameters (`@a`).
enum Splat {
    /// `$a = @{Path = 'docs'; Recurse = $true}`: named parameters.
    Named(Vec<(String, Word)>),
    /// `$a = 'docs', 'old'`: positional arguments.
    Positional(Vec<Word>),
}

/// Each variable (lower-cased, without `$`) assigned a hashtable or an array literal, in
/// source order; a later assignment wins.
fn splats(nodes: &[Node], src: &str) -> Vec<(String, Splat)> {
    let mut out = Vec::new();
    for node in nodes {
        let Some((left, assigned)) = assignment(*node) else {
            continue;
        };
        let Some(name) = text(left, src).trim().strip_prefix('$') else {
            continue;
        };
        // Every value sits in an array literal of one item, a hashtable too; only a value
        // that is the literal itself counts (not a command's result).
        let whole = text(assigned, src).trim();
        let inside = named_nodes(assigned);
        let Some(literal) = inside
            .iter()
            .find(|n| n.kind() == "hash_literal_expression" && text(**n, src).trim() == whole)
            .or_else(|| {
                inside.iter().find(|n| {
                    n.kind() == "array_literal_expression" && text(**n, src).trim() == whole
                })
            })
            .copied()
        else {
            continue;
        };
        // `@('a', 'b')`: the array subexpression around a list of items.
        let literal = inside
            .iter()
            .find(|n| n.kind() == "array_expression" && text(**n, src).trim() == whole)
            .and_then(|sub| sub.child_by_field_name("statements"))
            .and_then(|list| {
                let body = text(list, src).trim();
                named_nodes(list).into_iter().find(|n| {
                    n.kind() == "array_literal_expression" && text(*n, src).trim() == body
                })
            })
            .unwrap_or(literal);
        let splat = if literal.kind() == "hash_literal_expression" {
            let entries = named_nodes(literal)
                .into_iter()
                .filter(|n| n.kind() == "hash_entry")
                .filter_map(|entry| {
                    let parts = tree::args(entry);
                    let key = parts.iter().find(|p| p.kind() == "key_expression")?;
                    let value_node = parts.iter().find(|p| p.kind() != "key_expression")?;
                    let key = text(*key, src).trim().trim_matches(['\'', '"']);
                    Some((key.to_ascii_lowercase(), value(*value_node, src)))
                })
                .collect();
            Splat::Named(entries)
        } else {
            let items = tree::args(literal);
            Splat::Positional(items.into_iter().map(|i| value(i, src)).collect())
        };
        out.push((name.to_ascii_lowercase(), splat));
    }
    out
}

fn command(node: Node, src: &str, splats: &[(String, Splat)]) -> Option<Effect> {
    let name_node = node.child_by_field_name("command_name")?;
    let name = match name_node.kind() {
        "command_name" => Word::literal(text(name_node, src)),
        // `& 'C:\tools\git.exe' ...`; a script block's commands are found on their own.
        _ if name_node
            .named_child(0)
            .is_some_and(|c| c.kind() == "script_block_expression") =>
        {
            return None;
        }
        _ => value(name_node, src),
    };
    let elements: Vec<Element> = node
        .child_by_field_name("command_elements")
        .map(|e| elements(e, src, splats))
        .unwrap_or_default();
    let whole = text(node, src);
    let lower = name.text.to_ascii_lowercase();
    let lower = lower.strip_suffix(".exe").unwrap_or(&lower);
    match lower {
        "remove-item" | "rm" | "ri" | "del" | "erase" | "rd" | "rmdir" => {
            remove_item(&elements, whole, listed_before(node, src, splats))
        }
        "clear-recyclebin" => {
            let args = Parameters::read(&elements, CLEAR_RECYCLE_BIN);
            (!args.has("whatif")).then(|| remove(whole, vec![unknown("$Recycle.Bin")], true))
        }
        "move-item" | "mi" | "move" | "mv" => {
            let args = Parameters::read(&elements, MOVE_ITEM);
            let mut positional = args.positional.iter().cloned();
            let from = args
                .values("path")
                .into_iter()
                .chain(args.values("literalpath"))
                .next()
                .or_else(|| positional.next())?;
            let to = args
                .values("destination")
                .into_iter()
                .next()
                .or_else(|| positional.next())?;
            (!args.has("whatif")).then(|| rename(whole, from, to))
        }
        "set-content" | "sc" | "add-content" | "ac" | "out-file" | "new-item" | "ni" => {
            let args = Parameters::read(&elements, WRITE);
            let target = args
                .values("path")
                .into_iter()
                .chain(args.values("filepath"))
                .chain(args.values("literalpath"))
                .chain(args.positional.first().cloned())
                .next()?;
            // Add-Content, `-Append` and `-NoClobber` keep what the file holds; New-Item
            // fails on an existing file unless forced.
            let keeps = match name.text.to_ascii_lowercase().as_str() {
                "add-content" | "ac" => true,
                "new-item" | "ni" => !args.has("force"),
                _ => args.has("append") || args.has("noclobber"),
            };
            (!args.has("whatif")).then(|| match keeps {
                true => append(whole, &name.text, target),
                false => write(whole, &name.text, target),
            })
        }
        // Disk cmdlets that erase what is on a disk: formatting a volume, wiping a disk's
        // partition table, deleting a partition. `Initialize-Disk` only takes a RAW disk,
        // so it erases nothing.
        "format-volume" | "clear-disk" | "remove-partition" => {
            let canonical = match lower {
                "format-volume" => "Format-Volume",
                "clear-disk" => "Clear-Disk",
                _ => "Remove-Partition",
            };
            if Parameters::read(&elements, &[]).has("whatif") {
                return None;
            }
            let mut argv = vec![Word::literal(canonical)];
            argv.extend(native_words(elements));
            run(whole, argv)
        }
        "invoke-restmethod" | "irm" | "invoke-webrequest" | "iwr" => {
            let args = Parameters::read(&elements, WEB_REQUEST);
            let uri = args
                .values("uri")
                .into_iter()
                .chain(args.positional.first().cloned())
                .next()?;
            let method = args
                .values("method")
                .into_iter()
                .chain(args.values("custommethod"))
                .next()
                .unwrap_or_else(|| Word::literal("GET"));
            let body = args.values("body").into_iter().next();
            method
                .literal
                .then(|| request(whole, &method.text, uri, body))
                .flatten()
        }
        "invoke-expression" | "iex" => {
            let args = Parameters::read(&elements, &[("command", true)]);
            let code = args
                .values("command")
                .into_iter()
                .chain(args.positional.first().cloned())
                .next()?;
            Some(Effect::Code {
                lang: Lang::PowerShell,
                code,
            })
        }
        // Cmdlets (`Get-ChildItem`) and aliases of read-only cmdlets change nothing here;
        // any other name is a native program, judged by the rules as it is.
        n if n.contains('-') => None,
        _ => {
            let mut argv = vec![name];
            argv.extend(native_words(elements));
            run(whole, argv)
        }
    }
}

/// The elements as a native program receives them: parameters as written, then values.
fn native_words(elements: Vec<Element>) -> Vec<Word> {
    let mut argv = Vec::new();
    for element in elements {
        match element {
            Element::Parameter(_, value, raw) => {
                argv.push(Word::literal(raw));
                argv.extend(value);
            }
            Element::Value(word) => argv.push(word),
        }
    }
    argv
}

/// `... > file`, `... >> file`: a write to that file (not to `$null`).
fn redirection(node: Node, src: &str) -> Option<Effect> {
    let mut op = "";
    let mut target = None;
    for part in tree::args(node) {
        match part.kind() {
            "file_redirection_operator" => op = text(part, src),
            "redirected_file_name" => target = Some(value(part, src)),
            _ => {}
        }
    }
    let target = target?;
    let whole = node.parent().map_or(text(node, src), |p| text(p, src));
    (op.contains('>') && !target.text.eq_ignore_ascii_case("$null")).then(|| {
        match op.contains(">>") {
            true => append(whole, "Out-File", target),
            false => write(whole, "Out-File", target),
        }
    })
}

fn elements(node: Node, src: &str, splats: &[(String, Splat)]) -> Vec<Element> {
    let mut out = Vec::new();
    // `-Recurse:$false`: the value after the colon belongs to the parameter.
    let mut colon = false;
    for part in tree::args(node) {
        if colon && part.kind() != "command_argument_sep" {
            colon = false;
            if let Some(Element::Parameter(_, slot, _)) = out.last_mut() {
                *slot = Some(value(part, src));
                continue;
            }
        }
        match part.kind() {
            "command_argument_sep" => colon = text(part, src).contains(':'),
            "command_parameter" => {
                let raw = text(part, src);
                let (name, value) = match raw.split_once(':') {
                    Some((n, v)) => (n, Some(bare(v))),
                    None => (raw, None),
                };
                let name = name.trim_start_matches('-').to_ascii_lowercase();
                out.push(Element::Parameter(
                    name,
                    value.filter(|v| !v.text.is_empty()),
                    raw.to_string(),
                ));
            }
            // `@a`: the parameters or arguments `$a` holds, when the code gave it them.
            _ if let Some(name) = text(part, src).trim().strip_prefix('@')
                && let Some((_, splat)) = splats
                    .iter()
                    .rev()
                    .find(|(n, _)| n.eq_ignore_ascii_case(name)) =>
            {
                match splat {
                    Splat::Named(entries) => {
                        for (key, value) in entries {
                            let raw = format!("-{key}");
                            let element = if value.text.eq_ignore_ascii_case("$true") {
                                Element::Parameter(key.clone(), None, raw)
                            } else {
                                Element::Parameter(key.clone(), Some(value.clone()), raw)
                            };
                            out.push(element);
                        }
                    }
                    Splat::Positional(items) => {
                        out.extend(items.iter().cloned().map(Element::Value));
                    }
                }
            }
            _ if let Some(items) = loop_items(part, src, splats) => {
                out.extend(items.into_iter().map(Element::Value));
            }
            _ if let Some(listed) = current_item(part, src, splats) => {
                out.push(Element::Value(listed));
            }
            "array_literal_expression" => {
                let items: Vec<Node> = tree::args(part);
                if items.len() > 1 {
                    out.extend(items.into_iter().map(|i| Element::Value(value(i, src))));
                } else {
                    out.push(Element::Value(value(part, src)));
                }
            }
            _ => out.push(Element::Value(value(part, src))),
        }
    }
    out
}

/// `$t` inside `foreach ($t in $targets) { … }` when the collection is known: an array
/// literal, or a variable the code assigned one. The loop runs the command once with each
/// item, which for a command that takes several paths is the same as one run with all.
fn loop_items(part: Node, src: &str, splats: &[(String, Splat)]) -> Option<Vec<Word>> {
    let name = text(part, src).trim().strip_prefix('$')?;
    if !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return None;
    }
    let mut at = part.parent();
    while let Some(node) = at {
        if node.kind() == "foreach_statement"
            && let Some(variable) = tree::args(node)
                .into_iter()
                .find(|n| n.kind() == "variable")
            && text(variable, src)
                .trim()
                .trim_start_matches('$')
                .eq_ignore_ascii_case(name)
        {
            let collection = tree::args(node)
                .into_iter()
                .find(|n| n.kind() == "pipeline")?;
            let whole = text(collection, src).trim();
            if let Some(held) = whole.strip_prefix('$') {
                return splats.iter().rev().find_map(|(n, splat)| match splat {
                    Splat::Positional(items) if n.eq_ignore_ascii_case(held) => Some(items.clone()),
                    _ => None,
                });
            }
            let literal = named_nodes(collection).into_iter().find(|n| {
                n.kind() == "array_literal_expression" && text(*n, src).trim() == whole
            })?;
            return Some(
                tree::args(literal)
                    .into_iter()
                    .map(|i| value(i, src))
                    .collect(),
            );
        }
        at = node.parent();
    }
    None
}

/// `$_` or `$PSItem` (or its `.FullName`) in the script block `ForEach-Object` runs for
/// each item `Get-ChildItem` lists before it: what lies inside the listed folder, as
/// [`listed_before`] reads it for a `Remove-Item` the listing is piped into.
fn current_item(part: Node, src: &str, splats: &[(String, Splat)]) -> Option<Word> {
    let raw = text(part, src).trim().to_ascii_lowercase();
    let item = raw
        .strip_prefix("$_")
        .or_else(|| raw.strip_prefix("$psitem"))?;
    if !matches!(item, "" | ".fullname" | ".pspath") {
        return None;
    }
    let block = std::iter::successors(part.parent(), |n| n.parent())
        .find(|n| n.kind() == "script_block_expression")?;
    let each =
        std::iter::successors(block.parent(), |n| n.parent()).find(|n| n.kind() == "command")?;
    let name = text(each.child_by_field_name("command_name")?, src).to_ascii_lowercase();
    if !matches!(name.as_str(), "foreach-object" | "%" | "foreach") {
        return None;
    }
    listed_before(each, src, splats)
}

/// A word as PowerShell passes it: quotes removed, literal unless it expands a variable or
/// a subexpression or holds an escape. Backslashes, which PowerShell does not treat as
/// escapes, become slashes so Windows paths compare like the rules' paths.
fn value(node: Node, src: &str) -> Word {
    let mut word = quoted_value(node, src);
    if word.literal {
        word.text = word.text.replace('\\', "/");
    }
    word
}

fn quoted_value(node: Node, src: &str) -> Word {
    let raw = text(node, src).trim();
    if raw.len() >= 2 && raw.starts_with('\'') && raw.ends_with('\'') {
        return Word::literal(raw[1..raw.len() - 1].replace("''", "'"));
    }
    if raw.len() >= 2 && raw.starts_with('"') && raw.ends_with('"') {
        let body = &raw[1..raw.len() - 1];
        return if body.contains(['$', '`']) {
            unknown(raw)
        } else {
            Word::literal(body)
        };
    }
    bare(raw)
}

fn bare(raw: &str) -> Word {
    if raw.is_empty() || raw.contains(['$', '`', '(', '@', '{', ',', '"', '\'']) {
        unknown(raw)
    } else {
        Word::literal(raw)
    }
}

/// A cmdlet's parameters: name and whether it takes a value.
type Spec = &'static [(&'static str, bool)];

const COMMON: Spec = &[
    ("whatif", false),
    ("confirm", false),
    ("verbose", false),
    ("debug", false),
    ("erroraction", true),
    ("ea", true),
    ("warningaction", true),
    ("wa", true),
    ("informationaction", true),
    ("errorvariable", true),
    ("warningvariable", true),
    ("informationvariable", true),
    ("outvariable", true),
    ("outbuffer", true),
    ("pipelinevariable", true),
    ("progressaction", true),
];

const GET_CHILD_ITEM: Spec = &[
    ("path", true),
    ("literalpath", true),
    ("filter", true),
    ("include", true),
    ("exclude", true),
    ("recurse", false),
    ("depth", true),
    ("force", false),
    ("name", false),
    ("directory", false),
    ("file", false),
    ("hidden", false),
    ("erroraction", true),
    ("attributes", true),
];

const REMOVE_ITEM: Spec = &[
    ("path", true),
    ("literalpath", true),
    ("pspath", true),
    ("lp", true),
    ("filter", true),
    ("include", true),
    ("exclude", true),
    ("recurse", false),
    ("force", false),
    ("credential", true),
    ("stream", true),
];

/// `Invoke-RestMethod` and `Invoke-WebRequest`: the parameters that say where a request goes
/// and what it sends, and the ones that take a value, so that no value is taken for the URI.
const WEB_REQUEST: Spec = &[
    ("uri", true),
    ("method", true),
    ("custommethod", true),
    ("body", true),
    ("headers", true),
    ("contenttype", true),
    ("infile", true),
    ("outfile", true),
    ("authentication", true),
    ("token", true),
    ("certificate", true),
    ("certificatethumbprint", true),
    ("credential", true),
    ("form", true),
    ("proxy", true),
    ("proxycredential", true),
    ("session", true),
    ("websession", true),
    ("sessionvariable", true),
    ("timeoutsec", true),
    ("maximumredirection", true),
    ("maximumretrycount", true),
    ("retryintervalsec", true),
    ("useragent", true),
    ("transferencoding", true),
    ("usebasicparsing", false),
    ("skipcertificatecheck", false),
    ("passthru", false),
];

const CLEAR_RECYCLE_BIN: Spec = &[("driveletter", true), ("force", false)];

const MOVE_ITEM: Spec = &[
    ("path", true),
    ("literalpath", true),
    ("destination", true),
    ("force", false),
    ("filter", true),
    ("include", true),
    ("exclude", true),
    ("passthru", false),
    ("credential", true),
];

const WRITE: Spec = &[
    ("path", true),
    ("filepath", true),
    ("literalpath", true),
    ("value", true),
    ("encoding", true),
    ("itemtype", true),
    ("name", true),
    ("inputobject", true),
    ("force", false),
    ("nonewline", false),
    ("append", false),
    ("noclobber", false),
    ("passthru", false),
    ("width", true),
    ("filter", true),
    ("include", true),
    ("exclude", true),
];

struct Parameters {
    named: Vec<(&'static str, Option<Word>)>,
    positional: Vec<Word>,
}

impl Parameters {
    /// Binds parameters as PowerShell does: a name may be shortened to any prefix that
    /// names one parameter alone.
    fn read(elements: &[Element], spec: Spec) -> Parameters {
        let mut out = Parameters {
            named: Vec::new(),
            positional: Vec::new(),
        };
        let mut iter = elements.iter();
        while let Some(element) = iter.next() {
            match element {
                Element::Value(word) => out.positional.push(word.clone()),
                Element::Parameter(name, attached, _) => {
                    let Some((full, takes_value)) = resolve(name, spec) else {
                        continue;
                    };
                    let value = match attached {
                        Some(v) => Some(v.clone()),
                        None if takes_value => match iter.next() {
                            Some(Element::Value(v)) => Some(v.clone()),
                            _ => None,
                        },
                        None => None,
                    };
                    out.named.push((full, value));
                }
            }
        }
        out
    }

    /// Whether a switch is on: given, and not `-Switch:$false`.
    fn has(&self, name: &str) -> bool {
        self.named.iter().any(|(n, v)| {
            *n == name
                && !v
                    .as_ref()
                    .is_some_and(|v| v.text.eq_ignore_ascii_case("$false"))
        })
    }

    fn values(&self, name: &str) -> Vec<Word> {
        self.named
            .iter()
            .filter(|(n, _)| *n == name)
            .filter_map(|(_, v)| v.clone())
            .collect()
    }
}

fn resolve(name: &str, spec: Spec) -> Option<(&'static str, bool)> {
    let all = spec.iter().chain(COMMON);
    if let Some(exact) = all.clone().find(|(n, _)| *n == name) {
        return Some(*exact);
    }
    let mut matches = all.filter(|(n, _)| !name.is_empty() && n.starts_with(name));
    let first = matches.next()?;
    matches.next().is_none().then_some(*first)
}

/// `[System.IO.Directory]::Delete(path, $true)` (recursive with a true second argument)
/// and `[IO.File]::Delete(path)`: .NET's own deletes, one call away in any script.
fn dotnet_delete(node: Node, src: &str) -> Option<Effect> {
    let class = node
        .named_child(0)
        .filter(|c| c.kind() == "type_literal")
        .map(|c| text(c, src).trim_matches(['[', ']']).to_ascii_lowercase())?;
    let class = class.strip_prefix("system.").unwrap_or(&class);
    let parts = tree::args(node);
    let method = parts.iter().find(|c| c.kind() == "member_name")?;
    if !text(*method, src).eq_ignore_ascii_case("delete") {
        return None;
    }
    // The call's own arguments, not those of a call nested in one of them.
    let args = parts
        .iter()
        .find(|c| c.kind() == "argument_list")
        .and_then(|list| list.child_by_field_name("argument_expression_list"))
        .map(tree::args)
        .unwrap_or_default();
    let path = args.first().map(|a| value(*a, src))?;
    let whole = text(node, src);
    match class {
        "io.directory" => {
            let recursive = args
                .get(1)
                .is_some_and(|a| !text(*a, src).trim().eq_ignore_ascii_case("$false"));
            Some(if recursive {
                remove(whole, vec![path], true)
            } else {
                remove_dir(whole, path)
            })
        }
        "io.file" => Some(remove(whole, vec![path], false)),
        _ => None,
    }
}

/// `piped`: what the pipeline stage before it lists, when `Remove-Item` names no path itself.
fn remove_item(elements: &[Element], whole: &str, piped: Option<Word>) -> Option<Effect> {
    let args = Parameters::read(elements, REMOVE_ITEM);
    if args.has("whatif") {
        return None;
    }
    let mut targets = args.values("path");
    targets.extend(args.values("literalpath"));
    targets.extend(args.values("pspath"));
    targets.extend(args.values("lp"));
    targets.extend(args.positional.iter().cloned());
    if targets.is_empty() {
        targets.extend(piped);
    }
    Some(remove(whole, targets, args.has("recurse")))
}

/// `Get-ChildItem -Path X … | Remove-Item`: the items it lists are what lies inside `X`,
/// read as `X/*` (the current folder's `*` when it names none). `None` when the stage before
/// is anything else, whose output is not known.
fn listed_before(node: Node, src: &str, splats: &[(String, Splat)]) -> Option<Word> {
    let before = node
        .prev_named_sibling()
        .filter(|n| n.kind() == "command")?;
    let name = before.child_by_field_name("command_name")?;
    let lister = text(name, src).to_ascii_lowercase();
    if !matches!(lister.as_str(), "get-childitem" | "gci" | "ls" | "dir") {
        return None;
    }
    let elements: Vec<Element> = before
        .child_by_field_name("command_elements")
        .map(|e| elements(e, src, splats))
        .unwrap_or_default();
    let args = Parameters::read(&elements, GET_CHILD_ITEM);
    let folder = args
        .values("path")
        .into_iter()
        .chain(args.values("literalpath"))
        .chain(args.positional.first().cloned())
        .next();
    Some(match folder {
        Some(folder) => Word {
            text: format!("{}/*", folder.text.trim_end_matches(['/', '\\'])),
            literal: false,
            temp: None,
        },
        None => Word {
            text: "*".into(),
            literal: false,
            temp: None,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lowered(code: &str) -> Vec<String> {
        crate::lang::shown(Lang::PowerShell, code)
    }

    #[test]
    fn writes_that_keep_what_the_file_holds_append() {
        assert_eq!(
            lowered("Set-Content notes.md x"),
            ["Set-Content > notes.md"]
        );
        assert_eq!(
            lowered("Add-Content notes.md x"),
            ["Add-Content >> notes.md"]
        );
        assert_eq!(
            lowered("'x' | Out-File -Append log.txt"),
            ["Out-File >> log.txt"]
        );
        assert_eq!(lowered("'x' >> log.txt"), ["Out-File >> log.txt"]);
        assert_eq!(lowered("New-Item notes.md"), ["New-Item >> notes.md"]);
    }

    #[test]
    fn remove_item_and_aliases() {
        assert_eq!(lowered("Remove-Item -Recurse -Force out"), ["rm -r out"]);
        assert_eq!(lowered("ri src -r"), ["rm -r src"]);
        assert_eq!(lowered("rm -Path 'a b' -Rec"), ["rm -r a b"]);
        assert_eq!(lowered("del x.txt"), ["rm x.txt"]);
        assert_eq!(
            lowered("Remove-Item -Recurse out -WhatIf"),
            Vec::<String>::new()
        );
        assert_eq!(lowered("Remove-Item -Recurse:$false out"), ["rm out"]);
        assert_eq!(
            lowered("Get-ChildItem | ForEach-Object { Remove-Item $_ -Recurse }"),
            ["rm -r *"]
        );
    }

    #[test]
    fn what_get_childitem_lists_is_what_remove_item_takes() {
        assert_eq!(
            lowered(
                "Get-ChildItem -Path $env:TEMP -Recurse -Force -ErrorAction SilentlyContinue | \
                 Remove-Item -Recurse -Force"
            ),
            ["rm -r $env:TEMP/*"]
        );
        assert_eq!(
            lowered("Get-ChildItem C:\\Windows\\Temp | Remove-Item -Recurse"),
            ["rm -r C:/Windows/Temp/*"]
        );
        assert_eq!(lowered("Get-ChildItem | Remove-Item"), ["rm *"]);
        assert_eq!(
            lowered(
                "Get-ChildItem $env:TEMP -Directory | ForEach-Object { Remove-Item $_.FullName \
                 -Recurse }"
            ),
            ["rm -r $env:TEMP/*"]
        );
        assert_eq!(
            lowered("Get-ChildItem build | ForEach-Object { Remove-Item $PSItem -Recurse }"),
            ["rm -r build/*"]
        );
        // Only the item itself: its `Name` is read from the current folder.
        assert_eq!(
            lowered("Get-ChildItem build | ForEach-Object { Remove-Item $_.Name }"),
            ["rm $_.Name"]
        );
        assert_eq!(lowered("Get-Content list.txt | Remove-Item"), ["rm"]);
    }

    #[test]
    fn a_loop_over_known_items_runs_with_each() {
        assert_eq!(
            lowered(
                "$targets = @('out', 'C:\\Temp\\x')\nforeach ($t in $targets) { \
                 Remove-Item -Path $t -Recurse }"
            ),
            ["rm -r out C:/Temp/x"]
        );
        assert_eq!(
            lowered("foreach ($d in 'a', 'b') { Remove-Item $d }"),
            ["rm a b"]
        );
        // A collection known only when it runs, or another variable, stays unknown.
        assert_eq!(
            lowered("foreach ($t in Get-Content list.txt) { Remove-Item $t }"),
            ["rm $t"]
        );
        assert_eq!(lowered("foreach ($t in 'a') { Remove-Item $u }"), ["rm $u"]);
    }

    #[test]
    fn splatted_parameters() {
        assert_eq!(
            lowered("$a = @{Path=\"docs\"; Recurse=$true}; Remove-Item @a"),
            ["rm -r docs"]
        );
        assert_eq!(
            lowered("$a = @{Path='notes.txt'}; Remove-Item @a"),
            ["rm notes.txt"]
        );
        assert_eq!(
            lowered("$a = @{LiteralPath='out'; Recurse=$false}; Remove-Item @a"),
            ["rm out"]
        );
        assert_eq!(
            lowered("$p = 'a', 'b'; Remove-Item @p -Recurse -Force"),
            ["rm -r a b"]
        );
        assert_eq!(
            lowered("$a = @{Path='docs'; Recurse=$true; WhatIf=$true}; Remove-Item @a"),
            Vec::<String>::new()
        );
    }

    #[test]
    fn disk_cmdlets() {
        assert_eq!(
            lowered("Format-Volume -DriveLetter D -FileSystem NTFS"),
            ["Format-Volume -DriveLetter D -FileSystem NTFS"]
        );
        assert_eq!(
            lowered("clear-disk -Number 1 -RemoveData -Confirm:$false"),
            ["Clear-Disk -Number 1 -RemoveData -Confirm $false"]
        );
        assert_eq!(
            lowered("Remove-Partition -DiskNumber 1 -PartitionNumber 2"),
            ["Remove-Partition -DiskNumber 1 -PartitionNumber 2"]
        );
        assert_eq!(
            lowered("Format-Volume -DriveLetter D -WhatIf"),
            Vec::<String>::new()
        );
        assert_eq!(lowered("Initialize-Disk -Number 1"), Vec::<String>::new());
        assert_eq!(lowered("Get-Volume"), Vec::<String>::new());
    }

    #[test]
    fn dotnet_deletes() {
        assert_eq!(
            lowered("[IO.Directory]::Delete('src', $true)"),
            ["rm -r src"]
        );
        assert_eq!(
            lowered("[System.IO.Directory]::Delete(\"C:\\out\", $True)"),
            ["rm -r C:/out"]
        );
        assert_eq!(lowered("[IO.Directory]::Delete('empty')"), ["rmdir empty"]);
        assert_eq!(lowered("[IO.Directory]::Delete('d', $false)"), ["rmdir d"]);
        assert_eq!(lowered("[System.IO.File]::Delete('a.txt')"), ["rm a.txt"]);
        assert_eq!(
            lowered("[IO.Directory]::Delete([IO.Path]::Combine('a', 'b'), $true)"),
            ["rm -r [IO.Path]::Combine('a', 'b')"]
        );
        assert_eq!(
            lowered("[IO.Directory]::Exists('src')"),
            Vec::<String>::new()
        );
        assert_eq!(
            lowered("[IO.Path]::Combine('a', 'b')"),
            Vec::<String>::new()
        );
    }

    #[test]
    fn natives_and_writes() {
        assert_eq!(lowered("git reset --hard"), ["git reset --hard"]);
        assert_eq!(
            lowered("'{}' | Set-Content .claude/settings.json"),
            ["Set-Content > .claude/settings.json"]
        );
        assert_eq!(lowered("Write-Output 'rm -rf /'"), Vec::<String>::new());
        assert_eq!(
            lowered("Get-Content .claude/settings.json"),
            Vec::<String>::new()
        );
        assert_eq!(
            lowered("Out-File -FilePath .claude\\settings.json"),
            ["Out-File > .claude/settings.json"]
        );
    }

    #[test]
    fn web_requests_that_change_something() {
        assert_eq!(
            lowered("Invoke-RestMethod -Method Delete -Uri http://h:9200/logs"),
            ["curl -X DELETE http://h:9200/logs"]
        );
        assert_eq!(
            lowered("iwr http://h:8123/ -Method Post -Body 'DROP TABLE t'"),
            ["curl -X POST http://h:8123/ --data-raw DROP TABLE t"]
        );
        assert_eq!(
            lowered("Invoke-WebRequest -Uri http://h/x -CustomMethod PURGE"),
            ["curl -X PURGE http://h/x"]
        );
        assert!(lowered("Invoke-RestMethod -Uri http://h:9200/_cat/indices").is_empty());
        assert!(lowered("irm http://h/x -Method $m").is_empty());
    }

    #[test]
    fn a_script_files_arguments() {
        let run = |code: &str, args: &[&str]| crate::lang::shown_with(Lang::PowerShell, code, args);
        assert_eq!(
            run("Remove-Item -Recurse -Force $args[0]", &["out"]),
            ["rm -r out"]
        );
        assert_eq!(
            run("Remove-Item -Recurse -Force $args[1]", &["out"]),
            ["rm -r $args[1]"]
        );
        assert_eq!(
            run(
                "$Ref = $Args[0]\nWrite-Host \"at $ref\"\ngit checkout $ref",
                &["feature"]
            ),
            ["git checkout feature"]
        );
        for code in [
            "$d = $args[0]\n$d = 'src'\nRemove-Item -Recurse $d",
            "$d = $args[0]\n$d += '/x'\nRemove-Item -Recurse $d",
            "param($p)\n$d = $args[0]\nRemove-Item -Recurse $d",
            "$d = $args[0]\nforeach ($d in $x) { }\nRemove-Item -Recurse $d",
        ] {
            assert_eq!(run(code, &["out", "src"]), ["rm -r $d"], "{code}");
        }
        // In a function, `$args` is the function's own.
        assert_eq!(
            run(
                "function f { Remove-Item -Recurse $args[0] }\nf src",
                &["out"]
            ),
            ["rm -r $args[0]", "f src"]
        );
    }
}
