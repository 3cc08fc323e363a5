/**
 * `ServerUpdates`: installing, updating and checking a game server's own
 * files through SteamCMD (`app_update`). An update runs as the server
 * actor's long operation (kind `update`, status `updating`), so nothing can
 * start the server while SteamCMD writes its files, and a stop (or
 * `cancel`) ends SteamCMD at once. What it does is kept per server as an
 * `UpdateStatus` (phase, percent and bytes from SteamCMD's progress lines,
 * its last line) and streamed to whoever follows it.
 *
 * A deploy makes the entry first (on a new, empty folder) and runs the same
 * update into it, then reads the RCON settings the download brought.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import { randomUUID } from "node:crypto"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import {
  actedByName,
  type ActedBy,
  type AuditActor,
  auditActorFields,
  AuditTrail,
  BeforeServerUpdate,
  type ConfinedFileError,
  EventBus,
  giveTreeToItsOwner,
  Hooks,
  hostFolders,
  isInsideFolder,
  makeProgressBoard,
  makeServerEntry,
  ServerEntry,
  ServerFiles,
  type ServerNotFound,
  type ServerUnreadable,
  startOperation,
  SteamCmd,
  type SteamCmdError
} from "@garrison/runtime"
import { PlatformSettings, type PlatformStoreError } from "../platform/index.js"
import { readBattlEyeRcon, Servers } from "../servers/index.js"
import { DeployFolderRefused, UpdateConflict, type UpdatesError, UpdatesUnavailable } from "./errors.js"
import { type Branch, type DeployInput, DeployStarted, type UpdateKind, UpdateStatus } from "./contract/Api.js"
import { ServerUpdated, ServerUpdateFailed } from "./events.js"
import { installedApp } from "./internal/appManifest.js"

type Lookup = ServerNotFound | ServerUnreadable


export interface ServerUpdatesShape {
  readonly status: (serverId: string) => Effect.Effect<UpdateStatus, Lookup>
  /** `PlatformStoreError`: the Steam account's first proven login could not be recorded (nothing ran). */
  readonly start: (serverId: string, kind: "update" | "rebuild", by: AuditActor) => Effect.Effect<UpdateStatus, Lookup | UpdateConflict | UpdatesUnavailable | PlatformStoreError>
  readonly cancel: (serverId: string, by: AuditActor) => Effect.Effect<UpdateStatus, Lookup | UpdateConflict>
  readonly deploy: (input: DeployInput, by: AuditActor) => Effect.Effect<DeployStarted, UpdatesError | PlatformStoreError>
  /** The server looked up now (a missing one fails here, before any answer); then its status and every change, until the operation has ended. */
  readonly follow: (serverId: string) => Effect.Effect<Stream.Stream<UpdateStatus>, Lookup>
  /**
   * The server's files updated by SteamCMD inside an operation the caller
   * already runs (a rollout): the server must be stopped. Answers the
   * failure's message, or undefined when it worked; the status shows it.
   * `by`: who started the rollout (its rows name them), or the scheduler.
   */
  readonly appUpdateWithin: (
    serverId: string,
    by: ActedBy,
    progress: (progress: number | undefined, message: string) => Effect.Effect<void>
  ) => Effect.Effect<string | undefined, Lookup | PlatformStoreError>
  /** The status once no operation of this kind runs (at once when none does; then the server is looked up for it). */
  readonly awaitEnd: (serverId: string) => Effect.Effect<UpdateStatus, Lookup>
}

const idle = (serverId: string, installDir: string): UpdateStatus => {
  const app = installedApp(installDir)
  return new UpdateStatus({
    serverId,
    state: "idle",
    kind: null,
    phase: "",
    percent: 0,
    bytes: 0,
    totalBytes: null,
    lastLine: "",
    error: null,
    startedAt: null,
    endedAt: null,
    appId: app?.appId ?? null,
    buildId: app?.buildId ?? null
  })
}


const steamRefusal = (error: SteamCmdError): UpdateConflict | UpdatesUnavailable => {
  switch (error.reason) {
    case "guard-code-needed":
      return new UpdateConflict({
        message:
          "Steam asks for a Steam Guard code for the stored account: POST /api/platform/credentials with the account and its guardCode, then try again"
      })
    case "bad-credentials":
      return new UpdateConflict({ message: `Steam refused the stored account (${error.message}): store it again with POST /api/platform/credentials` })
    default:
      return new UpdatesUnavailable({ message: error.message })
  }
}

export class ServerUpdates extends Context.Tag("@garrison/plugins/ServerUpdates")<ServerUpdates, ServerUpdatesShape>() {
  static readonly layer = Layer.scoped(
    ServerUpdates,
    Effect.gen(function* () {
      const servers = yield* Servers
      const platform = yield* PlatformSettings
      const bus = yield* EventBus
      const hooks = yield* Hooks
      const audit = yield* AuditTrail
      const { deployDir } = yield* hostFolders
      const scope = yield* Effect.scope
      const board = yield* makeProgressBoard<UpdateStatus>((status) => status.state === "running")
      const iso = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms).toISOString())

      const statusOf = (serverId: string) =>
        Effect.gen(function* () {
          const entry = yield* servers.entry(serverId)
          return (yield* board.get(serverId)) ?? idle(serverId, entry.installDir)
        })
      const set = (serverId: string, f: (status: UpdateStatus) => Partial<UpdateStatus>) =>
        board.update(serverId, (current) => new UpdateStatus({ ...current, ...f(current) }))

      /** The stored Steam account, proven by a login when it never was (that is where a Steam Guard code is asked for). */
      const provenAccount = Effect.gen(function* () {
        const settings = yield* platform.current
        if (Option.isNone(settings.account)) {
          return yield* Effect.fail(
            new UpdateConflict({ message: "no Steam account is set: the server download needs an account that owns DayZ (POST /api/platform/credentials)" })
          )
        }
        const account = settings.account.value
        if (account.validatedAt !== null) return
        yield* platform.checkLogin(account.username, Redacted.value(account.password)).pipe(Effect.mapError(steamRefusal))
        yield* platform.saveCredentials(account.username, Redacted.value(account.password), yield* iso)
      })

      /**
       * SteamCMD's `app_update` into the server's folder, its progress in the
       * status (and in `progress`, the operation's): the server must be
       * stopped and held by an operation (the caller's). Answers the error, or
       * undefined when it worked.
       */
      const appUpdate = (
        serverId: string,
        entry: ServerEntry,
        kind: UpdateKind,
        appId: string,
        /** Who asked, by id and name: the rows are written on the actor's operation, after the request. */
        by: ActedBy,
        progress: (progress: number | undefined, message: string) => Effect.Effect<void>,
        /** Runs once the status says `running`. */
        begun: Effect.Effect<unknown> = Effect.void
      ) =>
        Effect.gen(function* () {
          const startedAt = yield* iso
          yield* board.put(
            serverId,
            new UpdateStatus({ ...idle(serverId, entry.installDir), state: "running", kind, phase: "login", startedAt, lastLine: "starting SteamCMD" })
          )
          yield* begun
          if (kind !== "deploy") {
            // The backups plugin's pre-update backup; when it fails, SteamCMD does not run.
            const hooked = yield* Effect.either(hooks.run(BeforeServerUpdate, { serverId, name: entry.name, installDir: entry.installDir, by, reason: "game-update" as const }))
            if (hooked._tag === "Left") {
              const error = `before the update: ${hooked.left.message}`
              yield* set(serverId, () => ({ state: "failed", error }))
              yield* Effect.flatMap(iso, (endedAt) => set(serverId, () => ({ endedAt })))
              yield* bus.publish(new ServerUpdateFailed({ serverId, name: entry.name, kind, error }))
              return error
            }
          }
          const report = yield* platform
            .steamCmd(
              { installDir: entry.installDir, steps: [{ _tag: "AppUpdate", appId, validate: kind !== "update" }] },
              {
                onLine: (line, text) => {
                  const lastLine = text.trim().slice(0, 500)
                  if (line._tag !== "Progress") return set(serverId, () => ({ lastLine }))
                  return Effect.zipRight(
                    set(serverId, () => ({ phase: line.stage, percent: Math.min(100, line.percent), bytes: line.done, totalBytes: line.total, lastLine })),
                    progress(line.percent / 100, `${line.stage} ${line.percent.toFixed(1)}%`)
                  )
                }
              }
            )
            .pipe(Effect.either)
          const outcome = report._tag === "Right" ? report.right.steps[0] : undefined
          // SteamCMD ran as the controller: what it wrote goes to the install's owner, the user the game runs as.
          if (outcome?.ok === true) {
            yield* Effect.tryPromise(() => giveTreeToItsOwner(entry.installDir)).pipe(
              Effect.catchAll((error) => Effect.logWarning(`${entry.name}: cannot give the updated files to the install's owner`, error.error))
            )
          }
          const endedAt = yield* iso
          const app = installedApp(entry.installDir)
          if (outcome?.ok === true) {
            yield* set(serverId, () => ({ state: "done", phase: "done", percent: 100, endedAt, appId: app?.appId ?? appId, buildId: app?.buildId ?? null }))
            yield* audit.record({ ...auditActorFields(by), ip: null, action: `servers.${kind}`, target: serverId, result: "success", details: { appId, buildId: app?.buildId ?? null } })
            yield* bus.publish(new ServerUpdated({ serverId, name: entry.name, kind, appId, buildId: app?.buildId ?? null, by: actedByName(by) }))
            return undefined
          }
          const error =
            report._tag === "Left"
              ? report.left.message
              : outcome?.failure?.kind === "disk-full"
                ? "not enough disk space for the server's files"
                : outcome?.failure?.kind === "no-subscription"
                  ? "the Steam account does not own DayZ (no subscription to the server app)"
                  : `SteamCMD could not ${kind} the server: ${outcome?.failure?.reason ?? report.right.lastLine}`
          yield* set(serverId, () => ({ state: "failed", error, endedAt }))
          yield* audit.record({ ...auditActorFields(by), ip: null, action: `servers.${kind}`, target: serverId, result: "failure", details: { appId, error } })
          yield* bus.publish(new ServerUpdateFailed({ serverId, name: entry.name, kind, error }))
          return error
        }).pipe(
          Effect.onInterrupt(() =>
            Effect.flatMap(iso, (endedAt) => set(serverId, () => ({ state: "cancelled", error: `the ${kind} was cancelled; the server is stopped`, endedAt })))
          )
        )

      /** Runs the update as the actor's operation; answers once it has begun (or was refused). */
      const run = (serverId: string, kind: UpdateKind, appId: string, by: AuditActor) =>
        Effect.gen(function* () {
          const handle = yield* servers.get(serverId)
          const entry = yield* handle.entry
          yield* startOperation(handle.actor, "update", scope, (context) =>
            Effect.asVoid(appUpdate(serverId, entry, kind, appId, by, context.progress, context.began))
          ).pipe(Effect.mapError((error) => new UpdateConflict({ message: error.message })))
          return yield* statusOf(serverId)
        })

      const start: ServerUpdatesShape["start"] = (serverId, kind, by) =>
        Effect.gen(function* () {
          const busy = yield* servers.busy(serverId)
          if (busy !== undefined) return yield* new UpdateConflict({ message: `server ${serverId} is busy (${busy}): stop it first` })
          yield* provenAccount
          const entry = yield* servers.entry(serverId)
          return yield* run(serverId, kind, installedApp(entry.installDir)?.appId ?? SteamCmd.DAYZ_SERVER_APP, by)
        })

      const deploy: ServerUpdatesShape["deploy"] = (input, by) =>
        Effect.gen(function* () {
          const root = NodePath.resolve(deployDir)
          const wanted = NodePath.isAbsolute(input.installDir) ? NodePath.normalize(input.installDir) : NodePath.resolve(root, input.installDir)
          if (input.installDir.includes("\0") || !isInsideFolder(root, wanted)) {
            return yield* new DeployFolderRefused({
              field: "installDir",
              message: `installDir must be a folder inside the deploy folder ${root} (DEPLOY_DIR): a name, or an absolute path under it`
            })
          }
          const relative = NodePath.relative(root, wanted)
          // Made and read through the deploy folder's confined files: no symbolic link on the way leads out of it.
          const files = ServerFiles.local(root)
          const refusedPath = (error: ConfinedFileError) => new DeployFolderRefused({ field: "installDir", message: `installDir ${relative}: ${error.message}` })
          yield* Effect.try({
            try: () => Fs.mkdirSync(root, { recursive: true, mode: 0o755 }),
            catch: (error) => new UpdatesUnavailable({ message: `cannot create the deploy folder ${root}: ${String(error)}` })
          })
          const present = yield* files.list(relative).pipe(
            Effect.map((found) => found.length === 0 ? "empty" as const : "files" as const),
            Effect.catchIf((e) => e.problem === "not-found", () => Effect.succeed("missing" as const)),
            Effect.mapError(refusedPath)
          )
          if (present === "files") {
            return yield* new DeployFolderRefused({
              field: "installDir",
              message: `${wanted} has files in it: deploy into a new or empty folder (an existing install is added with POST /api/servers)`
            })
          }
          yield* provenAccount
          if (present === "missing") yield* files.makeFolder(relative).pipe(Effect.mapError(refusedPath))
          const installDir = wanted
          const entry = makeServerEntry({ id: randomUUID(), name: input.name, installDir, ...(input.gamePort === undefined ? {} : { gamePort: input.gamePort }) })
          const stored = yield* servers.create(entry, { freeGamePort: input.gamePort === undefined }).pipe(
            Effect.catchTags({
              InstallDirInUse: (e) => Effect.fail(new UpdateConflict({ message: e.message })),
              InstallDirReserved: (e) => Effect.fail(new DeployFolderRefused({ field: "installDir", message: `installDir: ${e.reason}` })),
              PortsInUse: (e) => Effect.fail(new UpdateConflict({ message: e.message }))
            })
          )
          const appId = input.branch === ("experimental" satisfies Branch) ? SteamCmd.DAYZ_EXPERIMENTAL_SERVER_APP : SteamCmd.DAYZ_SERVER_APP
          const update = yield* run(stored.id, "deploy", appId, by).pipe(Effect.catchTags({ ServerNotFound: (e) => Effect.die(e), ServerUnreadable: (e) => Effect.die(e) }))
          // Once the download is there, the entry takes the RCON settings it brought.
          yield* Effect.forkIn(
            Effect.gen(function* () {
              const ended = yield* awaitEnd(stored.id)
              if (ended.state !== "done") return
              yield* servers.update(
                stored.id,
                (current) => {
                  if (current.rcon !== undefined) return Effect.succeed(undefined)
                  const found = readBattlEyeRcon(current.installDir, current.battleyeDir, current.profilesDir)
                  if (found?.port === undefined || found.password === undefined) return Effect.succeed(undefined)
                  return Effect.succeed(new ServerEntry({ ...current, rcon: { protocol: "battleye", host: found.host, port: found.port, password: found.password } }))
                },
                // The controller's own follow-up of the deploy (whose rows name who asked): no actor.
                { actor: null, reason: "deploy" }
              )
            }).pipe(Effect.catchAllCause((cause) => Effect.logWarning("deploy: could not read the new server's RCON settings", cause))),
            scope
          )
          return new DeployStarted({ serverId: stored.id, name: stored.name, installDir: stored.installDir, gamePort: stored.gamePort, update })
        })

      const awaitEnd = (serverId: string) => Effect.flatMap(board.awaitEnd(serverId), (status) => (status !== undefined ? Effect.succeed(status) : statusOf(serverId)))

      return ServerUpdates.of({
        status: statusOf,
        start,
        deploy,
        cancel: (serverId, by) =>
          Effect.gen(function* () {
            const handle = yield* servers.get(serverId)
            const current = yield* statusOf(serverId)
            const state = yield* handle.state
            if (current.state !== "running" || state.operation?.kind !== "update") {
              return yield* new UpdateConflict({ message: `no update of server ${serverId} is running` })
            }
            // A stop cancels the running operation and leaves the server stopped.
            yield* handle.actor.stop.pipe(Effect.ignore)
            yield* audit.record({ ...auditActorFields(by), ip: null, action: "servers.update-cancel", target: serverId, result: "success" })
            return yield* awaitEnd(serverId)
          }),
        follow: (serverId) => Effect.map(statusOf(serverId), (now) => board.follow(serverId, now)),
        awaitEnd,
        appUpdateWithin: (serverId, by, progress) =>
          Effect.gen(function* () {
            const entry = yield* servers.entry(serverId)
            // A refusal (no account, Steam Guard) is the answer; the platform's store failing is not, and fails.
            const account = yield* Effect.either(provenAccount)
            if (account._tag === "Left") return account.left._tag === "PlatformStoreError" ? yield* account.left : account.left.message
            return yield* appUpdate(serverId, entry, "update", installedApp(entry.installDir)?.appId ?? SteamCmd.DAYZ_SERVER_APP, by, progress)
          })
      })
    })
  )
}
