/**
 * The `webhooks` config backup (`GET /api/backup/webhooks`, `POST
 * /api/restore/webhooks`), matching the users and servers backups: URLs
 * masked and no signing secret unless `?secrets=include` (audited); a
 * restore matches by id, keeps the stored URL and secret behind a masked
 * or missing one, makes a secret for a new webhook (answered once), and
 * refuses a masked URL it cannot fill in (400 naming it).
 */
import { describe, expect, it } from "@effect/vitest"
import { dataDirDatabaseUrl, postgresDumpText, postgresQuery, tempDir, testDatabaseEngine } from "@garrison/testkit"
import { Effect, TestClock } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { ADMIN, call, callWithText, type DeliveryBody, fieldOf, ok, receiver, setup, START, verifySignature, type WebhookBody } from "./support.js"

const TOKEN = "backup-Token-42"

/** What the store holds: SQLite's files, or on PostgreSQL the table and a dump. */
const storedAtRest = async (dataDir: string): Promise<ReadonlyArray<string>> => {
  if (testDatabaseEngine() === "sqlite") {
    const files = ["garrison.db", "garrison.db-wal"].map((f) => NodePath.join(dataDir, f)).filter((f) => Fs.existsSync(f))
    return [files.map((f) => Fs.readFileSync(f).toString("latin1")).join("")]
  }
  const url = dataDirDatabaseUrl(dataDir)
  if (url === undefined) throw new Error(`no PostgreSQL database for ${dataDir}`)
  return [await postgresQuery(url, "SELECT url, secret FROM webhooks"), await postgresDumpText(url)]
}

interface Backup {
  readonly kind: string
  readonly version: number
  readonly webhooks: ReadonlyArray<{ id: string; name: string; url: string; secret?: string; enabled: boolean; events: unknown; servers: unknown; kind: string }>
}

describe("webhooks config backup", () => {
  it.scoped("masked by default, whole with ?secrets=include; a restore elsewhere works with the whole one", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(START)
      const target = yield* receiver(ok)
      const source = setup()
      const { masked, whole, hook } = yield* Effect.gen(function* () {
        const hook = (yield* call("POST", "/api/webhooks", {
          as: ADMIN,
          json: { name: "Ops", url: target.url(`/hook/${TOKEN}`), events: [{ pattern: "test.*", severities: ["error"] }], servers: ["alpha"] }
        })).body as WebhookBody & { secret: string }
        const maskedReply = yield* callWithText("GET", "/api/backup/webhooks", { as: ADMIN })
        expect(maskedReply.status).toBe(200)
        expect(maskedReply.text).not.toContain(TOKEN)
        expect(maskedReply.text).not.toContain(hook.secret)
        expect(source.audit.rows.some((row) => row.action === "backup.webhooks")).toBe(false)
        const wholeReply = yield* call("GET", "/api/backup/webhooks?secrets=include", { as: ADMIN })
        expect(source.audit.rows.find((row) => row.action === "backup.webhooks")).toMatchObject({ actor: "root", details: { secrets: "included", webhooks: 1 } })
        expect(JSON.stringify(source.audit.rows)).not.toContain(TOKEN)
        return { masked: JSON.parse(maskedReply.text) as Backup, whole: wholeReply.body as Backup, hook }
      }).pipe(Effect.provide(source.layer))

      expect(masked).toMatchObject({
        kind: "garrison.webhooks",
        version: 1,
        webhooks: [
          {
            id: hook.id,
            name: "Ops",
            kind: "http",
            url: `http://127.0.0.1:${target.port}/hook/••••`,
            events: [{ pattern: "test.*", severities: ["error"] }],
            servers: ["alpha"],
            enabled: true
          }
        ]
      })
      expect(masked.webhooks[0]!.secret).toBeUndefined()
      expect(whole.webhooks[0]).toMatchObject({ url: target.url(`/hook/${TOKEN}`), secret: hook.secret })

      // Another controller: the masked backup cannot make the webhook; the whole one can, secret and all.
      yield* Effect.gen(function* () {
        const refused = yield* callWithText("POST", "/api/restore/webhooks", { as: ADMIN, json: masked })
        expect(refused.status).toBe(400)
        expect(fieldOf(JSON.parse(refused.text))).toBe("webhooks.0.url")
        expect((yield* call("GET", "/api/webhooks", { as: ADMIN })).body).toMatchObject({ total: 0 })

        const restored = yield* call("POST", "/api/restore/webhooks", { as: ADMIN, json: whole })
        expect(restored.status, JSON.stringify(restored.body)).toBe(200)
        expect(restored.body).toEqual({ created: [hook.id], updated: [], secrets: [] })
        const tested = yield* call("POST", `/api/webhooks/${hook.id}/test`, { as: ADMIN })
        expect((tested.body as DeliveryBody).status).toBe("delivered")
        const request = target.received.at(-1)!
        expect(request.path).toBe(`/hook/${TOKEN}`)
        expect(verifySignature(hook.secret, String(request.headers["x-garrison-signature"]), request.body)).toBe(true)
      }).pipe(Effect.provide(setup().layer))
    }))

  it.scoped("a restore updates by id, keeps what is masked or left out, makes a secret for a new webhook, and checks every field", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(START)
      const target = yield* receiver(ok)
      const dataDir = tempDir("garrison-webhooks-backup-")
      const { audit, layer } = setup({ dataDir })
      yield* Effect.gen(function* () {
        const hook = (yield* call("POST", "/api/webhooks", { as: ADMIN, json: { name: "Ops", url: target.url(`/hook/${TOKEN}`), events: [{ pattern: "test.ping" }] } }))
          .body as WebhookBody & { secret: string }
        const masked = (yield* call("GET", "/api/backup/webhooks", { as: ADMIN })).body as Backup
        const edited = {
          ...masked,
          webhooks: [
            { ...masked.webhooks[0]!, name: "Ops renamed", enabled: false, events: [{ pattern: "test.*" }] },
            { id: "new-one", name: "New", kind: "discord", url: target.url("/api/webhooks/1/new-token"), events: [{ pattern: "*" }], servers: null, enabled: true }
          ]
        }
        const restored = yield* call("POST", "/api/restore/webhooks", { as: ADMIN, json: edited })
        expect(restored.status, JSON.stringify(restored.body)).toBe(200)
        const report = restored.body as { created: ReadonlyArray<string>; updated: ReadonlyArray<string>; secrets: ReadonlyArray<{ id: string; name: string; secret: string }> }
        expect(report).toMatchObject({ created: ["new-one"], updated: [hook.id] })
        expect(report.secrets).toEqual([{ id: "new-one", name: "New", secret: expect.stringMatching(/^whsec_/) }])
        expect(audit.rows.find((row) => row.action === "backup.restore.webhooks")).toMatchObject({ details: { created: ["new-one"], updated: [hook.id] } })

        const updated = (yield* call("GET", `/api/webhooks/${hook.id}`, { as: ADMIN })).body as WebhookBody
        expect(updated).toMatchObject({ name: "Ops renamed", enabled: false, url: `http://127.0.0.1:${target.port}/hook/••••`, events: [{ pattern: "test.*", severities: null }] })
        // The masked URL and the left-out secret were kept.
        expect((yield* call("PATCH", `/api/webhooks/${hook.id}`, { as: ADMIN, json: { enabled: true } })).status).toBe(200)
        expect((yield* call("POST", `/api/webhooks/${hook.id}/test`, { as: ADMIN })).body).toMatchObject({ status: "delivered" })
        const request = target.received.at(-1)!
        expect(request.path).toBe(`/hook/${TOKEN}`)
        expect(verifySignature(hook.secret, String(request.headers["x-garrison-signature"]), request.body)).toBe(true)

        // Every field is checked as on create, each named; nothing is restored then.
        const bad: ReadonlyArray<readonly [unknown, string]> = [
          [{ ...edited, webhooks: [{ ...edited.webhooks[1]!, id: "other", url: "https://discord.com/api/webhooks/1/••••" }] }, "webhooks.0.url"],
          [{ ...edited, webhooks: [edited.webhooks[0]!, { ...edited.webhooks[1]!, url: "ftp://x/y" }] }, "webhooks.1.url"],
          [{ ...edited, webhooks: [{ ...edited.webhooks[1]!, events: [{ pattern: "nothing.at.all" }] }] }, "webhooks.0.events.0.pattern"],
          [{ ...edited, webhooks: [{ ...edited.webhooks[1]!, name: "a\u0000" }] }, "webhooks.0.name"],
          [{ ...edited, webhooks: [{ ...edited.webhooks[1]!, secret: "short" }] }, "webhooks.0.secret"],
          [{ ...edited, webhooks: [edited.webhooks[1]!, { ...edited.webhooks[1]!, name: "Again" }] }, "webhooks.1.id"],
          [{ ...edited, webhooks: [{ ...edited.webhooks[1]!, id: "a/b" }] }, "webhooks.0.id"],
          [{ ...edited, webhooks: [{ ...edited.webhooks[1]!, servers: [] }] }, "webhooks.0.servers"],
          [{ ...edited, kind: "garrison.users" }, "kind"]
        ]
        for (const [json, field] of bad) {
          const reply = yield* callWithText("POST", "/api/restore/webhooks", { as: ADMIN, json })
          expect(reply.status, reply.text).toBe(400)
          expect(fieldOf(JSON.parse(reply.text)), reply.text).toBe(field)
          expect(reply.text).not.toContain("short")
        }
        expect((yield* call("GET", "/api/webhooks", { as: ADMIN })).body).toMatchObject({ total: 2 })
      }).pipe(Effect.provide(layer))

      // At rest, the URL's token and the secrets are sealed.
      const stored = yield* Effect.promise(() => storedAtRest(dataDir))
      expect(stored.length).toBeGreaterThan(0)
      for (const text of stored) {
        expect(text).not.toContain(TOKEN)
        expect(text).not.toContain("new-token")
        expect(text).not.toContain("whsec_")
        expect(text).toContain("sealed:v1:")
      }
    }))
})
