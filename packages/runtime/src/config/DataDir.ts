/**
 * The data directory: created on first start, checked for writing before
 * anything else touches it, and home of the controller's own secrets
 * (generated on first start, kept with mode 0600, never logged).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { randomBytes } from "node:crypto"
import * as Fs from "node:fs/promises"
import * as NodePath from "node:path"
import { StartupError } from "../kernel/StartupError.js"
import { GarrisonConfig } from "./GarrisonConfig.js"

export class SecretError extends Schema.TaggedError<SecretError>()("SecretError", {
  name: Schema.String,
  message: Schema.String
}) {}

export interface DataDirShape {
  readonly root: string
  /** A path inside the data directory. */
  readonly resolve: (...segments: ReadonlyArray<string>) => string
}

export class DataDir extends Context.Tag("@garrison/runtime/DataDir")<DataDir, DataDirShape>() {
  static readonly layer = Layer.effect(
    DataDir,
    Effect.gen(function* () {
      const { dataDir } = yield* GarrisonConfig
      yield* Effect.tryPromise({
        try: async () => {
          await Fs.mkdir(dataDir, { recursive: true })
          const probe = NodePath.join(dataDir, `.write-check-${process.pid}`)
          await Fs.writeFile(probe, "ok")
          await Fs.rm(probe)
        },
        catch: (cause) =>
          new StartupError({
            reason: "data-dir",
            message: `the data directory ${dataDir} is not writable (${errorMessage(cause)}); set DATA_DIR to a folder this user can write`
          })
      })
      return { root: dataDir, resolve: (...segments) => NodePath.join(dataDir, ...segments) }
    })
  )
}

/** Named random secrets, created on first use with mode 0600 under `<data>/secrets/`. */
export interface SecretsShape {
  readonly get: (name: string, bytes?: number) => Effect.Effect<Uint8Array, SecretError>
}

export class Secrets extends Context.Tag("@garrison/runtime/Secrets")<Secrets, SecretsShape>() {
  static readonly layer = Layer.effect(
    Secrets,
    Effect.gen(function* () {
      const dataDir = yield* DataDir
      const dir = dataDir.resolve("secrets")
      const cache = new Map<string, Uint8Array>()
      const get: SecretsShape["get"] = (name, bytes = 32) =>
        Effect.suspend(() => {
          if (!/^[a-z0-9-]+$/.test(name)) {
            return Effect.fail(new SecretError({ name, message: "secret names are lowercase letters, digits and -" }))
          }
          const cached = cache.get(name)
          if (cached) return Effect.succeed(cached)
          return Effect.tryPromise({
            try: () => readOrCreate(NodePath.join(dir, `${name}.key`), bytes),
            catch: (cause) => new SecretError({ name, message: errorMessage(cause) })
          }).pipe(Effect.tap((value) => Effect.sync(() => cache.set(name, value))))
        })
      return { get }
    })
  )
}

const readOrCreate = async (file: string, bytes: number): Promise<Uint8Array> => {
  await Fs.mkdir(NodePath.dirname(file), { recursive: true, mode: 0o700 })
  try {
    const existing = await Fs.readFile(file, "utf8")
    return Buffer.from(existing.trim(), "base64url")
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error
  }
  const value = randomBytes(bytes)
  try {
    // "wx": if two starts race, the first file wins and the second reads it.
    await Fs.writeFile(file, value.toString("base64url") + "\n", { mode: 0o600, flag: "wx" })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
    return Buffer.from((await Fs.readFile(file, "utf8")).trim(), "base64url")
  }
  return value
}

export const errorMessage = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause))
