/**
 * The retention job, driven by the test clock: notifications past the
 * retention period go (with their read marks), and each audience keeps only
 * its newest ones. The clock moves one job period (6 hours) at a time, each
 * step once the job sleeps again, so every run happens at its own time on
 * either engine (PostgreSQL's round trips take real time; one big adjust
 * would leave the runs behind).
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { adjustInSteps } from "@garrison/testkit"
import { ConfigProvider, type Duration, Effect } from "effect"
import { type NotificationInput, Notifications } from "../../src/notifications/index.js"
import { call, eventually, notificationsController } from "./support.js"

const publish = (title: string, audience: NotificationInput["audience"]) =>
  Effect.flatMap(Notifications, (n) => n.publish({ audience, level: "info", title, message: title }))

const titles = (as: string) =>
  Effect.map(call("GET", "/api/notifications?limit=200", { as }), (reply) => {
    expect(reply.status).toBe(200)
    return (reply.body as { items: ReadonlyArray<{ title: string }> }).items.map((item) => item.title)
  })

const count = (table: "notifications" | "notification_reads") =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(Effect.orDie(sql<{ n: number }>`SELECT COUNT(*) AS n FROM ${sql(table)}`), ([row]) => Number(row?.n))
  )

/** Moves the clock `by`, one run of the retention job (every 6 hours) at a time. */
const advance = (by: Duration.DurationInput) => adjustInSteps(by, "6 hours")

const withSettings = (settings: Record<string, string>) =>
  Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(settings))))

describe("retention job", () => {
  it.scoped("removes notifications older than the retention period, and their read marks", () =>
    Effect.gen(function* () {
      const old = yield* publish("old broadcast", "all")
      yield* publish("old personal", { userId: "alice" })
      const read = yield* call("PATCH", "/api/notifications/read", { as: "alice:", json: { ids: [old.id] } })
      expect(read.body).toEqual({ marked: 1 })

      yield* advance("60 days")
      yield* publish("recent", "all")
      // Day 89: the job has run every 6 hours, and nothing is old enough yet.
      yield* advance("29 days")
      expect(yield* titles("alice:")).toEqual(["recent", "old personal", "old broadcast"])

      // Day 91: past 90 days, the first two go at the next run.
      yield* advance("2 days")
      expect(yield* eventually(titles("alice:"), (t) => t.length === 1)).toEqual(["recent"])
      expect(yield* count("notification_reads")).toBe(0)
      expect(yield* count("notifications")).toBe(1)

      // Day 152: "recent" (published on day 60) is past 90 days too.
      yield* advance("61 days")
      expect(yield* eventually(count("notifications"), (n) => n === 0)).toBe(0)
    }).pipe(Effect.provide(notificationsController())), 60_000) // 608 runs of the job, each a few round trips on PostgreSQL

  it.scoped("keeps the newest NOTIFICATIONS_MAX_PER_AUDIENCE per audience; NOTIFICATIONS_RETENTION sets the age", () =>
    Effect.gen(function* () {
      for (let i = 1; i <= 5; i++) yield* publish(`alice ${i}`, { userId: "alice" })
      for (let i = 1; i <= 2; i++) yield* publish(`all ${i}`, "all")
      for (let i = 1; i <= 4; i++) yield* publish(`ops ${i}`, { permission: "server.restart" })
      expect(yield* count("notifications")).toBe(11)

      yield* advance("6 hours")
      expect(yield* eventually(count("notifications"), (n) => n === 8)).toBe(8)
      expect(yield* titles("alice:server.restart")).toEqual([
        "ops 4", "ops 3", "ops 2", "all 2", "all 1", "alice 5", "alice 4", "alice 3"
      ])

      // A ten-day retention: gone after the first run past day 10.
      yield* advance("10 days")
      expect(yield* eventually(count("notifications"), (n) => n === 0)).toBe(0)
    }).pipe(
      Effect.provide(notificationsController()),
      withSettings({ NOTIFICATIONS_MAX_PER_AUDIENCE: "3", NOTIFICATIONS_RETENTION: "10 days" })
    ))

  it.effect("a cap below 1 or a retention of zero is a configuration error at start-up, naming the variable", () =>
    Effect.gen(function* () {
      const startFailure = (settings: Record<string, string>) =>
        Effect.flip(Effect.scoped(Effect.provide(Effect.void, notificationsController()))).pipe(
          Effect.map(String),
          withSettings(settings)
        )
      expect(yield* startFailure({ NOTIFICATIONS_MAX_PER_AUDIENCE: "0" })).toContain("NOTIFICATIONS_MAX_PER_AUDIENCE must be at least 1")
      expect(yield* startFailure({ NOTIFICATIONS_RETENTION: "0 days" })).toContain("NOTIFICATIONS_RETENTION must be a positive duration")
    }))
})
