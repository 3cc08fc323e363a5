/**
 * Mod updates as notifications, for whoever may view the server (the
 * notifications plugin's `aboutServer`; nothing when that plugin is not
 * loaded): one per mod updated (with the version put on) and one per
 * install or update job that failed (with the error). The events name the
 * server by id: its name is read from the servers plugin, the id standing
 * in when the entry is gone.
 */
import * as Effect from "effect/Effect"
import { on } from "@garrison/runtime"
import { aboutServer, notifyIfLoaded } from "../notifications/index.js"
import { Servers } from "../servers/index.js"
import { ModJobFailed, ModUpdated } from "./events.js"

const serverName = (serverId: string) =>
  Effect.flatMap(Servers, (servers) => servers.entry(serverId)).pipe(
    Effect.map((entry) => entry.name),
    Effect.orElseSucceed(() => serverId)
  )

export const modUpdated = (e: ModUpdated, server: string) =>
  aboutServer(e.serverId, {
    level: "info",
    title: `${server}: mod ${e.name} updated`,
    message:
      `${e.name} (workshop item ${e.workshopId}) on ${server} was updated` +
      `${e.workshopUpdatedAt === null ? "" : ` to the version published ${e.workshopUpdatedAt}`}. ` +
      (e.by === "scheduler" ? "Started on schedule." : `Started by ${e.by}.`)
  })

export const modJobFailed = (e: ModJobFailed, server: string) =>
  aboutServer(e.serverId, {
    level: "error",
    title: `${server}: mod ${e.kind} failed`,
    message: `The ${e.kind} of workshop item ${e.workshopId} on ${server} failed: ${e.error}`
  })

export const modNotices = [
  on(ModUpdated, (e) => Effect.flatMap(serverName(e.serverId), (server) => notifyIfLoaded(modUpdated(e, server))), "notifyModUpdated"),
  on(ModJobFailed, (e) => Effect.flatMap(serverName(e.serverId), (server) => notifyIfLoaded(modJobFailed(e, server))), "notifyModJobFailed")
]
