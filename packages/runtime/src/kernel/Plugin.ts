/**
 * The plugin contract. A plugin is a value, built with `Plugin.make`, that
 * declares everything it brings; the host (`PluginHost`) validates a list of
 * them and turns it into one Layer. Community plugins use only this module
 * and the services exported from `@garrison/runtime`.
 */
import type * as Etag from "@effect/platform/Etag"
import type * as FileSystem from "@effect/platform/FileSystem"
import type * as HttpApi from "@effect/platform/HttpApi"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type * as HttpPlatform from "@effect/platform/HttpPlatform"
import type * as Path from "@effect/platform/Path"
import type * as ConfigError from "effect/ConfigError"
import type * as Duration from "effect/Duration"
import type * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import type { AuthenticationScheme } from "../access/Authenticators.js"
import type { PermissionDefinition } from "../access/Permissions.js"
import type { SecretSpec } from "../config/DataDir.js"
import type { Migration } from "../database/Migrations.js"
import type { ErrorCodeDeclaration } from "../http/ApiErrors.js"
import type { EventHandler } from "../events/EventBus.js"
import type { AnyPublishedEvent } from "../events/PublishedEvents.js"
import type { RateLimitDeclaration } from "../http/RateLimits.js"
import type { HookHandler } from "./Hooks.js"
import type { AnyRuntimeSetting } from "../settings/RuntimeSetting.js"
import type { StartupError } from "./StartupError.js"

/** What the host provides to every plugin's routes layer. */
export type HttpRouteServices =
  | HttpLayerRouter.HttpRouter
  | Etag.Generator
  | FileSystem.FileSystem
  | HttpPlatform.HttpPlatform
  | Path.Path

export interface PluginHttp<R> {
  /**
   * The plugin's API; every endpoint carries an `Access` annotation. Its
   * request bodies refuse fields their schema does not name (400 naming
   * the field), unless a payload schema says otherwise (see `KnownFields`).
   */
  readonly api: HttpApi.HttpApi.Any
  /** The routes, implemented: built by `Plugin.http`. */
  readonly routes: Layer.Layer<never, unknown, R | HttpRouteServices>
  /** Paths whose requests are not logged (health checks, high-rate feeds). */
  readonly quietPaths?: ReadonlyArray<string>
}

/** A key a plugin keeps in the data directory. */
export interface PluginSecret {
  /** Lower-case letters, digits and dashes; the file is `<name>.key`. */
  readonly name: string
  readonly spec: SecretSpec
}

/**
 * A background job: `run` repeats `every` after the end of the last run,
 * first after `initialDelay` (default: one interval). A run that fails or
 * dies is logged (a warning naming the job, with the cause) and the loop
 * goes on; a run longer than `timeout` is stopped and logged the same way.
 * Every periodic loop of a plugin is a job, so none can end silently.
 */
export interface Job<R> {
  readonly name: string
  /** A fixed interval, or one read once at start-up (a setting: `Effect.map(config, (c) => c.interval)`). */
  readonly every: Duration.DurationInput | Effect.Effect<Duration.DurationInput, unknown, R>
  readonly initialDelay?: Duration.DurationInput
  readonly timeout?: Duration.DurationInput
  readonly run: Effect.Effect<void, unknown, R>
}

/**
 * A service that one plugin's layer provides and other plugins' layers read
 * while they are built: an extension point such as the runtime's
 * `AuditTrail`. A layer reads what the layers built before it provide, so
 * the plan builds a provider before every plugin that requires it, and
 * refuses to start when none is loaded (a service read too early would be
 * the slot's default, silently).
 */
export interface PluginService {
  /** The service's key (a `Context.Tag` or `Context.Reference` is one). */
  readonly key: string
}

/** Another plugin, by value or by id (a value also checks the spelling). */
export type PluginRef = string | { readonly id: string }

export interface Plugin<Provides = never, R = never> {
  readonly id: string
  readonly description: string
  /** Plugin ids this one needs loaded and built first. */
  readonly dependsOn: ReadonlyArray<string>
  /** Extension points this plugin's layer provides (see `PluginService`). */
  readonly provides: ReadonlyArray<PluginService>
  /** Extension points this plugin's layer reads; a provider must be loaded, and is built first. */
  readonly requires: ReadonlyArray<PluginService>
  /**
   * Extension points this plugin's layer reads when some plugin provides
   * them (`Effect.serviceOption`): a provider loaded is built first; none
   * loaded is no error.
   */
  readonly uses: ReadonlyArray<PluginService>
  readonly permissions: ReadonlyArray<PermissionDefinition>
  readonly migrations: ReadonlyArray<Migration>
  /** Services the plugin exports to later plugins and to embedders. */
  readonly layer: Layer.Layer<Provides, unknown, R>
  readonly http: PluginHttp<R> | undefined
  /** The authentication schemes this plugin provides (its authenticators, and how callers send them). */
  readonly authentication: ReadonlyArray<AuthenticationScheme<R>>
  /** Rate-limit scopes its endpoints may name (`RateLimit`), besides the built-in ones. */
  readonly rateLimits: ReadonlyArray<RateLimitDeclaration>
  /**
   * Keys it keeps under `DATA_DIR/secrets/<name>.key` (random, mode 0600):
   * generated on the first start, checked on every start (a bad key file
   * stops the start naming it). Read them with `Secrets.get(name, spec)`.
   */
  readonly secrets: ReadonlyArray<PluginSecret>
  /** Error codes its own error classes answer with, besides the table's. */
  readonly errorCodes: ReadonlyArray<ErrorCodeDeclaration>
  readonly events: ReadonlyArray<EventHandler<R>>
  /**
   * Bus events it publishes that the outside may subscribe to (webhooks, the
   * cloud link), each under a public name (`published(...)`).
   */
  readonly publishes: ReadonlyArray<AnyPublishedEvent>
  readonly hooks: ReadonlyArray<HookHandler<R>>
  readonly jobs: ReadonlyArray<Job<R>>
  /** Runs once after every plugin's services are built; finalizers run at shutdown. */
  readonly onStart: Effect.Effect<void, unknown, R | Scope.Scope> | undefined
  /**
   * Reads and checks the plugin's settings before anything is written (no
   * data directory, database or migration yet): a bad setting stops the
   * start with one line, and a first start stays a first start.
   */
  readonly checkSettings: Effect.Effect<void, StartupError | ConfigError.ConfigError> | undefined
  /**
   * Its settings that may change while the controller runs (see
   * `RuntimeSetting`): their environment values are checked at start-up
   * like `checkSettings`; read them with `currentSetting`.
   */
  readonly settings: ReadonlyArray<AnyRuntimeSetting>
}

/**
 * Any plugin, whatever it provides and needs. Plugin lists are dynamic
 * (`PLUGINS=...`), so the host checks dependencies by id at start-up.
 */
export type AnyPlugin = Plugin<never, unknown>

/**
 * What a plugin author writes. Each field may need different services; the
 * plugin needs all of them (one type parameter per field, so TypeScript
 * infers the union instead of insisting every field match the first).
 */
export interface PluginSpec<Provides, RL, RH, RE, RK, RJ, RS, RA> {
  readonly id: string
  readonly description?: string
  readonly dependsOn?: ReadonlyArray<PluginRef>
  readonly provides?: ReadonlyArray<PluginService>
  readonly requires?: ReadonlyArray<PluginService>
  readonly uses?: ReadonlyArray<PluginService>
  readonly permissions?: ReadonlyArray<PermissionDefinition>
  readonly migrations?: ReadonlyArray<Migration>
  readonly layer?: Layer.Layer<Provides, unknown, RL>
  readonly http?: PluginHttp<RH>
  readonly authentication?: ReadonlyArray<AuthenticationScheme<RA>>
  readonly rateLimits?: ReadonlyArray<RateLimitDeclaration>
  readonly secrets?: ReadonlyArray<PluginSecret>
  readonly errorCodes?: ReadonlyArray<ErrorCodeDeclaration>
  readonly events?: ReadonlyArray<EventHandler<RE>>
  readonly publishes?: ReadonlyArray<AnyPublishedEvent>
  readonly hooks?: ReadonlyArray<HookHandler<RK>>
  readonly jobs?: ReadonlyArray<Job<RJ>>
  readonly onStart?: Effect.Effect<void, unknown, RS>
  /** Checks the plugin's settings (read through Effect `Config`) before anything is written. */
  readonly checkSettings?: Effect.Effect<void, StartupError | ConfigError.ConfigError>
  /** Its run-time settings (see `Plugin.settings`). */
  readonly settings?: ReadonlyArray<AnyRuntimeSetting>
}

export const make = <Provides = never, RL = never, RH = never, RE = never, RK = never, RJ = never, RS = never, RA = never>(
  spec: PluginSpec<Provides, RL, RH, RE, RK, RJ, RS, RA>
): Plugin<Provides, RL | RH | RE | RK | RJ | RA | Exclude<RS, Scope.Scope>> => ({
  id: spec.id,
  description: spec.description ?? "",
  dependsOn: (spec.dependsOn ?? []).map((ref) => (typeof ref === "string" ? ref : ref.id)),
  provides: spec.provides ?? [],
  requires: spec.requires ?? [],
  uses: spec.uses ?? [],
  permissions: spec.permissions ?? [],
  migrations: spec.migrations ?? [],
  layer: spec.layer ?? (Layer.empty as unknown as Layer.Layer<Provides, unknown, RL>),
  http: spec.http,
  authentication: spec.authentication ?? [],
  rateLimits: spec.rateLimits ?? [],
  secrets: spec.secrets ?? [],
  errorCodes: spec.errorCodes ?? [],
  events: spec.events ?? [],
  publishes: spec.publishes ?? [],
  hooks: spec.hooks ?? [],
  jobs: spec.jobs ?? [],
  onStart: spec.onStart as Effect.Effect<void, unknown, Exclude<RS, Scope.Scope> | Scope.Scope> | undefined,
  checkSettings: spec.checkSettings,
  settings: spec.settings ?? []
})

/**
 * Bind an `HttpApi` to the Layer implementing its groups
 * (`HttpApiBuilder.group(...)`), ready for the host to mount.
 */
export const http = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, AR, HE, HR>(
  api: HttpApi.HttpApi<Id, Groups, E, AR>,
  handlers: Layer.Layer<HttpApiGroup.HttpApiGroup.ToService<Id, Groups>, HE, HR>,
  options: { readonly quietPaths?: ReadonlyArray<string> } = {}
): PluginHttp<
  | Exclude<AR | HttpApiGroup.HttpApiGroup.ErrorContext<Groups>, HttpApiGroup.HttpApiGroup.ToService<Id, Groups>>
  | HR
> => ({
  api,
  routes: HttpLayerRouter.addHttpApi(api).pipe(Layer.provide(handlers)),
  quietPaths: options.quietPaths ?? []
})
