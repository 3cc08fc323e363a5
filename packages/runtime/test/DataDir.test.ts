import { afterAll, describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as NodePath from "node:path"
import { DataDir, Secrets } from "../src/config/DataDir.js"
import { GarrisonConfig } from "../src/config/GarrisonConfig.js"

const made: Array<string> = []
afterAll(() => {
  for (const dir of made) Fs.rmSync(dir, { recursive: true, force: true })
})
/** A temporary folder, removed after the tests. */
const tempDir = () => {
  const dir = Fs.mkdtempSync(NodePath.join(Os.tmpdir(), "garrison-dd-"))
  made.push(dir)
  return dir
}

const layerAt = (dataDir: string) =>
  Secrets.layer.pipe(Layer.provideMerge(DataDir.layer), Layer.provide(GarrisonConfig.layerWith({ dataDir })))

describe("DataDir and Secrets", () => {
  it.effect("creates the data directory and keeps secrets with mode 0600, stable across restarts", () =>
    Effect.gen(function* () {
      const dataDir = NodePath.join(tempDir(), "nested", "data")
      const first = yield* Effect.provide(Effect.flatMap(Secrets, (s) => s.get("session-signing-key")), layerAt(dataDir))
      const file = NodePath.join(dataDir, "secrets", "session-signing-key.key")
      expect(Fs.statSync(file).mode & 0o777).toBe(0o600)
      expect(first.length).toBe(32)
      const second = yield* Effect.provide(Effect.flatMap(Secrets, (s) => s.get("session-signing-key")), layerAt(dataDir))
      expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true)
    })
  )

  it.effect("refuses a data directory it cannot create, naming it", () =>
    Effect.gen(function* () {
      const file = NodePath.join(tempDir(), "plain-file")
      Fs.writeFileSync(file, "not a folder")
      const error = yield* Effect.flip(Effect.provide(DataDir, layerAt(NodePath.join(file, "data"))))
      expect(error._tag).toBe("StartupError")
      expect(error.message).toContain(NodePath.join(file, "data"))
      expect(error.message).toContain("not writable")
    })
  )

  it.effect("refuses secret names that could escape the secrets folder", () =>
    Effect.gen(function* () {
      const dataDir = tempDir()
      const error = yield* Effect.flip(Effect.provide(Effect.flatMap(Secrets, (s) => s.get("../escape")), layerAt(dataDir)))
      expect(error._tag).toBe("SecretError")
    })
  )

  describe("a key file that exists is checked before it is used", () => {
    const spec = { bytes: 32, what: "the test signing key (HS256)", ifReplaced: "test sessions end" }
    const exact = { ...spec, bytes: 32, exact: true, what: "the test encryption key (AES-256-GCM)", ifReplaced: "test secrets are lost" }

    /** A data directory whose `name.key` holds `text`. */
    const withKeyFile = (name: string, text: string) => {
      const dataDir = tempDir()
      Fs.mkdirSync(NodePath.join(dataDir, "secrets"), { mode: 0o700 })
      const file = NodePath.join(dataDir, "secrets", `${name}.key`)
      Fs.writeFileSync(file, text, { mode: 0o600 })
      return { dataDir, file }
    }

    const bad: ReadonlyArray<readonly [string, string, typeof spec, RegExp]> = [
      ["an empty file", "", spec, /is empty/],
      ["a file of blank lines", "\n \n", spec, /is empty/],
      ["a 1-byte key", "AQ\n", spec, /holds a 1-byte key where at least 32 bytes are needed/],
      ["a 31-byte key", Buffer.alloc(31, 7).toString("base64url"), spec, /holds a 31-byte key where at least 32/],
      ["a 33-byte key where exactly 32 are needed", Buffer.alloc(33, 7).toString("base64url"), exact, /holds a 33-byte key where exactly 32/],
      ["text that is not base64url", "not a key at all, just words", spec, /does not hold a base64url key/],
      ["standard base64 with + and /", Buffer.alloc(32, 0xfb).toString("base64"), spec, /does not hold a base64url key/],
      ["a length no encoding has", "A".repeat(43) + "B".repeat(2), spec, /does not hold a base64url key/]
    ]

    for (const [what, text, which, problem] of bad) {
      it.effect(`refuses ${what}, naming the file, how to fix it and what that costs, on one line`, () =>
        Effect.gen(function* () {
          const { dataDir, file } = withKeyFile("test-key", text)
          const error = yield* Effect.flip(Effect.provide(Effect.flatMap(Secrets, (s) => s.get("test-key", which)), layerAt(dataDir)))
          expect(error._tag).toBe("SecretError")
          expect(error.message).toMatch(problem)
          expect(error.message).toContain(file)
          expect(error.message).toContain(which.what)
          expect(error.message).toContain("restore it from a backup of the data directory")
          expect(error.message).toContain(`delete it to have a new key generated at the next start (${which.ifReplaced})`)
          expect(error.message).not.toContain("\n")
          // The file is left as it was, for the operator to restore or delete.
          expect(Fs.readFileSync(file, "utf8")).toBe(text)

          // For a key needed at start-up the same line is a StartupError.
          const startup = yield* Effect.flip(
            Effect.provide(Effect.flatMap(Secrets, (s) => s.require("test-key", which)), layerAt(dataDir))
          )
          expect(startup._tag).toBe("StartupError")
          expect(startup.message).toBe(error.message)
        })
      )
    }

    it.effect("accepts a key of the right size, with or without padding and a trailing newline", () =>
      Effect.gen(function* () {
        const key = Buffer.alloc(32, 0xfb)
        for (const text of [key.toString("base64url"), `${key.toString("base64url")}=\n`]) {
          const { dataDir } = withKeyFile("test-key", text)
          const value = yield* Effect.provide(Effect.flatMap(Secrets, (s) => s.get("test-key", exact)), layerAt(dataDir))
          expect(Buffer.from(value).equals(key)).toBe(true)
        }
        // At least 32 for HMAC: a longer key is fine.
        const { dataDir } = withKeyFile("test-key", Buffer.alloc(64, 1).toString("base64url"))
        expect((yield* Effect.provide(Effect.flatMap(Secrets, (s) => s.get("test-key", spec)), layerAt(dataDir))).length).toBe(64)
      })
    )

    it.effect("a key file that cannot be read is an error naming it", () =>
      Effect.gen(function* () {
        const dataDir = tempDir()
        // A folder where the key file should be: unreadable as a file, even for root.
        const file = NodePath.join(dataDir, "secrets", "test-key.key")
        Fs.mkdirSync(file, { recursive: true })
        const error = yield* Effect.flip(Effect.provide(Effect.flatMap(Secrets, (s) => s.require("test-key", spec)), layerAt(dataDir)))
        expect(error._tag).toBe("StartupError")
        expect(error.message).toContain(file)
      })
    )
  })
})
