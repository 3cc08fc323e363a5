/**
 * `GET /api/servers/:id/logs`: listing the profiles folder's log files,
 * byte ranges and tails of real RPT/ADM files, and every way a request might
 * try to leave the folder.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { execFileSync } from "node:child_process"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { FakeServers, get, logsController, tempDir, withRealServers } from "./support.js"

const RPT = "DayZServer_x64_2026-11-21_18-00-00.RPT"
const ADM = "DayZServer_x64_2026-11-21_18-00-00.ADM"

const rptText = [
  "18:00:00.120 Dedicated host created.",
  "18:00:01.512 BattlEye Server: Initialized (v1.220)",
  "18:00:02.004 Mission read.",
  "18:05:10.333 --- Termination successfully completed ---"
].join("\n") + "\n"

const admLines = [
  "AdminLog started on 2026-11-21 at 18:00:00",
  "18:01:00 | Player \"Survivor\" is connected (id=AbC123=)",
  "18:02:00 | Chat(\"Survivor\"(id=AbC123=)): hello there",
  "18:03:00 | Player \"Survivor\" (DEAD) (id=AbC123= pos=<4512.1, 10231.7, 312.4>) killed by ZmbM_HermitSkinny_Beige",
  "18:04:00 | Player \"Survivor\"(id=AbC123=) has been disconnected"
]

const setup = () => {
  const servers = new FakeServers()
  const { profiles } = servers.add("s1")
  Fs.writeFileSync(NodePath.join(profiles, RPT), rptText)
  Fs.writeFileSync(NodePath.join(profiles, ADM), admLines.join("\n") + "\n")
  Fs.writeFileSync(NodePath.join(profiles, "script_2026-11-21_18-00-00.log"), "SCRIPT : init\n")
  Fs.writeFileSync(NodePath.join(profiles, "serverDZ.cfg"), "hostname = \"secret\";\n")
  Fs.mkdirSync(NodePath.join(profiles, "BattlEye"))
  return { servers, profiles }
}

describe("log files", () => {
  it.scoped("lists the RPT, ADM and .log files with kind, size and modified time, nothing else", () => {
    const { servers } = setup()
    return Effect.gen(function* () {
      const reply = yield* get("/api/servers/s1/logs")
      expect(reply.status).toBe(200)
      const body = reply.body as { items: ReadonlyArray<{ name: string; kind: string; size: number; modified: string }>; nextCursor: string | null; total: number }
      expect([body.nextCursor, body.total]).toEqual([null, 3])
      const byName = Object.fromEntries(body.items.map((f) => [f.name, f]))
      expect(Object.keys(byName).sort()).toEqual([ADM, RPT, "script_2026-11-21_18-00-00.log"])
      expect(byName[RPT]).toMatchObject({ kind: "rpt", size: Buffer.byteLength(rptText) })
      expect(byName[ADM]?.kind).toBe("adm")
      expect(byName["script_2026-11-21_18-00-00.log"]?.kind).toBe("log")
      expect(Number.isNaN(Date.parse(byName[RPT]?.modified ?? ""))).toBe(false)

      // Newest first, one file a page, then the end; limit and cursor are for the list only.
      const walked: Array<string> = []
      for (let cursor: string | null | undefined; cursor !== null; ) {
        const page = (yield* get(`/api/servers/s1/logs?limit=1${cursor === undefined ? "" : `&cursor=${cursor}`}`)).body as typeof body
        walked.push(...page.items.map((f) => f.name))
        cursor = page.nextCursor
      }
      expect(walked).toEqual(body.items.map((f) => f.name))
      const mixed = yield* get(`/api/servers/s1/logs?file=${RPT}&limit=5`)
      expect([mixed.status, (mixed.body as { details: unknown }).details]).toEqual([400, [{ path: "limit", message: "is for the file list only" }]])
    }).pipe(Effect.provide(logsController(servers)))
  })

  it.scoped("reads a byte range, and from the end of the file an empty one", () => {
    const { servers } = setup()
    return Effect.gen(function* () {
      const whole = yield* get(`/api/servers/s1/logs?file=${RPT}`)
      expect(whole.body).toEqual({ file: RPT, size: Buffer.byteLength(rptText), offset: 0, length: Buffer.byteLength(rptText), content: rptText })

      const part = yield* get(`/api/servers/s1/logs?file=${RPT}&offset=13&length=22`)
      expect(part.body).toMatchObject({ offset: 13, length: 22, content: "Dedicated host created" })

      const past = yield* get(`/api/servers/s1/logs?file=${RPT}&offset=100000`)
      expect(past.body).toMatchObject({ length: 0, content: "" })
    }).pipe(Effect.provide(logsController(servers)))
  })

  it.scoped("caps a range at 1 MiB without reading the file whole", () => {
    const { servers, profiles } = setup()
    const big = NodePath.join(profiles, "DayZServer_x64_2026-11-20_10-00-00.RPT")
    Fs.writeFileSync(big, Buffer.alloc(3 * 1024 * 1024, "a"))
    return Effect.gen(function* () {
      const reply = yield* get("/api/servers/s1/logs?file=DayZServer_x64_2026-11-20_10-00-00.RPT&length=99999999")
      expect(reply.status).toBe(200)
      expect(reply.body).toMatchObject({ size: 3 * 1024 * 1024, length: 1024 * 1024 })
    }).pipe(Effect.provide(logsController(servers)))
  })

  it.scoped("tails the last N lines of the ADM log, across read chunks too", () => {
    const { servers, profiles } = setup()
    // Long enough that the tail is assembled from several 64 KiB chunks.
    const many = Array.from({ length: 5000 }, (_, i) => `18:${String(i % 60).padStart(2, "0")}:00 | Player "P${i}" is connected (id=X${i}=)`)
    Fs.writeFileSync(NodePath.join(profiles, "DayZServer_x64_2026-11-22_18-00-00.ADM"), many.join("\n") + "\n")
    return Effect.gen(function* () {
      const tail = yield* get(`/api/servers/s1/logs?file=${ADM}&tail=2`)
      expect(tail.body).toEqual({ file: ADM, size: expect.any(Number), lines: admLines.slice(-2), truncated: false })

      const all = yield* get(`/api/servers/s1/logs?file=${ADM}&tail=100`)
      expect((all.body as { lines: Array<string> }).lines).toEqual(admLines)

      const long = yield* get("/api/servers/s1/logs?file=DayZServer_x64_2026-11-22_18-00-00.ADM&tail=3000")
      expect((long.body as { lines: Array<string> }).lines).toEqual(many.slice(-3000))

      const both = yield* get(`/api/servers/s1/logs?file=${ADM}&tail=2&offset=0`)
      expect(both.status).toBe(400)
    }).pipe(Effect.provide(logsController(servers)))
  })

  it.scoped("refuses names that would leave the profiles folder, symlinks, hard links, FIFOs, folders and files that are not logs", () => {
    const { servers, profiles } = setup()
    const outside = tempDir("garrison-logs-outside-")
    Fs.writeFileSync(NodePath.join(outside, "secret.log"), "top secret\n")
    Fs.writeFileSync(NodePath.join(NodePath.dirname(profiles), "parent.RPT"), "parent\n")
    Fs.symlinkSync(NodePath.join(outside, "secret.log"), NodePath.join(profiles, "escape.log"))
    Fs.symlinkSync(NodePath.join(profiles, RPT), NodePath.join(profiles, "current.RPT"))
    Fs.linkSync(NodePath.join(outside, "secret.log"), NodePath.join(profiles, "linked.log"))
    execFileSync("mkfifo", [NodePath.join(profiles, "pipe.log")])
    Fs.mkdirSync(NodePath.join(profiles, "folder.log"))
    return Effect.gen(function* () {
      const refused = [
        "../parent.RPT",
        "..%2Fparent.RPT",
        "..",
        encodeURIComponent(NodePath.join(outside, "secret.log")),
        "sub%2F..%2F..%2Fparent.RPT",
        "..%5Cparent.RPT",
        "escape.log",
        // A symlink is never followed, even one that stays inside: the opener cannot tell them apart safely.
        "current.RPT",
        "linked.log",
        "pipe.log",
        "folder.log",
        "serverDZ.cfg",
        "BattlEye",
        "a.log%00.RPT"
      ]
      for (const name of refused) {
        const reply = yield* get(`/api/servers/s1/logs?file=${name}&tail=5`)
        expect([name, reply.status]).toEqual([name, 400])
        expect((reply.body as { error: string }).error).toBe("invalid-request")
        expect(JSON.stringify(reply.body)).not.toContain("top secret")
      }
      expect((yield* get("/api/servers/s1/logs?file=escape.log")).body).toMatchObject({
        message: "file: file is a symbolic link"
      })
      expect((yield* get("/api/servers/s1/logs?file=linked.log")).body).toMatchObject({
        message: "file: file has other hard links, so it may be a file from outside its folder"
      })
      // Only regular files with one link are listed.
      const list = yield* get("/api/servers/s1/logs")
      const names = (list.body as { items: ReadonlyArray<{ name: string }> }).items.map((f) => f.name).sort()
      expect(names).toEqual([ADM, RPT, "script_2026-11-21_18-00-00.log"])

      const missing = yield* get("/api/servers/s1/logs?file=DayZServer_x64_2000-01-01_00-00-00.RPT")
      expect(missing.status).toBe(404)
    }).pipe(Effect.provide(logsController(servers)))
  })

  it.scoped("an unknown server is 404, a caller without server.view 403, no caller 401; a missing profiles folder lists nothing", () => {
    const { servers } = setup()
    const other = servers.add("s2")
    Fs.rmSync(other.profiles, { recursive: true })
    return Effect.gen(function* () {
      for (const route of ["logs", "console", "metrics"]) {
        expect((yield* get(`/api/servers/nope/${route}`)).status).toBe(404)
        expect((yield* get(`/api/servers/s1/${route}`, "bob:players.view")).status).toBe(403)
        expect((yield* get(`/api/servers/s1/${route}`, null)).status).toBe(401)
        expect((yield* get(`/api/servers/s1/${route}`, "root:admin")).status).toBe(200)
      }
      expect((yield* get("/api/servers/s2/logs")).body).toEqual({ items: [], nextCursor: null, total: 0 })
    }).pipe(Effect.provide(logsController(servers)))
  })
})

describe("with the real servers plugin", () => {
  it.scoped("starts beside it (no route clashes) and answers 404 for a server it does not know", () =>
    Effect.gen(function* () {
      expect((yield* get("/api/servers/nope/logs")).status).toBe(404)
      expect((yield* get("/api/servers/nope/metrics")).status).toBe(404)
    }).pipe(Effect.provide(withRealServers())))
})
