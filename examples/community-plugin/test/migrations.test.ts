/**
 * The plugin's released migrations, as `garrison_migrations` records them
 * (version and name) with a fingerprint of the SQL text each runs: editing
 * a released migration fails here, before a database meets it. Add the next
 * version instead.
 */
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import * as Statement from "@effect/sql/Statement"
import { describe, expect, it } from "@effect/vitest"
import { SealedSecrets } from "@garrison/runtime"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import { migrations } from "../src/migrations.js"

describe("motd migrations", () => {
  it.effect("keep their versions, names and SQL", () =>
    Effect.forEach(migrations, (migration) => {
      const texts: Array<string> = []
      const record: Statement.Statement.Transformer = (statement) => Effect.sync(() => (texts.push(statement.compile()[0]), statement))
      return Effect.map(Statement.withTransformer(migration.up, record), () => [
        migration.version,
        migration.name,
        createHash("sha256").update(texts.join("\n;\n")).digest("hex").slice(0, 16)
      ])
    }).pipe(
      // The type of a migration allows sealing; these never seal anything.
      Effect.provideService(SealedSecrets, SealedSecrets.of({} as never)),
      Effect.provide(SqliteClient.layer({ filename: ":memory:" })),
      Effect.map((found) =>
        expect(found).toEqual([
          [1, "create motd_messages", "97fda45f30f39d91"],
          [2, "create motd_stats", "7840bd046c979649"]
        ])
      )
    ))
})
