/**
 * The routes issues 27 and 28 changed, as a moderator whose role is scoped
 * to server A sees them: every route about server B is 403 and its answer
 * holds nothing of B (name, folder, files, secrets, backups, jobs, config,
 * updates, rollouts, bans, event streams); the routes that are not about
 * one server (create, detect, restore, mod jobs, notifications, the
 * permission list) are refused or show A's part only; and what the
 * moderator reaches on A stays inside A: no host-level field, no other
 * folder, no secret.
 */
import { describe, expect, it } from "@effect/vitest"
import { callWithText as call, eventually, fakeFleet, fakeInstall, request, requestBytes, testController, unzipEntries } from "@garrison/testkit"
import { Effect, LogLevel } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { AccountsPlugin } from "../../src/accounts/index.js"
import { ActionsPlugin } from "../../src/actions/index.js"
import { AuditPlugin } from "../../src/audit/index.js"
import { BackupsPlugin } from "../../src/backups/index.js"
import { BansPlugin } from "../../src/bans/index.js"
import { ChatPlugin, chatSignature } from "../../src/chat/index.js"
import { TrustPlugin } from "../../src/trust/index.js"
import { GameLogPlugin } from "../../src/gamelog/index.js"
import { MapsPlugin } from "../../src/maps/index.js"
import { WatchlistPlugin } from "../../src/watchlist/index.js"
import { SystemPlugin } from "../../src/system/index.js"
import { CloudPlugin } from "../../src/cloud/index.js"
import { ConfigPlugin } from "../../src/config/index.js"
import { DangerzonePlugin } from "../../src/dangerzone/index.js"
import { FilesPlugin } from "../../src/files/index.js"
import { LicensePlugin } from "../../src/license/index.js"
import { ModsPlugin } from "../../src/mods/index.js"
import { Notifications, NotificationsPlugin } from "../../src/notifications/index.js"
import { PlatformPlugin } from "../../src/platform/index.js"
import { PlayersPlugin } from "../../src/players/index.js"
import { PriorityPlugin } from "../../src/priority/index.js"
import { RolloutPlugin } from "../../src/rollout/index.js"
import { SchedulerPlugin } from "../../src/scheduler/index.js"
import { StorePlugin } from "../../src/store/index.js"
import { TypesPlugin } from "../../src/types/index.js"
import { UpdatesPlugin } from "../../src/updates/index.js"
import { WebhooksPlugin } from "../../src/webhooks/index.js"

const ADMIN = "root:admin"
/** A DayZ ID of the right shape for a name (the tests need no real Steam64 behind it). */
const dayzId = (name: string) => `${Buffer.from(name.padEnd(32, "_")).toString("base64url").slice(0, 43)}=`
const B_SECRET = "b-join-secret"
const BOT_KEY = "gcb_scoped-routes-bot-key-0123456789abcdefghijk"
const PERMISSIONS = ["server.deploy", "server.config", "server.restart", "server.rcon", "server.view", "players.view", "players.kick", "players.ban", "mods.view", "mods.install"]

const setup = () =>
  testController<Notifications>(
    [
      fakeFleet().plugin,
      AuditPlugin,
      AccountsPlugin,
      NotificationsPlugin,
      PlayersPlugin,
      PriorityPlugin,
      BansPlugin,
      PlatformPlugin,
      ModsPlugin,
      UpdatesPlugin,
      RolloutPlugin,
      SchedulerPlugin,
      ConfigPlugin,
      FilesPlugin,
      BackupsPlugin,
      ActionsPlugin,
      TypesPlugin,
      DangerzonePlugin,
      LicensePlugin,
      CloudPlugin,
      WebhooksPlugin,
      StorePlugin,
      ChatPlugin,
      TrustPlugin,
      MapsPlugin,
      GameLogPlugin,
      WatchlistPlugin,
      SystemPlugin
    ],
    {
      dataPrefix: "garrison-scoped-",
      logLevel: LogLevel.Error,
      config: {
        RATE_LIMIT_API: "off",
        RATE_LIMIT_CHAT: "off",
        ADMIN_USERNAME: "admin",
        ADMIN_PASSWORD: "a passphrase for the test controller",
        CHAT_BOT_API_KEY: BOT_KEY,
        GAMELOG_POLL_INTERVAL: "200 millis"
      }
    }
  )

/** The newest backup of a server once its backup has ended (as `as` sees the status). */
const backupMade = (serverId: string, as: string) =>
  Effect.map(
    eventually(call("GET", `/api/servers/${serverId}/backup-status`, { as }), (reply) => (reply.body as { state: string }).state === "done"),
    (reply) => (reply.body as { filename: string }).filename
  )

const twoServers = Effect.gen(function* () {
  const make = (name: string, gamePort: number) =>
    Effect.gen(function* () {
      const dir = fakeInstall()
      Fs.writeFileSync(NodePath.join(dir, "serverDZ.cfg"), `hostname = "${name}";\npassword = "${name === "B" ? B_SECRET : "a-secret"}";\n`)
      const created = yield* call("POST", "/api/servers", { as: ADMIN, json: { name, installDir: dir, gamePort } })
      expect(created.status, created.text).toBe(201)
      return { id: String((created.body as { id: string }).id), dir }
    })
  const a = yield* make("A", 2302)
  const b = yield* make("B", 2402)
  // A backup of B, to try to download.
  expect((yield* call("POST", `/api/servers/${b.id}/backups`, { as: ADMIN })).status).toBe(202)
  const backup = yield* backupMade(b.id, ADMIN)
  const moderator = `mod:${PERMISSIONS.map((p) => `${p}@${a.id}`).join(",")}`
  return { a, b, backup, moderator }
})

/** Nothing of B in an answer: its id, folder, name in its config, its secret. */
const holdsNothingOf = (text: string, b: { readonly id: string; readonly dir: string }) => {
  expect(text).not.toContain(b.dir)
  expect(text).not.toContain(B_SECRET)
  expect(text).not.toContain('hostname = "B"')
}

describe("routes changed by issues 27 and 28, as a moderator scoped to server A", () => {
  it.scopedLive("every route about server B is 403 and tells nothing of B", () =>
    Effect.gen(function* () {
      const { b, backup, moderator } = yield* twoServers
      const routes: ReadonlyArray<readonly [string, string, unknown?]> = [
        ["PATCH", `/api/servers/${b.id}`, { name: "mine now" }],
        ["GET", `/api/servers/${b.id}/files?path=`],
        ["GET", `/api/servers/${b.id}/files/read?path=serverDZ.cfg`],
        ["PUT", `/api/servers/${b.id}/files/write`, { path: "notes.txt", content: "x" }],
        ["GET", `/api/servers/${b.id}/backups`],
        ["GET", `/api/servers/${b.id}/backups/${backup}/download`],
        ["GET", `/api/servers/${b.id}/backups/${backup}/download?secrets=include`],
        ["GET", `/api/servers/${b.id}/backups/${backup}/contents`],
        ["POST", `/api/servers/${b.id}/backups/${backup}/restore`],
        ["PUT", `/api/servers/${b.id}/backup-config`, { paths: ["battleye"] }],
        ["GET", `/api/servers/${b.id}/backup-status/events`],
        ["GET", `/api/servers/${b.id}/actions/capabilities`],
        ["POST", `/api/servers/${b.id}/actions/heal`, { platformId: "76561198012345678" }]
      ]
      for (const [method, path, json] of routes) {
        const reply = yield* call(method as "GET", path, { as: moderator, ...(json === undefined ? {} : { json }) })
        expect(reply.status, `${method} ${path}: ${reply.text}`).toBe(403)
        holdsNothingOf(reply.text, b)
      }
      expect(Fs.existsSync(NodePath.join(b.dir, "notes.txt"))).toBe(false)
    }).pipe(Effect.provide(setup())))

  it.scopedLive("the routes about no one server refuse a scoped role, or show its server only", () =>
    Effect.gen(function* () {
      const { a, b, moderator } = yield* twoServers
      for (const [method, path, json] of [
        ["POST", "/api/servers", { name: "Mine", installDir: fakeInstall() }],
        ["POST", "/api/servers/detect", { installDir: b.dir }],
        ["GET", "/api/backup/servers", undefined],
        ["POST", "/api/restore/servers", { kind: "garrison.servers", version: 1, servers: [] }]
      ] as const) {
        const reply = yield* call(method, path, { as: moderator, ...(json === undefined ? {} : { json }) })
        expect(reply.status, `${method} ${path}: ${reply.text}`).toBe(403)
        holdsNothingOf(reply.text, b)
      }
      // A mods viewer everywhere whose server rights name A: A's jobs only (list and stream).
      const viewer = `vic:mods.view,server.view@${a.id}`
      const jobs = yield* call("GET", "/api/mods/install-status", { as: viewer })
      expect(jobs.status).toBe(200)
      holdsNothingOf(jobs.text, b)
      const stream = yield* request("GET", "/api/mods/install-status/events", { as: viewer })
      expect(stream.status).toBe(200)
      expect(stream.text).not.toContain(b.id)
      // The list of servers names A alone.
      const listed = yield* call("GET", "/api/servers", { as: moderator })
      expect(listed.text).toContain(a.id)
      expect(listed.text).not.toContain(b.id)
    }).pipe(Effect.provide(setup())))

  it.scopedLive("on server A it reaches nothing beyond A: no host field, no other folder, no secret in files or downloads", () =>
    Effect.gen(function* () {
      const { a, b, moderator } = yield* twoServers
      // Host-level fields, including a move into or over B.
      for (const json of [{ installDir: b.dir }, { installDir: NodePath.dirname(b.dir) }, { executable: "/bin/sh" }, { configFile: NodePath.join(b.dir, "serverDZ.cfg") }, { agent: { url: "http://127.0.0.1:22" } }]) {
        const reply = yield* call("PATCH", `/api/servers/${a.id}`, { as: moderator, json })
        expect(reply.status, `${JSON.stringify(json)}: ${reply.text}`).toBe(403)
      }
      // The file editor: confined to A, no program written, secrets masked.
      for (const path of ["../" + NodePath.basename(b.dir) + "/serverDZ.cfg", NodePath.join(b.dir, "serverDZ.cfg"), "/etc/hostname"]) {
        const reply = yield* call("GET", `/api/servers/${a.id}/files/read?path=${encodeURIComponent(path)}`, { as: moderator })
        expect(reply.status, `${path}: ${reply.text}`).toBe(400)
        // (The refusal names the path it was given; nothing read from it.)
        expect(reply.text).not.toContain(B_SECRET)
        expect(reply.text).not.toContain('hostname = "B"')
      }
      expect((yield* call("PUT", `/api/servers/${a.id}/files/write`, { as: moderator, json: { path: "DayZServer", content: "#!/bin/sh\n" } })).status).toBe(403)
      const cfg = yield* call("GET", `/api/servers/${a.id}/files/read?path=serverDZ.cfg`, { as: moderator })
      expect(cfg.status).toBe(200)
      expect(cfg.text).not.toContain("a-secret")
      // Backups of A: paths widened to the BattlEye folder still download masked; the whole zip is an admin's.
      expect((yield* call("PUT", `/api/servers/${a.id}/backup-config`, { as: moderator, json: { paths: ["battleye", "serverDZ.cfg"] } })).status).toBe(200)
      expect((yield* call("PUT", `/api/servers/${a.id}/backup-config`, { as: moderator, json: { paths: ["."] } })).status).toBe(400)
      expect((yield* call("POST", `/api/servers/${a.id}/backups`, { as: moderator })).status).toBe(202)
      const filename = yield* backupMade(a.id, moderator)
      const download = yield* requestBytes("GET", `/api/servers/${a.id}/backups/${filename}/download`, { as: moderator })
      expect(download.status).toBe(200)
      const unpacked = [...(yield* Effect.promise(() => unzipEntries(Buffer.from(download.bytes)))).values()].map((bytes) => bytes.toString("utf8")).join("\n")
      expect(unpacked).toContain("RConPassword ********")
      expect(unpacked).not.toContain("a-secret")
      expect(unpacked).not.toContain("filepw")
      expect((yield* call("GET", `/api/servers/${a.id}/backups/${filename}/download?secrets=include`, { as: moderator })).status).toBe(403)
    }).pipe(Effect.provide(setup())))

  it.scopedLive("routes changed by issue 28 (config, updates, rollouts, player bans, permissions, notifications): nothing of B, nothing beyond A", () =>
    Effect.gen(function* () {
      const { a, b, moderator } = yield* twoServers
      // About B: refused, and the refusal tells nothing of B.
      const aboutB: ReadonlyArray<readonly [string, string, unknown?]> = [
        ["GET", `/api/servers/${b.id}/config`],
        ["PATCH", `/api/servers/${b.id}/config`, { hostname: "mine" }],
        ["GET", `/api/servers/${b.id}/config/templates`],
        ["GET", `/api/servers/${b.id}/update/status`],
        ["GET", `/api/servers/${b.id}/update/events`],
        ["POST", `/api/servers/${b.id}/update`],
        ["POST", `/api/servers/${b.id}/update/cancel`],
        ["GET", `/api/servers/${b.id}/rollout/status`],
        ["GET", `/api/servers/${b.id}/rollout/events`],
        ["POST", `/api/servers/${b.id}/rollout`, { mods: [] }],
        ["POST", `/api/servers/${b.id}/players/76561198012345678/ban`, { reason: "r" }]
      ]
      for (const [method, path, json] of aboutB) {
        const reply = yield* call(method as "GET", path, { as: moderator, ...(json === undefined ? {} : { json }) })
        expect(reply.status, `${method} ${path}: ${reply.text}`).toBe(403)
        holdsNothingOf(reply.text, b)
      }
      // The permission list is an admin's.
      expect((yield* call("GET", "/api/permissions", { as: moderator })).status).toBe(403)
      // Notifications about B (a crash alert's audience, and one for everyone) never reach A's moderator; A's do.
      const notifications = yield* Notifications
      yield* notifications.publish({ audience: { permission: "server.view" }, serverId: b.id, level: "error", title: "B crashed", message: `in ${b.dir}` })
      yield* notifications.publish({ audience: "all", serverId: b.id, level: "info", title: "B for all", message: `in ${b.dir}` })
      yield* notifications.publish({ audience: { permission: "server.view" }, serverId: a.id, level: "error", title: "A crashed", message: "A" })
      const inbox = yield* call("GET", "/api/notifications", { as: moderator })
      expect((inbox.body as { items: ReadonlyArray<{ title: string }> }).items.map((n) => n.title)).toEqual(["A crashed"])
      holdsNothingOf(inbox.text, b)
      // On A: the config shows no password, update and rollout status nothing of B.
      const config = yield* call("GET", `/api/servers/${a.id}/config`, { as: moderator })
      expect(config.status, config.text).toBe(200)
      expect(config.text).not.toContain("a-secret")
      for (const path of [`/api/servers/${a.id}/update/status`, `/api/servers/${a.id}/rollout/status`]) {
        const reply = yield* call("GET", path, { as: moderator })
        expect(reply.status, `${path}: ${reply.text}`).toBe(200)
        holdsNothingOf(reply.text, b)
      }
    }).pipe(Effect.provide(setup())))

  it.scopedLive("routes changed later (mods, types, dangerzone, scheduler, bans, conditional writes): nothing of B, nothing beyond A", () =>
    Effect.gen(function* () {
      const { a, b, moderator } = yield* twoServers
      const refused = (method: string, path: string, json?: unknown) =>
        Effect.gen(function* () {
          const reply = yield* call(method as "GET", path, { as: moderator, ...(json === undefined ? {} : { json }) })
          expect(reply.status, `${method} ${path}: ${reply.text}`).toBe(403)
          holdsNothingOf(reply.text, b)
        })
      // About B: the mods' file work, the types editor, the dangerzone, the scheduler.
      for (const [method, path, json] of [
        ["GET", `/api/servers/${b.id}/mods`],
        ["POST", `/api/servers/${b.id}/mods/install`, { workshopId: "1559212036" }],
        ["DELETE", `/api/servers/${b.id}/mods/uninstall/1559212036`],
        ["PATCH", `/api/servers/${b.id}/mods/1559212036`, { enabled: false }],
        ["POST", `/api/servers/${b.id}/mods/update-all`],
        ["GET", `/api/servers/${b.id}/types/files`],
        ["GET", `/api/servers/${b.id}/types/items?file=db/types.xml`],
        ["GET", `/api/servers/${b.id}/dangerzone/wipe-presets`],
        ["GET", `/api/servers/${b.id}/dangerzone/logs-scan`],
        ["POST", `/api/servers/${b.id}/dangerzone/wipe`, { preset: "full", confirmName: "B" }],
        ["GET", `/api/servers/${b.id}/scheduler`],
        ["POST", `/api/servers/${b.id}/scheduler`, { kind: "apply-updates", cron: "0 4 * * *" }]
      ] as ReadonlyArray<readonly [string, string, unknown?]>) {
        yield* refused(method, path, json)
      }
      // The dangerzone is an admin's, on A too (and a replicate from B into A most of all); so are the global bans.
      yield* refused("GET", `/api/servers/${a.id}/dangerzone/wipe-presets`)
      yield* refused("POST", `/api/servers/${a.id}/dangerzone/replicate-preview`, { sourceServerId: b.id, components: ["config"] })
      yield* refused("POST", "/api/bans", { platformId: "76561198012345678", playerName: "P", reason: "r" })
      yield* refused("GET", "/api/bans/export")
      // On A: a stale version is 412 with A's own version, nothing of B and no secret.
      const stale = { "if-match": 'W/"stale"' }
      const config = yield* call("PATCH", `/api/servers/${a.id}/config`, { as: moderator, json: { hostname: "A2" }, headers: stale })
      expect(config.status, config.text).toBe(412)
      expect((config.body as { details: { etag: string } }).details.etag).toMatch(/^W\//)
      expect(config.text).not.toContain("a-secret")
      holdsNothingOf(config.text, b)
      const write = yield* call("PUT", `/api/servers/${a.id}/files/write`, { as: moderator, json: { path: "serverDZ.cfg", content: "x", etag: 'W/"stale"' } })
      expect(write.status, write.text).toBe(412)
      expect(write.text).not.toContain("a-secret")
      holdsNothingOf(write.text, b)
      expect(Fs.readFileSync(NodePath.join(a.dir, "serverDZ.cfg"), "utf8")).toContain('hostname = "A"')
      // The types editor reads A's mission only (A's config names none: a 409 that names A's file, nothing of B).
      const types = yield* call("GET", `/api/servers/${a.id}/types/files`, { as: moderator })
      expect([200, 409], types.text).toContain(types.status)
      holdsNothingOf(types.text, b)
      // A scheduled "apply updates" on A is A's job; the list shows A's jobs only.
      expect((yield* call("POST", `/api/servers/${a.id}/scheduler`, { as: moderator, json: { kind: "apply-updates", cron: "0 4 * * *" } })).status).toBe(201)
      const jobs = yield* call("GET", `/api/servers/${a.id}/scheduler`, { as: moderator })
      expect(jobs.status).toBe(200)
      holdsNothingOf(jobs.text, b)
      // Mods of A: listed, nothing of B.
      const mods = yield* call("GET", `/api/servers/${a.id}/mods`, { as: moderator })
      expect(mods.status).toBe(200)
      holdsNothingOf(mods.text, b)
    }).pipe(Effect.provide(setup())))

  it.scopedLive("routes changed by issues 29 and 30 (audit names and filter, JSON lists, NUL refusals): nothing of B, nothing beyond A", () =>
    Effect.gen(function* () {
      const { a, b, moderator } = yield* twoServers
      // B renamed by the admin: an audit row about B the moderator must not read.
      expect((yield* call("PATCH", `/api/servers/${b.id}`, { as: ADMIN, json: { name: "B renamed" } })).status).toBe(200)
      // The audit trail (names and the actor filter) is an admin's: refused, by id or by name, with nothing of B.
      for (const path of ["/api/audit", "/api/audit?actor=admin", "/api/audit?actor=root", `/api/audit?action=servers.`, "/api/audit/verify"]) {
        const reply = yield* call("GET", path, { as: moderator })
        expect(reply.status, `${path}: ${reply.text}`).toBe(403)
        holdsNothingOf(reply.text, b)
        expect(reply.text).not.toContain("B renamed")
      }
      // The lists whose JSON the database now writes per engine: global lists a scoped role cannot read.
      for (const path of ["/api/bans?limit=5", "/api/bans/export", "/api/priority-queue", "/api/priority-queue/export"]) {
        const reply = yield* call("GET", path, { as: moderator })
        expect(reply.status, `${path}: ${reply.text}`).toBe(403)
        holdsNothingOf(reply.text, b)
      }
      // A NUL in a stored text field is a 400 naming the field, on A; on B a 403 before anything is read.
      const onA = yield* call("PATCH", `/api/servers/${a.id}`, { as: moderator, json: { name: "A\u0000x" } })
      expect(onA.status, onA.text).toBe(400)
      expect(onA.text).toContain("name must not contain a NUL character")
      holdsNothingOf(onA.text, b)
      const onB = yield* call("PATCH", `/api/servers/${b.id}`, { as: moderator, json: { name: "B\u0000x" } })
      expect(onB.status, onB.text).toBe(403)
      holdsNothingOf(onB.text, b)
      expect(onB.text).not.toContain("B renamed")
      // The admin's audit rows name who acted, and nothing the moderator did on B got in.
      const trail = yield* call("GET", `/api/audit?actor=mod&limit=50`, { as: ADMIN })
      expect(trail.status).toBe(200)
      const rows = (trail.body as { items: ReadonlyArray<{ action: string; target: string | null; actorName: string | null }> }).items
      expect(rows.filter((row) => row.action === "access.denied").every((row) => row.actorName === "mod")).toBe(true)
      expect(rows.some((row) => row.action === "access.denied" && row.target?.includes(b.id) === true)).toBe(true)
    }).pipe(Effect.provide(setup())))

  it.scopedLive("the license and cloud routes: the cloud link is an admin's, for A as for B; the license reads without the host's details", () =>
    Effect.gen(function* () {
      const { a, b, moderator } = yield* twoServers
      for (const [method, path, json] of [
        ["GET", "/api/cloud/status"],
        ["POST", "/api/cloud/enable", { token: "lnk_0123456789abcdef", role: "moderator" }],
        ["POST", "/api/cloud/disable"],
        ["POST", `/api/cloud/connect/${a.id}`],
        ["POST", `/api/cloud/connect/${b.id}`],
        ["POST", `/api/cloud/disconnect/${b.id}`],
        ["POST", `/api/cloud/reconnect/${b.id}`],
        ["POST", "/api/license/activate", { key: "KEY-1" }],
        ["DELETE", "/api/license"]
      ] as ReadonlyArray<readonly [string, string, unknown?]>) {
        const reply = yield* call(method as "GET", path, { as: moderator, ...(json === undefined ? {} : { json }) })
        expect(reply.status, `${method} ${path}: ${reply.text}`).toBe(403)
        holdsNothingOf(reply.text, b)
      }
      const license = yield* call("GET", "/api/license", { as: moderator })
      expect(license.status).toBe(200)
      expect(license.body).toMatchObject({ edition: "community", server: null, machineId: null, publicKey: null })
      expect((yield* call("GET", "/api/license/tiers", { as: moderator })).status).toBe(200)
      // Nothing was mirrored by the refused calls.
      expect((yield* call("GET", "/api/cloud/status", { as: ADMIN })).body).toMatchObject({ servers: [] })
    }).pipe(Effect.provide(setup())))

  it.scopedLive("webhooks are an admin's: a moderator of A reads, changes, tests and backs up none, A's own included", () =>
    Effect.gen(function* () {
      const { a, b, moderator } = yield* twoServers
      const made: Array<string> = []
      for (const [server, token] of [[a.id, "a-hook-token"], [b.id, B_SECRET]] as const) {
        const created = yield* call("POST", "/api/webhooks", {
          as: ADMIN,
          json: { name: `hook-${server}`, url: `https://hooks.example.com/h/${token}`, events: [{ pattern: "server.*" }], servers: [server], enabled: false }
        })
        expect(created.status, created.text).toBe(201)
        made.push(String((created.body as { id: string }).id))
      }
      for (const id of made) {
        for (const [method, path, json] of [
          ["GET", "/api/webhooks"],
          ["GET", "/api/webhooks/events"],
          ["POST", "/api/webhooks", { name: "mine", url: "https://hooks.example.com/x", events: [{ pattern: "*" }], servers: [a.id] }],
          ["GET", `/api/webhooks/${id}`],
          ["PATCH", `/api/webhooks/${id}`, { enabled: true }],
          ["DELETE", `/api/webhooks/${id}`],
          ["POST", `/api/webhooks/${id}/rotate-secret`],
          ["GET", `/api/webhooks/${id}/deliveries`],
          ["POST", `/api/webhooks/${id}/test`],
          ["POST", `/api/webhooks/${id}/deliveries/00000000-0000-4000-8000-000000000000/replay`],
          ["GET", "/api/backup/webhooks?secrets=include"],
          ["POST", "/api/restore/webhooks", { kind: "garrison.webhooks", version: 1, webhooks: [] }]
        ] as ReadonlyArray<readonly [string, string, unknown?]>) {
          const reply = yield* call(method as "GET", path, { as: moderator, ...(json === undefined ? {} : { json }) })
          expect(reply.status, `${method} ${path}: ${reply.text}`).toBe(403)
          holdsNothingOf(reply.text, b)
          expect(reply.text).not.toContain("a-hook-token")
          expect(reply.text).not.toContain("hook-")
        }
      }
      // Nothing changed.
      const listed = yield* call("GET", "/api/webhooks", { as: ADMIN })
      expect(listed.body).toMatchObject({ total: 2, items: [{ enabled: false }, { enabled: false }] })
    }).pipe(Effect.provide(setup())))
  it.scopedLive("routes changed by issue 31 (kick events, config templates' bytes, the VIP store): nothing of B, nothing beyond A, no payment secret", () =>
    Effect.gen(function* () {
      const { a, b, moderator } = yield* twoServers
      // B's template, made by an admin, for the moderator to try.
      const bTemplate = yield* call("POST", `/api/servers/${b.id}/config/templates`, { as: ADMIN, json: { name: "b-template" } })
      expect(bTemplate.status, bTemplate.text).toBe(201)
      const bTemplateId = String((bTemplate.body as { id: string }).id)
      const aboutB: ReadonlyArray<readonly [string, string, unknown?]> = [
        ["POST", `/api/servers/${b.id}/players/76561198012345678/kick`, { reason: "r" }],
        ["POST", `/api/servers/${b.id}/config/templates`, { name: "mine" }],
        ["POST", `/api/servers/${b.id}/config/templates/${bTemplateId}/restore`],
        ["DELETE", `/api/servers/${b.id}/config/templates/${bTemplateId}`]
      ]
      for (const [method, path, json] of aboutB) {
        const reply = yield* call(method as "GET", path, { as: moderator, ...(json === undefined ? {} : { json }) })
        expect(reply.status, `${method} ${path}: ${reply.text}`).toBe(403)
        holdsNothingOf(reply.text, b)
        expect(reply.text).not.toContain("b-template")
      }
      // B's template is still there, B's file untouched.
      expect(((yield* call("GET", `/api/servers/${b.id}/config/templates`, { as: ADMIN })).body as { items: ReadonlyArray<unknown> }).items).toHaveLength(1)
      expect(Fs.readFileSync(NodePath.join(b.dir, "serverDZ.cfg"), "utf8")).toContain(B_SECRET)
      // A's own template through B's: a template id of B on A's path is not found, and B's file is not written.
      const crossed = yield* call("POST", `/api/servers/${a.id}/config/templates/${bTemplateId}/restore`, { as: moderator })
      expect(crossed.status, crossed.text).toBe(404)
      holdsNothingOf(crossed.text, b)
      expect(Fs.readFileSync(NodePath.join(a.dir, "serverDZ.cfg"), "utf8")).not.toContain(B_SECRET)
      // On A: a template saves and lists as metadata only, never the file's text (it holds A's password).
      const saved = yield* call("POST", `/api/servers/${a.id}/config/templates`, { as: moderator, json: { name: "a-template" } })
      expect(saved.status, saved.text).toBe(201)
      const listed = yield* call("GET", `/api/servers/${a.id}/config/templates`, { as: moderator })
      expect(listed.text).toContain("a-template")
      expect(listed.text).not.toContain("a-secret")
      expect(listed.text).not.toContain("b-template")

      // The store: its admin routes are an admin's; the payment settings never answer their secrets, to anyone.
      const configured = yield* call("POST", "/api/store/admin/payment-config", {
        as: ADMIN,
        json: { baseUrl: "https://payments.example.com", secretKey: "sk_test_scopedSECRET4242", webhookSecret: "whsec_scopedSECRET" }
      })
      expect(configured.status, configured.text).toBe(200)
      for (const [method, path, json] of [
        ["GET", "/api/store/admin/products"],
        ["POST", "/api/store/admin/products", { name: "VIP", role: "VIP", price: "4.99", duration: "30d" }],
        ["PATCH", "/api/store/admin/products/p1", { active: false }],
        ["DELETE", "/api/store/admin/products/p1"],
        ["GET", "/api/store/admin/purchases"],
        ["GET", "/api/store/admin/payment-config"],
        ["POST", "/api/store/admin/payment-config", { enabled: true }]
      ] as ReadonlyArray<readonly [string, string, unknown?]>) {
        const reply = yield* call(method as "GET", path, { as: moderator, ...(json === undefined ? {} : { json }) })
        expect(reply.status, `${method} ${path}: ${reply.text}`).toBe(403)
        expect(reply.text).not.toContain("SECRET")
      }
      for (const [as, path] of [[moderator, "/api/store/status"], [moderator, "/api/store/products"], [ADMIN, "/api/store/admin/payment-config"]] as const) {
        const reply = yield* call("GET", path, { as })
        expect(reply.status, `${path}: ${reply.text}`).toBe(200)
        expect(reply.text).not.toContain("SECRET")
        holdsNothingOf(reply.text, b)
      }
      // A signed-in moderator may start a checkout (any signed-in user may buy); the store is closed, so nothing is made.
      const checkout = yield* call("POST", "/api/store/checkout", { as: moderator, json: { productId: "p1", platformId: "76561198012345678", playerName: "Mod" } })
      expect(checkout.status, checkout.text).toBe(409)
      expect(((yield* call("GET", "/api/store/admin/purchases", { as: ADMIN })).body as { items: ReadonlyArray<unknown> }).items).toEqual([])
    }).pipe(Effect.provide(setup())))

  it.scopedLive("the writes whose events are staged now (priority queue, bans): a grant scoped to A changes none, and stages nothing", () =>
    Effect.gen(function* () {
      const { a, b } = yield* twoServers
      // Global permissions granted on A only: they reach no global list.
      const scoped = `pq:${["priority.manage", "bans.manage", "players.ban"].map((p) => `${p}@${a.id}`).join(",")}`
      const hook = yield* call("POST", "/api/webhooks", {
        as: ADMIN,
        json: { name: "everything", url: "https://hooks.example.com/h/all", events: [{ pattern: "*" }] }
      })
      expect(hook.status, hook.text).toBe(201)
      const hookId = String((hook.body as { id: string }).id)
      const entry = yield* call("POST", "/api/priority-queue", { as: ADMIN, json: { platformId: "76561198012345670", name: "Kept", role: "VIP", expiresAt: null } })
      expect(entry.status, entry.text).toBe(201)
      const entryId = String((entry.body as { id: string }).id)
      const ban = yield* call("POST", "/api/bans", { as: ADMIN, json: { platformId: "76561198012345671", playerName: "Kept", reason: "r" } })
      expect(ban.status, ban.text).toBe(201)
      const banId = String((ban.body as { id: string }).id)
      const logged = () =>
        Effect.map(call("GET", `/api/webhooks/${hookId}/deliveries?limit=200`, { as: ADMIN }), (reply) => (reply.body as { items: ReadonlyArray<unknown> }).items.length)
      // The admin's two changes are staged and reach the webhook's log.
      yield* eventually(logged(), (n) => n === 2, 10_000, "the admin's two events in the log")

      for (const [method, path, json] of [
        ["POST", "/api/priority-queue", { platformId: "76561198012345672", name: "P", role: "VIP", expiresAt: null }],
        ["PATCH", `/api/priority-queue/${entryId}`, { name: "Changed" }],
        ["DELETE", `/api/priority-queue/${entryId}`],
        ["POST", "/api/priority-queue/import", [{ platformId: "76561198012345673", name: "I", role: "VIP", expiresAt: null }]],
        ["POST", "/api/priority-queue/cleanup"],
        ["POST", "/api/bans", { platformId: "76561198012345674", playerName: "P", reason: "r" }],
        ["DELETE", `/api/bans/${banId}`]
      ] as ReadonlyArray<readonly [string, string, unknown?]>) {
        const reply = yield* call(method as "GET", path, { as: scoped, ...(json === undefined ? {} : { json }) })
        expect(reply.status, `${method} ${path}: ${reply.text}`).toBe(403)
        holdsNothingOf(reply.text, b)
        expect(reply.text).not.toContain("Kept")
      }
      // Nothing changed, and nothing was staged: the log still holds the admin's two events only.
      const entries = (yield* call("GET", "/api/priority-queue", { as: ADMIN })).body as { items: ReadonlyArray<{ name: string }> }
      expect(entries.items.map((e) => e.name)).toEqual(["Kept"])
      expect((yield* call("GET", `/api/bans/${banId}`, { as: ADMIN })).status).toBe(200)
      expect(yield* logged()).toBe(2)
    }).pipe(Effect.provide(setup())))

  it.scopedLive("the chat bot (issue 32): user roles and the bot key are beyond a scoped role; a chat user scoped to A acts on A only and hears nothing of B", () =>
    Effect.gen(function* () {
      const { a, b, moderator } = yield* twoServers
      for (const [method, path, json] of [
        ["GET", "/api/chat/user-roles", undefined],
        ["PUT", "/api/chat/user-roles/1234", { role: "moderator" }],
        ["DELETE", "/api/chat/user-roles/1234", undefined],
        ["GET", "/api/chat/bot-key", undefined],
        ["POST", "/api/chat/bot-key/reveal", undefined],
        ["POST", "/api/chat/bot-key/rotate", undefined]
      ] as const) {
        const reply = yield* call(method, path, { as: moderator, ...(json === undefined ? {} : { json }) })
        expect(reply.status, `${method} ${path}: ${reply.text}`).toBe(403)
        expect(reply.text).not.toContain(BOT_KEY)
      }
      const role = { name: "a-helper", permissions: ["server.view", "server.rcon", "mods.view"].map((permission) => ({ permission, servers: [a.id] })) }
      expect((yield* call("POST", "/api/roles", { as: ADMIN, json: role })).status).toBe(201)
      expect((yield* call("PUT", "/api/chat/user-roles/4242", { as: ADMIN, json: { role: "a-helper" } })).status).toBe(200)
      // One signature per (second, action, user): a second call of an action signs the next second (inside the window).
      const lastTs = new Map<string, number>()
      const chat = (action: string, serverId?: string, params?: Record<string, unknown>) => {
        const ts = Math.max(Math.floor(Date.now() / 1000), (lastTs.get(action) ?? 0) + 1)
        lastTs.set(action, ts)
        return call("POST", "/api/chat/action", {
          headers: { authorization: `Bearer ${BOT_KEY}`, "x-chat-ts": String(ts), "x-chat-sig": chatSignature(BOT_KEY, ts, action, "4242") },
          json: { action, chatUserId: "4242", ...(serverId === undefined ? {} : { serverId }), ...(params === undefined ? {} : { params }) }
        })
      }
      for (const [action, params] of [
        ["status", undefined],
        ["mods", undefined],
        ["message", { message: "hello B" }],
        ["rcon", { command: "#shutdown" }],
        ["lock", undefined]
      ] as const) {
        const reply = yield* chat(action, b.id, params)
        expect(reply.status, `${action} on B: ${reply.text}`).toBe(403)
        holdsNothingOf(reply.text, b)
        expect(reply.text).not.toContain('"B"')
      }
      // The global ban list and priority queue reach every server: a grant scoped to A does not change them, even named on A.
      const lists = { name: "a-lists", permissions: ["server.view", "bans.manage", "priority.manage"].map((permission) => ({ permission, servers: [a.id] })) }
      expect((yield* call("POST", "/api/roles", { as: ADMIN, json: lists })).status).toBe(201)
      expect((yield* call("PUT", "/api/chat/user-roles/4343", { as: ADMIN, json: { role: "a-lists" } })).status).toBe(200)
      const asLists = (action: string, params: Record<string, unknown>) => {
        const ts = Math.floor(Date.now() / 1000)
        return call("POST", "/api/chat/action", {
          headers: { authorization: `Bearer ${BOT_KEY}`, "x-chat-ts": String(ts), "x-chat-sig": chatSignature(BOT_KEY, ts, action, "4343") },
          json: { action, chatUserId: "4343", serverId: a.id, params }
        })
      }
      const banned = yield* asLists("banWhitelist", { op: "ban", platformId: "76561198012345670", reason: "scoped" })
      expect(banned.status, banned.text).toBe(403)
      expect(banned.text).toContain("every server")
      const prioritised = yield* asLists("priorityQueue", { op: "add", platformId: "76561198012345670" })
      expect(prioritised.status, prioritised.text).toBe(403)
      expect(((yield* call("GET", "/api/bans", { as: ADMIN })).body as { items: Array<unknown> }).items).toHaveLength(0)
      expect(((yield* call("GET", "/api/priority-queue", { as: ADMIN })).body as { items: Array<unknown> }).items).toHaveLength(0)
      const listed = yield* chat("servers")
      expect(listed.status, listed.text).toBe(200)
      expect((listed.body as { servers: Array<{ id: string }> }).servers.map((server) => server.id)).toEqual([a.id])
      holdsNothingOf(listed.text, b)
      const onA = yield* chat("status", a.id)
      expect(onA.status, onA.text).toBe(200)
      holdsNothingOf(onA.text, b)
    }).pipe(Effect.provide(setup())))

  it.scopedLive("the trust pool (issue 32) is beyond a role scoped to A: every admin route 403; the public lookup names no server", () =>
    Effect.gen(function* () {
      const { b, moderator } = yield* twoServers
      for (const [method, path, json] of [
        ["GET", "/api/trust/pool", undefined],
        ["POST", "/api/trust/submissions", { banId: "x", reasonCategory: "cheating" }],
        ["GET", "/api/trust/communities", undefined],
        ["PATCH", "/api/trust/communities/local", { weight: 2 }],
        ["GET", "/api/trust/appeals", undefined],
        ["PUT", "/api/trust/chat-links/123456789012345678", { platformId: "76561198012345678" }],
        ["GET", "/api/trust/partner-keys", undefined],
        ["POST", "/api/trust/partner-keys", { name: "mine", tier: "network" }],
        ["GET", "/api/trust/subscriptions", undefined],
        ["POST", "/api/trust/subscriptions", { name: "mine", baseUrl: "http://127.0.0.1:1", partnerKey: "gtp_0123456789abcdef" }]
      ] as const) {
        const reply = yield* call(method, path, { as: moderator, ...(json === undefined ? {} : { json }) })
        expect(reply.status, `${method} ${path}: ${reply.text}`).toBe(403)
      }
      const lookup = yield* call("GET", "/api/v1/trust/76561198012345678")
      expect(lookup.status).toBe(200)
      holdsNothingOf(lookup.text, b)
      const capabilities = yield* call("GET", "/.well-known/service-trust.json")
      expect(capabilities.text).not.toMatch(/"d":|"p":|"q":/)
      holdsNothingOf(capabilities.text, b)
    }).pipe(Effect.provide(setup())))

  it.scopedLive("game data (issue 33): kills, leaderboard, map, log status and watchlist joins of B reach no moderator of A", () =>
    Effect.gen(function* () {
      const { a, b, moderator } = yield* twoServers
      const killLine = (victim: string, killer: string) =>
        `18:03:00 | Player "${victim}" (DEAD) (id=${dayzId(victim)} pos=<1.0, 2.0, 3.0>) killed by Player "${killer}" (id=${dayzId(killer)} pos=<4.0, 5.0, 6.0>) with M4-A1 from 10 meters`
      const writeAdm = (dir: string, lines: ReadonlyArray<string>) => {
        Fs.mkdirSync(NodePath.join(dir, "profiles"), { recursive: true })
        Fs.writeFileSync(NodePath.join(dir, "profiles", "DayZServer_x64_2026-11-21_18-00-00.ADM"), ["AdminLog started on 2026-11-21 at 18:00:00", ...lines].join("\n") + "\n")
      }
      writeAdm(a.dir, [killLine("Avictim", "Akiller")])
      writeAdm(b.dir, [`18:00:01 | Player "Bwatched" is connected (id=${dayzId("Bwatched")})`, killLine("Bvictim", "Bkiller")])
      const watched = yield* call("POST", "/api/watchlist", { as: ADMIN, json: { player: dayzId("Bwatched"), note: "seen on B" } })
      expect(watched.status, watched.text).toBe(201)
      yield* eventually(call("GET", "/api/killfeed", { as: ADMIN }), (reply) => (reply.body as { items: Array<unknown> }).items.length === 2)
      yield* eventually(call("GET", "/api/watchlist", { as: ADMIN }), (reply) => (reply.body as { items: Array<{ lastJoinedServerId: string | null }> }).items[0]?.lastJoinedServerId === b.id)

      const feed = yield* call("GET", "/api/killfeed", { as: moderator })
      expect((feed.body as { items: Array<{ serverId: string }> }).items.map((k) => k.serverId)).toEqual([a.id])
      expect(feed.text).not.toContain("Bkiller")
      expect((yield* call("GET", `/api/killfeed?serverId=${b.id}`, { as: moderator })).text).not.toContain("Bkiller")
      const board = yield* call("GET", "/api/leaderboard", { as: moderator })
      expect(board.text).toContain("Akiller")
      expect(board.text).not.toContain("Bkiller")
      expect((yield* call("GET", `/api/leaderboard?serverId=${b.id}`, { as: moderator })).status).toBe(404)
      const seasons = yield* call("GET", "/api/leaderboard/seasons", { as: moderator })
      expect((seasons.body as { items: Array<{ serverId: string }> }).items.map((s) => s.serverId)).toEqual([a.id])
      for (const [method, path, json] of [
        ["GET", `/api/servers/${b.id}/map`, undefined],
        ["GET", `/api/servers/${b.id}/map/players`, undefined],
        ["GET", `/api/servers/${b.id}/map/stream`, undefined],
        ["GET", `/api/servers/${b.id}/gamelog`, undefined],
        ["POST", `/api/servers/${b.id}/leaderboard/seasons`, { reason: "mine" }]
      ] as const) {
        const reply = yield* call(method, path, { as: moderator, ...(json === undefined ? {} : { json }) })
        expect(reply.status, `${method} ${path}: ${reply.text}`).toBe(403)
        holdsNothingOf(reply.text, b)
      }
      // On A: the map and the log status say nothing of the host (no folder) or of A's config beyond its mission.
      for (const path of [`/api/servers/${a.id}/map`, `/api/servers/${a.id}/map/players?offlineHours=24`, `/api/servers/${a.id}/gamelog`]) {
        const reply = yield* call("GET", path, { as: moderator })
        expect(reply.status, `${path}: ${reply.text}`).toBe(200)
        expect(reply.text).not.toContain(a.dir)
        expect(reply.text).not.toContain("a-secret")
        holdsNothingOf(reply.text, b)
      }
      // players.view scoped to A does not open the history of every server.
      expect((yield* call("GET", "/api/player-history", { as: moderator })).status).toBe(403)
      const list = yield* call("GET", "/api/watchlist", { as: moderator })
      expect((list.body as { items: Array<{ lastJoinedServerId: string | null; lastJoinedAt: string | null }> }).items[0]).toMatchObject({ lastJoinedServerId: null, lastJoinedAt: null })
      expect(list.text).not.toContain(b.id)
    }).pipe(Effect.provide(setup())))
})
