/** The mods plugin's bus events as the outside sees them (webhooks, the cloud link). */
import { oneLine, published } from "@garrison/runtime"
import { ModInstalled, ModJobFailed, ModRemoved, ModUpdated } from "./events.js"

const mod = { serverId: "a1b2c3", workshopId: "1559212036", name: "@cf" }

export const MOD_EVENTS = [
  published(ModInstalled, {
    name: "mod.installed",
    description: "A workshop mod was installed on a server (downloaded, copied into `@<name>`, its keys put in place).",
    example: new ModInstalled({ ...mod, title: "Community Framework", by: "alice" }),
    severity: "success",
    summary: (e) => `Mod ${oneLine(e.title, 100)} (${e.name}) installed on server ${e.serverId} by ${e.by}`
  }),
  published(ModUpdated, {
    name: "mod.updated",
    description: "An installed mod was updated to the workshop's newer version; `workshopUpdatedAt` is that version's time on the workshop.",
    example: new ModUpdated({ ...mod, workshopUpdatedAt: "2026-03-12T17:40:00.000Z", by: "scheduler" }),
    severity: "success",
    summary: (e) => `Mod ${e.name} updated on server ${e.serverId}${e.workshopUpdatedAt === null ? "" : ` to the version of ${e.workshopUpdatedAt}`}`
  }),
  published(ModRemoved, {
    name: "mod.removed",
    description: "A mod was removed from a server (its folder, keys and launch parameter).",
    example: new ModRemoved({ ...mod, by: "alice" }),
    summary: (e) => `Mod ${e.name} removed from server ${e.serverId} by ${e.by}`
  }),
  published(ModJobFailed, {
    name: "mod.job-failed",
    description: "A mod install or update job ended without installing anything; `error` says why.",
    example: new ModJobFailed({ serverId: "a1b2c3", workshopId: "1559212036", kind: "install", error: "SteamCMD could not download item 1559212036: timed out" }),
    severity: "error",
    summary: (e) => `Mod ${e.kind} of workshop item ${e.workshopId} on server ${e.serverId} failed: ${oneLine(e.error, 300)}`
  })
]
