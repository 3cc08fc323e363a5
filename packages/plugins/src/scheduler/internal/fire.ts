/**
 * What a due moment does to a server. Only a running server is touched: a
 * job whose server is stopped (or gone) does nothing, and that includes
 * `restart`, which restarts a running server and never starts a stopped one
 * (an operator who stopped it meant it).
 */
import { type ActorError, parsePlayers, type ServerActor } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import type { JobKind } from "../contract/Api.js"
import type { StoredJob } from "./rows.js"

type Actor = ServerActor.ServerActor

export const DEFAULT_WARNING: Readonly<Record<string, string>> = {
  restart: "Server restart in {minutes} minute(s)",
  stop: "Server shutting down in {minutes} minute(s)",
  "kick-all": "All players will be kicked in {minutes} minute(s)"
}
export const DEFAULT_KICK_REASON = "Scheduled kick"

export const warningText = (job: Pick<StoredJob, "kind" | "message">, minutes: number): string =>
  (job.message ?? DEFAULT_WARNING[job.kind] ?? "Scheduled {minutes} minute(s)").replaceAll("{minutes}", String(minutes))

export type RunOutcome = { readonly _tag: "Done" } | { readonly _tag: "Skipped"; readonly why: string }

const done: RunOutcome = { _tag: "Done" }
const skipped = (why: string): RunOutcome => ({ _tag: "Skipped", why })

export const isRunning = (actor: Actor) => Effect.map(actor.state, (state) => state.status === "running")

/** Kicks everyone the server lists right now (fresher than the sampled state); one failed kick does not spare the rest. */
const kickAll = (actor: Actor, reason: string) =>
  Effect.gen(function* () {
    const players = parsePlayers(yield* actor.rcon("players"))
    const results = yield* Effect.forEach(players, (player) => Effect.either(actor.rcon(`kick ${player.slot} ${reason}`)))
    const failed = results.filter((result) => result._tag === "Left")
    if (failed.length > 0) {
      return yield* Effect.fail(failed[0]!.left)
    }
  })

const act = (kind: JobKind, job: StoredJob, actor: Actor): Effect.Effect<void, ActorError> => {
  switch (kind) {
    case "restart":
      return actor.restart("schedule")
    case "stop":
      return actor.stop
    case "message":
      return actor.rcon(`say -1 ${job.message ?? ""}`).pipe(Effect.asVoid)
    case "lock":
      return actor.setLocked(true)
    case "unlock":
      return actor.setLocked(false)
    case "kick-all":
      return kickAll(actor, job.reason ?? DEFAULT_KICK_REASON)
    case "rcon":
      return actor.rcon(job.command ?? "").pipe(Effect.asVoid)
  }
}

/** Runs the job's action when its server is running. */
export const runJob = (job: StoredJob, actor: Actor): Effect.Effect<RunOutcome, ActorError> =>
  Effect.flatMap(isRunning(actor), (running) => (running ? Effect.as(act(job.kind, job, actor), done) : Effect.succeed(skipped("server not running"))))
