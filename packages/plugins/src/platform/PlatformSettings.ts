/**
 * `PlatformSettings`: where SteamCMD and the Steam Web API are, the Steam
 * account downloads log in with, and running SteamCMD with them. Other
 * plugins (mods, server updates) run SteamCMD only through `steamCmd` here,
 * so the path, the account and the shared download folder are the same
 * everywhere.
 *
 * Settings set through the API are rows of `platform_settings`; each falls
 * back to the environment, then to the default. The Steam password and the
 * Web API key are stored sealed (AES-256-GCM, key in
 * `<data>/secrets/platform-credentials-key.key`, the row's name as context)
 * and are kept in clear in memory only. The settings are read once at
 * start and kept in memory; every write goes to the database first.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Ref from "effect/Ref"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import {
  GarrisonConfig,
  hostFolders,
  SEALED_PREFIX,
  SealedSecrets,
  type SealingKey,
  SteamCmd,
  type SteamCmdError,
  type SteamCmdReport,
  type SteamCmdStep,
  type StartupError
} from "@garrison/runtime"
import { DEFAULT_STEAMCMD_PATH, DEFAULT_WEB_API_URL, platformEnvironment } from "./config.js"
import type { SettingSource, SettingsPatch } from "./contract/Api.js"
import { NoSteamAccount, type PlatformStoreError, storeError } from "./errors.js"

export const PLATFORM_KEY = {
  name: "platform-credentials-key",
  spec: {
    bytes: 32,
    exact: true,
    what: "the key that encrypts the stored Steam password and Steam Web API key (AES-256-GCM)",
    ifReplaced: "the stored Steam password and Web API key become unreadable: enter them again"
  }
} as const satisfies SealingKey

/** The rows of `platform_settings`. */
const SETTING = {
  steamcmdPath: "steamcmd_path",
  webApiUrl: "web_api_url",
  webApiKey: "web_api_key",
  username: "steam_username",
  password: "steam_password",
  validatedAt: "credentials_validated_at",
  savedAt: "credentials_saved_at"
} as const
const SEALED: ReadonlySet<string> = new Set([SETTING.webApiKey, SETTING.password])

export interface SteamAccount {
  readonly username: string
  readonly password: Redacted.Redacted<string>
  readonly validatedAt: string | null
  readonly savedAt: string
}

export interface ResolvedPlatform {
  readonly steamcmdPath: string
  readonly steamcmdSource: SettingSource
  readonly webApiUrl: string
  readonly webApiSource: SettingSource
  readonly webApiKey: Option.Option<Redacted.Redacted<string>>
  readonly account: Option.Option<SteamAccount>
}

export interface SteamCmdRequest {
  /** `+force_install_dir`; default: the shared download folder (`downloadDir`). */
  readonly installDir?: string
  readonly steps: ReadonlyArray<SteamCmdStep>
  /** `account` (default): the stored Steam account, failing with `NoSteamAccount` when none is set. */
  readonly login?: "account" | "anonymous"
}

export interface PlatformSettingsShape {
  readonly current: Effect.Effect<ResolvedPlatform>
  /** Where SteamCMD downloads workshop items (`<data>/steam`): one cache for every server. */
  readonly downloadDir: string
  readonly saveCredentials: (
    username: string,
    password: string,
    validatedAt: string | null
  ) => Effect.Effect<SteamAccount, PlatformStoreError>
  /** Whether an account was stored. */
  readonly removeCredentials: Effect.Effect<boolean, PlatformStoreError>
  readonly patch: (patch: SettingsPatch) => Effect.Effect<void, PlatformStoreError>
  /** Logs in with these credentials through SteamCMD and nothing else (the credentials check). */
  readonly checkLogin: (username: string, password: string, guardCode?: string) => Effect.Effect<void, SteamCmdError>
  /** Runs SteamCMD as set now; runs wait for each other (one SteamCMD at a time). */
  readonly steamCmd: (
    request: SteamCmdRequest,
    options?: SteamCmd.RunOptions
  ) => Effect.Effect<SteamCmdReport, SteamCmdError | NoSteamAccount>
}

/** The executable a path names now: itself when it has a folder part, else the first match on PATH. */
export const resolveExecutable = (path: string): string | null => {
  const executable = (file: string) => {
    try {
      Fs.accessSync(file, Fs.constants.X_OK)
      return Fs.statSync(file).isFile()
    } catch {
      return false
    }
  }
  if (path.includes("/") || path.includes("\\")) {
    const absolute = NodePath.resolve(path)
    return executable(absolute) ? absolute : null
  }
  for (const folder of (process.env["PATH"] ?? "").split(NodePath.delimiter)) {
    if (folder === "") continue
    const candidate = NodePath.join(folder, path)
    if (executable(candidate)) return candidate
  }
  return null
}

export class PlatformSettings extends Context.Tag("@garrison/plugins/PlatformSettings")<PlatformSettings, PlatformSettingsShape>() {
  static readonly layer: Layer.Layer<PlatformSettings, StartupError | unknown, SqlClient.SqlClient | SealedSecrets | GarrisonConfig> =
    Layer.effect(
      PlatformSettings,
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const env = yield* platformEnvironment
        const rows = yield* sql<{ readonly name: string; readonly value: string }>`SELECT name, value FROM platform_settings`
        const box = yield* (yield* SealedSecrets).box(PLATFORM_KEY, {
          sealedValuesExist: rows.some((row) => row.value.startsWith(SEALED_PREFIX)),
          sealedWhat: "the Steam password or Web API key"
        })
        const stored = new Map<string, string>()
        for (const row of rows) {
          if (!SEALED.has(row.name)) {
            stored.set(row.name, row.value)
            continue
          }
          const opened = box.open(row.value, `platform/${row.name}`)
          if (Either.isRight(opened)) stored.set(row.name, opened.right)
          else yield* Effect.logError(`platform: the stored ${row.name.replace("_", " ")} does not open (${opened.left}); enter it again`)
        }
        const state = yield* Ref.make<ReadonlyMap<string, string>>(stored)
        const downloadDir = (yield* hostFolders).steamDir

        const resolve = (settings: ReadonlyMap<string, string>): ResolvedPlatform => {
          const pick = (name: string, fromEnv: Option.Option<string>, fallback: string) => {
            const set = settings.get(name)
            if (set !== undefined) return { value: set, source: "setting" as const }
            return Option.match(fromEnv, {
              onNone: () => ({ value: fallback, source: "default" as const }),
              onSome: (value) => ({ value, source: "environment" as const })
            })
          }
          const steamcmd = pick(SETTING.steamcmdPath, env.steamcmdPath, DEFAULT_STEAMCMD_PATH)
          const webApi = pick(SETTING.webApiUrl, env.webApiUrl, DEFAULT_WEB_API_URL)
          const key = settings.get(SETTING.webApiKey)
          const username = settings.get(SETTING.username)
          const password = settings.get(SETTING.password)
          return {
            steamcmdPath: steamcmd.value,
            steamcmdSource: steamcmd.source,
            webApiUrl: webApi.value.replace(/\/+$/, ""),
            webApiSource: webApi.source,
            webApiKey: key !== undefined ? Option.some(Redacted.make(key)) : env.webApiKey,
            account:
              username !== undefined && password !== undefined
                ? Option.some({
                    username,
                    password: Redacted.make(password),
                    validatedAt: settings.get(SETTING.validatedAt) ?? null,
                    savedAt: settings.get(SETTING.savedAt) ?? ""
                  })
                : Option.none()
          }
        }

        const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms).toISOString())
        /** Sets (a string) or clears (null) rows in one transaction, then in memory. */
        const write = (changes: ReadonlyArray<readonly [string, string | null]>, what: string) =>
          Effect.gen(function* () {
            const at = yield* now
            yield* Effect.forEach(
              changes,
              ([name, value]) =>
                value === null
                  ? sql`DELETE FROM platform_settings WHERE name = ${name}`
                  : sql`INSERT INTO platform_settings (name, value, updated_at)
                      VALUES (${name}, ${SEALED.has(name) ? box.seal(value, `platform/${name}`) : value}, ${at})
                      ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
              { discard: true }
            ).pipe(sql.withTransaction, Effect.mapError(storeError(what)))
            yield* Ref.update(state, (current) => {
              const next = new Map(current)
              for (const [name, value] of changes) {
                if (value === null) next.delete(name)
                else next.set(name, value)
              }
              return next
            })
          })

        const current = Effect.map(Ref.get(state), resolve)
        // One SteamCMD at a time: instances sharing a download folder and Steam home trip over each other's locks.
        const oneAtATime = yield* Effect.makeSemaphore(1)

        /** SteamCMD with `login` (the stored account unless told otherwise), one run at a time. */
        const runAs = (login: SteamCmd.SteamLogin, installDir: string | undefined, steps: SteamCmdRequest["steps"], options?: SteamCmd.RunOptions) =>
          Effect.gen(function* () {
            const settings = yield* current
            yield* Effect.sync(() => Fs.mkdirSync(downloadDir, { recursive: true, mode: 0o700 }))
            return yield* oneAtATime.withPermits(1)(SteamCmd.runSteamCmd(settings.steamcmdPath, { installDir: installDir ?? downloadDir, login, steps }, options))
          })

        const run = (request: SteamCmdRequest, options?: SteamCmd.RunOptions) =>
          Effect.gen(function* () {
            if (request.login === "anonymous") return yield* runAs(SteamCmd.anonymous, request.installDir, request.steps, options)
            const { account } = yield* current
            if (Option.isNone(account)) {
              return yield* new NoSteamAccount({
                message: "no Steam account is set: downloads need an account that owns DayZ (POST /api/platform/credentials)"
              })
            }
            const login: SteamCmd.SteamLogin = { _tag: "Account", username: account.value.username, password: Redacted.value(account.value.password) }
            return yield* runAs(login, request.installDir, request.steps, options)
          })

        return PlatformSettings.of({
          current,
          downloadDir,
          saveCredentials: (username, password, validatedAt) =>
            Effect.gen(function* () {
              const savedAt = yield* now
              yield* write(
                [
                  [SETTING.username, username],
                  [SETTING.password, password],
                  [SETTING.validatedAt, validatedAt],
                  [SETTING.savedAt, savedAt]
                ],
                "store the Steam account"
              )
              return { username, password: Redacted.make(password), validatedAt, savedAt }
            }),
          removeCredentials: Effect.gen(function* () {
            const had = (yield* Ref.get(state)).has(SETTING.username)
            yield* write(
              [SETTING.username, SETTING.password, SETTING.validatedAt, SETTING.savedAt].map((name) => [name, null] as const),
              "forget the Steam account"
            )
            return had
          }),
          patch: (patch) =>
            write(
              [
                ...(patch.steamcmdPath !== undefined ? [[SETTING.steamcmdPath, patch.steamcmdPath] as const] : []),
                ...(patch.webApiUrl !== undefined ? [[SETTING.webApiUrl, patch.webApiUrl] as const] : []),
                ...(patch.webApiKey !== undefined ? [[SETTING.webApiKey, patch.webApiKey] as const] : [])
              ],
              "store the platform settings"
            ),
          checkLogin: (username, password, guardCode) =>
            Effect.gen(function* () {
              const report = yield* runAs({ _tag: "Account", username, password, ...(guardCode === undefined ? {} : { guardCode }) }, undefined, [])
              if (!report.loggedIn) {
                return yield* new SteamCmd.SteamCmdError({
                  reason: "failed",
                  message: `SteamCMD ended (exit ${report.exitCode ?? "by signal"}) without logging in: ${report.lastLine}`
                })
              }
            }),
          steamCmd: run
        })
      })
    )
}
