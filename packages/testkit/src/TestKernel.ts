/**
 * The kernel without HTTP (`Runtime.layer`): a plugin's services,
 * migrations, event handlers and jobs, on a throw-away data directory or
 * the caller's. `startKernel` builds one in a scope of its own, so a test
 * can stop it and start another on the same data directory (a restart).
 */
import { type AnyPlugin, Runtime } from "@garrison/runtime"
import { withAuditTrail } from "./AuditRecorder.js"
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as LogLevel from "effect/LogLevel"
import * as Scope from "effect/Scope"
import { type LogLine, testLogging } from "./Logs.js"
import { type SettingsOptions, withTestSettings } from "./Settings.js"

export interface TestKernelOptions extends SettingsOptions {
  /** The least level logged: Error, or Debug when `logs` is given. */
  readonly logLevel?: LogLevel.LogLevel
  /** Receives the log lines instead of the console. */
  readonly logs?: Array<LogLine>
}

/** The kernel over `plugins` (with an in-memory audit trail when they need one: `withAuditTrail`), without scheduled backups. */
export const testKernel = <const Plugins extends ReadonlyArray<AnyPlugin>>(plugins: Plugins, options: TestKernelOptions = {}) =>
  withTestSettings(Runtime.layer(withAuditTrail(plugins), { scheduledBackups: false }), options).pipe(
    Layer.provide(testLogging({ ...options, logLevel: options.logLevel ?? (options.logs === undefined ? LogLevel.Error : LogLevel.Debug) }))
  )

/** A kernel running in a scope of its own. */
export interface RunningKernel<A> {
  /** Its services, for `Effect.provide`. */
  readonly context: Context.Context<A>
  /** Closes it (finalizers run); another may then start on the same data directory. */
  readonly stop: Effect.Effect<void>
}

/** `testKernel` on `dataDir`, built now in a scope of its own. */
export const startKernel = <const Plugins extends ReadonlyArray<AnyPlugin>>(plugins: Plugins, dataDir: string, options: Omit<TestKernelOptions, "settings"> = {}) =>
  Effect.gen(function* () {
    const scope = yield* Scope.make()
    const context = yield* Layer.buildWithScope(testKernel(plugins, { ...options, settings: { dataDir } }), scope)
    return { context, stop: Scope.close(scope, Exit.void) } satisfies RunningKernel<Layer.Layer.Success<ReturnType<typeof testKernel<Plugins>>>>
  })
