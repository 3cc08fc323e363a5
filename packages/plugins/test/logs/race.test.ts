/**
 * The logs route under a swap race: a worker thread keeps replacing a log
 * file with a symlink to a secret outside the profiles folder (and back)
 * while the route reads it 1,500 times. No read may return the secret.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { startSwapper } from "../../../runtime/test/files/swapper.js"
import { FakeServers, get, logsController, tempDir, VIEWER } from "./support.js"

const READS = 1500
const SECRET = "OUTSIDE-SECRET-4711"
const INSIDE = "inside line\n"

describe("log reads racing a symlink swap", () => {
  it.scoped(`${READS} reads while the file is swapped for a symlink to an outside secret: none returns the secret`, () => {
    const servers = new FakeServers()
    const { profiles } = servers.add("s1")
    const outside = tempDir("garrison-logs-secret-")
    const secret = NodePath.join(outside, "secret.log")
    Fs.writeFileSync(secret, `${SECRET}\n`)
    const target = NodePath.join(profiles, "race.log")
    Fs.writeFileSync(target, INSIDE)
    return Effect.gen(function* () {
      const { swaps } = yield* startSwapper({ mode: "file", target, text: INSIDE, outside: secret })
      let leaked = 0
      let inside = 0
      const statuses = new Map<number, number>()
      for (let i = 0; i < READS; i++) {
        // The three ways the route opens a file in turn: range, tail, listing.
        const query = i % 3 === 0 ? "?file=race.log" : i % 3 === 1 ? "?file=race.log&tail=5" : ""
        // A client address per 300 reads keeps the test under the general rate limit (600 a minute).
        const reply = yield* get(`/api/servers/s1/logs${query}`, VIEWER, `10.9.0.${Math.floor(i / 300) + 1}`)
        const text = JSON.stringify(reply.body)
        if (text.includes(SECRET)) leaked++
        if (reply.status === 200 && text.includes("inside")) inside++
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1)
      }
      expect({ leaked, statuses: Object.fromEntries(statuses) }).toMatchObject({ leaked: 0 })
      // The race really ran: many swaps, and reads that landed on the regular file succeeded.
      expect(swaps()).toBeGreaterThan(READS)
      expect(inside).toBeGreaterThan(0)
      // A refused read is a clean 400 (symlink), 404 (gone at that instant) or 409 (swapped while opening).
      for (const status of statuses.keys()) expect([200, 400, 404, 409]).toContain(status)
    }).pipe(Effect.provide(logsController(servers, { trustProxyHops: 1 })))
    // 1,500 requests through the whole host: seconds alone, far longer beside the other test files on a busy 2-core machine.
  }, 120_000)
})
