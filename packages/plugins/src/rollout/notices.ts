/**
 * Rollouts as notifications, for whoever may view the server (the
 * notifications plugin's `aboutServer`; nothing when that plugin is not
 * loaded): one per rollout that ended, done, rolled back (with the reason)
 * or failed.
 */
import { on } from "@garrison/runtime"
import { aboutServer, notifyIfLoaded } from "../notifications/index.js"
import { RolloutCompleted, RolloutFailed, RolloutRolledBack } from "./events.js"
import { whatRolled } from "./published.js"

const started = (by: string) => (by === "scheduler" ? "Started on schedule." : `Started by ${by}.`)

export const rolloutDone = (e: RolloutCompleted) =>
  aboutServer(e.serverId, {
    level: "info",
    title: `${e.name}: rollout done`,
    message: `The rollout put ${whatRolled(e.mods, e.server)} on ${e.name}, which passed its check (or was stopped and stays stopped). ${started(e.by)}`
  })

export const rolloutRolledBack = (e: RolloutRolledBack) =>
  aboutServer(e.serverId, {
    level: e.recovered ? "warning" : "error",
    title: `${e.name}: rollout rolled back`,
    message:
      `The new versions of ${whatRolled(e.mods, false)} failed the check on ${e.name}: ${e.reason}. The previous versions were put back and are held until a newer one is published; ` +
      (e.recovered ? "the server runs them again." : "the server is still not healthy: look at it now.") +
      ` ${started(e.by)}`
  })

export const rolloutFailed = (e: RolloutFailed) =>
  aboutServer(e.serverId, {
    level: "error",
    title: `${e.name}: rollout failed`,
    message: `The rollout on ${e.name} could not put the updates on: ${e.error}. ${started(e.by)}`
  })

export const rolloutNotices = [
  on(RolloutCompleted, (e) => notifyIfLoaded(rolloutDone(e)), "notifyRolloutDone"),
  on(RolloutRolledBack, (e) => notifyIfLoaded(rolloutRolledBack(e)), "notifyRolloutRolledBack"),
  on(RolloutFailed, (e) => notifyIfLoaded(rolloutFailed(e)), "notifyRolloutFailed")
]
