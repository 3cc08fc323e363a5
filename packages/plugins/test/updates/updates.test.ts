/**
 * Server updates, rebuilds and deploys through SteamCMD: the update is the
 * actor's long operation (status `updating`, no start meanwhile), its
 * progress comes from SteamCMD's lines (status and Server-Sent Events), a
 * cancel ends SteamCMD and leaves the server stopped, and what cannot work
 * (a running server, no account, a Steam Guard code needed, a folder with
 * files) is refused before anything runs. The audit rows name who asked by
 * id and name, the one written when the update ends too.
 */
import { describe, expect, it } from "@effect/vitest"
import { eventually, fakeInstall, request, tempDir } from "@garrison/testkit"
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { ADMIN, call, DEPLOYER, ended, fakeSteam, status, updatesController } from "./support.js"

const account = (username = "garrison_bot", password = "correct-horse") =>
  call("POST", "/api/platform/credentials/save", { as: ADMIN, json: { username, password } })
const createServer = (installDir: string) =>
  Effect.map(call("POST", "/api/servers", { as: ADMIN, json: { name: NodePath.basename(installDir), installDir } }), (r) => String((r.body as { id: string }).id))
const serverStatus = (id: string) => Effect.map(call("GET", `/api/servers/${id}/status`, { as: DEPLOYER }), (r) => r.body as { status: string })

const isAlive = (pid: number) => {
  try {
    const stat = Fs.readFileSync(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z"
  } catch {
    return false
  }
}

describe("server updates", () => {
  it.scopedLive("an update runs as the server's operation, shows SteamCMD's progress and ends with the installed build", () =>
    Effect.gen(function* () {
      const steam = fakeSteam()
      const { audit, layer } = updatesController(steam)
      yield* Effect.gen(function* () {
        yield* account()
        const dir = fakeInstall()
        const id = yield* createServer(dir)
        steam.mode("slow")
        const started = yield* call("POST", `/api/servers/${id}/update`, { as: DEPLOYER })
        expect(started.status).toBe(202)
        expect(started.body).toMatchObject({ state: "running", kind: "update" })
        // The stored account was never proven: the update proved it first.
        expect((yield* call("GET", "/api/platform/status", { as: ADMIN })).body).toMatchObject({ credentials: { validatedAt: expect.any(String) } })

        const during = yield* eventually(status(id), (s) => s.percent > 0)
        expect(during).toMatchObject({ state: "running", phase: "downloading" })
        expect(during.lastLine).toContain("Update state (0x61) downloading")
        expect((yield* serverStatus(id)).status).toBe("updating")
        // Nothing starts the server meanwhile, and a second update is refused.
        expect((yield* call("POST", `/api/servers/${id}/start`, { as: DEPLOYER })).status).toBe(409)
        expect((yield* call("POST", `/api/servers/${id}/update`, { as: DEPLOYER })).status).toBe(409)

        const cancelled = yield* call("POST", `/api/servers/${id}/update/cancel`, { as: DEPLOYER })
        expect(cancelled.status).toBe(200)
        expect(cancelled.body).toMatchObject({ state: "cancelled", error: expect.stringContaining("cancelled") })
        expect((yield* serverStatus(id)).status).toBe("stopped")
        const pid = steam.lastPid()!
        expect(isAlive(pid)).toBe(false)
        expect((yield* call("POST", `/api/servers/${id}/update/cancel`, { as: DEPLOYER })).status).toBe(409)

        steam.mode("ok")
        expect((yield* call("POST", `/api/servers/${id}/update`, { as: DEPLOYER })).status).toBe(202)
        expect(yield* ended(id)).toMatchObject({ state: "done", percent: 100, appId: "223350", buildId: "1234", error: null })
        expect((yield* serverStatus(id)).status).toBe("stopped")
        // By id and name (a test caller's id is its name), the update's row too, written on the server actor's
        // operation after the request (the status says done just before it: waited for).
        const rows = yield* eventually(
          Effect.sync(() => audit.rows.filter((row) => row.action.startsWith("servers.")).map((row) => [row.action, row.result, row.actor, row.actorName])),
          (found) => found.length === 2
        )
        expect(rows).toEqual([
          ["servers.update-cancel", "success", "dep", "dep"],
          ["servers.update", "success", "dep", "dep"]
        ])
      }).pipe(Effect.provide(layer))
    }))

  it.scopedLive("progress as Server-Sent Events, to the end of the update", () =>
    Effect.gen(function* () {
      const steam = fakeSteam()
      const { layer } = updatesController(steam)
      yield* Effect.gen(function* () {
        yield* account()
        const id = yield* createServer(fakeInstall())
        steam.mode("slow")
        expect((yield* call("POST", `/api/servers/${id}/rebuild`, { as: DEPLOYER })).status).toBe(202)
        const stream = yield* Effect.fork(request("GET", `/api/servers/${id}/update/events`, { as: DEPLOYER }))
        yield* eventually(status(id), (s) => s.percent >= 5)
        yield* call("POST", `/api/servers/${id}/update/cancel`, { as: DEPLOYER })
        const reply = yield* stream.await.pipe(Effect.flatten)
        expect(reply.status).toBe(200)
        expect(reply.headers["content-type"]).toContain("text/event-stream")
        const events = reply.text.trim().split("\n\n").map((block) => {
          const [event, data] = block.split("\n")
          expect(event).toBe("event: status")
          return JSON.parse(data!.slice("data: ".length)) as { state: string; kind: string; percent: number }
        })
        expect(events.length).toBeGreaterThan(2)
        expect(events[0]).toMatchObject({ state: "running", kind: "rebuild" })
        expect(events.at(-1)).toMatchObject({ state: "cancelled" })
        // Percent only grows while it runs.
        const percents = events.filter((e) => e.state === "running").map((e) => e.percent)
        expect([...percents].sort((a, b) => a - b)).toEqual(percents)
        // A server with nothing running answers its status once and ends.
        const idle = yield* request("GET", `/api/servers/${id}/update/events`, { as: DEPLOYER })
        expect(idle.text.trim().split("\n\n")).toHaveLength(1)
        expect((yield* request("GET", `/api/servers/nope/update/events`, { as: DEPLOYER })).status).toBe(404)
      }).pipe(Effect.provide(layer))
    }))

  it.scopedLive("refused before anything runs: a running server, no account, a Steam Guard code; a full disk fails the update", () =>
    Effect.gen(function* () {
      const steam = fakeSteam()
      const { layer } = updatesController(steam)
      yield* Effect.gen(function* () {
        const id = yield* createServer(fakeInstall())
        const noAccount = yield* call("POST", `/api/servers/${id}/update`, { as: DEPLOYER })
        expect(noAccount.status).toBe(409)
        expect(noAccount.text).toContain("no Steam account")

        yield* account("guarded", "pw-guarded")
        const guard = yield* call("POST", `/api/servers/${id}/update`, { as: DEPLOYER })
        expect(guard.status).toBe(409)
        expect(guard.text).toContain("Steam Guard code")

        yield* account()
        expect((yield* call("POST", `/api/servers/${id}/start`, { as: DEPLOYER })).status).toBe(200)
        const running = yield* call("POST", `/api/servers/${id}/update`, { as: DEPLOYER })
        expect(running.status).toBe(409)
        expect(running.text).toContain("stop it first")
        expect((yield* call("POST", `/api/servers/${id}/stop`, { as: DEPLOYER })).status).toBe(200)

        steam.mode("disk-full")
        expect((yield* call("POST", `/api/servers/${id}/update`, { as: DEPLOYER })).status).toBe(202)
        expect(yield* ended(id)).toMatchObject({ state: "failed", error: "not enough disk space for the server's files" })
        expect((yield* call("POST", `/api/servers/${id}/update`, { as: "v:server.view" })).status).toBe(403)
      }).pipe(Effect.provide(layer))
    }))
})

describe("deploy", () => {
  it.scopedLive("a new folder in the deploy folder becomes an entry, the server is downloaded into it and its RCON settings are read", () =>
    Effect.gen(function* () {
      const steam = fakeSteam()
      const { layer, deployDir } = updatesController(steam)
      yield* Effect.gen(function* () {
        yield* account()
        const started = yield* call("POST", "/api/deploy", { as: DEPLOYER, json: { name: "Chernarus 2", installDir: "chernarus 2", branch: "experimental" } })
        expect(started.status).toBe(202)
        const installDir = NodePath.join(deployDir, "chernarus 2")
        const body = started.body as { serverId: string; gamePort: number; update: { state: string; kind: string } }
        expect(body).toMatchObject({ installDir, gamePort: 2302, update: { state: "running", kind: "deploy" } })
        expect(yield* ended(body.serverId)).toMatchObject({ state: "done", appId: "1042420" })
        expect(Fs.existsSync(NodePath.join(installDir, "DayZServer"))).toBe(true)
        const backup = yield* eventually(
          call("GET", "/api/backup/servers", { as: ADMIN }),
          (r) => (r.body as { servers: ReadonlyArray<{ rcon?: { port: number } }> }).servers[0]?.rcon?.port === 2306
        )
        expect((backup.body as { servers: ReadonlyArray<{ name: string }> }).servers[0]?.name).toBe("Chernarus 2")
        // It starts like any other server now.
        expect((yield* call("POST", `/api/servers/${body.serverId}/start`, { as: DEPLOYER })).status).toBe(200)
      }).pipe(Effect.provide(layer))
    }))

  it.scopedLive("refused: outside the deploy folder (any spelling, or through a link), a folder with files, a folder another entry has", () =>
    Effect.gen(function* () {
      const steam = fakeSteam()
      const { layer, deployDir } = updatesController(steam)
      yield* Effect.gen(function* () {
        yield* account()
        const outside = tempDir("garrison-deploy-outside-")
        Fs.symlinkSync(outside, NodePath.join(deployDir, "link"))
        Fs.mkdirSync(NodePath.join(deployDir, "full"))
        Fs.writeFileSync(NodePath.join(deployDir, "full", "file.txt"), "x")
        const cases: ReadonlyArray<readonly [string, string]> = [
          ["../escape", "inside the deploy folder"],
          ["/", "inside the deploy folder"],
          [outside, "inside the deploy folder"],
          ["a/../../escape", "inside the deploy folder"],
          ["link/server", "installDir link/server"],
          ["full", "has files in it"]
        ]
        for (const [installDir, says] of cases) {
          const refused = yield* call("POST", "/api/deploy", { as: DEPLOYER, json: { name: "X", installDir } })
          expect(refused.status, installDir).toBe(400)
          expect(refused.body).toMatchObject({ details: [{ path: "installDir" }] })
          expect(refused.text).toContain(says)
        }
        expect(Fs.readdirSync(outside)).toEqual([])
        const first = yield* call("POST", "/api/deploy", { as: DEPLOYER, json: { name: "A", installDir: "a" } })
        expect(first.status).toBe(202)
        yield* ended((first.body as { serverId: string }).serverId)
        expect((yield* call("POST", "/api/deploy", { as: DEPLOYER, json: { name: "B", installDir: "a" } })).status).toBe(400)
        expect((yield* call("POST", "/api/deploy", { as: "v:server.view", json: { name: "C", installDir: "c" } })).status).toBe(403)
      }).pipe(Effect.provide(layer))
    }))
})
