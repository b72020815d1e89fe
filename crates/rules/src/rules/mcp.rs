//! MCP servers' own destructive tools: a tool that deletes, drops, resets or destroys what
//! the server holds, known by its published name. The SQL a database tool runs and the line
//! a terminal tool runs are read as the commands they are (`tools::McpUse::reading`); this
//! rule is for the tools whose name alone says what they destroy.
//!
//! The tool names and input fields below are the servers' published tool lists, read from
//! their source at the version named (a package version, or a repository's commit):
//!
//! | server | source read | destructive tools |
//! |---|---|---|
//! | Supabase | npm `@supabase/mcp-server-supabase` 0.13.0 | `delete_branch`, `reset_branch`, `pause_project` |
//! | Neon | npm `@neondatabase/mcp-server-neon` 0.3.7 | `delete_project`, `delete_branch` |
//! | MongoDB | npm `mongodb-mcp-server` 3.0.4 (its README's tool list) | `drop-database`, `drop-collection`, `delete-many` |
//! | Redis (reference) | npm `@modelcontextprotocol/server-redis` 2025.4.25 | `delete` |
//! | Kubernetes | npm `mcp-server-kubernetes` 4.1.7 | `kubectl_delete`, `uninstall_helm_chart` |
//! | Cloudflare | `cloudflare/mcp-server-cloudflare`, `packages/mcp-common` at 5f21c03 (D1), 4462c88 (KV), 3a073d7 (Hyperdrive); npm `@cloudflare/mcp-server-cloudflare` 0.2.0 | `d1_database_delete`, `kv_namespace_delete`, `hyperdrive_config_delete`; 0.2.0: `d1_delete_database`, `r2_delete_bucket` |
//! | GitLab | npm `@zereight/mcp-gitlab` 2.1.64 | `delete_branch`, `delete_tag`, `delete_release`, `delete_issue`, `delete_wiki_page`, `delete_pipeline`, `delete_environment`, `erase_pipeline_job` |
//! | Vercel | `zueai/vercel-api-mcp` at 50be560 | `deleteVercelDeployment`, `deleteVercelDNSRecord` |
//! | GitHub (reference) | npm `@modelcontextprotocol/server-github` 2025.4.8 | none (it has no delete tool) |
//!
//! Kept from the first list without a source read here: Neon's `reset_from_parent` (its
//! hosted server), Prisma's `migrate-reset` (`prisma mcp`), Cloudflare's `r2_bucket_delete`,
//! `github-mcp-server`'s `delete_file`, Docker's `remove_container` and `remove_volume`
//! (`mcp-server-docker`) and AWS DynamoDB's `delete_table` (`awslabs.dynamodb-mcp-server`).
//!
//! Their read tools (`list_*`, `get_*`, `describe_*`, `query` with a `SELECT`) pass, and so
//! does every tool of a server not listed here unless its input carries SQL or a shell line.

use super::{Finding, Hit, Rule, Tier};
use crate::settings::Settings;
use crate::shell::{SimpleCommand, Word};
use crate::tools::McpUse;

pub static DESTRUCTIVE_TOOL: Rule = Rule {
    id: "mcp.destructive-tool",
    catches: "an MCP server's own delete, drop, reset, destroy or purge tool, known by its \
              published name: Supabase's `reset_branch`, Neon's `delete_project`, a Kubernetes \
              server's `kubectl_delete`, Cloudflare's `d1_database_delete`, MongoDB's \
              `drop-database`, ...",
    why: "What such a tool removes lives on the server (a database, a branch, a bucket, a \
          cluster's workload), out of reach of git and of the host's own checkpoints: when it \
          is gone, only a backup the service kept can bring it back.",
    instead: "Use the server's read tools to look, and ask the user to run the delete \
              themselves.",
    protected_when: None,
    strict_only: false,
    stops: &[],
    passes: &[],
};

/// One destructive tool: its name, the words of a server name that must come with it (none
/// when the tool's name is the server's alone), the input fields that name its target, and
/// what calling it loses.
struct Destructive {
    tool: &'static str,
    servers: &'static [&'static str],
    target: &'static [&'static str],
    loses: &'static str,
}

const SUPABASE: &[&str] = &["supabase"];
const NEON: &[&str] = &["neon"];
const MONGO: &[&str] = &["mongo"];
const GITLAB: &[&str] = &["gitlab"];

static CATALOG: &[Destructive] = &[
    Destructive {
        tool: "delete_branch",
        servers: SUPABASE,
        target: &["branch_id"],
        loses: "deletes the development branch and its database",
    },
    Destructive {
        tool: "reset_branch",
        servers: SUPABASE,
        target: &["branch_id"],
        loses: "resets the branch's database, losing every row written since",
    },
    Destructive {
        tool: "pause_project",
        servers: SUPABASE,
        target: &["project_id"],
        loses: "takes the project's database and APIs offline",
    },
    Destructive {
        tool: "delete_project",
        servers: NEON,
        target: &["projectId"],
        loses: "deletes the project with every branch and database in it",
    },
    Destructive {
        tool: "delete_branch",
        servers: NEON,
        target: &["branchId"],
        loses: "deletes the branch and its data",
    },
    Destructive {
        tool: "reset_from_parent",
        servers: &[],
        target: &["branchIdOrName", "branchId"],
        loses: "resets the branch to its parent, losing every change made on it",
    },
    Destructive {
        tool: "migrate-reset",
        servers: &[],
        target: &["projectCWD"],
        loses: "drops the database and every row in it, then reapplies the migrations",
    },
    Destructive {
        tool: "drop-database",
        servers: MONGO,
        target: &["database"],
        loses: "drops the database with every collection in it",
    },
    Destructive {
        tool: "drop-collection",
        servers: MONGO,
        target: &["collection"],
        loses: "drops the collection and every document in it",
    },
    Destructive {
        tool: "delete-many",
        servers: MONGO,
        target: &["collection"],
        loses: "deletes every document its filter matches",
    },
    Destructive {
        tool: "delete",
        servers: &["redis", "valkey"],
        target: &["key"],
        loses: "deletes the key and its value",
    },
    Destructive {
        tool: "kubectl_delete",
        servers: &[],
        target: &["name", "resourceType"],
        loses: "deletes the cluster resource (a workload, its volumes' claims, a namespace)",
    },
    Destructive {
        tool: "uninstall_helm_chart",
        servers: &[],
        target: &["name"],
        loses: "uninstalls the release and deletes every resource it made",
    },
    Destructive {
        tool: "remove_container",
        servers: &["docker", "podman", "container"],
        target: &["container_id"],
        loses: "removes the container and what it wrote outside its volumes",
    },
    Destructive {
        tool: "remove_volume",
        servers: &["docker", "podman", "container"],
        target: &["volume_name"],
        loses: "removes the volume and every file in it",
    },
    Destructive {
        tool: "d1_database_delete",
        servers: &[],
        target: &["database_id"],
        loses: "deletes the D1 database and every table in it",
    },
    Destructive {
        tool: "kv_namespace_delete",
        servers: &[],
        target: &["namespace_id"],
        loses: "deletes the KV namespace and every key in it",
    },
    Destructive {
        tool: "r2_bucket_delete",
        servers: &[],
        target: &["name"],
        loses: "deletes the R2 bucket",
    },
    Destructive {
        tool: "hyperdrive_config_delete",
        servers: &[],
        target: &["hyperdrive_id"],
        loses: "deletes the Hyperdrive configuration every Worker using it connects through",
    },
    Destructive {
        tool: "d1_delete_database",
        servers: &[],
        target: &["databaseId"],
        loses: "deletes the D1 database and every table in it",
    },
    Destructive {
        tool: "r2_delete_bucket",
        servers: &[],
        target: &["name"],
        loses: "deletes the R2 bucket",
    },
    Destructive {
        tool: "delete_branch",
        servers: GITLAB,
        target: &["branch_name"],
        loses: "deletes the branch on GitLab, with the commits no other ref holds",
    },
    Destructive {
        tool: "delete_tag",
        servers: GITLAB,
        target: &["tag_name"],
        loses: "deletes the tag on GitLab",
    },
    Destructive {
        tool: "delete_release",
        servers: GITLAB,
        target: &["tag_name"],
        loses: "deletes the release, its notes and its links",
    },
    Destructive {
        tool: "delete_issue",
        servers: GITLAB,
        target: &["issue_iid"],
        loses: "deletes the issue with its comments and history",
    },
    Destructive {
        tool: "delete_wiki_page",
        servers: GITLAB,
        target: &["slug"],
        loses: "deletes the wiki page",
    },
    Destructive {
        tool: "delete_pipeline",
        servers: GITLAB,
        target: &["pipeline_id"],
        loses: "deletes the pipeline with its jobs' logs and artifacts",
    },
    Destructive {
        tool: "delete_environment",
        servers: GITLAB,
        target: &["environment_id"],
        loses: "deletes the environment and its deployment history",
    },
    Destructive {
        tool: "erase_pipeline_job",
        servers: GITLAB,
        target: &["job_id"],
        loses: "erases the job's log and artifacts",
    },
    Destructive {
        tool: "deleteVercelDeployment",
        servers: &[],
        target: &["deploymentId"],
        loses: "deletes the deployment; a URL or alias that points at it stops answering",
    },
    Destructive {
        tool: "deleteVercelDNSRecord",
        servers: &[],
        target: &["recordId", "domain"],
        loses: "deletes the DNS record; whatever the name served goes dark",
    },
    Destructive {
        tool: "delete_file",
        servers: &["github"],
        target: &["path"],
        loses: "deletes the file from the branch on GitHub",
    },
    Destructive {
        tool: "delete_table",
        servers: &["dynamo", "aws"],
        target: &["table_name", "TableName"],
        loses: "deletes the table and every item in it",
    },
];

/// Every known destructive tool: its name, the server words it comes with (empty when its
/// name is its server's alone) and what it loses; `agent-guard explain` lists them.
pub fn catalog() -> impl Iterator<Item = (&'static str, &'static [&'static str], &'static str)> {
    CATALOG.iter().map(|d| (d.tool, d.servers, d.loses))
}

/// The finding for a call of a known destructive tool; `None` for any other tool.
pub fn finding(call: &McpUse, settings: &Settings) -> Option<Finding> {
    let server = call.server.to_ascii_lowercase();
    let entry = CATALOG.iter().find(|d| {
        d.tool == call.tool
            && (d.servers.is_empty() || d.servers.iter().any(|s| server.contains(s)))
    })?;
    let target = call.field(entry.target);
    let named = format!("{}/{}", call.server, call.tool);
    let hit = Hit::new(&DESTRUCTIVE_TOOL, Tier::Destructive, entry.loses).safer(format!(
        "ask the user to run `{}` themselves; list or describe it first",
        call.tool
    ));
    let mut argv = vec![Word::literal(&named)];
    argv.extend(target.map(Word::literal));
    let stand_in = SimpleCommand::of_words(argv);
    Some(super::finding(hit, &stand_in, settings))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn call(server: &str, tool: &str, input: serde_json::Value) -> McpUse {
        McpUse {
            server: server.into(),
            tool: tool.into(),
            input: input.as_object().cloned().unwrap_or_default(),
        }
    }

    #[test]
    fn a_known_delete_names_server_tool_and_target() {
        let found = finding(
            &call("supabase", "reset_branch", json!({"branch_id": "br-1"})),
            &Settings::default(),
        );
        let command = found.map(|f| f.command).unwrap_or_default();
        assert_eq!(command, "supabase/reset_branch br-1");
    }

    #[test]
    fn a_generic_name_needs_its_server() {
        let settings = Settings::default();
        assert!(finding(&call("notes", "delete_branch", json!({})), &settings).is_none());
        assert!(finding(&call("neon", "delete_branch", json!({})), &settings).is_some());
        assert!(finding(&call("supabase", "list_tables", json!({})), &settings).is_none());
    }
}
