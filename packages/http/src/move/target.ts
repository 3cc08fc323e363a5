/**
 * The PostgreSQL side. It must start empty: the move's proof is that every
 * row there came from the source, and a rollback has to leave the database
 * as it found it. After the migrations it must have the source's tables and
 * columns, no more and no fewer, or rows would be lost or made up; names
 * are matched as written or folded to lower case (how PostgreSQL keeps an
 * unquoted name).
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type { SourceTable } from "./source.js"
import { listed, refuse } from "./text.js"

export interface TargetColumn {
  readonly name: string
  readonly type: string
}

export interface TargetTable {
  readonly name: string
  readonly columns: ReadonlyMap<string, TargetColumn>
}

/** The PostgreSQL table a source table goes to, by the source's name. */
export type TargetOf = (name: string) => TargetTable | undefined

/** Refuses where there are tables or views where the controller would create its own: `public` and the rest of the search path. */
export const refuseIfNotEmpty = (sql: SqlClient.SqlClient, target: string) =>
  Effect.flatMap(
    sql<{ readonly name: string }>`
      SELECT n.nspname || '.' || c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE (n.nspname = 'public' OR n.nspname = ANY (current_schemas(false))) AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
      ORDER BY 1`,
    (names) =>
      names.length === 0
        ? Effect.void
        : Effect.fail(
            refuse(
              "database",
              `the PostgreSQL database ${target} is not empty (${listed(names.map((n) => n.name))}): move into a new, empty database, ` +
                "or drop and recreate this one"
            )
          )
  )

/** The migrated tables (`garrison_migrations` aside), refused unless they and their columns are the source's `tables`. */
export const readTargetTables = (sql: SqlClient.SqlClient, tables: ReadonlyArray<SourceTable>) =>
  Effect.gen(function* () {
    const columns = yield* sql<{ readonly table_name: string; readonly column_name: string; readonly data_type: string }>`
      SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c
      JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'`
    const targets = new Map<string, TargetTable>()
    for (const column of columns) {
      const table = targets.get(column.table_name) ?? { name: column.table_name, columns: new Map<string, TargetColumn>() }
      ;(table.columns as Map<string, TargetColumn>).set(column.column_name, { name: column.column_name, type: column.data_type })
      targets.set(column.table_name, table)
    }
    targets.delete("garrison_migrations")
    const targetOf: TargetOf = (name) => targets.get(name) ?? targets.get(name.toLowerCase())
    const differences = [
      ...tables.filter((t) => targetOf(t.name) === undefined).map((t) => `${t.name} is missing on PostgreSQL`),
      ...[...targets.keys()].filter((name) => !tables.some((t) => targetOf(t.name)?.name === name)).map((name) => `${name} is missing on SQLite`),
      ...tables.flatMap((t) => {
        const pg = targetOf(t.name)
        if (pg === undefined) return []
        const lower = new Set(t.columns.map((c) => c.toLowerCase()))
        return [
          ...t.columns.filter((c) => !pg.columns.has(c) && !pg.columns.has(c.toLowerCase())).map((c) => `${t.name}.${c} is missing on PostgreSQL`),
          ...[...pg.columns.keys()].filter((c) => !t.columns.includes(c) && !lower.has(c)).map((c) => `${t.name}.${c} is missing on SQLite`)
        ]
      })
    ]
    if (differences.length > 0) return yield* refuse("database", `the schemas differ after migrating: ${listed(differences)}`)
    return targetOf
  })
