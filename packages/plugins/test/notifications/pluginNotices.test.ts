/**
 * What other plugins notify, through their own bus handlers (the ones each
 * plugin registers, taken from the plugin values): a rollout done, rolled
 * back or failed, a game update finished or failed, a mod updated or a mod
 * job failed, a backup failed, a scheduled restart or stop that ran and any
 * scheduled run that failed. One notification per event, about the server
 * (its name, what happened, the reason or version), for whoever may view
 * it; skipped runs and routine scheduled messages are not notified.
 */
import { describe, expect, it } from "@effect/vitest"
import { type AnyPlugin, EventBus, Plugin } from "@garrison/runtime"
import { fakeFleet, fakeInstall, testController } from "@garrison/testkit"
import { Effect } from "effect"
import { BackupFailed, BackupsPlugin } from "../../src/backups/index.js"
import { ModJobFailed, ModsPlugin, ModUpdated } from "../../src/mods/index.js"
import { RolloutCompleted, RolloutFailed, RolloutPlugin, RolloutRolledBack } from "../../src/rollout/index.js"
import { ScheduledJobRan, SchedulerPlugin } from "../../src/scheduler/index.js"
import { ServerUpdated, ServerUpdateFailed, UpdatesPlugin } from "../../src/updates/index.js"
import { NotificationsPlugin } from "../../src/notifications/index.js"
import { call, eventually } from "./support.js"

interface Item {
  readonly title: string
  readonly message: string
  readonly level: string
  readonly serverId: string | null
  readonly link: string | null
}

const items = (as: string) => Effect.map(call("GET", "/api/notifications?limit=200", { as }), (reply) => (reply.body as { readonly items: ReadonlyArray<Item> }).items)

/** The notification handlers the plugins register (named `notify...`), under a plugin of their own: the rest of each plugin is not loaded. */
const notices = Plugin.make({
  id: "plugin-notices",
  events: ([RolloutPlugin, UpdatesPlugin, ModsPlugin, BackupsPlugin, SchedulerPlugin] as ReadonlyArray<AnyPlugin>).flatMap((plugin) =>
    plugin.events.filter((handler) => handler.name.startsWith("notify"))
  )
})

describe("notifications from other plugins' events", () => {
  it.scopedLive("one per event, for whoever may view the server, naming it and what happened", () => {
    const fleet = fakeFleet()
    return Effect.gen(function* () {
      const made = yield* call("POST", "/api/servers", { as: "root:admin", json: { name: "Main", installDir: fakeInstall() } })
      expect(made.status).toBe(201)
      const serverId = String((made.body as { id: string }).id)
      const mods = [{ workshopId: "1559212036", name: "CF" }]
      const events = [
        new RolloutCompleted({ serverId, name: "Main", mods, server: false, by: "alice" }),
        new RolloutRolledBack({ serverId, name: "Main", mods, reason: "the server crashed within the check window", recovered: true, by: "scheduler" }),
        new RolloutFailed({ serverId, name: "Main", error: "download failed, the server was not touched: timed out", by: "alice" }),
        new ServerUpdated({ serverId, name: "Main", kind: "update", appId: "223350", buildId: "17428731", by: "alice" }),
        new ServerUpdateFailed({ serverId, name: "Main", kind: "update", error: "not enough disk space" }),
        new ModUpdated({ serverId, workshopId: "1559212036", name: "CF", workshopUpdatedAt: "2027-01-15T08:00:00.000Z", by: "alice" }),
        new ModJobFailed({ serverId, workshopId: "1564026768", kind: "update", error: "SteamCMD timed out" }),
        new BackupFailed({ serverId, name: "Main", type: "scheduled", error: "no space left on the backup disk", by: "scheduler" }),
        // Skipped runs and a scheduled message that worked are not news: no notification.
        new ScheduledJobRan({ serverId, jobId: "j-0", kind: "restart", ok: true, skipped: "server not running", dueAt: "2027-01-15T03:00:00.000Z" }),
        new ScheduledJobRan({ serverId, jobId: "j-1", kind: "message", ok: true, dueAt: "2027-01-15T03:30:00.000Z" }),
        new ScheduledJobRan({ serverId, jobId: "j-2", kind: "restart", ok: true, dueAt: "2027-01-15T04:00:00.000Z" }),
        new ScheduledJobRan({ serverId, jobId: "j-3", kind: "kick-all", ok: false, error: "RCON is not connected", dueAt: "2027-01-15T05:00:00.000Z" })
      ]
      const bus = yield* EventBus
      const expected = 10
      // One at a time: each kind has a handler of its own, so only this keeps their order.
      for (const event of events) {
        const before = (yield* items("viewer:server.view")).length
        yield* bus.publish(event)
        if (!(event instanceof ScheduledJobRan) || (event.skipped === undefined && (event.kind === "restart" || !event.ok))) {
          yield* eventually(items("viewer:server.view"), (now) => now.length === before + 1)
        }
      }
      const seen = yield* eventually(items("viewer:server.view"), (now) => now.length === expected)
      const byTitle = new Map(seen.map((item) => [item.title, item]))
      expect([...seen].reverse().map((item) => [item.level, item.title])).toEqual([
        ["info", "Main: rollout done"],
        ["warning", "Main: rollout rolled back"],
        ["error", "Main: rollout failed"],
        ["info", "Main: game update finished"],
        ["error", "Main: game update failed"],
        ["info", "Main: mod CF updated"],
        ["error", "Main: mod update failed"],
        ["error", "Main: backup failed"],
        ["info", "Main was restarted on schedule"],
        ["error", "Main: scheduled kick-all failed"]
      ])
      expect(seen.every((item) => item.serverId === serverId && item.link === `/servers/${serverId}`)).toBe(true)
      expect(byTitle.get("Main: rollout done")?.message).toContain("1 mod (CF)")
      expect(byTitle.get("Main: rollout rolled back")?.message).toContain("the server crashed within the check window")
      expect(byTitle.get("Main: rollout failed")?.message).toContain("download failed")
      expect(byTitle.get("Main: game update finished")?.message).toContain("build 17428731")
      expect(byTitle.get("Main: game update failed")?.message).toContain("not enough disk space")
      expect(byTitle.get("Main: mod CF updated")?.message).toContain("2027-01-15T08:00:00.000Z")
      expect(byTitle.get("Main: mod update failed")?.message).toContain("SteamCMD timed out")
      expect(byTitle.get("Main: backup failed")?.message).toContain("no space left on the backup disk")
      expect(byTitle.get("Main: scheduled kick-all failed")?.message).toContain("RCON is not connected")
      // Whoever may view the server, admins too; nobody else, nor a role scoped to another server.
      expect((yield* items("root:admin")).length).toBe(expected)
      expect((yield* items(`mod:server.view@${serverId}`)).length).toBe(expected)
      expect(yield* items("other:server.view@elsewhere")).toEqual([])
      expect(yield* items("banner:players.ban")).toEqual([])
    }).pipe(Effect.provide(testController([NotificationsPlugin, fleet.plugin, notices], { dataPrefix: "garrison-notifications-" })))
  })
})
