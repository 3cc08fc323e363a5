/**
 * Work on the data directory's own store (SQLite, or PostgreSQL with `DATABASE_URL`), whether a controller runs
 * on it or not, as `resetAdmin.ts` does: refused when there is no controller database there (never created here),
 * and only the accounts and audit plugins loaded (no game server touched, no port opened).
 */
import { Database, GarrisonConfig, StartupError } from "@garrison/runtime"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { existsSync } from "node:fs"
import * as NodePath from "node:path"

const noDatabase = (where: string, hint: string) =>
  new StartupError({ reason: "data-dir", message: `no controller database at ${where}: ${hint}` })

/**
 * Refuses unless the configured store holds a controller's database, before the runtime (whose migrations would
 * make an empty one) opens it. SQLite: `<DATA_DIR>/garrison.db` exists (nothing is opened). PostgreSQL: the store
 * opens (it answers, version, writable) and found Garrison's tables (`startup` is not `created`), then closes.
 */
export const requireControllerDatabase = Effect.gen(function* () {
  const config = yield* GarrisonConfig
  if (config.databaseUrl === undefined) {
    const database = NodePath.join(config.dataDir, "garrison.db")
    if (!existsSync(database)) {
      return yield* noDatabase(database, "start the controller once, or set DATA_DIR to its data directory")
    }
    return
  }
  const { file, startup } = yield* Effect.scoped(Effect.map(Layer.build(Database.layer), (context) => Context.get(context, Database)))
  if (startup.outcome === "created") {
    return yield* noDatabase(
      file,
      "the database has no Garrison tables (no garrison_migrations); start the controller once on this DATABASE_URL, or set DATABASE_URL to its database"
    )
  }
})
