/** A rollout's state and phase in plain words. */
import type { RolloutState } from "../contract/Api.js"

export const STATE_WORDS: Readonly<Record<RolloutState, string>> = {
  idle: "no rollout yet",
  running: "running",
  done: "done",
  "rolled-back": "rolled back",
  failed: "failed",
  cancelled: "cancelled"
}

/** `RolloutStatus.phase`, as the steps of the README's "What a rollout does". */
const PHASE_WORDS: Readonly<Record<string, string>> = {
  downloading: "Downloading the new versions while players play",
  warning: "Warning the players before the restart",
  locking: "Locking the server to new players",
  kicking: "Kicking the players",
  stopping: "Stopping the server",
  applying: "Putting the new versions on",
  "updating-server": "Updating the game server",
  starting: "Starting the server",
  checking: "Checking that the server runs, answers and loads its mods",
  "rolling-back": "Rolling back to the previous versions",
  done: "Finished"
}

export const phaseWords = (phase: string): string => PHASE_WORDS[phase] ?? (phase === "" ? "Starting" : phase)

/** "15, 5 and 1 minutes". */
export const minutesList = (minutes: ReadonlyArray<number>): string => {
  const parts = minutes.map(String)
  const last = parts.pop()
  const unit = minutes.length === 1 && minutes[0] === 1 ? "minute" : "minutes"
  return parts.length === 0 ? `${last} ${unit}` : `${parts.join(", ")} and ${last} ${unit}`
}

/** The API's lower-case message as a sentence: "rolled back: ..." → "Rolled back: ....". */
export const sentence = (text: string): string => {
  const trimmed = text.trim()
  if (trimmed === "") return ""
  return `${trimmed[0]!.toUpperCase()}${trimmed.slice(1)}${/[.!?]$/.test(trimmed) ? "" : "."}`
}
