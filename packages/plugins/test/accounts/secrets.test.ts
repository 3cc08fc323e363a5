/**
 * The accounts plugin's key files are checked when the controller starts,
 * before its port opens: a session signing key or an MFA key that is empty,
 * not base64url, or the wrong size for its algorithm stops the start with a
 * StartupError naming the file, how to fix it and what deleting it costs.
 */
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Layer, Option } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { accountsController, call, signInAdmin, tempDataDir } from "./support.js"

/** A data directory whose `secrets/<name>.key` holds `text`. */
const withKeyFile = (name: string, text: string) => {
  const dataDir = tempDataDir()
  Fs.mkdirSync(NodePath.join(dataDir, "secrets"), { mode: 0o700 })
  const file = NodePath.join(dataDir, "secrets", `${name}.key`)
  Fs.writeFileSync(file, text, { mode: 0o600 })
  return { dataDir, file }
}

/** Builds the controller on `dataDir` and returns how the start failed. */
const startFailure = (dataDir: string) =>
  Effect.gen(function* () {
    const exit = yield* Effect.exit(Effect.scoped(Layer.build(accountsController({ dataDir }))))
    expect(Exit.isFailure(exit)).toBe(true)
    const failure = Exit.isFailure(exit) ? Cause.failureOption(exit.cause) : Option.none()
    expect(Option.isSome(failure)).toBe(true)
    return Option.getOrThrow(failure) as { readonly _tag: string; readonly reason: string; readonly message: string }
  })

describe("key files at start-up", () => {
  const cases: ReadonlyArray<readonly [string, string, string, RegExp]> = [
    ["session-signing-key", "", "an empty session signing key", /is empty/],
    ["session-signing-key", "AQ\n", "a 1-byte session signing key", /holds a 1-byte key where at least 32 bytes are needed/],
    ["session-signing-key", "%%% not base64url %%%", "a session signing key that is not base64url", /does not hold a base64url key/],
    ["accounts-mfa-key", "", "an empty MFA key", /is empty/],
    ["accounts-mfa-key", Buffer.alloc(16, 1).toString("base64url"), "a 16-byte MFA key", /holds a 16-byte key where exactly 32/],
    ["accounts-mfa-key", Buffer.alloc(33, 1).toString("base64url"), "a 33-byte MFA key (AES-256 takes exactly 32)", /holds a 33-byte key where exactly 32/]
  ]

  for (const [name, text, what, problem] of cases) {
    it.effect(`${what} stops the start, naming the file and what deleting it costs`, () =>
      Effect.gen(function* () {
        const { dataDir, file } = withKeyFile(name, text)
        const error = yield* startFailure(dataDir)
        expect(error._tag).toBe("StartupError")
        expect(error.message).toContain(file)
        expect(error.message).toMatch(problem)
        expect(error.message).toContain("restore it from a backup of the data directory")
        expect(error.message).toMatch(
          name === "session-signing-key" ? /every session ends, so everyone signs in again/ : /those users .* enrol again/
        )
        expect(error.message).not.toContain("\n")
      })
    )
  }

  it.scoped("a session signing key longer than 32 bytes is fine for HS256: the controller starts and signs in", () =>
    Effect.gen(function* () {
      const { dataDir } = withKeyFile("session-signing-key", Buffer.alloc(64, 3).toString("base64url"))
      yield* signInAdmin.pipe(Effect.provide(accountsController({ dataDir })))
    })
  )

  it.effect("a missing MFA key while MFA secrets are stored stops the start with one line, and no new key is made", () =>
    Effect.gen(function* () {
      const dataDir = tempDataDir()
      yield* Effect.scoped(
        Effect.gen(function* () {
          const admin = yield* signInAdmin
          expect((yield* call("POST", "/api/auth/mfa/setup", { headers: admin.browser })).status).toBe(200)
        }).pipe(Effect.provide(accountsController({ dataDir })))
      )
      const file = NodePath.join(dataDir, "secrets", "accounts-mfa-key.key")
      Fs.rmSync(file)
      const error = yield* startFailure(dataDir)
      expect(error._tag).toBe("StartupError")
      expect(error.message).toContain(`${file} is missing but the database holds MFA secrets sealed with it`)
      expect(error.message).toContain("restore it from a backup of the data directory")
      expect(error.message).not.toContain("\n")
      expect(Fs.existsSync(file)).toBe(false)
    })
  )
})
