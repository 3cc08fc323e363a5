/**
 * The run-time settings, stored: fills the kernel's `RuntimeSettings` slot.
 * Every setting a loaded plugin declares is listed; an admin's override is
 * kept in `system_settings` (a secret sealed) and wins over the
 * environment until it is cleared. A change is checked whole, committed in
 * one transaction with its audit row, and only then takes effect.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlError from "@effect/sql/SqlError"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as FiberRef from "effect/FiberRef"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import {
  type AnyRuntimeSetting,
  fromEnvironment,
  liveLogLevelRef,
  LogLevelSetting,
  logLevelNamed,
  PluginRegistry,
  type RuntimeSetting,
  RuntimeSettings,
  type RuntimeSettingsShape,
  SealedSecrets,
  SEALED_PREFIX,
  type SealingKey,
  type SettingJson,
  StartupError
} from "@garrison/runtime"
import type { SettingView } from "./contract/Api.js"
import { SettingsRefused, storeError, type SystemStoreError } from "./errors.js"

export const SYSTEM_SETTINGS_KEY = {
  name: "system-settings-key",
  spec: {
    bytes: 32,
    exact: true,
    what: "the key that encrypts secret run-time settings (METRICS_TOKEN) stored in the database (AES-256-GCM)",
    ifReplaced: "the stored secret settings become unreadable: set them again"
  }
} as const satisfies SealingKey

/** What a change did, for its audit row: the keys, and the values of those that are not secret. */
export interface SettingsChange {
  readonly keys: ReadonlyArray<string>
  readonly cleared: ReadonlyArray<string>
  readonly values: Readonly<Record<string, SettingJson>>
}

export interface SystemSettingsShape {
  readonly view: Effect.Effect<ReadonlyArray<SettingView>>
  /**
   * Checks `patch` whole (unknown keys, bad values: `SettingsRefused`), then
   * writes it and runs `inTransaction` (the audit row) in one transaction,
   * then applies it.
   */
  readonly patch: <E>(
    patch: Readonly<Record<string, unknown>>,
    by: string | null,
    inTransaction: (change: SettingsChange) => Effect.Effect<void, E>
  ) => Effect.Effect<SettingsChange, SettingsRefused | SystemStoreError | E>
}

export class SystemSettings extends Context.Tag("@garrison/plugins/SystemSettings")<SystemSettings, SystemSettingsShape>() {
  static readonly layer = Layer.effectContext(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const registry = yield* PluginRegistry
      const catalogue = registry.plan.ordered.flatMap((plugin) => plugin.settings)
      const byKey = new Map<string, AnyRuntimeSetting>()
      for (const setting of catalogue) {
        if (byKey.has(setting.key)) {
          return yield* new StartupError({ reason: "config", message: `run-time setting ${setting.key} is declared twice` })
        }
        byKey.set(setting.key, setting)
      }
      const rows = yield* sql<{ readonly key: string; readonly value: string }>`SELECT key, value FROM system_settings`
      const box = yield* (yield* SealedSecrets).box(SYSTEM_SETTINGS_KEY, {
        sealedValuesExist: rows.some((row) => row.value.startsWith(SEALED_PREFIX)),
        sealedWhat: "a secret run-time setting"
      })

      // The overrides in force, decoded; a row no loaded plugin declares is kept in the store but unused.
      const loaded = new Map<string, unknown>()
      for (const row of rows) {
        const setting = byKey.get(row.key)
        if (setting === undefined) continue
        const text = setting.secret ? box.open(row.value, `system/${row.key}`) : Either.right(row.value)
        const parsed = Either.flatMap(text, (t) => Either.flatMap(parseJson(t), setting.parse))
        if (Either.isRight(parsed)) loaded.set(row.key, parsed.right)
        // Never the value: it may be a secret. The environment's value is used meanwhile.
        else yield* Effect.logError(`system: the stored ${row.key} is not usable (${String(parsed.left)}); using the environment's value until it is set again`)
      }
      const overrides = yield* Ref.make<ReadonlyMap<string, unknown>>(loaded)
      const changedSignal = yield* Ref.make(yield* Deferred.make<void>())
      const logCell = yield* FiberRef.get(liveLogLevelRef)
      const applyLogLevel = (current: ReadonlyMap<string, unknown>) =>
        Effect.sync(() => {
          if (Option.isNone(logCell)) return
          const level = current.get(LogLevelSetting.key) as (typeof LogLevelSetting)["default"] | undefined
          logCell.value.level = level === undefined ? logCell.value.initial : logLevelNamed(level)
        })
      yield* applyLogLevel(loaded)

      const get = <A>(setting: RuntimeSetting.RuntimeSetting<A>): Effect.Effect<A> =>
        Effect.flatMap(Ref.get(overrides), (current) => (current.has(setting.key) ? Effect.succeed(current.get(setting.key) as A) : fromEnvironment(setting)))

      const view = Effect.gen(function* () {
        const current = yield* Ref.get(overrides)
        const views: Array<SettingView> = []
        for (const setting of catalogue) {
          const env = yield* Effect.orDie(setting.env)
          const fallback = Option.getOrElse(env, () => setting.default)
          const stored = current.has(setting.key)
          const value = stored ? current.get(setting.key) : fallback
          const source = stored ? "stored" : Option.isSome(env) ? "environment" : "default"
          const base = { key: setting.key, description: setting.description, kind: setting.kind, secret: setting.secret, source } as const
          views.push(
            setting.secret
              ? { ...base, set: setting.encode(value) !== null }
              : { ...base, ...(setting.choices === undefined ? {} : { choices: setting.choices }), value: setting.encode(value), fallback: setting.encode(fallback) }
          )
        }
        return views
      })

      // One change at a time: the commit order is the order the changes take effect in.
      const oneAtATime = yield* Effect.makeSemaphore(1)
      const patch: SystemSettingsShape["patch"] = (input, by, inTransaction) =>
        Effect.gen(function* () {
          const entries = Object.entries(input)
          const allowed = catalogue.map((s) => s.key).join(", ")
          if (entries.length === 0) {
            return yield* new SettingsRefused({ message: `name at least one setting: ${allowed}`, problems: [] })
          }
          const problems: Array<{ key: string; message: string }> = []
          const decoded: Array<readonly [AnyRuntimeSetting, Option.Option<unknown>]> = []
          for (const [key, raw] of entries) {
            const setting = byKey.get(key)
            if (setting === undefined) {
              problems.push({ key, message: `${key} is not a run-time setting; the settings are ${allowed}` })
              continue
            }
            if (raw === null) {
              decoded.push([setting, Option.none()])
              continue
            }
            const parsed = setting.parse(raw)
            if (Either.isLeft(parsed)) problems.push({ key, message: `${key} ${parsed.left}` })
            else decoded.push([setting, Option.some(parsed.right)])
          }
          if (problems.length > 0) {
            return yield* new SettingsRefused({ message: problems.map((p) => p.message).join("; "), problems })
          }
          const change: SettingsChange = {
            keys: decoded.map(([s]) => s.key),
            cleared: decoded.filter(([, v]) => Option.isNone(v)).map(([s]) => s.key),
            values: Object.fromEntries(
              decoded.flatMap(([s, v]) => (s.secret || Option.isNone(v) ? [] : [[s.key, s.encode(v.value)] as const])).filter(([, json]) => json !== null)
            ) as Record<string, SettingJson>
          }
          return yield* oneAtATime.withPermits(1)(
            Effect.gen(function* () {
              const at = yield* Clock.currentTimeMillis
              yield* Effect.gen(function* () {
                for (const [setting, value] of decoded) {
                  if (Option.isNone(value)) {
                    yield* sql`DELETE FROM system_settings WHERE key = ${setting.key}`.pipe(Effect.mapError(storeError("clear a setting")))
                    continue
                  }
                  const json = JSON.stringify(setting.encode(value.value))
                  const stored = setting.secret ? box.seal(json, `system/${setting.key}`) : json
                  yield* sql`INSERT INTO system_settings (key, value, updated_by, updated_ms) VALUES (${setting.key}, ${stored}, ${by}, ${at})
                    ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_by = excluded.updated_by, updated_ms = excluded.updated_ms`.pipe(
                    Effect.mapError(storeError("store a setting"))
                  )
                }
                yield* inTransaction(change)
              }).pipe(
                sql.withTransaction,
                // The commit itself (or BEGIN) failing; the statements' own errors are mapped above.
                Effect.catchIf(
                  (error): error is SqlError.SqlError => error instanceof SqlError.SqlError,
                  (error) => Effect.fail(storeError("commit the settings")(error))
                )
              )
              // Committed: now in force, and every waiting loop told.
              const next = yield* Ref.updateAndGet(overrides, (current) => {
                const map = new Map(current)
                for (const [setting, value] of decoded) {
                  if (Option.isNone(value)) map.delete(setting.key)
                  else map.set(setting.key, value.value)
                }
                return map
              })
              yield* applyLogLevel(next)
              const fresh = yield* Deferred.make<void>()
              yield* Deferred.succeed(yield* Ref.getAndSet(changedSignal, fresh), undefined)
              return change
            })
          )
        })

      const runtime: RuntimeSettingsShape = { get, changed: Effect.flatMap(Ref.get(changedSignal), Deferred.await) }
      return Context.make(SystemSettings, SystemSettings.of({ view, patch })).pipe(Context.add(RuntimeSettings, runtime))
    })
  )
}

const parseJson = (text: string): Either.Either<unknown, string> => Either.try({ try: () => JSON.parse(text) as unknown, catch: () => "not JSON" })
