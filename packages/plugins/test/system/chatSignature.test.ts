/** `CHAT_REQUIRE_SIGNATURE` changed at run time: the bot's next unsigned call is refused, and accepted again once cleared. */
import { describe, expect, it } from "@effect/vitest"
import { call } from "@garrison/testkit"
import { Effect } from "effect"
import { SystemPlugin } from "../../src/system/index.js"
import { ADMIN, bot, chatController } from "../chat/support.js"

describe("CHAT_REQUIRE_SIGNATURE at run time", () => {
  it.scopedLive("applies to the next call and shows in the bot key's status", () => {
    const { layer } = chatController({}, undefined, [SystemPlugin])
    return Effect.gen(function* () {
      expect((yield* bot({ action: "servers", signature: false, chatUserId: "200000000000000001" })).status).toBe(200)
      expect((yield* call("PATCH", "/api/system/config", { as: ADMIN, json: { CHAT_REQUIRE_SIGNATURE: true } })).status).toBe(200)
      const refused = yield* bot({ action: "servers", signature: false, chatUserId: "200000000000000002" })
      expect(refused.status).toBe(403)
      expect(JSON.stringify(refused.body)).toContain("requires signed calls")
      expect((yield* bot({ action: "servers", chatUserId: "200000000000000003" })).status).toBe(200)
      expect((yield* call("GET", "/api/chat/bot-key", { as: ADMIN })).body).toMatchObject({ requireSignature: true })
      const bad = yield* call("PATCH", "/api/system/config", { as: ADMIN, json: { CHAT_REQUIRE_SIGNATURE: "yes" } })
      expect(bad.body).toMatchObject({ details: [{ path: "CHAT_REQUIRE_SIGNATURE", message: "CHAT_REQUIRE_SIGNATURE must be true or false" }] })
      expect((yield* call("PATCH", "/api/system/config", { as: ADMIN, json: { CHAT_REQUIRE_SIGNATURE: null } })).status).toBe(200)
      expect((yield* bot({ action: "servers", signature: false, chatUserId: "200000000000000004" })).status).toBe(200)
    }).pipe(Effect.provide(layer))
  })
})
