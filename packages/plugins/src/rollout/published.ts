/** The rollout plugin's bus events as the outside sees them (webhooks, the cloud link). */
import { oneLine, published } from "@garrison/runtime"
import { RolloutCompleted, RolloutFailed, RolloutRolledBack } from "./events.js"

/** What a rollout put on: `2 mods (CF, Trader)`, `the game server`, or both. */
export const whatRolled = (mods: ReadonlyArray<{ readonly name: string }>, server: boolean) => {
  const modPart = mods.length === 0 ? [] : [`${mods.length} mod${mods.length === 1 ? "" : "s"} (${mods.map((m) => oneLine(m.name, 60)).join(", ")})`]
  const parts = [...modPart, ...(server ? ["the game server"] : [])]
  return parts.length === 0 ? "nothing new" : parts.join(" and ")
}

const mods = [
  { workshopId: "1559212036", name: "CF" },
  { workshopId: "2116157322", name: "DayZ-Expansion-Core" }
]

export const ROLLOUT_EVENTS = [
  published(RolloutCompleted, {
    name: "rollout.completed",
    description:
      "A rollout of mod or game updates finished on a server: it passed its health check after the restart (or was stopped and stays stopped); `server` is true when the game server's own update was part of it.",
    example: new RolloutCompleted({ serverId: "a1b2c3", name: "Main", mods, server: false, by: "scheduler" }),
    severity: "success",
    summary: (e) => `Rollout on ${e.name} completed: ${whatRolled(e.mods, e.server)}`
  }),
  published(RolloutRolledBack, {
    name: "rollout.rolled-back",
    description:
      "The new versions failed the health check after a rollout and the previous mod versions were put back; `recovered` says whether the server answered again on them.",
    example: new RolloutRolledBack({
      serverId: "a1b2c3",
      name: "Main",
      mods,
      reason: "the server did not answer on RCON within 5 minutes",
      recovered: true,
      by: "alice"
    }),
    severity: (e) => (e.recovered ? "warning" : "error"),
    severities: ["warning", "error"],
    summary: (e) =>
      `Rollout on ${e.name} rolled back (${oneLine(e.reason, 200)}); ${e.recovered ? "the server runs the previous versions again" : "the server is still not healthy"}`
  }),
  published(RolloutFailed, {
    name: "rollout.failed",
    description: "A rollout could not put the updates on (a download failed, or applying them did) and left the server as it was; `error` says why.",
    example: new RolloutFailed({ serverId: "a1b2c3", name: "Main", error: "download failed, the server was not touched: SteamCMD timed out downloading 1559212036", by: "alice" }),
    severity: "error",
    summary: (e) => `Rollout on ${e.name} failed: ${oneLine(e.error, 300)}`
  })
]
