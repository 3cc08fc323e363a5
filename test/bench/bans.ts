/**
 * Issue 6's bans benchmark, in one process:
 *
 * 1. Import: 100,000 bans through `POST /api/bans/import` on the controller
 *    (real HTTP on loopback, the bans plugin over 20 stub server entries,
 *    a header authenticator), against a plain better-sqlite3 transaction
 *    inserting the very same rows, one prepared INSERT per row, into a
 *    fresh database with the same table and indexes (read back from the
 *    controller's own database, not restated) and the same pragmas (WAL,
 *    `synchronous = FULL`). Goal: API time / plain time <= 2.0. The API
 *    time runs from sending the request (body already serialised) to the
 *    reply, so it includes HTTP, JSON parsing, validation, de-duplication
 *    and the chunked multi-row INSERTs in one transaction.
 * 2. Sync: the 100,000 active bans into the 20 servers' `ban.txt` (each
 *    with an owner line that must survive), timed around
 *    `BanSync.syncAll` (query, render the block once, 20 atomic writes
 *    concurrently): the first sync, and a second after one more ban.
 *    Goal: <= 1 s.
 *
 * The import body is about 20 MB, above the default request body limit
 * (BODY_LIMIT_BYTES, 1 MiB): the bench controller runs with 64 MiB, as a
 * deployment importing files this large must.
 *
 * Env: BENCH_BANS (100000), BENCH_BANS_SERVERS (20).
 * Run alone: `node test/dist/bench/bans.js`; with the rest: `npm run bench`.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Controller } from "@garrison/http"
import { BanSync, makeBansPlugin, ServerEntries, serverFileSyncHook, serverFileSyncLayer, Servers } from "@garrison/plugins"
import { GarrisonConfig, makeServerEntry, Plugin, scheme, ServerNotFound, SESSION_SCHEME, Supervisor } from "@garrison/runtime"
import { Duration, Effect, Layer, Logger, LogLevel, ManagedRuntime, Option } from "effect"
import { randomUUID } from "node:crypto"
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import * as NodePath from "node:path"
import { makeTempDir } from "../support/controller.js"
import { type Benchmark, type BenchmarkReport, envInt, runAloneIfMain } from "./internal/Benchmark.js"

const GOALS = { ratio: 2.0, syncMs: 1_000 } as const
const BODY_LIMIT = 64 * 1024 * 1024
const OWNER_LINE = "// owner: keep me\n76561197960265739"
const STEAM64_BASE = 76561197960265728n

interface Statement {
  run(...params: ReadonlyArray<unknown>): unknown
  all(...params: ReadonlyArray<unknown>): ReadonlyArray<unknown>
}
interface RawDatabase {
  prepare(source: string): Statement
  pragma(source: string): unknown
  exec(source: string): void
  transaction<A extends ReadonlyArray<unknown>>(f: (...args: A) => void): (...args: A) => void
  close(): void
}
type DatabaseConstructor = new (filename: string, options?: { readonly readonly?: boolean }) => RawDatabase
const require = createRequire(import.meta.url)

interface Row {
  readonly id: string
  readonly platformId: string
  readonly playerName: string
  readonly reason: string
  readonly bannedBy: string
  readonly bannedAt: string
  readonly expiresAt: string | null
}

const makeRows = (count: number, offset: number): ReadonlyArray<Row> => {
  const start = Date.parse("2024-01-01T00:00:00.000Z")
  return Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    platformId: (STEAM64_BASE + 1_000_000n + BigInt(offset + i)).toString(),
    playerName: `Player ${offset + i}`,
    reason: "benchmark: cheating",
    bannedBy: "bench",
    bannedAt: new Date(start + (offset + i) * 1000).toISOString(),
    expiresAt: null
  }))
}

/** Every request is the bench's caller with `bans.manage`. */
const HeaderAuth = Plugin.make({
  id: "bench-auth",
  authentication: [
    scheme({
      name: SESSION_SCHEME,
      methods: [],
      authenticator: Effect.succeed({
        carries: () => true,
        authenticate: () =>
          Effect.succeed(
            Option.some({ kind: "user" as const, id: "bench", name: "bench", role: "admin", permissions: new Set(["bans.manage"]) })
          )
      })
    })
  ]
})

const stubServers = (installDirs: ReadonlyArray<string>) => {
  const entries = installDirs.map(
    (installDir, i) =>
      makeServerEntry({ id: `s${i}`, name: `s${i}`, installDir, gamePort: 2302 + i * 10, watchdog: false })
  )
  return Plugin.make({
    id: "servers",
    // The real gateway and ServerFileSync (what writes ban.txt) over stand-ins for the store and the supervisor.
    layer: Layer.merge(Servers.layer, serverFileSyncLayer).pipe(Layer.provideMerge(Layer.merge(
      Layer.succeed(Supervisor, {
        ensure: () => Effect.dieMessage("not in the benchmark"),
        get: () => Effect.succeed(Option.none()),
        find: () => Effect.succeed(Option.none()),
        all: Effect.succeed([]),
        remove: () => Effect.void
      }),
      Layer.succeed(ServerEntries, {
        list: Effect.succeed(entries),
        unreadable: Effect.succeed([]),
        get: (serverId) => {
          const entry = entries.find((e) => e.id === serverId)
          return entry === undefined ? Effect.fail(ServerNotFound.of(serverId)) : Effect.succeed(entry)
        },
        insert: () => Effect.dieMessage("not in the benchmark"),
        update: () => Effect.dieMessage("not in the benchmark"),
        remove: () => Effect.dieMessage("not in the benchmark"),
        upsertAll: () => Effect.dieMessage("not in the benchmark")
      })
    ))),
    hooks: [serverFileSyncHook]
  })
}

const postImport = (body: string) =>
  Effect.gen(function* () {
    const request = HttpClientRequest.post("/api/bans/import").pipe(HttpClientRequest.bodyText(body, "application/json"))
    const response = yield* HttpClient.execute(request)
    const text = yield* response.text
    if (response.status !== 200) return yield* Effect.dieMessage(`import answered ${response.status}: ${text.slice(0, 300)}`)
    return JSON.parse(text) as { added: number; skipped: number; errors: ReadonlyArray<unknown>; total: number }
  }).pipe(Effect.scoped)

const plainInsert = (file: string, schema: ReadonlyArray<string>, rows: ReadonlyArray<Row>): number => {
  const Sqlite = require("better-sqlite3") as DatabaseConstructor
  const db = new Sqlite(file)
  try {
    db.pragma("journal_mode = WAL")
    db.pragma("synchronous = FULL")
    for (const statement of schema) db.exec(statement)
    const insert = db.prepare(
      "INSERT INTO bans (id, platform_id, player_name, reason, banned_by, banned_at, expires_at, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
    )
    const started = performance.now()
    db.transaction(() => {
      for (const r of rows) insert.run(r.id, r.platformId, r.playerName, r.reason, r.bannedBy, r.bannedAt, r.expiresAt, "import")
    })()
    return performance.now() - started
  } finally {
    db.close()
  }
}

/** The bans table and its indexes as the plugin's migrations created them. */
const readSchema = (dataDir: string): ReadonlyArray<string> => {
  const Sqlite = require("better-sqlite3") as DatabaseConstructor
  const db = new Sqlite(NodePath.join(dataDir, "garrison.db"), { readonly: true })
  try {
    const rows = db.prepare("SELECT sql FROM sqlite_master WHERE tbl_name = 'bans' AND sql IS NOT NULL ORDER BY type DESC").all() as ReadonlyArray<{
      sql: string
    }>
    return rows.map((r) => r.sql)
  } finally {
    db.close()
  }
}

const ms = (n: number) => `${n.toFixed(0)} ms`

const run = async (): Promise<BenchmarkReport> => {
  const count = envInt("BENCH_BANS", 100_000)
  const serverCount = envInt("BENCH_BANS_SERVERS", 20)
  const root = makeTempDir("garrison-bench-bans-")
  try {
    const dataDir = NodePath.join(root, "data")
    mkdirSync(dataDir)
    const installDirs = Array.from({ length: serverCount }, (_, i) => {
      const dir = NodePath.join(root, `server-${i}`)
      mkdirSync(dir)
      writeFileSync(NodePath.join(dir, "ban.txt"), `${OWNER_LINE}\n`)
      return dir
    })
    const controller = Controller.layerTest([
      stubServers(installDirs),
      // The background sync waits an hour after a change, so only the timed syncs write the files.
      makeBansPlugin({ debounce: Duration.hours(1) }),
      HeaderAuth
    ]).pipe(
      Layer.provide(GarrisonConfig.layerWith({ dataDir, bodyLimitBytes: BODY_LIMIT, backupInterval: Duration.days(365_000) })),
      Layer.provide(Logger.minimumLogLevel(LogLevel.Error))
    ) as Layer.Layer<HttpClient.HttpClient | BanSync, unknown>
    const runtime = ManagedRuntime.make(controller)
    try {
      // Warm-up: a small import through the same path (other players).
      await runtime.runPromise(postImport(JSON.stringify(makeRows(2_000, count + 10))))

      const rows = makeRows(count, 0)
      const body = JSON.stringify(rows)
      console.log(`  import body: ${(body.length / 1024 / 1024).toFixed(1)} MiB, ${count} bans`)

      const plainMs = plainInsert(NodePath.join(root, "plain.db"), readSchema(dataDir), rows)
      const apiStarted = performance.now()
      const reply = await runtime.runPromise(postImport(body))
      const apiMs = performance.now() - apiStarted
      if (reply.added !== count || reply.errors.length > 0) throw new Error(`import added ${reply.added} of ${count}: ${JSON.stringify(reply.errors.slice(0, 3))}`)
      const ratio = apiMs / plainMs
      console.log(`  import through the API: ${ms(apiMs)}; plain better-sqlite3 transaction: ${ms(plainMs)}; ratio ${ratio.toFixed(2)}`)

      const sync = await runtime.runPromise(BanSync)
      const timeSync = async () => {
        const started = performance.now()
        const report = await runtime.runPromise(sync.syncAll)
        const took = performance.now() - started
        if (report.failed.length > 0) throw new Error(`sync failed: ${JSON.stringify(report.failed[0])}`)
        return { took, bans: report.bans }
      }
      const first = await timeSync()
      await runtime.runPromise(postImport(JSON.stringify(makeRows(1, count + 50_000))))
      const second = await timeSync()
      const file = readFileSync(NodePath.join(installDirs[serverCount - 1]!, "ban.txt"), "latin1")
      if (!file.startsWith(`${OWNER_LINE}\n`) || file.split("\n").length < count + 3) throw new Error("a ban.txt does not hold the bans and the owner line")
      const syncMs = Math.max(first.took, second.took)
      console.log(`  sync ${first.bans} bans into ${serverCount} ban.txt: ${ms(first.took)}; again after one more ban (${second.bans}): ${ms(second.took)}`)

      return {
        headline: `import ${count}: API ${ms(apiMs)} vs plain ${ms(plainMs)} (ratio ${ratio.toFixed(2)}); sync into ${serverCount} ban.txt ${ms(first.took)} / ${ms(second.took)}`,
        goals: [
          { description: `import ratio API/plain <= ${GOALS.ratio} (${ratio.toFixed(2)})`, met: ratio <= GOALS.ratio },
          { description: `sync ${count} bans into ${serverCount} files <= ${GOALS.syncMs} ms (${ms(syncMs)})`, met: syncMs <= GOALS.syncMs }
        ]
      }
    } finally {
      await runtime.dispose()
    }
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}

export const benchmark: Benchmark = {
  name: "bans",
  description: "import 100,000 bans through the API vs plain better-sqlite3; sync them into 20 ban.txt files",
  budgetMs: 180_000,
  run
}

// `node test/dist/bench/bans.js` runs just this one.
runAloneIfMain(benchmark, import.meta.url)
