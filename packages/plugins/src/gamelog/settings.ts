/** The game-log plugin's settings. */
import * as Config from "effect/Config"
import * as Duration from "effect/Duration"

/** `GAMELOG_POLL_INTERVAL`: how often every server's admin log is read (default 2 seconds). */
export const gamelogSettings = Config.all({
  pollInterval: Config.duration("GAMELOG_POLL_INTERVAL").pipe(Config.withDefault(Duration.seconds(2)))
})
