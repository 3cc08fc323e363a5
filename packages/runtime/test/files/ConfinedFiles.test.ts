/**
 * The confined opener: what it reads, every refusal (with both ways of
 * proving a descriptor), and reads racing a swap of the file or of a folder
 * on its way for a symlink to an outside secret.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { execFileSync } from "node:child_process"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { isFolderOrInside, isInsideFolder, relativeSegments } from "../../src/files/ConfinedPath.js"
import {
  listConfined,
  openConfined,
  resolveRoot,
  type Verification,
  withConfinedFile
} from "../../src/files/ConfinedFiles.js"
import { decode, SECRET, secretLayout } from "./layout.js"
import { startSwapper } from "./swapper.js"

const layout = () => secretLayout("confined", "log", "hello world\n")

const readWhole = (rootPath: string, path: string, verification: Verification) =>
  Effect.flatMap(resolveRoot(rootPath), (root) =>
    withConfinedFile(root, path, (file) => Effect.map(file.read(0, file.size + 10), decode), { verification })
  )

/** The problem of a refused open, or "read" when it was not refused. */
const problemOf = (rootPath: string, path: string, verification: Verification) =>
  readWhole(rootPath, path, verification).pipe(
    Effect.match({ onFailure: (error) => error.problem as string, onSuccess: () => "read" })
  )

describe("relative path rules", () => {
  it("splits on both separators, skips `.` and empty names, and refuses the rest", () => {
    expect(relativeSegments("a/b\\c.log")).toEqual(Either.right(["a", "b", "c.log"]))
    expect(relativeSegments("./a//b.log")).toEqual(Either.right(["a", "b.log"]))
    expect(relativeSegments("", { allowRoot: true })).toEqual(Either.right([]))
    for (const bad of ["", ".", "..", "../x", "a/../../x", "a/..", "..\\x", "/etc/passwd", "\\x", "C:\\x", "c:x", "a\0.log", "x".repeat(256), "a/".repeat(2049) + "b"]) {
      expect([bad.slice(0, 20), Either.isLeft(relativeSegments(bad))]).toEqual([bad.slice(0, 20), true])
    }
  })

  it("inside means strictly below the folder, not a sibling sharing its prefix", () => {
    expect(isInsideFolder("/srv/a", "/srv/a/x")).toBe(true)
    expect(isInsideFolder("/srv/a", "/srv/a")).toBe(false)
    expect(isInsideFolder("/srv/a", "/srv/ab/x")).toBe(false)
    expect(isFolderOrInside("/srv/a", "/srv/a")).toBe(true)
    expect(isInsideFolder("/", "/etc")).toBe(true)
  })
})

for (const verification of ["proc-fd", "re-resolve"] as const) {
  describe(`openConfined (${verification})`, () => {
    it.effect("reads a file in the root and in a folder, in ranges, through the opened descriptor", () =>
      Effect.gen(function* () {
        const { root } = layout()
        expect(yield* readWhole(root, "a.log", verification)).toBe("hello world\n")
        expect(yield* readWhole(root, "sub/b.log", verification)).toBe("in sub\n")
        expect(yield* readWhole(root, "sub\\b.log", verification)).toBe("in sub\n")
        const resolved = yield* resolveRoot(root)
        const part = yield* withConfinedFile(
          resolved,
          "a.log",
          (file) =>
            Effect.gen(function* () {
              expect(file.size).toBe(12)
              expect(file.modified.getTime()).toBeGreaterThan(0)
              // The name now leads elsewhere; the open descriptor still reads the file it proved.
              Fs.renameSync(NodePath.join(root, "a.log"), NodePath.join(root, "moved.log"))
              Fs.writeFileSync(NodePath.join(root, "a.log"), "replaced\n")
              return [decode(yield* file.read(6, 5)), decode(yield* file.read(10, 100)), decode(yield* file.read(50, 10))]
            }),
          { verification }
        )
        expect(part).toEqual(["world", "d\n", ""])
      })
    )

    it.effect("refuses a symlink as the last name, wherever it points", () =>
      Effect.gen(function* () {
        const { root, secret } = layout()
        Fs.symlinkSync(secret, NodePath.join(root, "escape.log"))
        Fs.symlinkSync(NodePath.join(root, "a.log"), NodePath.join(root, "alias.log"))
        Fs.symlinkSync("a.log", NodePath.join(root, "relative.log"))
        expect(yield* problemOf(root, "escape.log", verification)).toBe("symlink")
        expect(yield* problemOf(root, "alias.log", verification)).toBe("symlink")
        expect(yield* problemOf(root, "relative.log", verification)).toBe("symlink")
      })
    )

    it.effect("follows a symlinked folder that stays inside, refuses one that leaves", () =>
      Effect.gen(function* () {
        const { root, outside } = layout()
        Fs.symlinkSync(outside, NodePath.join(root, "out"))
        Fs.symlinkSync(NodePath.join(root, "sub"), NodePath.join(root, "sub-alias"))
        expect(yield* problemOf(root, "out/secret.log", verification)).toBe("outside-root")
        expect(yield* readWhole(root, "sub-alias/b.log", verification)).toBe("in sub\n")
        const resolved = yield* resolveRoot(root)
        const listed = yield* Effect.flip(listConfined(resolved, "out", { verification }))
        expect(listed.problem).toBe("outside-root")
      })
    )

    it.effect("refuses `..`, absolute paths and NUL before touching the file system", () =>
      Effect.gen(function* () {
        const { root, secret } = layout()
        const relativeSecret = NodePath.relative(root, secret)
        for (const path of [relativeSecret, "sub/../../x", "..", secret, "/etc/passwd", "a.log\0.txt", "C:\\Windows\\win.ini"]) {
          expect([path, yield* problemOf(root, path, verification)]).toEqual([path, "invalid-path"])
        }
      })
    )

    it.effect("refuses a hard link to an outside file (from either name)", () =>
      Effect.gen(function* () {
        const { root, secret } = layout()
        Fs.linkSync(secret, NodePath.join(root, "linked.log"))
        expect(yield* problemOf(root, "linked.log", verification)).toBe("hard-link")
      })
    )

    it.effect("refuses a folder, a FIFO and a device, without blocking on the FIFO", () =>
      Effect.gen(function* () {
        const { root } = layout()
        execFileSync("mkfifo", [NodePath.join(root, "pipe.log")])
        expect(yield* problemOf(root, "sub", verification)).toBe("not-regular-file")
        expect(yield* problemOf(root, "pipe.log", verification)).toBe("not-regular-file")
        expect(yield* problemOf("/dev", "null", verification)).toBe("not-regular-file")
      })
    )

    it.effect("a missing file, folder or root is not-found; a file used as a folder is not-a-folder", () =>
      Effect.gen(function* () {
        const { root } = layout()
        expect(yield* problemOf(root, "nope.log", verification)).toBe("not-found")
        expect(yield* problemOf(root, "nope/b.log", verification)).toBe("not-found")
        expect(yield* problemOf(root, "a.log/b.log", verification)).toBe("not-a-folder")
        expect(yield* problemOf(NodePath.join(root, "nope"), "a.log", verification)).toBe("not-found")
        expect((yield* Effect.flip(resolveRoot(NodePath.join(root, "a.log")))).problem).toBe("not-a-folder")
      })
    )

    it.effect("lists a folder's entries as what they are, symlinks not followed", () =>
      Effect.gen(function* () {
        const { root, secret } = layout()
        Fs.symlinkSync(secret, NodePath.join(root, "escape.log"))
        const resolved = yield* resolveRoot(root)
        const entries = yield* listConfined(resolved, "", { verification })
        expect([...entries].sort((a, b) => a.name.localeCompare(b.name))).toEqual([
          { name: "a.log", kind: "file" },
          { name: "escape.log", kind: "symlink" },
          { name: "sub", kind: "folder" }
        ])
        expect(yield* listConfined(resolved, "sub", { verification })).toEqual([{ name: "b.log", kind: "file" }])
        expect((yield* Effect.flip(listConfined(resolved, "a.log", { verification }))).problem).toBe("not-a-folder")
      })
    )

    it.scoped("1,500 reads or more while the file is swapped for a symlink to an outside secret: none returns it", () =>
      Effect.gen(function* () {
        const { root, secret } = layout()
        const target = NodePath.join(root, "race.log")
        Fs.writeFileSync(target, "inside\n")
        const resolved = yield* resolveRoot(root)
        const { swaps } = yield* startSwapper({ mode: "file", target, text: "inside\n", outside: secret })
        const outcomes = yield* raceReads(() => withConfinedFile(resolved, "race.log", (file) => file.read(0, 100), { verification }), swaps)
        expect(outcomes.leaked).toBe(0)
        expect(outcomes.inside).toBeGreaterThan(0)
        expect(swaps()).toBeGreaterThan(100)
      })
    )

    it.scoped("1,500 reads or more while a folder on the way is re-pointed outside: none returns the secret", () =>
      Effect.gen(function* () {
        const { root, outside } = layout()
        // The outside folder holds a file of the same name: only the folder changes.
        Fs.writeFileSync(NodePath.join(outside, "b.log"), `${SECRET}\n`)
        const via = NodePath.join(root, "via")
        Fs.symlinkSync(NodePath.join(root, "sub"), via)
        const resolved = yield* resolveRoot(root)
        const { swaps } = yield* startSwapper({ mode: "link", target: via, inside: NodePath.join(root, "sub"), outside })
        const outcomes = yield* raceReads(() => withConfinedFile(resolved, "via/b.log", (file) => file.read(0, 100), { verification }), swaps)
        expect(outcomes.leaked).toBe(0)
        expect(outcomes.inside).toBeGreaterThan(0)
        expect(swaps()).toBeGreaterThan(100)
        const listings = yield* raceReads(
          () =>
            Effect.map(listConfined(resolved, "via", { verification }), (entries) =>
              new TextEncoder().encode(entries.some((e) => e.name === "secret.log") ? SECRET : "inside")
            ),
          swaps
        )
        expect(listings.leaked).toBe(0)
      })
    )
  })
}

/**
 * At least 1,500 attempts, and more until the swapper has swapped over 100
 * times and one attempt read the inside content (a busy machine starves the
 * swapper's thread; at most 20,000): how many returned the secret, how many
 * the inside content, how many were refused.
 */
const raceReads = <E>(read: () => Effect.Effect<Uint8Array, E>, swaps: () => number) =>
  Effect.gen(function* () {
    let leaked = 0
    let inside = 0
    let refused = 0
    for (let i = 0; i < 20_000 && (i < 1500 || swaps() <= 100 || inside === 0); i++) {
      const outcome = yield* Effect.either(read())
      if (Either.isLeft(outcome)) refused++
      else if (decode(outcome.right).includes(SECRET)) leaked++
      else inside++
    }
    return { leaked, inside, refused }
  })

describe("openConfined default verification", () => {
  it.scoped("opens and reads with the platform's own verification (/proc/self/fd on Linux)", () =>
    Effect.gen(function* () {
      const { root } = layout()
      const resolved = yield* resolveRoot(root)
      const file = yield* openConfined(resolved, "sub/b.log")
      expect(decode(yield* file.read(0, 100))).toBe("in sub\n")
    })
  )
})
