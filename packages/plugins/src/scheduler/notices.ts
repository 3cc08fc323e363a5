/**
 * Scheduled runs as notifications, for whoever may view the server (the
 * notifications plugin's `aboutServer`; nothing when that plugin is not
 * loaded): one per scheduled restart or stop that ran, and one per run of
 * any kind that failed. Messages, locks and commands that worked, and
 * skipped runs, are not news. The event names the server by id: its name
 * is read from the servers plugin, the id standing in when it is gone.
 */
import * as Effect from "effect/Effect"
import { on } from "@garrison/runtime"
import { aboutServer, notifyIfLoaded } from "../notifications/index.js"
import { Servers } from "../servers/index.js"
import { ScheduledJobRan } from "./events.js"

const DONE: Readonly<Record<string, string>> = { restart: "restarted", stop: "stopped" }

export const scheduledRunNotice = (e: ScheduledJobRan, server: string) => {
  if (e.skipped !== undefined) return undefined
  if (!e.ok) {
    return aboutServer(e.serverId, {
      level: "error",
      title: `${server}: scheduled ${e.kind} failed`,
      message: `The scheduled ${e.kind} of ${server} (job ${e.jobId}, due ${e.dueAt}) failed: ${e.error ?? "unknown error"}`
    })
  }
  const done = DONE[e.kind]
  return done === undefined
    ? undefined
    : aboutServer(e.serverId, {
        level: "info",
        title: `${server} was ${done} on schedule`,
        message: `The scheduled ${e.kind} of ${server} (job ${e.jobId}, due ${e.dueAt}) ran: the server was ${done}.`
      })
}

const serverName = (serverId: string) =>
  Effect.flatMap(Servers, (servers) => servers.entry(serverId)).pipe(
    Effect.map((entry) => entry.name),
    Effect.orElseSucceed(() => serverId)
  )

export const schedulerNotices = [
  on(
    ScheduledJobRan,
    (e) => (e.skipped !== undefined ? Effect.void : Effect.flatMap(serverName(e.serverId), (server) => notifyIfLoaded(scheduledRunNotice(e, server)))),
    "notifyScheduledRun"
  )
]
