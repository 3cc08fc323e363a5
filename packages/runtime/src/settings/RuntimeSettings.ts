/**
 * The run-time settings slot. The kernel owns it, like `AuditTrail`: any
 * plugin reads a setting's current value through it, and one plugin (the
 * system plugin) fills it with stored overrides that admins change while
 * the controller runs. Without that plugin every setting is the
 * environment's value or its default, for the whole run.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { RuntimeSetting } from "./RuntimeSetting.js"

export interface RuntimeSettingsShape {
  /** The value now: the stored override, else the environment's, else the default. */
  readonly get: <A>(setting: RuntimeSetting<A>) => Effect.Effect<A>
  /**
   * Completes at the next change of any setting (never when nothing can
   * change them): a waiting loop wakes up and reads again.
   */
  readonly changed: Effect.Effect<void>
}

/**
 * The environment's value or the default. The start checked every declared
 * setting's environment value (`Runtime.layer`), so a failure here is a
 * setting read that was never declared: a programming error.
 */
export const fromEnvironment = <A>(setting: RuntimeSetting<A>): Effect.Effect<A> =>
  Effect.map(Effect.orDie(setting.env), Option.getOrElse(() => setting.default))

export class RuntimeSettings extends Context.Reference<RuntimeSettings>()("@garrison/runtime/RuntimeSettings", {
  defaultValue: (): RuntimeSettingsShape => ({ get: fromEnvironment, changed: Effect.never })
}) {}

/** A setting's current value (see `RuntimeSettings.get`): read it where it is used, each time. */
export const currentSetting = <A>(setting: RuntimeSetting<A>): Effect.Effect<A> =>
  Effect.flatMap(RuntimeSettings, (settings) => settings.get(setting))
