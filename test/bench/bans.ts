/**
 * Issue 6's bans benchmark, in one process:
 *
 * 1. Import: 100,000 bans through `POST /api/bans/import` on the controller
 *    (`@garrison/testkit`'s in-process controller: real HTTP on loopback,
 *    the bans plugin over 20 stub server entries, the test authenticator), against a plain better-sqlite3 transaction
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
import { BanSync, makeBansPlugin, PlayersPlugin } from "@garrison/plugins"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import { SealedSecrets } from "@garrison/runtime"
import { request, StubFleet, testController } from "@garrison/testkit"
import { Duration, Effect, LogLevel, ManagedRuntime } from "effect"
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

/** Stub servers (no processes) whose entries are these install folders: the real ServerFileSync writes their ban.txt. */
const stubServers = (installDirs: ReadonlyArray<string>) => {
  const fleet = new StubFleet()
  installDirs.forEach((installDir, i) => fleet.add(`s${i}`, { entry: { installDir, gamePort: 2302 + i * 10 } }))
  return fleet.plugin()
}

/** The import as the bench's caller, with `bans.manage` (the testkit's test authenticator). */
const postImport = (body: string) =>
  Effect.gen(function* () {
    const { status, text } = yield* request("POST", "/api/bans/import", { as: "bench:bans.manage", text: { body, contentType: "application/json" } })
    if (status !== 200) return yield* Effect.dieMessage(`import answered ${status}: ${text.slice(0, 300)}`)
    return JSON.parse(text) as { added: number; skipped: number; errors: ReadonlyArray<unknown>; total: number }
  })

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

/**
 * The bans table and its indexes as the plugin's migrations create them on
 * SQLite: run into a scratch file of their own, so the baseline has the same
 * schema whichever engine the controller runs on (`npm run bench:postgres`).
 */
const readSchema = async (root: string): Promise<ReadonlyArray<string>> => {
  const file = NodePath.join(root, "schema.db")
  await Effect.runPromise(
    Effect.forEach(makeBansPlugin().migrations, (migration) => migration.up, { discard: true }).pipe(
      // An empty database: no migration opens a sealed box.
      Effect.provideService(SealedSecrets, SealedSecrets.of({} as never)),
      Effect.provide(SqliteClient.layer({ filename: file })),
      Effect.orDie
    )
  )
  const Sqlite = require("better-sqlite3") as DatabaseConstructor
  const db = new Sqlite(file, { readonly: true })
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
    const controller = testController<BanSync>(
      [
        stubServers(installDirs),
        PlayersPlugin,
        // The background sync waits an hour after a change, so only the timed syncs write the files.
        makeBansPlugin({ debounce: Duration.hours(1) })
      ],
      { settings: { dataDir, bodyLimitBytes: BODY_LIMIT }, logLevel: LogLevel.Error }
    )
    const runtime = ManagedRuntime.make(controller)
    try {
      // Warm-up: a small import through the same path (other players).
      await runtime.runPromise(postImport(JSON.stringify(makeRows(2_000, count + 10))))

      const rows = makeRows(count, 0)
      const body = JSON.stringify(rows)
      console.log(`  import body: ${(body.length / 1024 / 1024).toFixed(1)} MiB, ${count} bans`)

      const plainMs = plainInsert(NodePath.join(root, "plain.db"), await readSchema(root), rows)
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
