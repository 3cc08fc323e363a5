/**
 * Game server updates as notifications, for whoever may view the server
 * (the notifications plugin's `aboutServer`; nothing when that plugin is
 * not loaded): one per update, rebuild or deploy that finished (with the
 * build now installed) or failed (with the error).
 */
import { on } from "@garrison/runtime"
import { aboutServer, notifyIfLoaded } from "../notifications/index.js"
import { ServerUpdated, ServerUpdateFailed } from "./events.js"
import { DONE } from "./published.js"

const WHAT = { update: "game update", rebuild: "rebuild", deploy: "deploy" } as const

export const updateFinished = (e: ServerUpdated) =>
  aboutServer(e.serverId, {
    level: "info",
    title: `${e.name}: ${WHAT[e.kind]} finished`,
    message:
      `The game server's files (app ${e.appId}) were ${DONE[e.kind]} through SteamCMD` +
      `${e.buildId === null ? "" : `; build ${e.buildId} is installed now`}. ${e.by === "scheduler" ? "Started on schedule." : `Started by ${e.by}.`}`
  })

export const updateFailed = (e: ServerUpdateFailed) =>
  aboutServer(e.serverId, {
    level: "error",
    title: `${e.name}: ${WHAT[e.kind]} failed`,
    message: `The ${WHAT[e.kind]} of ${e.name} through SteamCMD failed: ${e.error}`
  })

export const updateNotices = [
  on(ServerUpdated, (e) => notifyIfLoaded(updateFinished(e)), "notifyUpdateFinished"),
  on(ServerUpdateFailed, (e) => notifyIfLoaded(updateFailed(e)), "notifyUpdateFailed")
]
