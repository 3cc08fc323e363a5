/**
 * The composite control's choice of provider: one that looks available
 * first, then RCON; a provider whose health said no is passed over for RCON
 * when RCON can do it, and asked all the same when RCON cannot (its own
 * answer decides, never the health answer); `unsupported` moves on.
 */
import { describe, expect, it } from "@effect/vitest"
import { ActorError, type GameCapability, type GameControl, OnlinePlayer } from "@garrison/runtime"
import { Effect, Exit } from "effect"
import { composeControl } from "../../src/servers/internal/compositeControl.js"

const PLAYER = new OnlinePlayer({ slot: 1, ip: "127.0.0.1", port: 2304, ping: 20, guid: "g", verified: true, name: "Bravo", inLobby: false, steam64: "76561198012345678", dayzId: null })

/** A control that records who kicked, and can do `can` (the rest fails as the RCON control does without settings). */
const control = (provider: string, can: ReadonlyArray<GameCapability>, kicked: Array<string>, kick?: Effect.Effect<void, ActorError>): GameControl => {
  const no = Effect.fail(new ActorError({ serverId: "s1", reason: "unsupported", message: `${provider} cannot` }))
  return {
    provider,
    capabilities: Effect.succeed(can),
    players: no,
    kick: () => kick ?? Effect.sync(() => void kicked.push(provider)),
    broadcast: () => no,
    message: () => no,
    lock: no,
    unlock: no,
    shutdown: no,
    ban: () => no,
    raw: () => no
  }
}

const agentLooking = (available: boolean, kicked: Array<string>, kick?: Effect.Effect<void, ActorError>) => ({
  name: "agent",
  provided: {
    availability: Effect.succeed(available ? { available: true as const } : { available: false as const, reason: "the agent is up but its mod is not answering" }),
    capabilities: ["kick"] as ReadonlyArray<GameCapability>,
    control: control("agent", ["kick"], kicked, kick)
  }
})

describe("composeControl", () => {
  it.effect("an available provider first; one that looks down gives way to RCON when RCON can", () =>
    Effect.gen(function* () {
      const kicked: Array<string> = []
      yield* composeControl([agentLooking(true, kicked)], control("rcon", ["kick"], kicked)).kick(PLAYER, "AFK")
      yield* composeControl([agentLooking(false, kicked)], control("rcon", ["kick"], kicked)).kick(PLAYER, "AFK")
      expect(kicked).toEqual(["agent", "rcon"])
      const route = yield* composeControl([agentLooking(false, kicked)], control("rcon", ["kick"], kicked)).routeFor("kick")
      expect({ provider: route.provider, doubt: route.doubt }).toEqual({ provider: "rcon", doubt: null })
    }))

  it.effect("a provider that looks down is still asked when RCON cannot: its own answer decides", () =>
    Effect.gen(function* () {
      const kicked: Array<string> = []
      const noRcon = control("rcon", [], kicked)
      const composite = composeControl([agentLooking(false, kicked)], noRcon)
      yield* composite.kick(PLAYER, "AFK")
      expect(kicked).toEqual(["agent"])
      const route = yield* composite.routeFor("kick")
      expect({ provider: route.provider, doubt: route.doubt }).toEqual({ provider: "agent", doubt: "the agent is up but its mod is not answering" })
      // When it really is silent, its own error is the answer.
      const silent = new ActorError({ serverId: "s1", reason: "agent-timed-out", message: "One: the game did not answer player.kick in time" })
      const exit = yield* Effect.exit(composeControl([agentLooking(false, kicked, Effect.fail(silent))], noRcon).kick(PLAYER, "AFK"))
      expect(exit).toEqual(Exit.fail(silent))
    }))

  it.effect("a provider that cannot do this one call (unsupported) hands it to the next", () =>
    Effect.gen(function* () {
      const kicked: Array<string> = []
      const unsupported = Effect.fail(new ActorError({ serverId: "s1", reason: "unsupported", message: "no Steam64 yet" }))
      yield* composeControl([agentLooking(true, kicked, unsupported)], control("rcon", ["kick"], kicked)).kick(PLAYER, "AFK")
      expect(kicked).toEqual(["rcon"])
    }))
})
