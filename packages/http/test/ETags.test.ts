/**
 * Conditional GETs: an in-memory 200 carries a weak ETag; the same GET with
 * `If-None-Match` naming it is 304 with no body, until the answer changes;
 * lists of tags, `*` and strong spellings match weakly; streamed answers
 * (the ban export) and errors carry none; writes are never conditional.
 */
import { describe, expect, it } from "@effect/vitest"
import { makeBansPlugin, PlayersPlugin } from "@garrison/plugins"
import { request, StubFleet, testController } from "@garrison/testkit"
import { Duration, Effect, LogLevel } from "effect"
import { matchesIfNoneMatch } from "../src/ETags.js"

const MOD = "mod:bans.manage"
const controller = () =>
  testController([StubFleet.of({ alpha: "stopped" }).plugin(), PlayersPlugin, makeBansPlugin({ debounce: Duration.zero })], {
    dataPrefix: "garrison-etag-",
    logLevel: LogLevel.Error
  })

describe("ETags", () => {
  it("If-None-Match compares weakly, takes lists and *", () => {
    expect(matchesIfNoneMatch('W/"abc"', 'W/"abc"')).toBe(true)
    expect(matchesIfNoneMatch('"abc"', 'W/"abc"')).toBe(true)
    expect(matchesIfNoneMatch('W/"x", W/"abc"', 'W/"abc"')).toBe(true)
    expect(matchesIfNoneMatch("*", 'W/"abc"')).toBe(true)
    expect(matchesIfNoneMatch('W/"abcd"', 'W/"abc"')).toBe(false)
    expect(matchesIfNoneMatch("", 'W/"abc"')).toBe(false)
  })

  it.scopedLive("a list answers 304 while unchanged and 200 with a new tag once it changes; streams and errors carry none", () =>
    Effect.gen(function* () {
      const first = yield* request("GET", "/api/bans", { as: MOD })
      expect(first.status).toBe(200)
      const etag = first.headers["etag"]
      expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/)

      const again = yield* request("GET", "/api/bans", { as: MOD, headers: { "if-none-match": etag! } })
      expect(again.status).toBe(304)
      expect(again.text).toBe("")
      expect(again.headers["etag"]).toBe(etag)
      expect(again.headers["cache-control"]).toBe("no-store")

      // Another caller without the header still gets the body.
      expect((yield* request("GET", "/api/bans", { as: MOD })).text).toBe(first.text)

      const added = yield* request("POST", "/api/bans", {
        as: MOD,
        json: { platformId: "76561198012345678", playerName: "Bravo", reason: "cheating" },
        headers: { "if-none-match": "*" }
      })
      expect(added.status).toBe(201)
      const changed = yield* request("GET", "/api/bans", { as: MOD, headers: { "if-none-match": etag! } })
      expect(changed.status).toBe(200)
      expect(changed.headers["etag"]).not.toBe(etag)
      expect(JSON.parse(changed.text).items).toHaveLength(1)

      // The export streams: no tag, whatever the client sends.
      const exported = yield* request("GET", "/api/bans/export", { as: MOD, headers: { "if-none-match": "*" } })
      expect(exported.status).toBe(200)
      expect(exported.headers["etag"]).toBeUndefined()
      // Errors are never conditional.
      const denied = yield* request("GET", "/api/bans", { headers: { "if-none-match": "*" } })
      expect(denied.status).toBe(401)
      expect(denied.headers["etag"]).toBeUndefined()
    }).pipe(Effect.provide(controller()))
  )
})
