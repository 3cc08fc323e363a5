/**
 * Turns a list of plugins into one Layer: the kernel services, the database
 * with every plugin's migrations applied, each plugin's services (in
 * dependency order), and the wiring of their event handlers, hooks, jobs and
 * start hooks. The HTTP host mounts the routes on top; an embedding program
 * can use the Layer without any HTTP server.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Authenticators, type SchemeAuthenticator } from "../access/Authenticators.js"
import { PermissionCatalog } from "../access/Permissions.js"
import { DataDir, Secrets, SESSION_SIGNING_KEY } from "../config/DataDir.js"
import { GarrisonConfig } from "../config/GarrisonConfig.js"
import { scheduledBackups, shutdownBackup } from "../database/BackupJobs.js"
import { Database } from "../database/Database.js"
import { runMigrations } from "../database/Migrations.js"
import { EventBus } from "../events/EventBus.js"
import { PublishedEvents } from "../events/PublishedEvents.js"
import { SealedSecrets } from "../secrets/SealedSecrets.js"
import { AtomicFiles } from "../files/AtomicFile.js"
import { Announcements } from "./Announcements.js"
import { Hooks } from "./Hooks.js"
import type { AnyPlugin, Job, Plugin } from "./Plugin.js"
import { type HostRoute, planPlugins } from "./PluginPlan.js"
import { GroupCommit } from "../database/GroupCommit.js"
import { RequestLoad } from "../http/RequestLoad.js"
import { Telemetry } from "../telemetry/Telemetry.js"
import { PluginRegistry } from "./PluginRegistry.js"
import { liveLogging } from "../settings/LiveLogLevel.js"
import { RuntimeSettings } from "../settings/RuntimeSettings.js"
import { StartupError } from "./StartupError.js"

/** Services every plugin can use. */
export type KernelServices =
  | GarrisonConfig
  | DataDir
  | Secrets
  | SealedSecrets
  | Database
  | SqlClient.SqlClient
  | GroupCommit
  | EventBus
  | AtomicFiles
  | Hooks
  | PermissionCatalog
  | PublishedEvents
  | RequestLoad
  | Telemetry
  | PluginRegistry
  | Announcements
  | Authenticators

/** The services the plugins in a list provide. */
export type ProvidedBy<P> = P extends Plugin<infer A, infer _R> ? A : never

export interface RuntimeOptions {
  /** Routes served by the host itself, so no plugin may claim them. */
  readonly hostRoutes?: ReadonlyArray<HostRoute>
  /**
   * Take the host's own database backups: every `backupInterval`, and one at
   * shutdown once the plugins have stopped (on by default; off in
   * short-lived tools). Backups asked for with `Database.requestBackup` are
   * taken either way.
   */
  readonly scheduledBackups?: boolean
  /**
   * The host logs the plugins' announcements (`Announcements.release`) once
   * it listens. Off by default: the runtime logs them when it has started.
   */
  readonly hostReleasesAnnouncements?: boolean
}

/**
 * A plugin's services, with the time their build took logged at Debug:
 * start-up time is a goal, and this says which plugin spends it (its
 * `onStart` is timed separately).
 */
const timedBuild = <A, E, R>(pluginId: string, layer: Layer.Layer<A, E, R>): Layer.Layer<A, E, R> =>
  Layer.unwrapEffect(
    Effect.map(Clock.currentTimeMillis, (began) =>
      Layer.tap(layer, () =>
        Effect.flatMap(Clock.currentTimeMillis, (built) => Effect.logDebug(`plugin ${pluginId} services built in ${built - began} ms`))
      )
    )
  )

/** Signing keys generated on first start (and checked on every start), so they exist before anything needs them. */
const FIRST_START_SECRETS = [SESSION_SIGNING_KEY] as const

export const layer = <const Plugins extends ReadonlyArray<AnyPlugin>>(
  plugins: Plugins,
  options: RuntimeOptions = {}
): Layer.Layer<KernelServices | ProvidedBy<Plugins[number]>, StartupError, GarrisonConfig> =>
  Layer.unwrapEffect(
    Effect.gen(function* () {
      const plan = yield* planPlugins(plugins, options.hostRoutes ?? [])
      const config = yield* GarrisonConfig
      // Settings first: a bad one must stop the start before the data directory or database is touched.
      for (const plugin of plan.ordered) {
        if (plugin.checkSettings === undefined) continue
        yield* Effect.mapError(plugin.checkSettings, (error) =>
          ConfigError.isConfigError(error) ? new StartupError({ reason: "config", message: `bad configuration: ${String(error)}` }) : error
        )
      }
      // Run-time settings read their environment value whenever no override is stored: a bad one stops the start now.
      for (const setting of plan.ordered.flatMap((plugin) => plugin.settings)) {
        yield* Effect.mapError(setting.env, (error) => new StartupError({ reason: "config", message: `bad configuration: ${String(error)}` }))
      }
      const startedAt = yield* Clock.currentTimeMillis

      const storage = Database.layer.pipe(Layer.provideMerge(DataDir.layer))
      const kernel = Layer.mergeAll(
        EventBus.layer(),
        AtomicFiles.layer,
        Hooks.layer,
        Announcements.layer,
        SealedSecrets.layer.pipe(Layer.provideMerge(Secrets.layer)),
        PermissionCatalog.layer(plan.permissions),
        PublishedEvents.layer(plan.publishedEvents),
        GroupCommit.layer,
        RequestLoad.layer,
        Telemetry.layer,
        Layer.succeed(PluginRegistry, { plan, startedAt, version: config.version })
      ).pipe(Layer.provideMerge(storage))

      const migrated = Layer.effectDiscard(
        Effect.gen(function* () {
          const secrets = yield* Secrets
          // A bad key file stops the start here, with one line naming it, before any port opens.
          yield* Effect.forEach([...FIRST_START_SECRETS, ...plan.secrets], (secret) => secrets.require(secret.name, secret.spec), {
            discard: true
          })
          // runMigrations logs each migration it applies.
          yield* runMigrations(plan.ordered.map((p) => ({ pluginId: p.id, migrations: p.migrations })))
        })
      ).pipe(Layer.provideMerge(kernel))

      // Built after the kernel and before any plugin, so its finalizer runs once every
      // plugin has closed (nothing writes any more) and while the database is still open.
      const backupAtShutdown = Layer.scopedDiscard(Effect.addFinalizer(() => shutdownBackup()))
      const backedUp = options.scheduledBackups === false ? migrated : Layer.provideMerge(backupAtShutdown, migrated)
      // First of all: everything built after it logs through the filter `LOG_LEVEL` moves at run time.
      const base = Layer.provideMerge(backedUp, liveLogging)

      // Each plugin's services see the kernel and every plugin loaded before it.
      // The list is dynamic, so its types are checked by id (planPlugins), not by the compiler.
      let services = base as Layer.Layer<unknown, unknown, GarrisonConfig>
      for (const plugin of plan.ordered) {
        services = Layer.provideMerge(timedBuild(plugin.id, plugin.layer as Layer.Layer<unknown, unknown, unknown>), services) as Layer.Layer<
          unknown,
          unknown,
          GarrisonConfig
        >
      }

      // Each scheme's authenticator, built with its plugin's services (and every plugin's before it);
      // a scheme another plugin replaces (see `AuthenticationScheme.replaces`) is the plan's owner's.
      const authenticators = Layer.effect(
        Authenticators,
        Effect.gen(function* () {
          const entries: Array<readonly [string, SchemeAuthenticator]> = []
          for (const declared of plan.schemes) {
            const plugin = plan.ordered.find((p) => p.id === declared.owner)!
            const spec = plugin.authentication.find((s) => s.name === declared.name)!
            entries.push([declared.name, yield* (spec.authenticator as Effect.Effect<SchemeAuthenticator>)])
          }
          return Authenticators.make(entries)
        })
      )

      const wiring = Layer.scopedDiscard(
        Effect.gen(function* () {
          const context = (yield* Effect.context<never>()) as Context.Context<never>
          const bus = yield* EventBus
          const hooks = yield* Hooks
          for (const plugin of plan.ordered) {
            for (const handler of plugin.events) {
              yield* bus.register(plugin.id, handler) as Effect.Effect<void>
            }
            for (const hook of plugin.hooks) hooks.register(plugin.id, hook, context)
            for (const job of plugin.jobs) yield* forkJob(plugin.id, job as Job<never>)
          }
          for (const plugin of plan.ordered) {
            if (plugin.onStart === undefined) continue
            const [took] = yield* (plugin.onStart as Effect.Effect<void, unknown>).pipe(
              Effect.catchAllCause((cause) =>
                Effect.logError(`plugin ${plugin.id} failed to start`, Cause.pretty(cause)).pipe(
                  Effect.zipRight(Effect.failCause(cause))
                )
              ),
              Effect.timed
            )
            // Start-up time is a goal (issue 5's benchmark); this says which plugin spends it.
            yield* Effect.logDebug(`plugin ${plugin.id} started in ${Duration.toMillis(took).toFixed(0)} ms`)
          }
          if (options.scheduledBackups !== false) yield* Effect.forkScoped(scheduledBackups)
          const now = yield* Clock.currentTimeMillis
          yield* Effect.logInfo(
            `runtime started in ${now - startedAt} ms with plugins: ${plan.ordered.map((p) => p.id).join(", ") || "(none)"}`
          )
          if (options.hostReleasesAnnouncements !== true) yield* Effect.flatMap(Announcements, (a) => a.release)
        })
      )
      return wiring.pipe(Layer.provideMerge(authenticators), Layer.provideMerge(services)) as Layer.Layer<
        KernelServices | ProvidedBy<Plugins[number]>,
        StartupError,
        GarrisonConfig
      >
    })
  )

/** A background job (see `Job`): every run logged on failure or time-out, never stopping the loop. */
const forkJob = (owner: string, job: Job<never>) =>
  Effect.gen(function* () {
    // Read once now, so a bad interval stops the start; later reads that fail keep the last good one.
    let last = Duration.decode(Effect.isEffect(job.every) ? yield* job.every : job.every)
    const readEvery = Effect.isEffect(job.every)
      ? job.every.pipe(
          Effect.map((every) => (last = Duration.decode(every))),
          Effect.catchAllCause(() => Effect.succeed(last))
        )
      : Effect.succeed(last)
    const settings = yield* RuntimeSettings
    const timed = job.timeout === undefined
      ? job.run
      : job.run.pipe(
          Effect.timeoutFail({
            duration: job.timeout,
            onTimeout: () => new Error(`took longer than ${Duration.format(Duration.decode(job.timeout!))}: stopped`)
          })
        )
    const once = timed.pipe(Effect.catchAllCause((cause) => Effect.logWarning(`job ${owner}/${job.name} failed`, Cause.pretty(cause))))
    const loop: Effect.Effect<never, unknown> = Effect.zipRight(once, Effect.suspend(() => Effect.zipRight(waitEvery(readEvery, settings.changed), loop)))
    const first = job.initialDelay === undefined ? waitEvery(readEvery, settings.changed) : Effect.sleep(job.initialDelay)
    yield* Effect.zipRight(first, loop).pipe(Effect.forkScoped)
  })

/**
 * Waits one interval. An interval read from a setting is read again when a
 * run-time setting changes, and the wait then ends at the new interval
 * counted from the same start: a shorter poll interval applies at once, not
 * after the old one.
 */
const waitEvery = <R>(readEvery: Effect.Effect<Duration.Duration, never, R>, changed: Effect.Effect<void>) =>
  Effect.gen(function* () {
    const since = yield* Clock.currentTimeMillis
    let every = Duration.toMillis(yield* readEvery)
    for (;;) {
      const elapsed = (yield* Clock.currentTimeMillis) - since
      const outcome = yield* Effect.raceFirst(
        Effect.as(Effect.sleep(Duration.millis(Math.max(0, every - elapsed))), "slept" as const),
        Effect.as(changed, "changed" as const)
      )
      if (outcome === "slept") return
      every = Duration.toMillis(yield* readEvery)
    }
  })
