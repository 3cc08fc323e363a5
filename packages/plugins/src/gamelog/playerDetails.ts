/**
 * The agent's `player.details` (the mod's answer about a player) gets the
 * game log's history beside it: `history`, the player's names, servers,
 * sessions, playtime, kills and deaths as `GET /api/player-history/:player`
 * shows them to the caller (their visible servers only), or null when the
 * logs never named the player. The mod's own fields are left as they are.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import { visibleServers } from "@garrison/runtime"
import { AdminActions } from "../actions/index.js"
import { playerKeyOf } from "./internal/playerKey.js"
import { PlayerHistory } from "./PlayerHistory.js"

export const PLAYER_DETAILS_ACTION = "player.details"

export const playerDetailsHistory = Layer.effectDiscard(
  Effect.gen(function* () {
    const actions = yield* AdminActions
    const history = yield* PlayerHistory
    yield* actions.addToAnswer(PLAYER_DETAILS_ACTION, ({ input, caller }, data) =>
      Effect.gen(function* () {
        const key = playerKeyOf(String(input["platformId"] ?? ""))
        const found = Either.isRight(key) ? yield* history.player(visibleServers(caller), key.right.playerId) : undefined
        const answer = typeof data === "object" && data !== null && !Array.isArray(data) ? data : { game: data }
        return { ...answer, history: found ?? null }
      })
    )
  })
)
