/**
 * While a server runs, every `interval`: who is on (RCON `players`, see
 * `players.ts`), the map and version from the engine log (once both are
 * known, no more), the output file kept bounded, and CPU and memory of the
 * process. A failed sample leaves the last values; the next one tries again.
 */
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import { readRptFacts } from "../../game/Rpt.js"
import type { ProcessUsage } from "../ProcessLauncher.js"
import { boundOutput } from "../ProcessOutput.js"
import { profilesFolder } from "../ProfilesFolder.js"
import type { ServerEntry } from "../ServerEntry.js"
import type { ServerState } from "../ServerState.js"

export interface StatusPollerDeps {
  readonly interval: Duration.DurationInput
  readonly entry: () => ServerEntry
  readonly state: Effect.Effect<ServerState>
  readonly patch: (f: Partial<ServerState>) => Effect.Effect<void>
  readonly refreshPlayers: Effect.Effect<void>
  readonly usage: (pid: number) => Effect.Effect<Option.Option<ProcessUsage>>
}

export const statusPoller = (deps: StatusPollerDeps, pid: number, startedAt: number): Effect.Effect<void> => {
  /** Map and version come from the engine log, once per run (until both are known). */
  const readLogFacts = Effect.gen(function* () {
    const known = yield* deps.state
    if (known.map !== undefined && known.version !== undefined) return
    const facts = yield* readRptFacts(profilesFolder(deps.entry()), startedAt).pipe(Effect.orElseSucceed(() => undefined))
    if (facts !== undefined) yield* deps.patch({ map: facts.map ?? known.map, version: facts.version ?? known.version })
  })

  return Effect.gen(function* () {
    yield* deps.refreshPlayers
    yield* readLogFacts
    yield* boundOutput(deps.entry())
    const usage = yield* deps.usage(pid)
    if (Option.isSome(usage)) yield* deps.patch({ cpu: usage.value.cpu, memoryBytes: usage.value.memoryBytes })
  }).pipe(Effect.repeat(Schedule.spaced(deps.interval)), Effect.asVoid)
}
