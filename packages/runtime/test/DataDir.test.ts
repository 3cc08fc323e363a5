import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as NodePath from "node:path"
import { DataDir, Secrets } from "../src/config/DataDir.js"
import { GarrisonConfig } from "../src/config/GarrisonConfig.js"

const layerAt = (dataDir: string) =>
  Secrets.layer.pipe(Layer.provideMerge(DataDir.layer), Layer.provide(GarrisonConfig.layerWith({ dataDir })))

describe("DataDir and Secrets", () => {
  it.effect("creates the data directory and keeps secrets with mode 0600, stable across restarts", () =>
    Effect.gen(function* () {
      const dataDir = NodePath.join(Fs.mkdtempSync(NodePath.join(Os.tmpdir(), "garrison-dd-")), "nested", "data")
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
      const file = NodePath.join(Fs.mkdtempSync(NodePath.join(Os.tmpdir(), "garrison-dd-")), "plain-file")
      Fs.writeFileSync(file, "not a folder")
      const error = yield* Effect.flip(Effect.provide(DataDir, layerAt(NodePath.join(file, "data"))))
      expect(error._tag).toBe("StartupError")
      expect(error.message).toContain(NodePath.join(file, "data"))
      expect(error.message).toContain("not writable")
    })
  )

  it.effect("refuses secret names that could escape the secrets folder", () =>
    Effect.gen(function* () {
      const dataDir = Fs.mkdtempSync(NodePath.join(Os.tmpdir(), "garrison-dd-"))
      const error = yield* Effect.flip(Effect.provide(Effect.flatMap(Secrets, (s) => s.get("../escape")), layerAt(dataDir)))
      expect(error._tag).toBe("SecretError")
    })
  )
})
