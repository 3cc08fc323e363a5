/** The Mods tab's plain words: job states, a mod's version, the server states that keep its files untouchable. */
import { formatTime } from "@dashboard/ui/data.js"
import type { Mod, ModJob, ModType } from "../contract/Api.js"

export const MODS_VIEW = "mods.view"
export const MODS_INSTALL = "mods.install"
/** A rollout stops and starts the server, so it needs this beside `mods.install`. */
export const SERVER_RESTART = "server.restart"

/** Jobs still running: the tab follows `/api/mods/install-status/events` while one of its server's is. */
export const ACTIVE_JOB_STATES: ReadonlySet<ModJob["state"]> = new Set(["queued", "downloading", "installing"])

export const JOB_STATE_WORDS: Readonly<Record<ModJob["state"], string>> = {
  queued: "waiting for the download before it",
  downloading: "downloading through SteamCMD",
  installing: "copying onto the server",
  done: "done",
  failed: "failed",
  interrupted: "interrupted: the controller stopped while it ran (the server's files are as they were)"
}

export const TYPE_WORDS: Readonly<Record<ModType, string>> = {
  client: "Client (-mod=)",
  server: "Server (-serverMod=)"
}

/**
 * Installs, updates and uninstalls are refused (409) unless the server is
 * stopped: on a running one they go through a rollout.
 */
export const filesLocked = (serverStatus: string | undefined): boolean =>
  serverStatus !== undefined && serverStatus !== "stopped" && serverStatus !== "crashed"

/** "published 3/1/2024, 10:00:00", or that the workshop gave no date. */
export const versionText = (mod: Mod): string =>
  mod.workshopUpdatedAt === null ? "workshop date unknown" : `published ${formatTime(mod.workshopUpdatedAt)}`

/** The title the workshop gives, or the folder when the title is empty. */
export const modLabel = (mod: Pick<Mod, "title" | "name">): string => (mod.title.trim() === "" ? mod.name : mod.title)

export const jobLabel = (job: ModJob, titles: ReadonlyMap<string, string>): string =>
  `${job.kind === "install" ? "Install" : "Update"} of ${job.mod !== null ? modLabel(job.mod) : (titles.get(job.workshopId) ?? `workshop item ${job.workshopId}`)}`

export const workshopUrl = (workshopId: string): string => `https://steamcommunity.com/sharedfiles/filedetails/?id=${encodeURIComponent(workshopId)}`
