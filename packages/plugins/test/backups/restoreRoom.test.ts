/**
 * A backup must fit before it is unpacked: one that would expand past a
 * thousand times its zip, or past the free space of its root's disk (less a
 * margin), is refused naming the sizes; a sparse file stands in for a large
 * zip without using the disk.
 */
import { describe, expect, it } from "@effect/vitest"
import { tempDir } from "@garrison/testkit"
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { roomProblem } from "../../src/backups/internal/restoreRoom.js"
import type { Manifest } from "../../src/backups/internal/manifest.js"

const manifestOf = (sizes: ReadonlyArray<number>): Manifest => ({
  format: "garrison-backup",
  version: 1,
  server: { id: "s", name: "S" },
  type: "manual",
  createdAt: new Date(0).toISOString(),
  running: false,
  paths: [{ root: "install", path: "mpmissions", kind: "folder" }],
  excluded: [],
  files: sizes.map((size, i) => ({ root: "install", path: `mpmissions/${i}.bin`, size, sha256: "0".repeat(64), modified: new Date(0).toISOString() })),
  folders: [],
  totalBytes: sizes.reduce((a, b) => a + b, 0),
  warnings: []
})

describe("room for a restore", () => {
  it.effect("refuses a zip that would expand a thousandfold, or fill its root's disk; a fitting one passes", () =>
    Effect.gen(function* () {
      const root = tempDir("garrison-room-")
      const zip = NodePath.join(root, "manual.zip")
      Fs.writeFileSync(zip, Buffer.alloc(1024))
      const bomb = yield* roomProblem(zip, manifestOf([600_000, 600_000]), () => root)
      expect(bomb).toContain("more than 1000 times the zip's")
      expect(yield* roomProblem(zip, manifestOf([100_000]), () => root)).toBeUndefined()
      // Large enough a zip (sparse: no disk used) for the ratio, more than the disk has free.
      const free = Number(Fs.statfsSync(root).bavail) * Number(Fs.statfsSync(root).bsize)
      Fs.truncateSync(zip, Math.ceil(free / 10))
      const full = yield* roomProblem(zip, manifestOf([free / 2, free / 2]), () => root)
      expect(full).toMatch(/^its install files need [\d.]+ GiB and 0\.25 GiB to spare; the disk has [\d.]+ GiB free$/)
    }))
})
