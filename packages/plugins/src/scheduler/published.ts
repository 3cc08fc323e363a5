/** The scheduler's bus events as the outside sees them (webhooks, the cloud link). */
import { oneLine, published } from "@garrison/runtime"
import { ScheduledJobRan } from "./events.js"

export const SCHEDULER_EVENTS = [
  published(ScheduledJobRan, {
    name: "scheduler.job",
    description:
      "A scheduled job ran (restart, stop, message, lock, unlock, kick-all, rcon, apply-updates), once per run, not per warning; `ok` is false with `error` when it failed, `skipped` says why nothing was done.",
    example: new ScheduledJobRan({
      serverId: "a1b2c3",
      jobId: "0b6d4f1e-2a7c-4e39-8f5b-93c1d2e4a7b8",
      kind: "restart",
      ok: true,
      dueAt: "2026-03-14T04:00:00.000Z"
    }),
    severity: (e) => (!e.ok ? "error" : e.skipped !== undefined ? "info" : "success"),
    severities: ["info", "success", "error"],
    summary: (e) =>
      `Scheduled ${e.kind} on server ${e.serverId} ` +
      (!e.ok ? `failed: ${oneLine(e.error ?? "unknown error", 300)}` : e.skipped !== undefined ? `skipped: ${oneLine(e.skipped, 200)}` : "ran")
  })
]
