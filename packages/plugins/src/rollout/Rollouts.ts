/**
 * `Rollouts`: mod (and game) updates put on a running server without
 * breaking an evening's play. A rollout is the server actor's long
 * operation (kind `mod-rollout`), so nothing else starts or stops the
 * server meanwhile and a stop cancels it:
 *
 * 1. download every new version into the cache while players play;
 * 2. warn at the policy's times (`warnings`, minutes before the restart);
 * 3. lock, kick everyone with the policy's message, stop;
 * 4. put the new versions on, keeping the replaced ones
 *    (`.garrison/previous`), and update the game server when asked;
 * 5. start, and watch the server for the check window (`internal/health`);
 * 6. when it fails to start or is not healthy: stop it, put the previous
 *    versions back, hold the bad ones (not applied again until a newer one
 *    is published), start again, and say so.
 *
 * On a stopped server steps 2, 3, 5 and 6 are skipped: the versions are put
 * on and the server stays stopped.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { actedByName, type ActedBy, ActorError, type AuditActor, auditActorFields, AuditTrail, BeforeServerUpdate, errorMessage, EventBus, Hooks, makeProgressBoard, type ServerNotFound, type ServerUnreadable, type StartedBody, startOperation, storeDefect } from "@garrison/runtime"
import { type AppliedMod, isDue, type ModStoreError, Mods } from "../mods/index.js"
import { kickEveryone, Servers } from "../servers/index.js"
import { type PlatformStoreError, Workshop } from "../platform/index.js"
import { ScheduledUpdates } from "../scheduler/index.js"
import { ServerUpdates } from "../updates/index.js"
import { defaultPolicy, RolloutInput, RolloutMod, RolloutPolicy, RolloutStatus } from "./contract/Api.js"
import { RolloutCompleted, RolloutFailed, RolloutRolledBack } from "./events.js"
import { checkHealth } from "./internal/health.js"
import { RolloutConflict, type RolloutError, RolloutInputRefused, type RolloutStoreError, storeError } from "./errors.js"

type Lookup = ServerNotFound | ServerUnreadable
/** Whose store failed: the policies (this plugin's) or the mods a rollout reads. */
type StoreFailure = RolloutStoreError | ModStoreError

export interface RolloutsShape {
  readonly policy: (serverId: string) => Effect.Effect<RolloutPolicy, Lookup | RolloutStoreError>
  readonly setPolicy: (serverId: string, policy: RolloutPolicy) => Effect.Effect<RolloutPolicy, Lookup | RolloutStoreError>
  readonly status: (serverId: string) => Effect.Effect<RolloutStatus, Lookup>
  readonly start: (serverId: string, input: RolloutInput, by: AuditActor) => Effect.Effect<RolloutStatus, Lookup | RolloutError | StoreFailure>
  /** The scheduler's "apply pending updates": checks the workshop, and rolls out only when something is due. */
  readonly applyPending: (serverId: string, by: ActedBy) => Effect.Effect<"started" | "nothing-due", Lookup | RolloutError | StoreFailure>
  /** The server looked up now (a missing one fails here, before any answer); then its status and every change, until the rollout has ended. */
  readonly follow: (serverId: string) => Effect.Effect<Stream.Stream<RolloutStatus>, Lookup>
  /** The status once the rollout running now has ended (at once when none runs). */
  readonly awaitEnd: (serverId: string) => Effect.Effect<RolloutStatus, Lookup>
  /** Forgets a deleted server's policy. */
  readonly forgetServer: (serverId: string) => Effect.Effect<void, RolloutStoreError>
}

const idle = (serverId: string) =>
  new RolloutStatus({
    serverId,
    state: "idle",
    phase: "",
    message: "",
    mods: [],
    server: false,
    warningsSent: [],
    restartAt: null,
    error: null,
    startedAt: null,
    endedAt: null,
    log: []
  })

const decodePolicy = Schema.decodeUnknownOption(Schema.parseJson(RolloutPolicy))
const encodePolicy = Schema.encodeSync(Schema.parseJson(RolloutPolicy))

export class Rollouts extends Context.Tag("@garrison/plugins/Rollouts")<Rollouts, RolloutsShape>() {
  static readonly service = Layer.scoped(
    Rollouts,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const servers = yield* Servers
      const mods = yield* Mods
      const updates = yield* ServerUpdates
      const workshop = yield* Workshop
      const bus = yield* EventBus
      const hooks = yield* Hooks
      const audit = yield* AuditTrail
      const scope = yield* Effect.scope
      const board = yield* makeProgressBoard<RolloutStatus>((status) => status.state === "running")
      const iso = (ms: number) => new Date(ms).toISOString()
      const now = Effect.map(Clock.currentTimeMillis, iso)

      const policy: RolloutsShape["policy"] = (serverId) =>
        Effect.gen(function* () {
          yield* servers.entry(serverId)
          const rows = yield* sql<{ readonly policy: string }>`SELECT policy FROM rollout_policies WHERE server_id = ${serverId}`.pipe(
            Effect.mapError(storeError("read a rollout policy"))
          )
          return rows[0] === undefined ? defaultPolicy : Option.getOrElse(decodePolicy(rows[0].policy), () => defaultPolicy)
        })

      const status: RolloutsShape["status"] = (serverId) =>
        Effect.zipRight(servers.entry(serverId), Effect.map(board.get(serverId), (s) => s ?? idle(serverId)))

      const set = (serverId: string, f: (s: RolloutStatus) => Partial<RolloutStatus>) =>
        board.update(serverId, (s) => new RolloutStatus({ ...s, ...f(s) }))
      /** A step: the phase, what it does, and a line in the log. */
      const step = (serverId: string, phase: string, message: string) =>
        Effect.flatMap(Clock.currentTimeMillis, (ms) =>
          set(serverId, (s) => ({ phase, message, log: [...s.log, `${iso(ms).slice(11, 19)} ${message}`].slice(-50) }))
        )

      /**
       * `by`: who started the rollout, by id and name (its rows are written
       * on the actor's operation, long after the request), or the scheduler
       * (its rows keep the marker "scheduler", unnamed).
       */
      const run = (serverId: string, input: RolloutInput, by: ActedBy) =>
        Effect.gen(function* () {
          const handle = yield* servers.get(serverId)
          const entry = yield* handle.entry
          const rules = yield* policy(serverId)
          const installed = (yield* mods.list(serverId)).items
          const wanted = input.mods ?? installed.filter(isDue).map((m) => m.workshopId)
          const unknown = wanted.filter((id) => !installed.some((m) => m.workshopId === id))
          if (unknown.length > 0) return yield* new RolloutInputRefused({ field: "mods", message: `mods: not installed on this server: ${unknown.join(", ")}` })
          if (wanted.length === 0 && !input.server && input.install.length === 0) {
            return yield* new RolloutConflict({ message: "nothing to roll out: no mod has a due update (POST .../mods/check-updates first), nothing to install, and server is false" })
          }
          const twice = input.install.filter((m) => installed.some((i) => i.workshopId === m.workshopId))
          if (twice.length > 0) return yield* new RolloutConflict({ message: `install: installed already: ${twice.map((m) => m.workshopId).join(", ")}` })
          const known = yield* workshop.detailsMany(input.install.map((m) => m.workshopId), { fresh: true }).pipe(
            Effect.catchTag("WorkshopUnavailable", (e) => Effect.fail(new RolloutConflict({ message: `cannot check the mods to install: ${e.message}` })))
          )
          const unknownNew = input.install.filter((m) => !known.has(m.workshopId))
          if (unknownNew.length > 0) {
            return yield* new RolloutInputRefused({ field: "install", message: `install: no workshop item ${unknownNew.map((m) => m.workshopId).join(", ")} (unknown to Steam, or removed)` })
          }
          const plan = [
            ...wanted.map((id) => {
              const mod = installed.find((m) => m.workshopId === id)!
              return new RolloutMod({ workshopId: id, name: mod.name, install: false, version: mod.pendingUpdate?.workshopUpdatedAt ?? null })
            }),
            ...input.install.map((m) => {
              const item = known.get(m.workshopId)!
              return new RolloutMod({ workshopId: m.workshopId, name: item.title, install: true, version: item.timeUpdated })
            })
          ]
          const body: StartedBody = (context) =>
            Effect.gen(function* () {
              yield* board.put(serverId, new RolloutStatus({ ...idle(serverId), state: "running", mods: plan, server: input.server, startedAt: yield* now }))
              yield* context.began
              /** What the status (which clients read) says of a failure: a store failure's own words go to the log only. */
              const described = (error: Lookup | ModStoreError | PlatformStoreError) =>
                error._tag === "ModStoreError" || error._tag === "PlatformStoreError"
                  ? Effect.as(Effect.logError(`rollout of ${serverId}: ${error.message}`), "the controller's database failed (its log says how)")
                  : Effect.succeed(error.message)
              const say = (phase: string, message: string, progress?: number) =>
                Effect.zipRight(step(serverId, phase, message), context.progress(progress, message))
              const finish = (state: RolloutStatus["state"], message: string, error: string | null = null) =>
                Effect.flatMap(now, (endedAt) =>
                  Effect.zipRight(step(serverId, state === "done" ? "done" : state, message), set(serverId, () => ({ state, error, endedAt, restartAt: null })))
                )

              // 1. Download while players play: nothing on the server changes yet.
              yield* say("downloading", plan.length === 0 ? "nothing to download" : `downloading ${plan.map((m) => m.name).join(", ")}`, 0)
              const progress = (message: string) => set(serverId, () => ({ message }))
              const staged = yield* Effect.either(
                Effect.zip(mods.stage(serverId, wanted, progress), mods.stageInstalls(serverId, input.install, progress))
              )
              if (staged._tag === "Left") {
                const error = `download failed, the server was not touched: ${staged.left.message}`
                yield* finish("failed", error, error)
                return yield* bus.publish(new RolloutFailed({ serverId, name: entry.name, error, by: actedByName(by) }))
              }

              const wasRunning = yield* context.steps.running
              if (wasRunning) {
                // 2. Warnings, counted back from the restart.
                const warnings = input.now ? [] : [...rules.warnings].sort((a, b) => b - a)
                const first = yield* Clock.currentTimeMillis
                const restartAt = first + (warnings[0] ?? 0) * 60_000
                yield* set(serverId, () => ({ restartAt: iso(restartAt) }))
                for (const minutes of warnings) {
                  const at = restartAt - minutes * 60_000
                  const wait = at - (yield* Clock.currentTimeMillis)
                  if (wait > 0) yield* Effect.sleep(Duration.millis(wait))
                  const text = rules.warningMessage.replaceAll("{minutes}", String(minutes))
                  const sent = yield* Effect.either(handle.control.broadcast(text))
                  yield* say("warning", sent._tag === "Right" ? `warned players: ${text}` : `could not warn players (${sent.left.message})`, 0.1)
                  yield* set(serverId, (s) => ({ warningsSent: [...s.warningsSent, minutes] }))
                }
                const rest = restartAt - (yield* Clock.currentTimeMillis)
                if (rest > 0) yield* Effect.sleep(Duration.millis(rest))

                // 3. Lock, kick, stop.
                if (rules.lock) {
                  // The actor's own lock command waits for the mailbox, which this operation holds: send BattlEye's command itself.
                  const locked = yield* Effect.either(handle.control.raw("#lock"))
                  yield* say("locking", locked._tag === "Right" ? "locked the server" : `could not lock the server (${locked.left.message})`, 0.2)
                }
                const kicked = yield* Effect.either(kickEveryone(handle, rules.kickMessage))
                yield* say("kicking", kicked._tag === "Right" ? `kicked ${kicked.right.kicked.length} player(s)` : "could not list players to kick", 0.25)
                yield* say("stopping", "stopping the server", 0.3)
                yield* context.steps.stop.pipe(Effect.catchAll((e) => say("stopping", `stop: ${errorMessage(e)}`)))
              }

              // 4. A pre-update backup (the backups plugin's hook), then the new versions on, the replaced ones kept.
              const applied: Array<AppliedMod> = []
              let failure: string | undefined
              const hooked = yield* Effect.either(
                hooks.run(BeforeServerUpdate, { serverId, name: entry.name, installDir: entry.installDir, by, reason: "mod-rollout" as const })
              )
              if (hooked._tag === "Left") failure = `before the update: ${hooked.left.message}`
              else yield* say("applying", "before-update steps done (pre-update backup)", 0.35)
              const [updating, installing] = staged.right
              for (const item of failure === undefined ? updating : []) {
                const one = yield* Effect.either(mods.apply(serverId, [item], by))
                if (one._tag === "Left") {
                  failure = `could not put ${item.workshopId} on: ${errorMessage(one.left)}`
                  break
                }
                applied.push(...one.right)
                const put = one.right[0]
                yield* say("applying", `put on ${put === undefined ? item.workshopId : put._tag === "Updated" ? put.before.name : put.mod.name}`, 0.4)
              }
              for (const item of failure === undefined ? installing : []) {
                const one = yield* Effect.either(mods.applyInstall(serverId, item, by))
                if (one._tag === "Left") {
                  failure = `could not install ${item.input.workshopId}: ${errorMessage(one.left)}`
                  break
                }
                applied.push(one.right)
                yield* say("applying", `installed ${one.right._tag === "Installed" ? one.right.mod.name : item.input.workshopId}`, 0.45)
              }
              if (failure === undefined && input.server) {
                yield* say("updating-server", "updating the game server through SteamCMD", 0.5)
                const error = yield* updates
                  .appUpdateWithin(serverId, by, (p, m) => context.progress(p === undefined ? undefined : 0.5 + p * 0.2, m))
                  .pipe(Effect.catchAll(described))
                if (error !== undefined) failure = `the game server update failed: ${error}`
              }
              // The mods the started server must load, read while a failure can still be undone like any other.
              let expected: ReadonlyArray<string> = []
              if (failure === undefined && wasRunning) {
                const listed = yield* Effect.either(mods.list(serverId))
                if (listed._tag === "Left") failure = `the installed mods cannot be read back: ${yield* described(listed.left)}`
                else expected = listed.right.items.filter((m) => m.enabled).map((m) => m.name)
              }
              if (failure !== undefined) {
                // Nothing half-applied is left: what went on comes off again.
                yield* mods.revert(serverId, applied).pipe(Effect.catchAll((e) => say("rolling-back", `could not put every previous version back: ${e.message}`)))
                if (wasRunning) yield* context.steps.start.pipe(Effect.catchAll((e) => say("starting", `start after the failure: ${errorMessage(e)}`)))
                yield* finish("failed", failure, failure)
                return yield* bus.publish(new RolloutFailed({ serverId, name: entry.name, error: failure, by: actedByName(by) }))
              }
              if (!wasRunning) {
                yield* finish("done", "updates put on; the server was stopped and stays stopped")
                return yield* bus.publish(new RolloutCompleted({ serverId, name: entry.name, mods: plan.map(({ workshopId, name }) => ({ workshopId, name })), server: input.server, by: actedByName(by) }))
              }

              // 5. Start and watch it.
              const window = Duration.seconds(rules.checkWindowSeconds)
              const startAndCheck = (what: string) =>
                Effect.gen(function* () {
                  const startedAt = yield* Clock.currentTimeMillis
                  const started = yield* Effect.either(context.steps.start)
                  if (started._tag === "Left") return `the server did not start: ${errorMessage(started.left)}`
                  yield* say("checking", `${what}: watching the server for ${rules.checkWindowSeconds} s`, 0.8)
                  return yield* checkHealth(handle, expected, window, startedAt)
                })
              yield* say("starting", "starting the server", 0.75)
              const unhealthy = yield* startAndCheck("started")
              if (unhealthy === undefined) {
                yield* finish("done", "the server runs the new versions and answers")
                yield* audit.record({ ...auditActorFields(by), ip: null, action: "rollout.done", target: serverId, result: "success", details: { mods: wanted, server: input.server } })
                return yield* bus.publish(new RolloutCompleted({ serverId, name: entry.name, mods: plan.map(({ workshopId, name }) => ({ workshopId, name })), server: input.server, by: actedByName(by) }))
              }

              // 6. Roll back.
              yield* say("rolling-back", `unhealthy: ${unhealthy}; putting the previous versions back`, 0.9)
              if (yield* context.steps.running) yield* context.steps.stop.pipe(Effect.catchAll((e) => say("rolling-back", `stop: ${errorMessage(e)}`)))
              yield* mods.revert(serverId, applied).pipe(Effect.catchAll((e) => say("rolling-back", `could not put every previous version back: ${e.message}`)))
              const again = yield* startAndCheck("rolled back")
              const reason = input.server && applied.length === 0 ? `${unhealthy} (the game server's own update cannot be rolled back)` : unhealthy
              yield* finish(
                "rolled-back",
                again === undefined ? "rolled back: the server runs the previous versions again" : `rolled back, but the server is still not healthy: ${again}`,
                reason
              )
              yield* audit.record({ ...auditActorFields(by), ip: null, action: "rollout.rolled-back", target: serverId, result: "failure", details: { mods: wanted, reason } })
              yield* bus.publish(
                new RolloutRolledBack({ serverId, name: entry.name, mods: plan.map(({ workshopId, name }) => ({ workshopId, name })), reason, recovered: again === undefined, by: actedByName(by) })
              )
            }).pipe(
              Effect.onInterrupt(() =>
                Effect.flatMap(now, (endedAt) =>
                  set(serverId, (s) => ({ state: "cancelled", error: "the rollout was cancelled by a stop", endedAt, restartAt: null, log: [...s.log, "cancelled by a stop"].slice(-50) }))
                )
              )
            )

          yield* startOperation(handle.actor, "mod-rollout", scope, body).pipe(Effect.mapError((error) => new RolloutConflict({ message: error.message })))
          return yield* status(serverId)
        })

      return Rollouts.of({
        policy,
        setPolicy: (serverId, next) =>
          Effect.gen(function* () {
            yield* servers.entry(serverId)
            const at = yield* now
            yield* sql`INSERT INTO rollout_policies (server_id, policy, updated_at) VALUES (${serverId}, ${encodePolicy(next)}, ${at})
              ON CONFLICT (server_id) DO UPDATE SET policy = excluded.policy, updated_at = excluded.updated_at`.pipe(Effect.mapError(storeError("save a rollout policy")))
            return next
          }),
        status,
        start: run,
        applyPending: (serverId, by) =>
          Effect.gen(function* () {
            yield* mods.checkUpdates(serverId).pipe(
              Effect.catchTag("WorkshopUnavailable", (e) => Effect.fail(new RolloutConflict({ message: `cannot check the workshop: ${e.message}` })))
            )
            const due = yield* mods.due(serverId)
            if (due.length === 0) return "nothing-due" as const
            yield* run(serverId, new RolloutInput({ mods: due.map((m) => m.workshopId), install: [], server: false, now: false }), by)
            return "started" as const
          }),
        follow: (serverId) => Effect.map(status(serverId), (current) => board.follow(serverId, current)),
        awaitEnd: (serverId) => Effect.flatMap(board.awaitEnd(serverId), (s) => (s === undefined ? status(serverId) : Effect.succeed(s))),
        forgetServer: (serverId) => sql`DELETE FROM rollout_policies WHERE server_id = ${serverId}`.pipe(Effect.mapError(storeError("forget a server's rollout policy")), Effect.asVoid)
      })
    })
  )
}

/** `Rollouts`, and the scheduler's `ScheduledUpdates` extension point filled with it (its "apply pending updates" jobs). */
export const RolloutsLive = Layer.effect(
  ScheduledUpdates,
  Effect.map(Rollouts, (rollouts) => ({
    applyPending: (serverId: string, by: ActedBy) =>
      rollouts.applyPending(serverId, by).pipe(
        // A store failure is a fault, not a refusal: it dies, and the scheduler logs it whole.
        Effect.catchTags({ RolloutStoreError: storeDefect, ModStoreError: storeDefect }),
        Effect.mapError((error) =>
          error._tag === "RolloutConflict" || error._tag === "RolloutInputRefused"
            ? new ActorError({ serverId, reason: "refused", message: error.message })
            : new ActorError({ serverId, reason: "removed", message: error.message })
        )
      )
  }))
).pipe(Layer.provideMerge(Rollouts.service))

