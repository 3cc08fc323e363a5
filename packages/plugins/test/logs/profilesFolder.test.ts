/**
 * Where the logs route reads: the profiles folder inside the install folder
 * through the install folder's files, so a profiles folder that is a symlink
 * leading out of it is refused (409, saying to set profilesDir); a profiles
 * folder configured outside the install folder is read where it is.
 */
import { describe, expect, it } from "@effect/vitest"
import { makeServerEntry } from "@garrison/runtime"
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { FakeServers, get, logsController, tempDir } from "./support.js"

const RPT = "DayZServer_x64_2026-11-21_18-00-00.RPT"

describe("the profiles folder", () => {
  it.scoped("a symlink leading out of the install folder is refused; configured outside, it is read", () => {
    const servers = new FakeServers()
    const { profiles } = servers.add("s1")
    const elsewhere = tempDir("garrison-logs-elsewhere-")
    Fs.writeFileSync(NodePath.join(elsewhere, RPT), "from elsewhere\n")
    Fs.rmSync(profiles, { recursive: true })
    Fs.symlinkSync(elsewhere, profiles)
    return Effect.gen(function* () {
      const list = yield* get("/api/servers/s1/logs")
      expect(list.status).toBe(409)
      expect((list.body as { message: string }).message).toContain("set the entry's profilesDir to where it really is")
      const read = yield* get(`/api/servers/s1/logs?file=${RPT}&tail=1`)
      expect(read.status).toBe(409)
      expect(JSON.stringify(read.body)).not.toContain("from elsewhere")

      // Configured where it is (outside the install folder on purpose), it is read.
      const server = servers.server("s1")
      server.entry = makeServerEntry({ ...server.entry, profilesDir: elsewhere })
      const listed = yield* get("/api/servers/s1/logs")
      expect((listed.body as { items: ReadonlyArray<{ name: string }> }).items.map((f) => f.name)).toEqual([RPT])
      expect((yield* get(`/api/servers/s1/logs?file=${RPT}&tail=1`)).body).toMatchObject({ lines: ["from elsewhere"] })
    }).pipe(Effect.provide(logsController(servers)))
  })
})
