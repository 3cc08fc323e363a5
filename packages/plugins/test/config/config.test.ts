/**
 * `/api/servers/:id/config` over the real servers plugin (fake processes):
 * typed fields with the passwords masked, changes that rewrite only their
 * values (the file differs in those lines alone), `If-Match` against a
 * stale read (412), ranges and types refused naming the key, a file DayZ
 * would refuse left alone, and templates of the whole file, sealed at rest.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import {
  callWithText as call,
  dataDirDatabaseUrl,
  fakeFleet,
  fakeInstall,
  type LogLine,
  postgresDumpText,
  postgresQuery,
  request,
  tempDir,
  testController,
  testDatabaseEngine
} from "@garrison/testkit"
import { Effect, LogLevel } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { ConfigPlugin } from "../../src/config/index.js"

const ADMIN = "root:admin"
const EDITOR = "eda:server.config,server.start,server.stop"

const CFG = [
  'hostname = "Detected Server";  // name',
  'password = "";',
  'passwordAdmin = "admin-secret";',
  "enableWhitelist = 0;",
  "maxPlayers = 60;",
  'motd[] = {"Welcome"};',
  'customKey = "kept";',
  "",
  "class Missions",
  "{",
  "\tclass DayZ",
  "\t{",
  '\t\ttemplate = "dayzOffline.chernarusplus";',
  "\t};",
  "};",
  ""
].join("\r\n")

interface Config {
  readonly fields: Record<string, unknown>
  readonly unknown: ReadonlyArray<{ readonly key: string; readonly value: string }>
  readonly problems: ReadonlyArray<unknown>
  readonly text: string
  readonly etag: string
  readonly restartNeeded: boolean
}

/** Where the templates' text lies at rest, by engine. */
const atRest =
  testDatabaseEngine() === "postgres"
    ? "PostgreSQL: the column read through SQL and a pg_dump of the database"
    : "SQLite: the bytes of garrison.db and its -wal"

/**
 * The stored text to search for secrets: on SQLite the database file and its -wal (as one text, latin1); on
 * PostgreSQL the column itself (`query`, one row a line) and a plain `pg_dump` of the data directory's database.
 */
const storedAtRest = async (dataDir: string, query: string): Promise<ReadonlyArray<string>> => {
  if (testDatabaseEngine() === "sqlite") {
    const files = ["garrison.db", "garrison.db-wal"].map((f) => NodePath.join(dataDir, f)).filter((f) => Fs.existsSync(f))
    return [files.map((f) => Fs.readFileSync(f).toString("latin1")).join("")]
  }
  const url = dataDirDatabaseUrl(dataDir)
  if (url === undefined) throw new Error(`no PostgreSQL database for ${dataDir}`)
  return [await postgresQuery(url, query), await postgresDumpText(url)]
}

const setup = (dataDir?: string, logs?: Array<LogLine>) => {
  const fleet = fakeFleet()
  const layer = testController([fleet.plugin, ConfigPlugin], {
    dataPrefix: "garrison-config-",
    ...(logs === undefined ? { logLevel: LogLevel.Error } : { logs, logLevel: LogLevel.Error }),
    ...(dataDir === undefined ? {} : { settings: { dataDir } })
  })
  return { fleet, layer }
}

const server = Effect.gen(function* () {
  const dir = fakeInstall()
  Fs.writeFileSync(NodePath.join(dir, "serverDZ.cfg"), CFG)
  const created = yield* call("POST", "/api/servers", { as: ADMIN, json: { name: "Main", installDir: dir } })
  return { id: String((created.body as { id: string }).id), file: NodePath.join(dir, "serverDZ.cfg") }
})
const read = (id: string) => Effect.map(call("GET", `/api/servers/${id}/config`, { as: EDITOR }), (r) => r.body as Config)

describe("server configuration", () => {
  it.scoped("reads typed fields, masks the passwords everywhere, lists unknown keys", () =>
    Effect.gen(function* () {
      const { layer } = setup()
      yield* Effect.gen(function* () {
        const { id } = yield* server
        const config = yield* read(id)
        expect(config.fields).toMatchObject({
          hostname: "Detected Server",
          password: "",
          passwordAdmin: "********",
          enableWhitelist: false,
          maxPlayers: 60,
          motd: ["Welcome"],
          template: "dayzOffline.chernarusplus",
          instanceId: null
        })
        expect(config.unknown).toEqual([{ key: "customKey", value: '"kept"', line: 7 }])
        expect(config.problems).toEqual([])
        expect(config.text).toContain('passwordAdmin = "********";')
        expect(JSON.stringify(config)).not.toContain("admin-secret")
        expect(config.etag).toMatch(/^W\/"/)
        expect(config.restartNeeded).toBe(false)
        expect((yield* call("GET", `/api/servers/${id}/config`, { as: "v:server.view" })).status).toBe(403)
      }).pipe(Effect.provide(layer))
    }))

  it.scoped("a change rewrites only its lines, atomically; a stale If-Match is 412 and changes nothing", () =>
    Effect.gen(function* () {
      const { layer } = setup()
      yield* Effect.gen(function* () {
        const { id, file } = yield* server
        const first = yield* read(id)
        const changed = yield* call("PATCH", `/api/servers/${id}/config`, {
          as: EDITOR,
          json: { hostname: 'Chernarus | "PvE"', enableWhitelist: true, passwordAdmin: "********", instanceId: 2 },
          headers: { "if-match": first.etag }
        })
        expect(changed.status).toBe(200)
        const after = Fs.readFileSync(file, "utf8").split("\r\n")
        const before = CFG.split("\r\n")
        expect(after[0]).toBe('hostname = "Chernarus | ""PvE""";  // name')
        expect(after[3]).toBe("enableWhitelist = 1;")
        expect(after[2]).toBe('passwordAdmin = "admin-secret";')
        expect(after[8]).toBe("instanceId = 2;")
        expect(after.filter((_, i) => ![0, 3, 8].includes(i))).toEqual(before.filter((_, i) => ![0, 3].includes(i)))
        const now = changed.body as Config
        expect(now.fields).toMatchObject({ hostname: 'Chernarus | "PvE"', enableWhitelist: true, instanceId: 2 })
        expect(now.etag).not.toBe(first.etag)

        const stale = yield* call("PATCH", `/api/servers/${id}/config`, { as: EDITOR, json: { maxPlayers: 10 }, headers: { "if-match": first.etag } })
        expect(stale.status).toBe(412)
        expect(stale.body).toMatchObject({ error: "precondition-failed", details: { etag: now.etag } })
        expect((yield* read(id)).fields.maxPlayers).toBe(60)
        // Without If-Match the change is made on whatever is there.
        expect((yield* call("PATCH", `/api/servers/${id}/config`, { as: EDITOR, json: { maxPlayers: 10 } })).status).toBe(200)
        expect((yield* read(id)).fields.maxPlayers).toBe(10)
      }).pipe(Effect.provide(layer))
    }))

  it.scoped("one ETag: the header is the body's, If-Match with it changes the file, If-None-Match with it is 304 until anything shown changes", () =>
    Effect.gen(function* () {
      const { layer } = setup()
      yield* Effect.gen(function* () {
        const { id, file } = yield* server
        const url = `/api/servers/${id}/config`
        const first = yield* request("GET", url, { as: EDITOR })
        const body = JSON.parse(first.text) as Config
        expect(first.headers["etag"]).toBe(body.etag)
        expect((yield* request("GET", url, { as: EDITOR, headers: { "if-none-match": body.etag } })).status).toBe(304)

        // The header's tag, sent back as If-Match, is the version read: the change is made.
        const changed = yield* request("PATCH", url, { as: EDITOR, json: { maxPlayers: 50 }, headers: { "if-match": first.headers["etag"]! } })
        expect(changed.status).toBe(200)
        const now = JSON.parse(changed.text) as Config
        expect(changed.headers["etag"]).toBe(now.etag)
        expect(now.etag).not.toBe(body.etag)
        const again = yield* request("GET", url, { as: EDITOR, headers: { "if-none-match": body.etag } })
        expect(again.status).toBe(200)
        expect(again.headers["etag"]).toBe(now.etag)
        expect((JSON.parse(again.text) as Config).etag).toBe(now.etag)

        // A stale tag is 412 naming the current one, and changes nothing.
        const stale = yield* request("PATCH", url, { as: EDITOR, json: { maxPlayers: 10 }, headers: { "if-match": first.headers["etag"]! } })
        expect(stale.status).toBe(412)
        expect(JSON.parse(stale.text)).toMatchObject({ error: "precondition-failed", details: { etag: now.etag } })
        expect(Fs.readFileSync(file, "utf8")).toContain("maxPlayers = 50;")

        // The server starting changes the answer (restartNeeded), so its tag; the file did not change, so the tag read before still writes.
        expect((yield* call("POST", `/api/servers/${id}/start`, { as: EDITOR })).status).toBe(200)
        const running = yield* request("GET", url, { as: EDITOR, headers: { "if-none-match": now.etag } })
        expect(running.status).toBe(200)
        const shown = JSON.parse(running.text) as Config
        expect(shown.restartNeeded).toBe(true)
        expect(running.headers["etag"]).toBe(shown.etag)
        expect(shown.etag).not.toBe(now.etag)
        expect((yield* request("PATCH", url, { as: EDITOR, json: { maxPlayers: 40 }, headers: { "if-match": now.etag } })).status).toBe(200)
      }).pipe(Effect.provide(layer))
    }))

  it.scoped("bad values are 400 naming the key; a file DayZ would refuse is 409 and stays; a running server needs a restart", () =>
    Effect.gen(function* () {
      const { layer } = setup()
      yield* Effect.gen(function* () {
        const { id, file } = yield* server
        const cases: ReadonlyArray<readonly [Record<string, unknown>, string]> = [
          [{ maxPlayers: 500 }, "maxPlayers"],
          [{ maxPlayers: 1.5 }, "maxPlayers"],
          [{ hostname: "two\nlines" }, "hostname"],
          [{ enableWhitelist: 1 }, "enableWhitelist"],
          [{ template: "../escape" }, "template"],
          [{ serverTime: "noon" }, "serverTime"],
          [{ hostnme: "typo" }, "hostnme"]
        ]
        for (const [json, key] of cases) {
          const reply = yield* call("PATCH", `/api/servers/${id}/config`, { as: EDITOR, json })
          expect(reply.status, JSON.stringify(json)).toBe(400)
          expect(reply.text).toContain(key)
        }
        expect(Fs.readFileSync(file, "utf8")).toBe(CFG)
        // An unknown key: the message lists every setting the route takes, whole (the last one too), in the API's words.
        const typo = yield* call("PATCH", `/api/servers/${id}/config`, { as: EDITOR, json: { hostnme: "typo" } })
        const said = (typo.body as { message: string }).message
        expect(said).toMatch(/^hostnme is not a field of this body; its fields are hostname, password, passwordAdmin, /)
        expect(said).toContain(", instanceId, ")
        expect(said).not.toMatch(/…|characters\)/)
        const wrongShape = yield* call("PATCH", `/api/servers/${id}/config`, { as: EDITOR, json: { motd: "one line" } })
        expect((wrongShape.body as { message: string }).message).toBe('motd must be a list (each item a string at most 256 characters long) (got "one line")')
        expect(wrongShape.text).not.toMatch(/Struct|Encoded side|Type side|readonly|Expected|Refinement|Transformation|Union/)

        const broken = CFG.replace("maxPlayers = 60;", "maxPlayers = 60")
        Fs.writeFileSync(file, broken)
        const refused = yield* call("PATCH", `/api/servers/${id}/config`, { as: EDITOR, json: { hostname: "X" } })
        expect(refused.status).toBe(409)
        expect(refused.text).toContain("line 5")
        expect(Fs.readFileSync(file, "utf8")).toBe(broken)
        expect((yield* read(id)).problems).toEqual([{ line: 5, message: 'maxPlayers: the line has no ";" at its end' }])
        Fs.writeFileSync(file, CFG)

        expect((yield* call("POST", `/api/servers/${id}/start`, { as: EDITOR })).status).toBe(200)
        const running = yield* call("PATCH", `/api/servers/${id}/config`, { as: EDITOR, json: { hostname: "Live" } })
        expect(running.body).toMatchObject({ restartNeeded: true, fields: { hostname: "Live" } })
      }).pipe(Effect.provide(layer))
    }))

  it.scoped(`templates: save, list, restore (the config before is saved first), delete; stored sealed (${atRest})`, () =>
    Effect.gen(function* () {
      const dataDir = tempDir("garrison-config-data-")
      const { layer } = setup(dataDir)
      yield* Effect.gen(function* () {
        const { id, file } = yield* server
        const saved = yield* call("POST", `/api/servers/${id}/config/templates`, { as: EDITOR, json: { name: "vanilla" } })
        expect(saved.status).toBe(201)
        const template = saved.body as { id: string; name: string; sizeBytes: number }
        expect(template).toMatchObject({ name: "vanilla", sizeBytes: Buffer.byteLength(CFG) })
        expect((yield* call("POST", `/api/servers/${id}/config/templates`, { as: EDITOR, json: { name: "vanilla" } })).status).toBe(409)

        yield* call("PATCH", `/api/servers/${id}/config`, { as: EDITOR, json: { hostname: "Event weekend", maxPlayers: 100 } })
        const edited = Fs.readFileSync(file, "utf8")
        const restored = yield* call("POST", `/api/servers/${id}/config/templates/${template.id}/restore`, { as: EDITOR })
        expect(restored.status).toBe(200)
        expect(Fs.readFileSync(file, "utf8")).toBe(CFG)
        const before = (restored.body as { savedBefore: { id: string; name: string } }).savedBefore
        expect(before.name).toContain('before restoring "vanilla"')
        const list = (yield* call("GET", `/api/servers/${id}/config/templates`, { as: EDITOR })).body as { items: ReadonlyArray<{ id: string }> }
        expect(list.items.map((t) => t.id).sort()).toEqual([template.id, before.id].sort())
        // Restoring the automatic one brings the edited file back.
        yield* call("POST", `/api/servers/${id}/config/templates/${before.id}/restore`, { as: EDITOR })
        expect(Fs.readFileSync(file, "utf8")).toBe(edited)

        expect((yield* call("DELETE", `/api/servers/${id}/config/templates/${template.id}`, { as: EDITOR })).status).toBe(204)
        expect((yield* call("DELETE", `/api/servers/${id}/config/templates/${template.id}`, { as: EDITOR })).status).toBe(404)
        expect((yield* call("POST", `/api/servers/${id}/config/templates/nope/restore`, { as: EDITOR })).status).toBe(404)
      }).pipe(Effect.provide(layer))
      const stored = yield* Effect.promise(() => storedAtRest(dataDir, "SELECT content FROM config_templates"))
      expect(stored.length).toBeGreaterThan(0)
      for (const text of stored) {
        expect(text).not.toContain("admin-secret")
        expect(text).toContain("sealed:v1:")
      }
    }))

  it.scoped("a template of a file holding NUL bytes and text that is not UTF-8 saves and restores byte for byte, its size in bytes (PostgreSQL text holds no NUL: the sealed form does)", () =>
    Effect.gen(function* () {
      const { layer } = setup()
      yield* Effect.gen(function* () {
        const { id, file } = yield* server
        // A real server's file after a crash mid-write: NUL padding, and a latin1 byte on the way.
        const messy = Buffer.concat([Buffer.from(CFG), Buffer.from([0, 0, 0]), Buffer.from('motd2 = "caf'), Buffer.from([0xe9]), Buffer.from('";\r\n')])
        Fs.writeFileSync(file, messy)
        const saved = yield* call("POST", `/api/servers/${id}/config/templates`, { as: EDITOR, json: { name: "messy" } })
        expect(saved.status).toBe(201)
        const template = saved.body as { id: string; sizeBytes: number }
        expect(template.sizeBytes).toBe(messy.length)
        Fs.writeFileSync(file, CFG)
        expect((yield* call("POST", `/api/servers/${id}/config/templates/${template.id}/restore`, { as: EDITOR })).status).toBe(200)
        expect(Fs.readFileSync(file).equals(messy)).toBe(true)
      }).pipe(Effect.provide(layer))
    }))

  it.scoped("a store failure is 500 internal quoting the request id; the database's words reach the log only", () =>
    Effect.gen(function* () {
      const logs: Array<LogLine> = []
      const { layer } = setup(undefined, logs)
      yield* Effect.gen(function* () {
        const { id } = yield* server
        const sql = yield* SqlClient.SqlClient
        // A trigger that refuses, on the run's engine (GARRISON_TEST_DATABASE): PostgreSQL's calls a function.
        yield* Effect.orDie(
          sql.onDialectOrElse({
            pg: () =>
              Effect.zipRight(
                sql`CREATE FUNCTION refuse_templates() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk on fire'; END $$`,
                sql`CREATE TRIGGER refuse_templates BEFORE INSERT ON config_templates FOR EACH ROW EXECUTE FUNCTION refuse_templates()`
              ),
            orElse: () => sql`CREATE TRIGGER refuse_templates BEFORE INSERT ON config_templates BEGIN SELECT RAISE(ABORT, 'disk on fire'); END`
          })
        )
        const reply = yield* request("POST", `/api/servers/${id}/config/templates`, { as: EDITOR, json: { name: "vanilla" } })
        expect(reply.status).toBe(500)
        const requestId = reply.headers["x-request-id"]
        expect(requestId).toMatch(/\S/)
        expect(JSON.parse(reply.text)).toEqual({ error: "internal", message: `internal error; quote request id ${requestId}` })
        expect(reply.text).not.toContain("disk on fire")
        expect(logs.some((line) => line.message.includes("save a template") && line.message.includes("disk on fire"))).toBe(true)
      }).pipe(Effect.provide(layer))
    }))
})
