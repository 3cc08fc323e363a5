/**
 * Audit rows do not depend on the order plugins are listed in: the default
 * plugins, shuffled (seeded), each record their audited actions into the
 * audit plugin's store. The plan builds the audit plugin before every
 * plugin that requires the audit trail; before that rule, a list that put
 * `audit` after `bans` lost the ban rows to the slot's default (a debug
 * log line).
 */
import { describe, expect, it } from "@effect/vitest"
import { callWithText as call, eventually, fakeInstall, request, testController } from "@garrison/testkit"
import { Effect, LogLevel } from "effect"
import { defaultPlugins } from "../../src/index.js"

const ADMIN = "root:admin"

/** A seeded Fisher-Yates shuffle (mulberry32): the same orders on every run. */
const shuffled = <A>(items: ReadonlyArray<A>, seed: number): Array<A> => {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
  const out = [...items]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1))
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

const SEEDS = [1, 2, 3, 4, 5]

describe("audit rows, whatever the plugin order", () => {
  for (const seed of SEEDS) {
    const order = shuffled(defaultPlugins, seed)
    it.scopedLive(`order ${seed}: ${order.map((p) => p.id).join(", ")}`, () =>
      Effect.gen(function* () {
        const ban = yield* call("POST", "/api/bans", { as: ADMIN, json: { platformId: "76561198000000001", playerName: "p", reason: "r" } })
        expect(ban.status, ban.text).toBe(201)
        const removed = yield* call("DELETE", `/api/bans/${(ban.body as { id: string }).id}`, { as: ADMIN })
        expect(removed.status, removed.text).toBeLessThan(300)
        // Creating is audited by the host (its request row); changing, with the fields it changed, by the servers plugin.
        const server = yield* call("POST", "/api/servers", { as: ADMIN, json: { name: "Audited", installDir: fakeInstall() } })
        expect(server.status, server.text).toBe(201)
        const renamed = yield* call("PATCH", `/api/servers/${(server.body as { id: string }).id}`, { as: ADMIN, json: { name: "Audited again" } })
        expect(renamed.status, renamed.text).toBe(200)
        // The backups plugin reads the audit trail when it is built: the rows a late audit plugin would lose.
        const serverId = (server.body as { id: string }).id
        expect((yield* call("POST", `/api/servers/${serverId}/backups`, { as: ADMIN })).status).toBe(202)
        const done = yield* eventually(call("GET", `/api/servers/${serverId}/backup-status`, { as: ADMIN }), (r) => (r.body as { state: string }).state === "done")
        const filename = (done.body as { filename: string }).filename
        const download = yield* request("GET", `/api/servers/${serverId}/backups/${filename}/download?secrets=include`, { as: ADMIN })
        expect(download.status).toBe(200)
        for (const action of ["bans.add", "bans.remove", "server.update", "backup.downloaded"]) {
          const rows = yield* call("GET", `/api/audit?action=${action}`, { as: ADMIN })
          expect(rows.status, rows.text).toBe(200)
          expect((rows.body as { items: ReadonlyArray<{ action: string }> }).items.map((row) => row.action), action).toEqual([action])
        }
      }).pipe(
        Effect.provide(
          testController(order, {
            dataPrefix: "garrison-audit-order-",
            logLevel: LogLevel.Error,
            config: { ADMIN_USERNAME: "admin", ADMIN_PASSWORD: "a passphrase for the test controller", RATE_LIMIT_API: "off" }
          })
        )
      ))
  }
})
