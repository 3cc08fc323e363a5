/**
 * What a due moment does to a server. Only a running server is touched
 * (but for `apply-updates`, which updates a stopped one without starting
 * it): a job whose server is stopped (or gone) does nothing, and that includes
 * `restart`, which restarts a running server and never starts a stopped one
 * (an operator who stopped it meant it). Messages, locks, kicks and raw
 * commands go through the server's `GameControl`; restart and stop through
 * its actor.
 */
import { type ActorError, SCHEDULER_ACTOR } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import { kickEveryone, type ServerHandle } from "../../servers/index.js"
import type { JobKind } from "../contract/Api.js"
import { ScheduledUpdates } from "../ScheduledUpdates.js"
import type { StoredJob } from "./rows.js"

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

export const isRunning = (server: ServerHandle) => Effect.map(server.state, (state) => state.status === "running")

/** Kicks everyone (see `kickEveryone`); the first failed kick fails the run, after the rest were kicked. */
const kickAll = (server: ServerHandle, reason: string) =>
  Effect.flatMap(kickEveryone(server, reason), ({ failed }) => (failed[0] === undefined ? Effect.void : Effect.fail(failed[0].error)))

const act = (kind: JobKind, job: StoredJob, server: ServerHandle): Effect.Effect<void, ActorError> => {
  switch (kind) {
    case "restart":
      return server.actor.restart("schedule")
    case "stop":
      return server.actor.stop
    case "message":
      return server.control.broadcast(job.message ?? "")
    case "lock":
      return server.control.lock
    case "unlock":
      return server.control.unlock
    case "kick-all":
      return kickAll(server, job.reason ?? DEFAULT_KICK_REASON)
    case "rcon":
      return Effect.asVoid(server.control.raw(job.command ?? ""))
    case "apply-updates":
      return Effect.void
  }
}

/** Rolls out due updates (through the `ScheduledUpdates` extension point, which the rollout plugin provides); a stopped server is updated and stays stopped. */
const applyUpdates = (server: ServerHandle): Effect.Effect<RunOutcome, ActorError> =>
  // No principal behind a scheduled job's run: its rows keep the marker "scheduler" as actor, with no name.
  Effect.flatMap(ScheduledUpdates, (updates) => updates.applyPending(server.id, SCHEDULER_ACTOR)).pipe(
    Effect.map((result) => (result === "started" ? done : skipped("no update due")))
  )

/** Runs the job's action when its server is running. */
export const runJob = (job: StoredJob, server: ServerHandle): Effect.Effect<RunOutcome, ActorError> =>
  job.kind === "apply-updates"
    ? applyUpdates(server)
    : Effect.flatMap(isRunning(server), (running) => (running ? Effect.as(act(job.kind, job, server), done) : Effect.succeed(skipped("server not running"))))
