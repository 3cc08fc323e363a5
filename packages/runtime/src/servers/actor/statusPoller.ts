/**
 * While a server runs, every `interval`: who is on (RCON `players`, see
 * `players.ts`), the map and version from the engine log (once both are
 * known, no more), the output file kept bounded, and CPU and memory of the
 * process. A failed sample leaves the last values; the next one tries again.
 *
 * The first sample runs as the process spawns, before the server wrote its
 * log head: `readLogFacts` is also run when the RCON session opens (a server
 * opens RCon after loading its world), so map and version show then rather
 * than a whole interval later.
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

/** Map and version come from the engine log of the run started at `startedAt`, until both are known. */
export const readLogFacts = (deps: Pick<StatusPollerDeps, "entry" | "state" | "patch">, startedAt: number): Effect.Effect<void> =>
  Effect.gen(function* () {
    const known = yield* deps.state
    if (known.map !== undefined && known.version !== undefined) return
    const facts = yield* readRptFacts(profilesFolder(deps.entry()), startedAt).pipe(Effect.orElseSucceed(() => undefined))
    if (facts !== undefined) yield* deps.patch({ map: facts.map ?? known.map, version: facts.version ?? known.version })
  })

export const statusPoller = (deps: StatusPollerDeps, pid: number, startedAt: number): Effect.Effect<void> => {
  const logFacts = readLogFacts(deps, startedAt)

  return Effect.gen(function* () {
    yield* deps.refreshPlayers
    yield* logFacts
    yield* boundOutput(deps.entry())
    const usage = yield* deps.usage(pid)
    if (Option.isSome(usage)) yield* deps.patch({ cpu: usage.value.cpu, memoryBytes: usage.value.memoryBytes })
  }).pipe(Effect.repeat(Schedule.spaced(deps.interval)), Effect.asVoid)
}
