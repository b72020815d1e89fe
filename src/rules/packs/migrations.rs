//! Pack `migrations`: the database commands of application frameworks and migration tools
//! that drop, reset, wipe or roll back a whole database. Package runners (`npx`, `bundle
//! exec`, `poetry run`, ...) are peeled by the shell module, so `npx prisma migrate reset`
//! arrives here as `prisma migrate reset`.

use super::Pack;
use super::args::{dry_run, has, operands};
use crate::rules::{Hit, Rule, Tier};
use crate::shell::{SimpleCommand, Word};

pub static RESET: Rule = Rule {
    id: "migrations.reset",
    catches: "`prisma migrate reset`, `prisma db push --force-reset`, `rails`/`rake` \
              `db:drop`, `db:reset`, `db:purge`, `db:schema:load`, `db:migrate:reset`, \
              `db:seed:replant`, `db:truncate_all`, \
              Django `manage.py flush`/`reset_db`, `php artisan migrate:fresh`/`migrate:reset`/\
              `migrate:refresh`/`db:wipe`, `supabase db reset`, `sequelize db:drop`",
    why: "These drop the database (or every table in it) and rebuild it from the migrations or \
          the schema, empty or with seed data: every row the application wrote is gone. \
          Pointed at a shared or production database by its environment, they take that data \
          too.",
    instead: "Dump the database first (`pg_dump`, `mysqldump`); to apply new migrations, run \
              the forward migration (`prisma migrate deploy`, `rails db:migrate`, `manage.py \
              migrate`, `artisan migrate`, `supabase migration up`).",
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
    ],
};

pub static DATA_LOSS: Rule = Rule {
    id: "migrations.data-loss",
    catches: "`prisma db push --accept-data-loss`, `alembic downgrade base`, `sequelize \
              db:migrate:undo:all`",
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
    ],
    passes: &[
        "prisma db push",
        "alembic downgrade -1",
        "alembic downgrade base --sql",
        "alembic upgrade head",
        "npx sequelize-cli db:migrate",
    ],
};

pub static PACK: Pack = Pack {
    id: "migrations",
    summary: "framework and migration-tool commands that drop, reset or wipe a database \
              (Prisma, Rails, Django, Laravel, Supabase, Sequelize, Alembic)",
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

fn check(cmd: &SimpleCommand) -> Vec<Hit> {
    let Some(program) = cmd.program() else {
        return Vec::new();
    };
    let args = cmd.args();
    if has(args, &["--help", "-h"]) {
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
            let sub = &ops[..ops.len().min(2)];
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
        "sequelize" | "sequelize-cli" => match words.iter().find(|w| !w.starts_with('-')) {
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
        "alembic" => {
            let ops = operands(args, &["-c", "--config", "-n", "--name", "-x"]);
            let sub = &ops[..ops.len().min(2)];
            (sub == ["downgrade", "base"] && !has(args, &["--sql"])).then(|| {
                data_loss(
                    "rolls back every migration, dropping the tables and columns they created",
                    "`alembic downgrade base --sql` prints what it would run; roll back one step \
                     with `alembic downgrade -1`",
                )
            })
        }
        _ => None,
    };
    hit.into_iter().collect()
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
    let sub = &ops[..ops.len().min(2)];
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
