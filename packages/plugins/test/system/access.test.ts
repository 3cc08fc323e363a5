/** Every system route is `admin`'s: a role without it, or with `admin` for one server only, gets 403; info, metrics and service answer admins. */
import { describe, expect, it } from "@effect/vitest"
import { call, testDatabaseEngine } from "@garrison/testkit"
import { Effect } from "effect"
import type { SystemInfo } from "../../src/system/index.js"
import { ADMIN, systemController } from "./support.js"

const ROUTES = [
  ["GET", "/api/system/info"],
  ["GET", "/api/system/metrics"],
  ["GET", "/api/system/service"],
  ["GET", "/api/system/config"],
  ["PATCH", "/api/system/config"]
] as const

describe("system routes", () => {
  it.scopedLive("403 for a non-admin and for a server-scoped admin on every route", () =>
    Effect.gen(function* () {
      for (const [method, path] of ROUTES) {
        for (const as of ["mod:servers.view", "sam:admin@s1", "viewer:server.view"]) {
          const reply = yield* call(method, path, { as, ...(method === "PATCH" ? { json: { LOG_LEVEL: "Debug" } } : {}) })
          expect([method, path, as, reply.status]).toEqual([method, path, as, 403])
          expect(reply.body).toMatchObject({ error: "forbidden" })
        }
      }
      // The refused PATCH changed nothing.
      const config = (yield* call("GET", "/api/system/config", { as: ADMIN })).body as { settings: Array<{ key: string; source: string }> }
      expect(config.settings.find((s) => s.key === "LOG_LEVEL")?.source).not.toBe("stored")
    }).pipe(Effect.provide(systemController().layer))
  )

  it.scopedLive("info: versions, the database engine and its version, the host, the data directory's disk", () =>
    Effect.gen(function* () {
      const reply = yield* call("GET", "/api/system/info", { as: ADMIN })
      expect(reply.status).toBe(200)
      const info = reply.body as SystemInfo
      expect(info.node.version).toBe(process.version)
      expect(info.libraries["effect"]).toMatch(/^3\.\d+\.\d+/)
      expect(info.database.engine).toBe(testDatabaseEngine())
      expect(info.database.version).toMatch(/^\d+(\.\d+)*/)
      expect(info.os).toMatchObject({ platform: process.platform, arch: process.arch, hostname: expect.any(String) })
      expect(info.garrison.uptimeSeconds).toBeGreaterThanOrEqual(0)
      const disk = info.dataDir.disk!
      expect(disk.totalBytes).toBeGreaterThan(0)
      expect(disk.usedBytes + disk.freeBytes).toBeLessThanOrEqual(disk.totalBytes)
    }).pipe(Effect.provide(systemController().layer))
  )

  it.scopedLive("service: foreground without systemd's variables (systemctl missing or without systemd answers fast); systemd with INVOCATION_ID", () =>
    Effect.gen(function* () {
      const reply = yield* call("GET", "/api/system/service", { as: ADMIN })
      expect(reply.status).toBe(200)
      expect(reply.body).toMatchObject({ manager: "foreground", pid: process.pid, systemd: { invocationId: false, notifySocket: false } })
      expect(["missing", "failed", "ok"]).toContain((reply.body as { systemd: { systemctl: string } }).systemd.systemctl)
    }).pipe(Effect.provide(systemController().layer))
  )

  it.scopedLive("service: INVOCATION_ID means systemd started it", () =>
    Effect.gen(function* () {
      const reply = yield* call("GET", "/api/system/service", { as: ADMIN })
      expect(reply.body).toMatchObject({ manager: "systemd", systemd: { invocationId: true, notifySocket: true } })
    }).pipe(Effect.provide(systemController({ config: { INVOCATION_ID: "0123abcd", NOTIFY_SOCKET: "/run/systemd/notify" } }).layer))
  )
})
