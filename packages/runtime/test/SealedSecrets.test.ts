/**
 * SealedSecrets: values read `sealed:v1:<keyId>:...`, open only with the key
 * and context that sealed them (why not is told apart: not sealed, another
 * key, altered), and a box whose key file is missing while sealed values
 * exist stops the start with one line and makes no key.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Effect, Either, Layer } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as NodePath from "node:path"
import { DataDir, Secrets } from "../src/config/DataDir.js"
import { GarrisonConfig } from "../src/config/GarrisonConfig.js"
import { isSealed, keyIdOf, openWith, SealedSecrets, sealWith } from "../src/secrets/SealedSecrets.js"

const made: Array<string> = []
afterAll(() => {
  for (const dir of made) Fs.rmSync(dir, { recursive: true, force: true })
})
const tempDataDir = () => {
  const dir = Fs.mkdtempSync(NodePath.join(Os.tmpdir(), "garrison-sealed-"))
  made.push(dir)
  return NodePath.join(dir, "data")
}

const layerAt = (dataDir: string) =>
  SealedSecrets.layer.pipe(
    Layer.provide(Secrets.layer),
    Layer.provide(DataDir.layer),
    Layer.provide(GarrisonConfig.layerWith({ dataDir }))
  )

const KEY = {
  name: "test-credentials-key",
  spec: { bytes: 32, exact: true, what: "the test key (AES-256-GCM)", ifReplaced: "the test values are lost" }
} as const

describe("SealedSecrets", () => {
  it("seals to a key and a context, and says why a value does not open", () => {
    const key = new Uint8Array(32).fill(1)
    const sealed = sealWith(key, "hunter2", "servers/a/rcon-password")
    expect(isSealed(sealed)).toBe(true)
    expect(sealed).toMatch(new RegExp(`^sealed:v1:${keyIdOf(key)}:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+$`))
    expect(sealed).not.toContain("hunter2")
    // A new IV each time: the same value seals differently.
    expect(sealWith(key, "hunter2", "servers/a/rcon-password")).not.toBe(sealed)
    expect(openWith(key, sealed, "servers/a/rcon-password")).toEqual(Either.right("hunter2"))
    expect(openWith(key, sealed, "servers/b/rcon-password")).toEqual(Either.left("tampered"))
    expect(openWith(new Uint8Array(32).fill(2), sealed, "servers/a/rcon-password")).toEqual(Either.left("other-key"))
    // One character of the tag changed (its first: every bit of it counts, unlike the last one's padding bits).
    const tagAt = sealed.lastIndexOf(":") + 1
    const flipped = sealed.slice(0, tagAt) + (sealed[tagAt] === "A" ? "B" : "A") + sealed.slice(tagAt + 1)
    expect(openWith(key, flipped, "servers/a/rcon-password")).toEqual(Either.left("tampered"))
    expect(openWith(key, "hunter2", "servers/a/rcon-password")).toEqual(Either.left("not-sealed"))
    expect(keyIdOf(key)).not.toBe(keyIdOf(new Uint8Array(32).fill(2)))
  })

  it.effect("a box makes its key on first use (0600) and opens what it sealed after a restart", () =>
    Effect.gen(function* () {
      const dataDir = tempDataDir()
      const sealed = yield* Effect.flatMap(SealedSecrets, (s) => s.box(KEY)).pipe(
        Effect.map((box) => box.seal("pw", "ctx")),
        Effect.provide(layerAt(dataDir))
      )
      const file = NodePath.join(dataDir, "secrets", `${KEY.name}.key`)
      expect(Fs.statSync(file).mode & 0o777).toBe(0o600)
      const box = yield* Effect.flatMap(SealedSecrets, (s) => s.box(KEY, { sealedValuesExist: true })).pipe(
        Effect.provide(layerAt(dataDir))
      )
      expect(box.open(sealed, "ctx")).toEqual(Either.right("pw"))
    })
  )

  it.effect("a box whose key file is missing while sealed values exist fails with one line and makes no key", () =>
    Effect.gen(function* () {
      const dataDir = tempDataDir()
      const error = yield* Effect.flip(
        Effect.flatMap(SealedSecrets, (s) => s.box(KEY, { sealedValuesExist: true, sealedWhat: "test values" })).pipe(
          Effect.provide(layerAt(dataDir))
        )
      )
      const file = NodePath.join(dataDir, "secrets", `${KEY.name}.key`)
      expect(error._tag).toBe("StartupError")
      expect(error.message).toBe(
        `the test key (AES-256-GCM) ${file} is missing but the database holds test values sealed with it: ` +
          "restore it from a backup of the data directory, or, to give them up (the test values are lost), put a new key there: " +
          `node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))" > ${file}`
      )
      expect(Fs.existsSync(file)).toBe(false)
    })
  )
})
