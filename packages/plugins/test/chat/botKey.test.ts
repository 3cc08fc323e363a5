/**
 * The bot key: generated on the first start and sealed in the database,
 * shown once (two admins asking at once: one sees it), rotated (the old key
 * stops working at once), or set by `CHAT_BOT_API_KEY` (then neither shown
 * nor rotated through the API). The key is never in a status answer or an
 * audit row.
 */
import { describe, expect, it } from "@effect/vitest"
import { call } from "@garrison/testkit"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { ADMIN, bot, BOT_KEY, chatController } from "./support.js"

const generated = <A, E, R>(body: (fleet: ReturnType<typeof chatController>["fleet"]) => Effect.Effect<A, E, R>) =>
  Effect.suspend(() => {
    const { fleet, layer } = chatController({ CHAT_BOT_API_KEY: "" })
    return Effect.provide(body(fleet), layer)
  })

describe("the bot key", () => {
  it.scopedLive("generated: sealed at rest, shown once to one of two admins asking at once, then 409; the key works", () =>
    generated((fleet) =>
      Effect.gen(function* () {
        const status = yield* call("GET", "/api/chat/bot-key", { as: ADMIN })
        expect(status.body).toMatchObject({ source: "generated", revealedAt: null, requireSignature: false, hint: expect.stringMatching(/^gcb_….{4}$/) })
        const stored = yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ bot_key: string }>`SELECT bot_key FROM chat_bot_key`)
        expect(stored[0]!.bot_key).toMatch(/^sealed:v1:/)

        const [first, second] = yield* Effect.all([call("POST", "/api/chat/bot-key/reveal", { as: ADMIN }), call("POST", "/api/chat/bot-key/reveal", { as: ADMIN })], {
          concurrency: 2
        })
        expect([first.status, second.status].sort()).toEqual([200, 409])
        const key = String(((first.status === 200 ? first : second).body as { key: string }).key)
        expect(key).toMatch(/^gcb_[A-Za-z0-9_-]{43}$/)
        expect(stored[0]!.bot_key).not.toContain(key)
        expect((yield* call("POST", "/api/chat/bot-key/reveal", { as: ADMIN })).body).toMatchObject({ message: expect.stringContaining("rotate it") })
        expect((yield* bot({ action: "servers", key })).status).toBe(200)
        expect(JSON.stringify(fleet.audit.rows)).not.toContain(key)
        expect(fleet.audit.rows.filter((row) => row.action === "chat.bot-key.reveal")).toHaveLength(1)
      })
    )
  )

  it.scopedLive("rotate: a new key in the answer, the old one refused at once; only admins", () =>
    generated(() =>
      Effect.gen(function* () {
        const old = String(((yield* call("POST", "/api/chat/bot-key/reveal", { as: ADMIN })).body as { key: string }).key)
        const rotated = yield* call("POST", "/api/chat/bot-key/rotate", { as: ADMIN })
        expect(rotated.status).toBe(200)
        const key = String((rotated.body as { key: string }).key)
        expect(key).not.toBe(old)
        expect((yield* bot({ action: "servers", key: old })).status).toBe(403)
        expect((yield* bot({ action: "servers", key })).status).toBe(200)
        expect((yield* call("GET", "/api/chat/bot-key", { as: ADMIN })).body).toMatchObject({ createdBy: "root", revealedAt: expect.any(String) })
        expect((yield* call("POST", "/api/chat/bot-key/rotate", { as: "mgr:users.manage" })).status).toBe(403)
        expect((yield* call("GET", "/api/chat/bot-key", { as: "mgr:users.manage" })).status).toBe(403)
      })
    )
  )

  it.scopedLive("CHAT_BOT_API_KEY: the key from the environment, hinted at; reveal and rotate are 409", () =>
    Effect.suspend(() => {
      const { layer } = chatController()
      return Effect.provide(
        Effect.gen(function* () {
          const status = yield* call("GET", "/api/chat/bot-key", { as: ADMIN })
          expect(status.body).toMatchObject({ source: "environment", hint: `${BOT_KEY.slice(0, 4)}…${BOT_KEY.slice(-4)}` })
          expect(JSON.stringify(status.body)).not.toContain(BOT_KEY)
          expect((yield* call("POST", "/api/chat/bot-key/reveal", { as: ADMIN })).status).toBe(409)
          expect((yield* call("POST", "/api/chat/bot-key/rotate", { as: ADMIN })).status).toBe(409)
        }),
        layer
      )
    })
  )
})
