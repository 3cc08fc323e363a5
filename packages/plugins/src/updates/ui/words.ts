/** How an update's status reads in plain words: what runs, SteamCMD's stage, the installed app. */
import type { UpdateStatusView } from "./client.js"

const KINDS: Readonly<Record<NonNullable<UpdateStatusView["kind"]>, string>> = {
  update: "Update",
  rebuild: "Rebuild",
  deploy: "Download of the new server"
}

export const kindLabel = (kind: UpdateStatusView["kind"]): string => (kind === null ? "Update" : KINDS[kind])

/** SteamCMD's own stage words (`Update state (0x61) downloading, ...`) as a person reads them. */
const PHASES: Readonly<Record<string, string>> = {
  login: "Signing in to Steam",
  reconfiguring: "Preparing",
  preallocating: "Reserving disk space",
  downloading: "Downloading",
  verifying: "Checking files",
  "verifying update": "Checking files",
  "verifying install": "Checking files",
  validating: "Checking files",
  committing: "Writing files",
  done: "Finished"
}

export const phaseLabel = (phase: string): string => {
  const known = PHASES[phase.toLowerCase()]
  if (known !== undefined) return known
  return phase === "" ? "Starting" : phase.charAt(0).toUpperCase() + phase.slice(1)
}

/** The apps SteamCMD installs a DayZ server from (the contract's `appId`). */
const APPS: Readonly<Record<string, string>> = {
  "223350": "DayZ server (stable)",
  "1042420": "DayZ server (experimental)"
}

export const appLabel = (appId: string | null): string => (appId === null ? "not installed through SteamCMD" : (APPS[appId] ?? `Steam app ${appId}`))

/** How the last run ended, in a sentence's words. */
export const endedLabel = (state: UpdateStatusView["state"]): string => {
  switch (state) {
    case "done":
      return "finished"
    case "failed":
      return "failed"
    case "cancelled":
      return "was cancelled"
    case "running":
      return "is running"
    case "idle":
      return "has not run"
  }
}
