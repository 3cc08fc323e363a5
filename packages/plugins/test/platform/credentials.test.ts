/**
 * The Steam account and SteamCMD settings through `/api/platform/*`:
 * credentials are checked by a real SteamCMD run before they are stored,
 * Steam Guard is its own answer, nothing secret is answered or stored in
 * clear, and run-time settings win over the environment until cleared.
 */
import { describe, expect, it } from "@effect/vitest"
import { dataDirDatabaseUrl, postgresDumpText, postgresQuery, tempDir, testDatabaseEngine } from "@garrison/testkit"
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { ADMIN, call, fakeSteamCmd, platformController, VIEWER } from "./support.js"

interface Status {
  readonly steamcmd: { readonly path: string; readonly source: string; readonly available: boolean; readonly resolved: string | null }
  readonly webApi: { readonly url: string; readonly source: string; readonly keySet: boolean }
  readonly credentials: { readonly configured: boolean; readonly username: string | null; readonly validatedAt: string | null }
}
const status = (as: string) => Effect.map(call("GET", "/api/platform/status", { as }), (r) => r.body as Status)

/** Where the settings lie at rest, by engine. */
const atRest =
  testDatabaseEngine() === "postgres"
    ? "on PostgreSQL the column read through SQL and a pg_dump of the database"
    : "on SQLite the bytes of garrison.db and its -wal"

/**
 * The stored text to search: on SQLite garrison.db and its -wal (one latin1 text); on PostgreSQL the stored
 * settings (`platform_settings`, one row a line) and a plain `pg_dump` of the data directory's database.
 */
const storedAtRest = async (dataDir: string): Promise<ReadonlyArray<string>> => {
  if (testDatabaseEngine() === "sqlite") {
    const db = Fs.readFileSync(NodePath.join(dataDir, "garrison.db")).toString("latin1")
    const wal = Fs.existsSync(NodePath.join(dataDir, "garrison.db-wal")) ? Fs.readFileSync(NodePath.join(dataDir, "garrison.db-wal")).toString("latin1") : ""
    return [db + wal]
  }
  const url = dataDirDatabaseUrl(dataDir)
  if (url === undefined) throw new Error(`no PostgreSQL database for ${dataDir}`)
  return [await postgresQuery(url, "SELECT name, value FROM platform_settings"), await postgresDumpText(url)]
}

describe("platform credentials", () => {
  it.scoped(`a login SteamCMD accepts is stored (sealed: ${atRest}) and shown without its password; a refused one is not stored`, () =>
    Effect.gen(function* () {
      const steam = fakeSteamCmd()
      const dataDir = tempDir("garrison-platform-data-")
      yield* Effect.gen(function* () {
        expect((yield* status(ADMIN)).credentials).toMatchObject({ configured: false, username: null })

        const refused = yield* call("POST", "/api/platform/credentials", { as: ADMIN, json: { username: "garrison_bot", password: "wrong-one" } })
        expect(refused.status).toBe(400)
        expect(refused.body).toMatchObject({ error: "invalid-request" })
        expect(refused.text).toContain("Invalid Password")
        expect(refused.text).not.toContain("wrong-one")
        expect((yield* status(ADMIN)).credentials.configured).toBe(false)

        const ok = yield* call("POST", "/api/platform/credentials", { as: ADMIN, json: { username: "garrison_bot", password: "correct-horse" } })
        expect(ok.status).toBe(200)
        expect(ok.body).toMatchObject({ username: "garrison_bot", validated: true })
        expect(ok.text).not.toContain("correct-horse")

        const seen = yield* status(ADMIN)
        expect(seen.credentials).toMatchObject({ configured: true, username: "garrison_bot" })
        expect(typeof seen.credentials.validatedAt).toBe("string")
        // Any signed-in caller sees that an account is set, not which.
        expect((yield* status(VIEWER)).credentials).toMatchObject({ configured: true, username: null })
        expect(JSON.stringify(yield* status(ADMIN))).not.toContain("correct-horse")
      }).pipe(Effect.provide(platformController({ STEAMCMD_PATH: steam.path }, dataDir)))

      // At rest: sealed, never the password itself (nor the refused one).
      for (const text of yield* Effect.promise(() => storedAtRest(dataDir))) {
        expect(text).not.toContain("correct-horse")
        expect(text).not.toContain("wrong-one")
        expect(text).toContain("sealed:v1:")
      }
    }))

  it.scoped("Steam Guard: 409 asking for the code, then the code logs in; a wrong code is 400", () =>
    Effect.gen(function* () {
      const steam = fakeSteamCmd()
      yield* Effect.gen(function* () {
        const needed = yield* call("POST", "/api/platform/credentials", { as: ADMIN, json: { username: "guarded", password: "pw-guarded" } })
        expect(needed.status).toBe(409)
        expect(needed.body).toMatchObject({ error: "conflict", details: { needs: "guardCode" } })
        expect(needed.text).toContain("Steam Guard code")

        const wrong = yield* call("POST", "/api/platform/credentials", {
          as: ADMIN,
          json: { username: "guarded", password: "pw-guarded", guardCode: "AAAAA" }
        })
        expect(wrong.status).toBe(400)
        const right = yield* call("POST", "/api/platform/credentials", {
          as: ADMIN,
          json: { username: "guarded", password: "pw-guarded", guardCode: "F4K3C" }
        })
        expect(right.status).toBe(200)
        expect(Fs.readFileSync(steam.argsLog, "utf8")).toContain("+login guarded pw-guarded F4K3C +quit")
      }).pipe(Effect.provide(platformController({ STEAMCMD_PATH: steam.path })))
    }))

  it.scoped("bad bodies are 400 naming the field; only admins may set credentials; save skips the check; delete forgets", () =>
    Effect.gen(function* () {
      const steam = fakeSteamCmd()
      yield* Effect.gen(function* () {
        const cases: ReadonlyArray<readonly [unknown, string]> = [
          [{ username: "a b", password: "x" }, "username"],
          [{ username: "bot", password: "+quit" }, "password"],
          [{ username: "bot", password: "a\u0000b" }, "password"],
          [{ username: "bot", password: "pw", guardCode: "12" }, "guardCode"],
          [{ username: "bot" }, "password"]
        ]
        for (const [json, field] of cases) {
          const reply = yield* call("POST", "/api/platform/credentials", { as: ADMIN, json })
          expect(reply.status, JSON.stringify(json)).toBe(400)
          expect(reply.text).toContain(field)
        }
        expect((yield* call("POST", "/api/platform/credentials", { as: VIEWER, json: { username: "bot", password: "pw" } })).status).toBe(403)

        const saved = yield* call("POST", "/api/platform/credentials/save", { as: ADMIN, json: { username: "unchecked_bot", password: "whatever" } })
        expect(saved.status).toBe(200)
        expect(saved.body).toMatchObject({ username: "unchecked_bot", validated: false, validatedAt: null })
        expect(Fs.existsSync(steam.argsLog)).toBe(false)

        expect((yield* call("DELETE", "/api/platform/credentials", { as: ADMIN })).status).toBe(204)
        expect((yield* status(ADMIN)).credentials.configured).toBe(false)
      }).pipe(Effect.provide(platformController({ STEAMCMD_PATH: steam.path })))
    }))

  it.scoped("SteamCMD missing is 503 naming the path; settings override the environment until set back to null", () =>
    Effect.gen(function* () {
      const steam = fakeSteamCmd()
      yield* Effect.gen(function* () {
        const before = yield* status(ADMIN)
        expect(before.steamcmd).toMatchObject({ path: "/nowhere/steamcmd.sh", source: "environment", available: false, resolved: null })
        expect(before.webApi).toMatchObject({ url: "https://api.steampowered.com", source: "default", keySet: false })
        const missing = yield* call("POST", "/api/platform/credentials", { as: ADMIN, json: { username: "garrison_bot", password: "correct-horse" } })
        expect(missing.status).toBe(503)
        expect(missing.text).toContain("/nowhere/steamcmd.sh")

        const patched = yield* call("PATCH", "/api/platform/settings", {
          as: ADMIN,
          json: { steamcmdPath: steam.path, webApiUrl: "http://127.0.0.1:9/", webApiKey: "ABCDEF0123456789" }
        })
        expect(patched.status).toBe(200)
        expect(patched.body).toMatchObject({
          steamcmd: { path: steam.path, source: "setting", available: true, resolved: steam.path },
          webApi: { url: "http://127.0.0.1:9", source: "setting", keySet: true }
        })
        expect(patched.text).not.toContain("ABCDEF0123456789")
        expect((yield* call("POST", "/api/platform/credentials", { as: ADMIN, json: { username: "garrison_bot", password: "correct-horse" } })).status).toBe(200)

        const bad = yield* call("PATCH", "/api/platform/settings", { as: ADMIN, json: { webApiUrl: "ftp://x" } })
        expect(bad.status).toBe(400)
        expect(bad.text).toContain("webApiUrl")

        const reset = yield* call("PATCH", "/api/platform/settings", { as: ADMIN, json: { steamcmdPath: null, webApiUrl: null, webApiKey: null } })
        expect(reset.body).toMatchObject({
          steamcmd: { path: "/nowhere/steamcmd.sh", source: "environment" },
          webApi: { source: "default", keySet: false }
        })
      }).pipe(Effect.provide(platformController({ STEAMCMD_PATH: "/nowhere/steamcmd.sh" })))
    }))
})
