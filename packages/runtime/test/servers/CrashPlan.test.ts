/**
 * What the crash plan says and does: the watchdog's backoff, its giving up,
 * an entry with the watchdog off, and a crash during an operation that
 * watches the server (a mod rollout), which that operation handles: no
 * restart is planned and nothing says the watchdog restarts it.
 */
import { describe, expect, it } from "@effect/vitest"
import { defaultActorOptions } from "../../src/servers/actor/options.js"
import { planAfterCrash } from "../../src/servers/actor/watchdog.js"

const crash = { name: "Main", reason: "exited with code 1", watchdog: true, previousCrashes: 0, ranMs: 1_000, options: defaultActorOptions }

describe("the crash plan", () => {
  it("the watchdog restarts a crash outside an operation, or one during an operation that does not watch the server", () => {
    expect(planAfterCrash(crash)).toMatchObject({ action: "restarting", crashes: 1 })
    expect(planAfterCrash({ ...crash, operation: "restart" })).toMatchObject({ action: "restarting" })
    expect(planAfterCrash({ ...crash, watchdog: false })).toMatchObject({ action: "off", delay: null })
  })

  it("a crash during a rollout is the rollout's: no restart planned, and the log line says who handles it", () => {
    const plan = planAfterCrash({ ...crash, operation: "mod-rollout" })
    expect(plan).toMatchObject({ action: "operation", delay: null, crashes: 1, lastError: "exited with code 1" })
    expect(plan.logLine).toBe("server Main crashed: exited with code 1; the rollout running now handles it, not the watchdog")
    // Whatever the watchdog setting: the rollout decides.
    expect(planAfterCrash({ ...crash, watchdog: false, operation: "mod-rollout" })).toMatchObject({ action: "operation", delay: null })
  })
})
