/**
 * What decides what runs and where is `admin`'s: a deployer scoped to server
 * A (or everywhere) cannot set the executable, move the install folder
 * (to another server's, its parent, a system folder), point configFile or a
 * mod outside the install, add a launch parameter naming a path, or move
 * RCON or the agent; each is 403 naming the field, with nothing stored and
 * nothing on the host looked at; the rest stays the deployer's, and admin
 * may do all of it. A kept secret never follows a new destination. Every
 * change is audited with the names of the fields it changed, never a secret.
 */
import { describe, expect, it } from "@effect/vitest"
import { auditRecorder, fakeInstall, tempDir } from "@garrison/testkit"
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { ServerEntries } from "../../src/servers/index.js"
import { ADMIN, call, type Reply, serversController } from "./support.js"

const expectRefused = (reply: Reply, field: string) => {
  expect(reply.status, JSON.stringify(reply.body)).toBe(403)
  expect(reply.body.error).toBe("forbidden")
  expect(String(reply.body.message)).toMatch(new RegExp(`^${field.replace(/[[\]]/g, "\\$&")}: only an admin may set or change it`))
  expect((reply.body.details as { field: string }).field).toBe(field)
}

const created = (reply: Reply) => {
  expect(reply.status, JSON.stringify(reply.body)).toBe(201)
  return String(reply.body.id)
}

describe("host-level fields of an entry", () => {
  it.scopedLive("a deployer scoped to one server changes its name, port, mods and timings, never what runs or where", () => {
    const audit = auditRecorder()
    return Effect.gen(function* () {
      const a = created(yield* call("POST", "/api/servers", { as: ADMIN, json: { name: "A", installDir: fakeInstall() } }))
      const bDir = fakeInstall()
      created(yield* call("POST", "/api/servers", { as: ADMIN, json: { name: "B", installDir: bDir, gamePort: 2402 } }))
      const moderator = `mod:server.deploy@${a}`
      const entries = yield* ServerEntries
      const before = yield* entries.get(a)
      const patch = (json: Record<string, unknown>) => call("PATCH", `/api/servers/${a}`, { as: moderator, json })

      const script = NodePath.join(tempDir("garrison-evil-"), "evil.sh")
      Fs.writeFileSync(script, "#!/bin/sh\nexit 0\n", { mode: 0o755 })
      expectRefused(yield* patch({ executable: script }), "executable")
      expectRefused(yield* patch({ executable: "DayZServer.sh" }), "executable")
      for (const installDir of [NodePath.dirname(bDir), "/etc", NodePath.join(bDir, "profiles"), bDir, "/does/not/exist"]) {
        expectRefused(yield* patch({ installDir }), "installDir")
      }
      expectRefused(yield* patch({ configFile: "/etc/passwd" }), "configFile")
      expectRefused(yield* patch({ profilesDir: "../../" }), "profilesDir")
      expectRefused(yield* patch({ battleyeDir: NodePath.join(bDir, "battleye") }), "battleyeDir")
      expectRefused(yield* patch({ mods: ["@CF", "../../other/@Mod"] }), "mods[1]")
      expectRefused(yield* patch({ serverMods: ["/srv/elsewhere/@Admin"] }), "serverMods[0]")
      expectRefused(yield* patch({ extraArgs: ["-cpuCount=4", "-storage=/srv/elsewhere"] }), "extraArgs[1]")
      expectRefused(yield* patch({ rcon: { host: "203.0.113.7", password: "********" } }), "rcon.host")
      expectRefused(yield* patch({ rcon: { port: 2999 } }), "rcon.port")
      expectRefused(yield* patch({ agent: { url: "http://203.0.113.7:9100" } }), "agent.url")
      // All of them at once: the first is named, `details.fields` has them all.
      const many = yield* patch({ executable: script, installDir: "/etc", agent: { url: "http://203.0.113.7:9100" } })
      expectRefused(many, "installDir")
      expect((many.body.details as { fields: ReadonlyArray<string> }).fields).toEqual(["installDir", "executable", "agent.url"])
      // Nothing was stored.
      expect(yield* entries.get(a)).toEqual(before)

      // What stays the deployer's: inside the install folder, names, ports, flags without paths.
      const fine = yield* patch({
        name: "A renamed",
        gamePort: 2502,
        mods: ["@CF", "@Trader"],
        extraArgs: ["-cpuCount=4", "-limitFPS=60", "-dologs"],
        configFile: "cfg/serverDZ.cfg",
        profilesDir: "./profiles",
        watchdog: false,
        stop: { shutdownWaitMs: 1_000 },
        rcon: { password: "a-new-one" }
      })
      expect(fine.status, JSON.stringify(fine.body)).toBe(200)
      // Keeping a host-level field as it is, spelt as stored, is no change.
      expect((yield* patch({ executable: before.executable, installDir: before.installDir, name: "A again" })).status).toBe(200)

      // Audited: the names of the changed fields (the password by name only), and the refusals with theirs.
      const rows = audit.rows.filter((row) => row.action === "server.update")
      expect(rows.filter((row) => row.result === "denied").length).toBeGreaterThanOrEqual(14)
      const changed = rows.find((row) => row.result === "success")!
      expect(changed).toMatchObject({ actor: "mod", actorName: "mod", target: a })
      expect(changed.details?.["fields"]).toEqual([
        "name",
        "configFile",
        "gamePort",
        "profilesDir",
        "watchdog",
        "mods",
        "extraArgs",
        "rcon.password",
        "stop.shutdownWaitMs"
      ])
      expect(JSON.stringify(audit.rows)).not.toContain("a-new-one")
      expect(JSON.stringify(audit.rows)).not.toContain("filepw")
    }).pipe(Effect.provide(serversController([audit.plugin])))
  })

  it.scopedLive("admin may set every one of them", () =>
    Effect.gen(function* () {
      const a = created(yield* call("POST", "/api/servers", { as: ADMIN, json: { name: "A", installDir: fakeInstall() } }))
      const elsewhere = fakeInstall()
      const moved = yield* call("PATCH", `/api/servers/${a}`, {
        as: ADMIN,
        json: {
          installDir: elsewhere,
          executable: "DayZServer",
          configFile: "/etc/garrison-test/serverDZ.cfg",
          extraArgs: ["-storage=/srv/storage"],
          rcon: { host: "127.0.0.2", port: 2999, password: "pw-2" },
          agent: { url: "http://127.0.0.1:9100", apiKey: "key-2" }
        }
      })
      expect(moved.status, JSON.stringify(moved.body)).toBe(200)
      expect(yield* Effect.flatMap(ServerEntries, (e) => e.get(a))).toMatchObject({
        installDir: elsewhere,
        configFile: "/etc/garrison-test/serverDZ.cfg",
        rcon: { host: "127.0.0.2", port: 2999, password: "pw-2" },
        agent: { url: "http://127.0.0.1:9100", apiKey: "key-2" }
      })
    }).pipe(Effect.provide(serversController())))

  it.scopedLive("a deployer adds installs under SERVERS_ROOT only, with the stock binary and RCON from the BattlEye config", () =>
    Effect.gen(function* () {
      const deployer = "dep:server.deploy"
      // The testkit's SERVERS_ROOT is the run's temporary folder, where fakeInstall makes installs.
      created(yield* call("POST", "/api/servers", { as: deployer, json: { name: "Inside", installDir: fakeInstall() } }))
      expectRefused(yield* call("POST", "/api/servers", { as: deployer, json: { name: "Root", installDir: "/usr/lib" } }), "installDir")
      expectRefused(yield* call("POST", "/api/servers", { as: deployer, json: { name: "X", installDir: fakeInstall(), executable: "run.sh" } }), "executable")
      expectRefused(
        yield* call("POST", "/api/servers", { as: deployer, json: { name: "X", installDir: fakeInstall(), rcon: { port: 2999 } } }),
        "rcon.port"
      )
      expectRefused(
        yield* call("POST", "/api/servers", { as: deployer, json: { name: "X", installDir: fakeInstall(), agent: { url: "http://127.0.0.1:9", apiKey: "k" } } }),
        "agent.url"
      )
      const names = (yield* Effect.flatMap(ServerEntries, (e) => e.list)).map((e) => e.name)
      expect(names).toEqual(["Inside"])
    }).pipe(Effect.provide(serversController())))

  it.scopedLive("without SERVERS_ROOT only an admin adds an existing install", () =>
    Effect.gen(function* () {
      const refused = yield* call("POST", "/api/servers", { as: "dep:server.deploy", json: { name: "X", installDir: fakeInstall() } })
      expectRefused(refused, "installDir")
      expect(String(refused.body.message)).toContain("SERVERS_ROOT is not set")
      created(yield* call("POST", "/api/servers", { as: ADMIN, json: { name: "X", installDir: fakeInstall() } }))
    }).pipe(Effect.provide(serversController([], undefined, undefined, { SERVERS_ROOT: "" }))))
})
