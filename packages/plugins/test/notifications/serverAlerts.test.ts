/**
 * Server crashes, watchdog restarts and give-ups become notifications for
 * the users who may view the server (holders of `server.view`, and admins);
 * others never see them.
 */
import { describe, expect, it } from "@effect/vitest"
import { EventBus, ServerCrashed, ServerRestarted } from "@garrison/runtime"
import { Effect } from "effect"
import { crashAlert, restartAlert, serverAudience } from "../../src/notifications/internal/serverAlerts.js"
import { call, eventually, notificationsController } from "./support.js"

interface Item {
  readonly title: string
  readonly message: string
  readonly level: string
  readonly link: string | null
  readonly audience: unknown
}

const titles = (as: string) =>
  Effect.map(call("GET", "/api/notifications", { as }), (reply) => {
    expect(reply.status).toBe(200)
    return (reply.body as { readonly items: ReadonlyArray<Item> }).items.map((item) => item.title)
  })

const server = { serverId: "s-1", name: "Chernarus #1" }

const crashed = (watchdog: ServerCrashed["watchdog"], consecutiveCrashes = 1) =>
  new ServerCrashed({
    ...server,
    exitCode: 1,
    signal: null,
    reason: "exited with code 1",
    consecutiveCrashes,
    watchdog,
    restartInMs: watchdog === "restarting" ? 5000 : null
  })

describe("server alerts", () => {
  it.scopedLive("reach holders of server.view and admins, newest first; nobody else", () =>
    Effect.gen(function* () {
      const bus = yield* EventBus
      // One at a time: crashes and restarts have a handler each, so their order is only kept this way.
      const events = [
        crashed("restarting"),
        new ServerRestarted({ ...server, ok: true, attempts: 1, reason: "watchdog", crash: "exited with code 1" }),
        crashed("gave-up", 10)
      ]
      for (const [i, event] of events.entries()) {
        yield* bus.publish(event)
        yield* eventually(titles("viewer:server.view"), (t) => t.length === i + 1)
      }
      const expected = [
        "Chernarus #1 is down: the watchdog gave up",
        "Chernarus #1 was restarted by the watchdog",
        "Chernarus #1 crashed"
      ]
      expect(yield* eventually(titles("viewer:server.view"), (t) => t.length === 3)).toEqual(expected)
      expect(yield* titles("root:admin")).toEqual(expected)
      expect(yield* titles("banner:players.ban")).toEqual([])
      // A role with server.view on this server alone sees them; one scoped to another server does not.
      expect(yield* titles("mod:server.view@s-1")).toEqual(expected)
      expect(yield* titles("other:server.view@s-2")).toEqual([])
    }).pipe(Effect.provide(notificationsController()))
  )

  it.scopedLive("a failed watchdog restart, and a manual or scheduled restart, are not notified", () =>
    Effect.gen(function* () {
      const bus = yield* EventBus
      yield* bus.publish(new ServerRestarted({ ...server, ok: false, attempts: 1, reason: "watchdog", error: "ENOENT", crash: "x" }))
      yield* bus.publish(new ServerRestarted({ ...server, ok: true, attempts: 1, reason: "manual" }))
      yield* bus.publish(new ServerRestarted({ ...server, ok: true, attempts: 1, reason: "schedule" }))
      // One handler takes restarts in order: once this one shows, the ones before it had their turn.
      yield* bus.publish(new ServerRestarted({ ...server, ok: true, attempts: 1, reason: "watchdog", crash: "x" }))
      expect(yield* eventually(titles("viewer:server.view"), (t) => t.length > 0)).toEqual(["Chernarus #1 was restarted by the watchdog"])
    }).pipe(Effect.provide(notificationsController()))
  )
})

describe("what the alerts say", () => {
  it("levels, reasons, what the watchdog does, and a link to the server", () => {
    expect(crashAlert(crashed("restarting", 2))).toEqual({
      audience: { permission: "server.view" },
      serverId: "s-1",
      link: "/servers/s-1",
      level: "warning",
      title: "Chernarus #1 crashed",
      message: "exited with code 1. The watchdog restarts it in 5s (crash 2 in a row)."
    })
    expect(crashAlert(crashed("gave-up", 10))).toMatchObject({
      level: "error",
      message:
        "exited with code 1. After 10 crashes in a row the watchdog stopped restarting it; start it by hand once the cause is fixed."
    })
    expect(crashAlert(crashed("off"))).toMatchObject({
      level: "error",
      message: "exited with code 1. Its watchdog is off, so it stays down until someone starts it."
    })
    expect(restartAlert(new ServerRestarted({ ...server, ok: true, attempts: 1, reason: "watchdog", crash: "killed by SIGKILL" }))).toMatchObject({
      level: "info",
      message: "It is running again after: killed by SIGKILL."
    })
    expect(serverAudience("any")).toEqual({ permission: "server.view" })
  })

  it("a crash during a rollout says the rollout handles it, not the watchdog", () => {
    const during = new ServerCrashed({ ...crashed("operation"), operation: "mod-rollout" })
    const alert = crashAlert(during)
    expect(alert).toMatchObject({ level: "warning", serverId: "s-1", title: "Chernarus #1 crashed during a rollout" })
    expect(alert.message).toContain("exited with code 1. The rollout running on it handles this, not the watchdog")
    expect(alert.message).not.toContain("watchdog restarts")
  })

  it("a long name or reason is cut to what a notification holds, never refused", () => {
    const long = new ServerCrashed({ ...crashed("off"), name: "n".repeat(300), reason: "r".repeat(5000) })
    const alert = crashAlert(long)
    expect(alert.title.length).toBe(200)
    expect(alert.message.length).toBe(4000)
  })
})
