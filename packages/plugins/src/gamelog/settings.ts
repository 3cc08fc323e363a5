/** The game-log plugin's settings. */
import { RuntimeSetting } from "@garrison/runtime"

/**
 * `GAMELOG_POLL_INTERVAL`: how often every server's admin log is read
 * (default 2 seconds), a run-time setting: the ingest job reads it before
 * each wait and again when it changes.
 */
export const PollIntervalSetting = RuntimeSetting.duration({
  key: "GAMELOG_POLL_INTERVAL",
  description: "How often every server's admin log is read",
  default: "2 seconds",
  min: "100 millis",
  max: "10 minutes"
})
