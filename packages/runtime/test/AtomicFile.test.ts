import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { tempDir as makeTempDir } from "@garrison/testkit/core"
import { writeFileAtomic } from "../src/files/AtomicFile.js"

const tempDir = () => makeTempDir("garrison-atomic-")

describe("writeFileAtomic", () => {
  it.effect("replaces the whole file and leaves no temporary file behind", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const target = NodePath.join(dir, "ban.txt")
      Fs.writeFileSync(target, "old\n", { mode: 0o640 })
      yield* writeFileAtomic(target, "76561198012345678\n")
      expect(Fs.readFileSync(target, "utf8")).toBe("76561198012345678\n")
      expect(Fs.readdirSync(dir)).toEqual(["ban.txt"])
      // An existing file keeps its mode: server owners set them on purpose.
      expect(Fs.statSync(target).mode & 0o777).toBe(0o640)
    })
  )

  it.effect("creates a new file with the requested mode", () =>
    Effect.gen(function* () {
      const target = NodePath.join(tempDir(), "secret.cfg")
      yield* writeFileAtomic(target, "x", { mode: 0o600 })
      expect(Fs.statSync(target).mode & 0o777).toBe(0o600)
    })
  )

  it.effect("fails with the path when the folder does not exist, and writes nothing", () =>
    Effect.gen(function* () {
      const target = NodePath.join(tempDir(), "missing", "priority.txt")
      const error = yield* Effect.flip(writeFileAtomic(target, "x"))
      expect(error._tag).toBe("AtomicWriteError")
      expect(error.path).toBe(target)
      expect(Fs.existsSync(target)).toBe(false)
    })
  )

  it.effect("concurrent writers never produce a mixed file", () =>
    Effect.gen(function* () {
      const target = NodePath.join(tempDir(), "priority.txt")
      const contents = Array.from({ length: 20 }, (_, i) => String(i).repeat(10_000))
      yield* Effect.forEach(contents, (c) => writeFileAtomic(target, c), { concurrency: "unbounded" })
      expect(contents).toContain(Fs.readFileSync(target, "utf8"))
    })
  )
})
