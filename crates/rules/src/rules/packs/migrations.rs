//! Pack `migrations`: the database commands of application frameworks and migration tools
//! that drop, reset, wipe or roll back a whole database. Package runners (`npx`, `bundle
//! exec`, `poetry run`, ...) are peeled by the shell module, so `npx prisma migrate reset`
//! arrives here as `prisma migrate reset`; `dotnet ef`, `dotnet tool run dotnet-ef` and
//! `cargo sqlx` are read here.

use super::Pack;
use super::args::{dry_run, has, operands, value};
use crate::rules::{Hit, Rule, Tier};
use crate::shell::{SimpleCommand, Word};

pub static RESET: Rule = Rule {
    id: "migrations.reset",
    catches: "`prisma migrate reset`, `prisma db push --force-reset`, `rails`/`rake` \
              `db:drop`, `db:reset`, `db:purge`, `db:schema:load`, `db:migrate:reset`, \
              `db:seed:replant`, `db:truncate_all`, \
              Django `manage.py flush`/`reset_db`, `php artisan migrate:fresh`/`migrate:reset`/\
              `migrate:refresh`/`db:wipe`, `supabase db reset`, `sequelize db:drop`, `sqlx \
              database drop`/`reset`, `dotnet ef database drop`, `mix ecto.drop`/`ecto.reset`, \
              `typeorm schema:drop`, `mikro-orm schema:drop --run`/`schema:fresh`/\
              `migration:fresh`, `flyway clean`, `liquibase drop-all`, `diesel database reset`, \
              `dbmate drop`, `sea-orm-cli migrate fresh`",
    why: "These drop the database (or every table in it) and rebuild it from the migrations or \
          the schema, empty or with seed data: every row the application wrote is gone. \
          Pointed at a shared or production database by its environment, they take that data \
          too.",
    instead: "Dump the database first (`pg_dump`, `mysqldump`); to apply new migrations, run \
              the forward migration (`prisma migrate deploy`, `rails db:migrate`, `manage.py \
              migrate`, `artisan migrate`, `supabase migration up`, `sqlx migrate run`, \
              `dotnet ef database update`, `mix ecto.migrate`, `flyway migrate`).",
    protected_when: Some(
        "the command or its environment names production (`RAILS_ENV=production`, a database URL host)",
    ),
    strict_only: false,
    stops: &[
        "npx prisma migrate reset --force",
        "prisma db push --force-reset",
        "bin/rails db:reset",
        "bundle exec rake db:drop db:create",
        "python manage.py flush --noinput",
        "php artisan migrate:fresh --seed",
        "supabase db reset",
        "npx sequelize-cli db:drop",
        "sqlx database drop -y",
        "cargo sqlx database reset -y",
        "dotnet ef database drop --force",
        "mix ecto.drop",
        "MIX_ENV=test mix do ecto.drop, ecto.create",
        "flyway -url=jdbc:postgresql://localhost/app clean",
    ],
    passes: &[
        "npx prisma migrate deploy",
        "prisma migrate dev --create-only",
        "rails db:migrate",
        "rake -T db:drop",
        "python manage.py migrate",
        "php artisan migrate",
        "php artisan migrate:reset --pretend",
        "supabase db diff",
        "echo 'run rails db:reset to start over'",
        "sqlx database create",
        "sqlx migrate run",
        "dotnet ef database update",
        "dotnet ef database drop --dry-run",
        "dotnet ef migrations remove",
        "mix ecto.migrate",
        "mix help ecto.drop",
        "flyway info",
    ],
};

pub static DATA_LOSS: Rule = Rule {
    id: "migrations.data-loss",
    catches: "`prisma db push --accept-data-loss`, `alembic downgrade base`, `sequelize \
              db:migrate:undo:all`, `sqlx migrate revert --target-version 0`, `dotnet ef \
              database update 0`, `mix ecto.rollback --all`, `knex migrate:rollback --all`, \
              `drizzle-kit push --force`, `diesel migration revert --all`, `goose reset`/\
              `down-to 0`, `sea-orm-cli migrate reset`/`refresh`",
    why: "These apply schema changes that drop columns or tables (a push that accepts data \
          loss, a rollback of every migration): the data in them is deleted with them.",
    instead: "Dump the database first; write a migration that keeps the data, and roll back \
              one step at a time (`alembic downgrade -1`) after checking what it drops.",
    protected_when: Some("when the command or its environment names production"),
    strict_only: false,
    stops: &[
        "npx prisma db push --accept-data-loss",
        "alembic downgrade base",
        "poetry run alembic -c alembic.ini downgrade base",
        "npx sequelize-cli db:migrate:undo:all",
        "dotnet ef database update 0",
        "mix ecto.rollback --all",
        "sqlx migrate revert --target-version 0",
        "npx drizzle-kit push --force",
    ],
    passes: &[
        "prisma db push",
        "alembic downgrade -1",
        "alembic downgrade base --sql",
        "alembic upgrade head",
        "npx sequelize-cli db:migrate",
        "mix ecto.rollback",
        "mix ecto.rollback --step 2",
        "sqlx migrate revert",
        "npx drizzle-kit push",
    ],
};

pub static PACK: Pack = Pack {
    id: "migrations",
    summary: "framework and migration-tool commands that drop, reset or wipe a database \
              (Prisma, Rails, Django, Laravel, Supabase, Sequelize, Alembic, SQLx, EF Core, \
              Ecto, TypeORM, MikroORM, Drizzle, Knex, Flyway, Liquibase, Diesel, dbmate, goose, \
              SeaORM)",
    default_on: true,
    programs: &[
        "prisma",
        "rails",
        "rake",
        "python",
        "python3",
        "manage.py",
        "django-admin",
        "php",
        "artisan",
        "supabase",
        "sequelize",
        "sequelize-cli",
        "alembic",
        "sqlx",
        "cargo",
        "dotnet",
        "dotnet-ef",
        "mix",
        "typeorm",
        "typeorm-ts-node-commonjs",
        "typeorm-ts-node-esm",
        "mikro-orm",
        "drizzle-kit",
        "knex",
        "flyway",
        "liquibase",
        "diesel",
        "dbmate",
        "goose",
        "sea-orm-cli",
    ],
    rules: &[&RESET, &DATA_LOSS],
    check,
};

const RAILS_RESETS: &[&str] = &[
    "db:drop",
    "db:drop:all",
    "db:drop:_unsafe",
    "db:reset",
    "db:purge",
    "db:purge:all",
    "db:schema:load",
    "db:structure:load",
    "db:migrate:reset",
    "db:seed:replant",
    "db:truncate_all",
];

/// sequelize-cli's options that take a value.
const SEQUELIZE_VALUED: &[&str] = &[
    "--env",
    "--config",
    "--options-path",
    "--migrations-path",
    "--seeders-path",
    "--models-path",
    "--url",
    "--name",
    "--seed",
    "--to",
    "--from",
    "--attributes",
];

fn check(cmd: &SimpleCommand) -> Vec<Hit> {
    let Some(program) = cmd.program() else {
        return Vec::new();
    };
    let args = cmd.args();
    // `cargo` and `dotnet` run far more than migrations: only `cargo sqlx` and `dotnet ef`
    // (or `dotnet tool run`) go further.
    let first = args.first().map(|w| w.text.as_str());
    let other = match program {
        "cargo" => first != Some("sqlx"),
        "dotnet" => !matches!(first, Some("ef" | "tool")),
        _ => false,
    };
    if other || has(args, &["--help", "-h"]) {
        return Vec::new();
    }
    let words: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
    let hit = match program {
        "prisma" => prisma(args),
        "rails" | "rake" => rails(args),
        "python" | "python3" => {
            let script = match words.as_slice() {
                ["-m", "django", rest @ ..] => Some(rest),
                [file, rest @ ..] if file.ends_with("manage.py") => Some(rest),
                _ => None,
            };
            script.and_then(|rest| django(rest.first().copied()))
        }
        "manage.py" | "django-admin" => django(words.first().copied()),
        "php" => match words.as_slice() {
            [file, rest @ ..] if file.ends_with("artisan") => artisan(rest, args),
            _ => None,
        },
        "artisan" => artisan(&words, args),
        "supabase" => {
            let ops = operands(args, &["--workdir", "--db-url", "--version"]);
            let sub = ops.get(..2).unwrap_or(&ops);
            (sub == ["db", "reset"]).then(|| {
                let remote = has(args, &["--linked", "--db-url"]);
                reset(
                    if remote {
                        "the linked or named remote database"
                    } else {
                        "the local database"
                    },
                    "`supabase db dump -f backup.sql` first; `supabase migration up` applies new migrations without a reset",
                )
            })
        }
        "sequelize" | "sequelize-cli" => match operands(args, SEQUELIZE_VALUED).first() {
            Some(&"db:drop") => Some(reset(
                "the configured database",
                "dump the database first; `sequelize db:migrate` applies new migrations",
            )),
            Some(&"db:migrate:undo:all") => Some(data_loss(
                "rolls back every migration, dropping the tables and columns they created",
                "roll back one step with `sequelize db:migrate:undo` after checking it",
            )),
            _ => None,
        },
        "sqlx" => sqlx(args),
        "cargo" => match args.split_first() {
            Some((sub, rest)) if sub.text == "sqlx" => sqlx(rest),
            _ => None,
        },
        "dotnet" => match words.as_slice() {
            ["ef", ..] => entity_framework(args.get(1..).unwrap_or_default()),
            ["tool", "run", "dotnet-ef", ..] => entity_framework(args.get(3..).unwrap_or_default()),
            _ => None,
        },
        "dotnet-ef" => entity_framework(args),
        "mix" => ecto(&words),
        _ => other_tool(program, args),
    };
    hit.into_iter().collect()
}

/// Migration tools read by their subcommand alone.
fn other_tool(program: &str, args: &[Word]) -> Option<Hit> {
    // The options of each tool that take a value as a word of their own.
    let valued: &[&str] = match program {
        "typeorm" | "typeorm-ts-node-commonjs" | "typeorm-ts-node-esm" => {
            &["-d", "--dataSource", "-c", "--connection", "-f", "--config"]
        }
        "mikro-orm" => &["--config", "--schema", "--seed"],
        "drizzle-kit" => &["--config", "--dialect", "--schema", "--url"],
        "knex" => &[
            "--knexfile",
            "--cwd",
            "--env",
            "--client",
            "--connection",
            "--migrations-directory",
            "--migrations-table-name",
        ],
        "diesel" => &["--database-url", "--config-file", "--migration-dir"],
        "dbmate" => &[
            "-u",
            "--url",
            "-e",
            "--env",
            "-d",
            "--migrations-dir",
            "-s",
            "--schema-file",
            "--env-file",
            "--migrations-table",
            "--wait-timeout",
        ],
        "goose" => &[
            "-dir",
            "--dir",
            "-table",
            "--table",
            "-certfile",
            "-ssl-cert",
            "-ssl-key",
        ],
        "sea-orm-cli" => &[
            "-d",
            "--migration-dir",
            "-u",
            "--database-url",
            "-s",
            "--database-schema",
        ],
        // Flyway and Liquibase spell every value `-key=value`.
        _ => &[],
    };
    let ops = operands(args, valued);
    match program {
        "alembic" => {
            let ops = operands(args, &["-c", "--config", "-n", "--name", "-x"]);
            let sub = ops.get(..2).unwrap_or(&ops);
            (sub == ["downgrade", "base"] && !has(args, &["--sql"])).then(|| {
                data_loss(
                    "rolls back every migration, dropping the tables and columns they created",
                    "`alembic downgrade base --sql` prints what it would run; roll back one step \
                     with `alembic downgrade -1`",
                )
            })
        }
        "typeorm" | "typeorm-ts-node-commonjs" | "typeorm-ts-node-esm" => {
            (ops.first() == Some(&"schema:drop")).then(|| {
                reset(
                    "every table of the data source's database",
                    "`typeorm migration:revert` undoes one migration; dump the database first",
                )
            })
        }
        // Without `--run` the schema commands only print their SQL.
        "mikro-orm" => match ops.first().copied() {
            Some("schema:drop" | "schema:fresh") if has(args, &["--run", "-r"]) => Some(reset(
                "every table of the configured database",
                "`--dump` prints the SQL without running it; dump the database first",
            )),
            Some("migration:fresh") => Some(reset(
                "every table of the configured database",
                "`mikro-orm migration:up` applies new migrations without dropping anything; dump \
                 the database first",
            )),
            _ => None,
        },
        "drizzle-kit" => (ops.first() == Some(&"push") && has(args, &["--force"])).then(|| {
            data_loss(
                "applies the schema diff without asking, with the statements that drop or \
                 truncate tables and columns and the data in them",
                "`drizzle-kit push` without `--force` asks before each statement that loses \
                 data; `drizzle-kit generate` writes the SQL to read first; dump the database \
                 first",
            )
        }),
        "knex" => (ops.first() == Some(&"migrate:rollback") && has(args, &["--all"])).then(|| {
            data_loss(
                "rolls back every migration, dropping the tables and columns they created",
                "`knex migrate:rollback` undoes the last batch only; `knex migrate:down` one \
                 migration; dump the database first",
            )
        }),
        "flyway" => ops.contains(&"clean").then(|| {
            reset(
                "every object in the schemas Flyway manages",
                "`flyway info` shows the state and `flyway migrate` applies new migrations; \
                 dump the database first",
            )
        }),
        "liquibase" => ops
            .iter()
            .any(|w| w.eq_ignore_ascii_case("drop-all") || w.eq_ignore_ascii_case("dropAll"))
            .then(|| {
                reset(
                    "every object in the configured schemas",
                    "`liquibase status` and `liquibase update-sql` show what would change; dump \
                     the database first",
                )
            }),
        "diesel" => match ops.as_slice() {
            ["database", "reset", ..] => Some(reset(
                "the database in `DATABASE_URL`",
                "`diesel migration run` applies new migrations without a reset; dump the database \
                 first",
            )),
            ["migration", "revert", ..] if has(args, &["--all", "-a"]) => Some(data_loss(
                "rolls back every migration, dropping the tables and columns they created",
                "`diesel migration revert` undoes the last migration only; dump the database \
                 first",
            )),
            _ => None,
        },
        "dbmate" => (ops.first() == Some(&"drop")).then(|| {
            reset(
                "the database in `DATABASE_URL`",
                "`dbmate up` applies new migrations without a drop; dump the data first \
                 (`dbmate dump` writes only the schema)",
            )
        }),
        // `goose [flags] DRIVER DBSTRING <command>`.
        "goose" => {
            let all_down = ops.contains(&"reset") || ops.windows(2).any(|w| w == ["down-to", "0"]);
            all_down.then(|| {
                data_loss(
                    "rolls back every migration, dropping the tables and columns they created",
                    "`goose down` undoes the last migration only; dump the database first",
                )
            })
        }
        "sea-orm-cli" => match ops.as_slice() {
            ["migrate", "fresh", ..] => Some(reset(
                "every table of the database",
                "`sea-orm-cli migrate up` applies new migrations without dropping anything; dump \
                 the database first",
            )),
            ["migrate", "reset" | "refresh", ..] => Some(data_loss(
                "rolls back every migration, dropping the tables and columns they created",
                "`sea-orm-cli migrate down` undoes the last migration only; dump the database \
                 first",
            )),
            _ => None,
        },
        _ => None,
    }
}

/// SQLx: `sqlx database drop|reset`, `sqlx migrate revert --target-version 0`.
fn sqlx(args: &[Word]) -> Option<Hit> {
    if has(args, &["--dry-run"]) {
        return None;
    }
    let valued = [
        "-D",
        "--database-url",
        "--source",
        "--target-version",
        "--connect-timeout",
    ];
    match operands(args, &valued).as_slice() {
        ["database" | "db", "drop" | "reset", ..] => Some(reset(
            "the database in `DATABASE_URL`",
            "`sqlx migrate run` applies new migrations without a drop; dump the database \
             first (`pg_dump`, `mysqldump`)",
        )),
        ["migrate", "revert", ..] if value(args, &["--target-version"]) == Some("0") => {
            Some(data_loss(
                "rolls back every migration, dropping the tables and columns they created",
                "`sqlx migrate revert` undoes the last migration only; `--dry-run` lists what \
                 would run; dump the database first",
            ))
        }
        _ => None,
    }
}

/// EF Core: `dotnet ef database drop`, `dotnet ef database update 0` (every migration
/// reverted).
fn entity_framework(args: &[Word]) -> Option<Hit> {
    let valued = [
        "--connection",
        "-p",
        "--project",
        "-s",
        "--startup-project",
        "-c",
        "--context",
        "--framework",
        "--configuration",
        "--runtime",
        "--msbuildprojectextensionspath",
    ];
    match operands(args, &valued).as_slice() {
        ["database", "drop", ..] if !has(args, &["--dry-run"]) => Some(reset(
            "the context's database",
            "`dotnet ef database drop --dry-run` names what would be dropped; `dotnet ef \
             database update` applies new migrations without a drop; back the database up first",
        )),
        ["database", "update", "0", ..] => Some(data_loss(
            "reverts every migration, dropping the tables and columns they created",
            "update to the migration just before the one to undo (`dotnet ef migrations list` \
             names them) after checking its `Down`; back the database up first",
        )),
        _ => None,
    }
}

/// Ecto: `mix ecto.drop`, `mix ecto.reset` (the usual alias for drop and setup), `mix
/// ecto.rollback --all`, also among the tasks of `mix do a, b`.
fn ecto(words: &[&str]) -> Option<Hit> {
    if words.first() == Some(&"help") {
        return None;
    }
    let tasks = || words.iter().map(|w| w.trim_end_matches(','));
    if tasks().any(|t| t == "ecto.drop" || t == "ecto.reset") {
        return Some(reset(
            "the repository's database",
            "`mix ecto.migrate` applies new migrations without a drop; dump the database first \
             (`pg_dump`)",
        ));
    }
    (tasks().any(|t| t == "ecto.rollback") && words.contains(&"--all")).then(|| {
        data_loss(
            "rolls back every migration, dropping the tables and columns they created",
            "`mix ecto.rollback` undoes the last migration, `--step n` a few; dump the database \
             first",
        )
    })
}

fn reset(database: &str, safer: &str) -> Hit {
    Hit::new(
        &RESET,
        Tier::Destructive,
        format!("drops or empties {database}: every row in it is deleted, with no undo"),
    )
    .safer(safer)
    .recovery("only from a dump or backup of the database")
}

fn data_loss(loses: &str, safer: &str) -> Hit {
    Hit::new(&DATA_LOSS, Tier::Destructive, loses)
        .safer(safer)
        .recovery("only from a dump or backup of the database")
}

/// `prisma migrate reset`, `prisma db push --force-reset|--accept-data-loss`.
fn prisma(args: &[Word]) -> Option<Hit> {
    let ops = operands(args, &["--schema"]);
    let sub = ops.get(..2).unwrap_or(&ops);
    match sub {
        ["migrate", "reset"] => Some(reset(
            "the database in `DATABASE_URL`",
            "`prisma migrate deploy` (or `prisma migrate dev`) applies new migrations without a \
             reset; dump the database first if a reset is really wanted",
        )),
        ["db", "push"] if has(args, &["--force-reset"]) => Some(reset(
            "the database in `DATABASE_URL`",
            "`prisma db push` without `--force-reset` stops before losing data and says what \
             it would drop",
        )),
        ["db", "push"] if has(args, &["--accept-data-loss"]) => Some(data_loss(
            "applies schema changes that drop columns or tables, with the data in them",
            "`prisma db push` without `--accept-data-loss` stops and lists what would be lost; \
             `prisma migrate diff` shows the SQL",
        )),
        _ => None,
    }
}

/// `rails db:reset`, `rake db:drop`, ... anywhere among the tasks.
fn rails(args: &[Word]) -> Option<Hit> {
    let listing = [
        "-T",
        "--tasks",
        "-D",
        "--describe",
        "-W",
        "--where",
        "-P",
        "--prereqs",
    ];
    if has(args, &listing) || dry_run(args, &["-n", "--dry-run"]) {
        return None;
    }
    let task = args.iter().find_map(|w| {
        let name = w.text.split('[').next().unwrap_or(&w.text);
        RAILS_RESETS.contains(&name).then_some(name)
    })?;
    Some(reset(
        &format!("the application's database (`{task}`)"),
        "`rails db:migrate` applies new migrations without a reset; dump the database first \
         (`pg_dump`/`mysqldump`) if a reset is really wanted",
    ))
}

/// `manage.py flush` / `reset_db`.
fn django(command: Option<&str>) -> Option<Hit> {
    let command = command?;
    matches!(command, "flush" | "reset_db").then(|| {
        reset(
            "the configured database's tables (every row)",
            "`manage.py dumpdata > backup.json` first; `manage.py migrate` applies new \
             migrations without emptying anything",
        )
    })
}

/// `php artisan migrate:fresh|migrate:reset|migrate:refresh|db:wipe`.
fn artisan(words: &[&str], args: &[Word]) -> Option<Hit> {
    let command = *words.first()?;
    if has(args, &["--pretend"]) {
        return None;
    }
    matches!(
        command,
        "migrate:fresh" | "migrate:reset" | "migrate:refresh" | "db:wipe"
    )
    .then(|| {
        reset(
            "every table of the configured database",
            "`php artisan migrate` applies new migrations without dropping anything; \
             `--pretend` shows the SQL; dump the database first",
        )
    })
}
