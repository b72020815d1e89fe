//! Our hook entry in a JSON settings file, edited as text.
//!
//! Settings files are the user's: re-serializing one would reorder keys, reflow arrays and drop
//! the comments that JSONC hosts allow. So the file is parsed only to learn where every value
//! sits (jsonc-parser gives byte ranges and reads comments), and each change is a splice: install
//! inserts one piece of text, formatted like its neighbours; uninstall cuts out exactly that
//! piece. Everything outside it stays byte-for-byte, and install followed by uninstall gives the
//! original file back. An entry of ours that is already there gets at most two small edits in
//! place: its command string, and the matcher of its group.
// Offsets here come from the JSONC parser's own spans of this same text, and the edits run
// only in `install`, never in the hook.
#![allow(clippy::indexing_slicing)]

use jsonc_parser::ast::{Array, Object, Value};
use jsonc_parser::common::{Range, Ranged};
use jsonc_parser::{CollectOptions, ParseOptions, parse_to_ast};

use super::{Located, Outcome, Removal};
use crate::host::wiring::{J, Twin};

/// Where a host keeps its hook entries in a JSON file and what one of ours looks like.
#[derive(Debug, Clone)]
pub struct Layout {
    /// Top-level members a file created from nothing starts with, ahead of the hooks
    /// (`"version": 1` for Cursor and Copilot).
    pub preamble: Vec<(&'static str, J)>,
    /// Object keys from the top level down to the array that holds the entries.
    pub path: Vec<&'static str>,
    /// `Some(matcher)` when entries are `{"matcher": .., "hooks": [handler]}` groups, the shape
    /// Claude Code introduced, with the matcher install writes; `None` when each entry is a
    /// handler.
    pub group: Option<&'static str>,
    /// The keys leading to the command string inside one handler.
    pub command_key: &'static [&'static str],
    /// The handler we add, for a command line.
    pub handler: fn(&str) -> J,
    /// A second key of the handler kept in step with the command: Copilot CLI's `powershell`
    /// next to `bash`, the command as another shell reads it; Crush's own `matcher`.
    pub twin: Option<Twin>,
}

impl Layout {
    fn entry(&self, command: &str) -> J {
        let handler = (self.handler)(command);
        match self.group {
            // A group without a matcher takes every tool.
            Some("") => J::Obj(vec![("hooks", J::Arr(vec![handler]))]),
            Some(matcher) => J::Obj(vec![
                ("matcher", J::str(matcher)),
                ("hooks", J::Arr(vec![handler])),
            ]),
            None => handler,
        }
    }

    /// The whole file install writes when there is none: preamble, then the path down to an
    /// array holding one entry per command.
    fn new_file(&self, commands: &[&str]) -> String {
        let entries = J::Arr(commands.iter().map(|c| self.entry(c)).collect());
        let mut members = self.preamble.clone();
        members.push((self.path[0], nest(&self.path[1..], entries)));
        let style = Style {
            nl: "\n",
            unit: "  ".into(),
            multiline: true,
            spaced: true,
        };
        format!("{}\n", render(&J::Obj(members), &style, ""))
    }
}

/// `{"k1": {"k2": value}}` for keys `[k1, k2]`.
fn nest(keys: &[&'static str], value: J) -> J {
    match keys.split_first() {
        None => value,
        Some((key, rest)) => J::Obj(vec![(key, nest(rest, value))]),
    }
}

/// Whether the top level of `text` has an object under `key` (`false` when it does not parse:
/// the edit that follows reports that).
pub fn has_object(text: &str, key: &str) -> bool {
    Doc::parse(text).is_ok_and(|doc| {
        doc.root
            .as_ref()
            .and_then(|root| root.get(key))
            .is_some_and(|p| p.value.as_object().is_some())
    })
}

/// The commands of our entries in `text`, in file order.
pub fn commands(
    text: &str,
    layout: &Layout,
    ours: &dyn Fn(&str) -> bool,
) -> Result<Vec<String>, Located> {
    let doc = Doc::parse(text)?;
    let Some(root) = &doc.root else {
        return Ok(Vec::new());
    };
    Ok(match doc.walk(root, layout)? {
        Walk::Found { array, .. } => find(array, layout, ours)
            .into_iter()
            .map(|f| f.value)
            .collect(),
        Walk::Missing { .. } => Vec::new(),
    })
}

/// `text` (or no file) with our entry for `command` added, or its command and its group's
/// matcher updated when an entry of ours is already there.
pub fn install(
    text: Option<&str>,
    layout: &Layout,
    command: &str,
    ours: &dyn Fn(&str) -> bool,
) -> Result<(String, Outcome), Located> {
    let Some(text) = text else {
        return Ok((layout.new_file(&[command]), Outcome::Created));
    };
    let doc = Doc::parse(text)?;
    let Some(root) = &doc.root else {
        if !doc.body.trim().is_empty() {
            return Err(located(
                doc.body,
                0,
                "holds comments but no JSON object; put them inside `{}` or move the file away"
                    .into(),
            ));
        }
        // An empty file: nothing of the user's to keep in place.
        return Ok((layout.new_file(&[command]), Outcome::Created));
    };
    let style = doc.style(root);
    let edit = match doc.walk(root, layout)? {
        Walk::Found { array, .. } => {
            let found = find(array, layout, ours);
            if !found.is_empty() {
                let quoted = quote(command);
                let moved: Vec<(Range, String)> = found
                    .iter()
                    .filter(|f| f.value != command)
                    .map(|f| (f.literal, quoted.clone()))
                    .collect();
                let twins = doc.twins(&found, layout, command, &style);
                let rematched = doc.rematch(&found, layout, &style);
                // A twin that changes while the command stays changes what the hook is, not
                // where it points.
                let outcome = match (moved.is_empty(), twins.is_empty(), rematched.is_empty()) {
                    (true, true, true) => return Ok((text.to_string(), Outcome::AlreadyThere)),
                    (false, _, true) => Outcome::Updated,
                    _ => Outcome::Rematched,
                };
                return Ok((doc.apply([moved, twins, rematched].concat()), outcome));
            }
            let items: Vec<Range> = array.elements.iter().map(|e| e.range()).collect();
            doc.append(array.range, &items, &style, |base| {
                render(&layout.entry(command), &style, base)
            })
        }
        Walk::Missing { object, depth } => {
            let key = layout.path[depth];
            let value = nest(
                &layout.path[depth + 1..],
                J::Arr(vec![layout.entry(command)]),
            );
            let items: Vec<Range> = object.properties.iter().map(|p| p.range()).collect();
            doc.append(object.range, &items, &style, |base| {
                format!(
                    "{}{}",
                    member_key(key, &style),
                    render(&value, &style, base)
                )
            })
        }
    };
    Ok((doc.apply(vec![edit]), Outcome::Added))
}

/// `text` without our entries. A container left empty by that goes too, up to the top level;
/// a file that is exactly what install writes from nothing, under either matcher, is deleted.
pub fn uninstall(
    text: &str,
    layout: &Layout,
    ours: &dyn Fn(&str) -> bool,
) -> Result<Removal, Located> {
    let doc = Doc::parse(text)?;
    let Some(root) = &doc.root else {
        return Ok(Removal::NotThere);
    };
    let Walk::Found { array, chain } = doc.walk(root, layout)? else {
        return Ok(Removal::NotThere);
    };
    let found = find(array, layout, ours);
    if found.is_empty() {
        return Ok(Removal::NotThere);
    }
    let commands: Vec<&str> = found.iter().map(|f| f.value.as_str()).collect();
    // Install writes whichever matcher it is asked for: compare with our groups under the
    // layout's.
    let rematched = doc.apply(doc.rematch(&found, layout, &doc.style(root)));
    if rematched.strip_prefix('\u{feff}').unwrap_or(&rematched) == layout.new_file(&commands) {
        return Ok(Removal::DeleteFile);
    }

    let mut cuts: Vec<Range> = Vec::new();
    // Whole entries to drop, and handlers to drop from groups that hold other handlers too.
    let mut drop_entry = vec![false; array.elements.len()];
    for f in &found {
        match f.handler {
            Some((_, handlers, index)) => {
                let ours_here: Vec<usize> = found
                    .iter()
                    .filter(|g| g.element == f.element)
                    .filter_map(|g| g.handler.map(|(_, _, i)| i))
                    .collect();
                if ours_here.len() == handlers.elements.len() {
                    drop_entry[f.element] = true;
                } else if ours_here.first() == Some(&index) {
                    let items: Vec<Range> = handlers.elements.iter().map(|e| e.range()).collect();
                    let remove: Vec<bool> =
                        (0..items.len()).map(|i| ours_here.contains(&i)).collect();
                    cuts.extend(removal(handlers.range, &items, &remove));
                }
            }
            None => drop_entry[f.element] = true,
        }
    }

    if drop_entry.iter().all(|d| *d) {
        // The array empties: remove its member, and each enclosing object that empties with it.
        let mut level = chain.len() - 1;
        while level > 0 && chain[level].0.properties.len() == 1 {
            level -= 1;
        }
        let (object, index) = chain[level];
        let items: Vec<Range> = object.properties.iter().map(|p| p.range()).collect();
        let remove: Vec<bool> = (0..items.len()).map(|i| i == index).collect();
        cuts.extend(removal(object.range, &items, &remove));
    } else {
        let items: Vec<Range> = array.elements.iter().map(|e| e.range()).collect();
        cuts.extend(removal(array.range, &items, &drop_entry));
    }
    Ok(Removal::Text(doc.apply(
        cuts.into_iter().map(|r| (r, String::new())).collect(),
    )))
}

/// One of our handlers: which entry it is in, where its command string sits.
struct Found<'p, 'a> {
    element: usize,
    /// For grouped layouts, the group, its handler array and the handler's index in it.
    handler: Option<(&'p Object<'a>, &'p Array<'a>, usize)>,
    /// The command's string literal, quotes included.
    literal: Range,
    value: String,
    /// The handler object, and the twin's literal and value when it has one.
    object: Option<&'p Object<'a>>,
    twin: Option<(Range, String)>,
}

fn find<'p, 'a>(
    array: &'p Array<'a>,
    layout: &Layout,
    ours: &dyn Fn(&str) -> bool,
) -> Vec<Found<'p, 'a>> {
    let mut found = Vec::new();
    for (element, value) in array.elements.iter().enumerate() {
        match layout.group {
            Some(_) => {
                let Some((group, handlers)) = value.as_object().and_then(|group| {
                    let handlers = group.get("hooks")?.value.as_array()?;
                    Some((group, handlers))
                }) else {
                    continue;
                };
                for (index, handler) in handlers.elements.iter().enumerate() {
                    if let Some((literal, value)) = command_in(handler, layout.command_key)
                        && ours(&value)
                    {
                        found.push(Found {
                            element,
                            handler: Some((group, handlers, index)),
                            literal,
                            value,
                            object: handler.as_object(),
                            twin: twin_in(handler, layout),
                        });
                    }
                }
            }
            None => {
                if let Some((literal, command)) = command_in(value, layout.command_key)
                    && ours(&command)
                {
                    found.push(Found {
                        element,
                        handler: None,
                        literal,
                        value: command,
                        object: value.as_object(),
                        twin: twin_in(value, layout),
                    });
                }
            }
        }
    }
    found
}

fn twin_in(handler: &Value, layout: &Layout) -> Option<(Range, String)> {
    command_in(handler, &[layout.twin?.key])
}

fn command_in(handler: &Value, keys: &[&str]) -> Option<(Range, String)> {
    let mut value = handler;
    for key in keys {
        value = &value.as_object()?.get(key)?.value;
    }
    let literal = value.as_string_lit()?;
    Some((literal.range, literal.value.to_string()))
}

/// A parsed settings file; offsets are into `body`, the text after any byte-order mark.
struct Doc<'a> {
    bom: &'a str,
    body: &'a str,
    root: Option<Object<'a>>,
}

enum Walk<'p, 'a> {
    /// The entry array, and each object on the way to it with the index of the member taken.
    Found {
        array: &'p Array<'a>,
        chain: Vec<(&'p Object<'a>, usize)>,
    },
    /// `path[depth]` is missing from `object`.
    Missing {
        object: &'p Object<'a>,
        depth: usize,
    },
}

impl<'a> Doc<'a> {
    fn parse(text: &'a str) -> Result<Doc<'a>, Located> {
        let (bom, body) = match text.strip_prefix('\u{feff}') {
            Some(rest) => (&text[..3], rest),
            None => ("", text),
        };
        // Comments are allowed (several hosts read JSONC); every other extension is refused, as
        // the hosts' JSON readers would refuse it.
        let options = ParseOptions {
            allow_comments: true,
            allow_loose_object_property_names: false,
            allow_trailing_commas: false,
            allow_missing_commas: false,
            allow_single_quoted_strings: false,
            allow_hexadecimal_numbers: false,
            allow_unary_plus_numbers: false,
            allow_bare_decimal_point_numbers: false,
            allow_non_finite_numbers: false,
            allow_extended_string_escapes: false,
        };
        let parsed =
            parse_to_ast(body, &CollectOptions::default(), &options).map_err(|e| Located {
                line: e.line_display(),
                column: e.column_display(),
                message: format!("not valid JSON: {}", e.kind()),
            })?;
        let root = match parsed.value {
            None => None,
            Some(Value::Object(object)) => Some(object),
            Some(other) => {
                return Err(located(
                    body,
                    other.start(),
                    "the top level is not a JSON object".into(),
                ));
            }
        };
        Ok(Doc { bom, body, root })
    }

    fn walk<'p>(&self, root: &'p Object<'a>, layout: &Layout) -> Result<Walk<'p, 'a>, Located> {
        let mut object = root;
        let mut chain = Vec::new();
        for (depth, key) in layout.path.iter().enumerate() {
            let Some(index) = object
                .properties
                .iter()
                .position(|p| p.name.as_str() == *key)
            else {
                return Ok(Walk::Missing { object, depth });
            };
            chain.push((object, index));
            let value = &object.properties[index].value;
            let last = depth + 1 == layout.path.len();
            match (value, last) {
                (Value::Array(array), true) => return Ok(Walk::Found { array, chain }),
                (Value::Object(inner), false) => object = inner,
                _ => {
                    let want = if last { "an array" } else { "an object" };
                    return Err(located(
                        self.body,
                        value.start(),
                        format!(
                            "`{}` should be {want} but is {}",
                            layout.path[..=depth].join("."),
                            kind(value)
                        ),
                    ));
                }
            }
        }
        unreachable!("a layout path is never empty")
    }

    fn style(&self, root: &Object) -> Style {
        let body = self.body;
        let unit = body
            .lines()
            .skip(1)
            .filter(|line| !line.trim().is_empty())
            .map(|line| &line[..line.len() - line.trim_start_matches([' ', '\t']).len()])
            .find(|indent| !indent.is_empty())
            .map(|indent| match indent.starts_with('\t') {
                true => "\t".to_string(),
                false => " ".repeat(indent.len().min(8)),
            })
            .unwrap_or_else(|| "  ".into());
        Style {
            nl: if body.contains("\r\n") { "\r\n" } else { "\n" },
            unit,
            multiline: root.properties.is_empty()
                || body[root.range.start..root.range.end].contains('\n'),
            spaced: body.contains(": ") || !body.contains(':'),
        }
    }

    /// The insertion that appends an item, rendered by `item(indent)`, to a container whose
    /// current items span `items`: after the last item with the separator the items already
    /// use, or on a line of its own in an empty container.
    fn append(
        &self,
        container: Range,
        items: &[Range],
        style: &Style,
        item: impl Fn(&str) -> String,
    ) -> (Range, String) {
        let body = self.body;
        match items.last() {
            Some(last) => {
                let before = &body[..last.start];
                let gap = &before[before.trim_end_matches([' ', '\t', '\r', '\n']).len()..];
                let text = match gap.rfind('\n') {
                    Some(at) => {
                        let indent = &gap[at + 1..];
                        format!(",{}{indent}{}", style.nl, item(indent))
                    }
                    // On one line: the separator the last two items use, else the file's.
                    None => {
                        let sep = match items.len() {
                            1 if style.spaced => ", ",
                            1 => ",",
                            n => &body[items[n - 2].end..items[n - 1].start],
                        };
                        format!("{sep}{}", item(""))
                    }
                };
                (Range::new(last.end, last.end), text)
            }
            None => {
                let open = container.start + 1;
                let close = container.end - 1;
                let inner = &body[open..close];
                // Replace bare whitespace; keep a comment that sits alone in the container.
                let bare = inner.trim().is_empty();
                let at = match bare {
                    true => Range::new(open, close),
                    false => Range::new(open, open),
                };
                if !style.multiline {
                    return (at, item(""));
                }
                let line_start = body[..container.start].rfind('\n').map_or(0, |i| i + 1);
                let line = &body[line_start..container.start];
                let outer = &line[..line.len() - line.trim_start_matches([' ', '\t']).len()];
                let indent = format!("{outer}{}", style.unit);
                let tail = match bare {
                    true => format!("{}{outer}", style.nl),
                    false => String::new(),
                };
                (at, format!("{}{indent}{}{tail}", style.nl, item(&indent)))
            }
        }
    }

    /// The edits that put each group holding only our handlers under the layout's matcher: the
    /// matcher's value replaced, or the member added to a group without one (which matches
    /// every tool). A group that holds other handlers too keeps its matcher: it decides when
    /// those run as well.
    /// Our handlers' twins set to follow `command`: replaced where they say something else,
    /// added where a handler written before it had none.
    fn twins(
        &self,
        found: &[Found],
        layout: &Layout,
        command: &str,
        style: &Style,
    ) -> Vec<(Range, String)> {
        let Some(twin) = layout.twin else {
            return Vec::new();
        };
        let want = (twin.value)(command);
        found
            .iter()
            .filter_map(|f| match (&f.twin, f.object) {
                (Some((_, value)), _) if *value == want => None,
                (Some((literal, _)), _) => Some((*literal, quote(&want))),
                (None, Some(object)) => {
                    let items: Vec<Range> = object.properties.iter().map(|p| p.range()).collect();
                    Some(self.append(object.range, &items, style, |_| {
                        format!("{}{}", member_key(twin.key, style), quote(&want))
                    }))
                }
                (None, None) => None,
            })
            .collect()
    }

    fn rematch(&self, found: &[Found], layout: &Layout, style: &Style) -> Vec<(Range, String)> {
        let Some(matcher) = layout.group.filter(|m| !m.is_empty()) else {
            return Vec::new();
        };
        let mut edits = Vec::new();
        for (i, f) in found.iter().enumerate() {
            let Some((group, handlers, _)) = f.handler else {
                continue;
            };
            let here = found.iter().filter(|g| g.element == f.element).count();
            let first_here = found.iter().position(|g| g.element == f.element) == Some(i);
            if !first_here || here < handlers.elements.len() {
                continue;
            }
            match group.get("matcher") {
                Some(p) if p.value.as_string_lit().is_some_and(|s| s.value == matcher) => {}
                Some(p) => edits.push((p.value.range(), quote(matcher))),
                None => {
                    let items: Vec<Range> = group.properties.iter().map(|p| p.range()).collect();
                    edits.push(self.append(group.range, &items, style, |_| {
                        format!("{}{}", member_key("matcher", style), quote(matcher))
                    }));
                }
            }
        }
        edits
    }

    /// The text with each range replaced; the ranges must not overlap.
    fn apply(&self, mut edits: Vec<(Range, String)>) -> String {
        edits.sort_by_key(|(range, _)| std::cmp::Reverse(range.start));
        let mut out = self.body.to_string();
        for (range, text) in edits {
            out.replace_range(range.start..range.end, &text);
        }
        format!("{}{out}", self.bom)
    }
}

/// The ranges to cut so that the items marked in `remove` leave their container along with the
/// separators that belonged to them: a run of items after the first kept one goes with the
/// comma before it, a leading run with the separator after it, and all of them with everything
/// between the brackets.
fn removal(container: Range, items: &[Range], remove: &[bool]) -> Vec<Range> {
    if remove.iter().all(|r| *r) {
        return vec![Range::new(container.start + 1, container.end - 1)];
    }
    let mut cuts = Vec::new();
    let mut i = 0;
    while i < items.len() {
        if !remove[i] {
            i += 1;
            continue;
        }
        let first = i;
        while i + 1 < items.len() && remove[i + 1] {
            i += 1;
        }
        let last = i;
        cuts.push(match first {
            0 => Range::new(items[0].start, items[last + 1].start),
            _ => Range::new(items[first - 1].end, items[last].end),
        });
        i += 1;
    }
    cuts
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::StringLit(_) => "a string",
        Value::NumberLit(_) => "a number",
        Value::BooleanLit(_) => "a boolean",
        Value::Object(_) => "an object",
        Value::Array(_) => "an array",
        Value::NullKeyword(_) => "null",
    }
}

/// Line and column (both from 1) of byte `offset` in `body`.
fn located(body: &str, offset: usize, message: String) -> Located {
    let before = &body[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before[before.rfind('\n').map_or(0, |i| i + 1)..]
        .chars()
        .count()
        + 1;
    Located {
        line,
        column,
        message,
    }
}

/// How the file writes JSON, so that what we add looks like what is there.
struct Style {
    nl: &'static str,
    unit: String,
    /// One item a line, indented; otherwise everything on one line.
    multiline: bool,
    /// `"key": value, next` rather than `"key":value,next`.
    spaced: bool,
}

fn quote(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

fn member_key(key: &str, style: &Style) -> String {
    format!("{}:{}", quote(key), if style.spaced { " " } else { "" })
}

/// `value` as JSON in `style`; `indent` is the indentation of the line it starts on.
fn render(value: &J, style: &Style, indent: &str) -> String {
    let (open, close, items): (&str, &str, Vec<String>) = match value {
        J::Str(s) => return quote(s),
        J::Int(n) => return n.to_string(),
        J::Bool(b) => return b.to_string(),
        J::Arr(items) if items.is_empty() => return "[]".into(),
        J::Obj(members) if members.is_empty() => return "{}".into(),
        J::Arr(items) => {
            let inner = format!("{indent}{}", style.unit);
            (
                "[",
                "]",
                items.iter().map(|v| render(v, style, &inner)).collect(),
            )
        }
        J::Obj(members) => {
            let inner = format!("{indent}{}", style.unit);
            let items = members
                .iter()
                .map(|(k, v)| format!("{}{}", member_key(k, style), render(v, style, &inner)))
                .collect();
            ("{", "}", items)
        }
    };
    if style.multiline {
        let inner = format!("{}{indent}{}", style.nl, style.unit);
        format!(
            "{open}{inner}{}{}{indent}{close}",
            items.join(&format!(",{inner}")),
            style.nl
        )
    } else {
        let sep = if style.spaced { ", " } else { "," };
        format!("{open}{}{close}", items.join(sep))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claude() -> Layout {
        Layout {
            preamble: Vec::new(),
            path: vec!["hooks", "PreToolUse"],
            group: Some("Bash"),
            command_key: &["command"],
            handler: |c| J::Obj(vec![("type", J::str("command")), ("command", J::str(c))]),
            twin: None,
        }
    }

    fn ours(c: &str) -> bool {
        c.contains("agent-guard")
    }

    fn round_trip(original: &str) -> String {
        let (installed, _) =
            install(Some(original), &claude(), "/bin/agent-guard hook", &ours).unwrap();
        let again = install(Some(&installed), &claude(), "/bin/agent-guard hook", &ours).unwrap();
        assert_eq!(again, (installed.clone(), Outcome::AlreadyThere));
        match uninstall(&installed, &claude(), &ours).unwrap() {
            Removal::Text(text) => assert_eq!(text, original, "after install:\n{installed}"),
            other => panic!("{other:?} after install:\n{installed}"),
        }
        installed
    }

    #[test]
    fn uninstall_gives_back_every_shape_it_was_given() {
        let cases = [
            "{\"model\": \"x\"}",
            "{\n  \"model\": \"x\"\n}\n",
            "{\n\t\"hooks\": {\n\t\t\"Stop\": []\n\t}\n}\n",
            "{\r\n    \"hooks\": {\r\n        \"PreToolUse\": [\r\n            {\"matcher\": \"Write\", \"hooks\": []}\r\n        ]\r\n    }\r\n}\r\n",
            "// mine\n{\n  \"a\": [1, 2], // trailing\n  \"b\": {}\n}\n",
            "{\"hooks\":{\"PreToolUse\":[{\"matcher\":\"Edit\",\"hooks\":[]}]}}",
        ];
        for case in cases {
            round_trip(case);
        }
    }

    #[test]
    fn a_file_install_could_have_written_is_deleted() {
        let (installed, _) =
            install(Some("{}\n"), &claude(), "/bin/agent-guard hook", &ours).unwrap();
        let (created, _) = install(None, &claude(), "/bin/agent-guard hook", &ours).unwrap();
        assert_eq!(installed, created);
        assert_eq!(
            uninstall(&created, &claude(), &ours).unwrap(),
            Removal::DeleteFile
        );
    }

    #[test]
    fn entries_take_the_files_indentation() {
        let installed = round_trip("{\n    \"model\": \"x\"\n}\n");
        assert!(
            installed.contains("\n    \"hooks\": {\n        \"PreToolUse\": [\n"),
            "{installed}"
        );
        let installed = round_trip("{\"a\":1}");
        assert!(
            installed.contains("\"hooks\":{\"PreToolUse\":[{\"matcher\":\"Bash\""),
            "{installed}"
        );
    }

    #[test]
    fn a_group_shared_with_other_handlers_keeps_them() {
        let text = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
  {"type": "command", "command": "lint"},
  {"type": "command", "command": "/bin/agent-guard hook"}
]}]}}"#;
        let Removal::Text(out) = uninstall(text, &claude(), &ours).unwrap() else {
            panic!()
        };
        assert_eq!(
            out,
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
  {"type": "command", "command": "lint"}
]}]}}"#
        );
    }

    #[test]
    fn a_moved_binary_is_updated_in_place() {
        let text = "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"/old/agent-guard hook\", \"timeout\": 9}]}]}}";
        let (out, outcome) =
            install(Some(text), &claude(), "/new/agent-guard hook", &ours).unwrap();
        assert_eq!(outcome, Outcome::Updated);
        assert_eq!(out, text.replace("/old/", "/new/"));
    }

    fn wide() -> Layout {
        Layout {
            group: Some("Bash|Write"),
            ..claude()
        }
    }

    #[test]
    fn the_matcher_of_our_own_group_follows_the_layout() {
        let shell = "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"/bin/agent-guard hook\"}]}]}}";
        let widened = shell.replace("\"Bash\"", "\"Bash|Write\"");
        let hook = "/bin/agent-guard hook";
        assert_eq!(
            install(Some(shell), &wide(), hook, &ours).unwrap(),
            (widened.clone(), Outcome::Rematched)
        );
        assert_eq!(
            install(Some(&widened), &claude(), hook, &ours).unwrap(),
            (shell.to_string(), Outcome::Rematched)
        );
        // Without a matcher the group takes every tool; it gets the one asked for.
        let bare = "{\"hooks\": {\"PreToolUse\": [{\"hooks\": [{\"command\": \"/bin/agent-guard hook\"}]}]}}";
        let (out, outcome) = install(Some(bare), &claude(), hook, &ours).unwrap();
        assert_eq!(outcome, Outcome::Rematched);
        assert_eq!(out, bare.replace("}]}]", "}], \"matcher\": \"Bash\"}]"));
    }

    #[test]
    fn a_group_shared_with_other_handlers_keeps_its_matcher() {
        let text = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
  {"type": "command", "command": "lint"},
  {"type": "command", "command": "/bin/agent-guard hook"}
]}]}}"#;
        assert_eq!(
            install(Some(text), &wide(), "/bin/agent-guard hook", &ours).unwrap(),
            (text.to_string(), Outcome::AlreadyThere)
        );
    }

    #[test]
    fn a_file_install_wrote_under_either_matcher_is_deleted() {
        let (created, _) = install(None, &wide(), "/bin/agent-guard hook", &ours).unwrap();
        assert!(created.contains("\"Bash|Write\""), "{created}");
        assert_eq!(
            uninstall(&created, &claude(), &ours).unwrap(),
            Removal::DeleteFile
        );
    }

    #[test]
    fn errors_name_the_line() {
        let err = install(Some("{\n  \"a\": 1,\n}\n"), &claude(), "x", &ours).unwrap_err();
        assert_eq!((err.line, err.column), (2, 9), "{}", err.message);
        let err = install(Some("{\n  \"hooks\": []\n}"), &claude(), "x", &ours).unwrap_err();
        assert_eq!(err.line, 2);
        assert!(
            err.message
                .contains("`hooks` should be an object but is an array"),
            "{}",
            err.message
        );
    }

    fn with_twin() -> Layout {
        Layout {
            preamble: vec![("version", J::Int(1))],
            path: vec!["hooks", "preToolUse"],
            group: None,
            command_key: &["bash"],
            handler: |c| {
                J::Obj(vec![
                    ("bash", J::str(c)),
                    ("powershell", J::Str(format!("& {c}").into())),
                ])
            },
            twin: Some(Twin {
                key: "powershell",
                value: |c| format!("& {c}"),
            }),
        }
    }

    #[test]
    fn a_twin_follows_the_command_and_is_added_where_it_was_missing() {
        let old = "{\n  \"version\": 1,\n  \"hooks\": {\n    \"preToolUse\": [\n      { \"bash\": \"/bin/agent-guard hook\" }\n    ]\n  }\n}\n";
        let (added, outcome) =
            install(Some(old), &with_twin(), "/bin/agent-guard hook", &ours).unwrap();
        assert_eq!(outcome, Outcome::Rematched);
        assert!(
            added.contains(
                r#"{ "bash": "/bin/agent-guard hook", "powershell": "& /bin/agent-guard hook" }"#
            ),
            "{added}"
        );
        let again = install(Some(&added), &with_twin(), "/bin/agent-guard hook", &ours).unwrap();
        assert_eq!(again, (added.clone(), Outcome::AlreadyThere));
        let (moved, outcome) =
            install(Some(&added), &with_twin(), "/opt/agent-guard hook", &ours).unwrap();
        assert_eq!(outcome, Outcome::Updated);
        assert_eq!(moved, added.replace("/bin/", "/opt/"));
        let (created, _) = install(None, &with_twin(), "/bin/agent-guard hook", &ours).unwrap();
        assert_eq!(
            uninstall(&created, &with_twin(), &ours).unwrap(),
            Removal::DeleteFile
        );
    }
}
