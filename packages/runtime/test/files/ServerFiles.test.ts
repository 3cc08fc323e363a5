/**
 * `ServerFiles.local`: every operation confined to the root (hostile
 * spellings, symlinks leading out in a folder on the way or as the last
 * name, hard links, a folder swapped while writing), the size limit of a
 * whole read, atomic writes that keep the mode, rename and remove inside the
 * root, listings; with both ways of proving a descriptor.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { BadRequest, Conflict, NotFound } from "../../src/http/ApiErrors.js"
import { ConfinedFileError } from "../../src/files/ConfinedFileError.js"
import { confinedFileHttpError } from "../../src/files/ConfinedFileHttp.js"
import * as ServerFiles from "../../src/files/ServerFiles.js"
import { decode, SECRET, secretLayout } from "./layout.js"
import { startSwapper } from "./swapper.js"

const layout = () => secretLayout("files", "txt", "hello\n")

/** The problem an operation failed with, or "ok". */
const outcome = <A>(effect: Effect.Effect<A, ConfinedFileError>) =>
  effect.pipe(Effect.match({ onFailure: (error) => error.problem as string, onSuccess: () => "ok" }))

/** Every name under `folder` (recursively), sorted: what an operation may have left there. */
const tree = (folder: string): ReadonlyArray<string> =>
  (Fs.readdirSync(folder, { recursive: true }) as Array<string>).sort()

const HOSTILE = ["../x", "a/../../x", "sub/../../x", "..", "/etc/passwd", "\\x", "C:\\x", "c:x", "a\u0000b", "a\uD800b", "\uDC00"]

for (const verification of ["proc-fd", "re-resolve"] as const) {
  describe(`ServerFiles.local (${verification})`, () => {
    const filesOf = (root: string) => ServerFiles.local(root, { verification })

    it.effect("refuses hostile spellings in every operation, before touching the disk", () =>
      Effect.gen(function* () {
        const { root, outside } = layout()
        const files = filesOf(root)
        const before = tree(outside)
        for (const path of HOSTILE) {
          const results = [
            yield* outcome(files.read(path)),
            yield* outcome(Effect.scoped(files.open(path))),
            yield* outcome(files.stat(path)),
            yield* outcome(files.list(path)),
            yield* outcome(files.write(path, "x")),
            yield* outcome(files.remove(path)),
            yield* outcome(files.rename("a.txt", path)),
            yield* outcome(files.rename(path, "moved.txt")),
            yield* outcome(files.makeFolder(path)),
            yield* outcome(files.truncate(path, 0))
          ]
          // `..` alone names the root's parent; `a\0b` and the lone surrogates are refused as names.
          expect([path, results]).toEqual([path, Array.from({ length: 10 }, () => "invalid-path")])
        }
        const error = yield* Effect.flip(files.read("a/../../x"))
        expect(error).toMatchObject({ path: "a/../../x", problem: "invalid-path" })
        expect(error.message).toContain("'..'")
        expect((yield* Effect.flip(files.read("a\uD800b"))).message).toContain("lone surrogate")
        expect(tree(outside)).toEqual(before)
        expect(tree(root)).toEqual(["a.txt", "sub", "sub/b.txt"])
      })
    )

    it.effect("takes any spelling that stays inside: `\\`, `./`, doubled separators, a `..` that does not leave", () =>
      Effect.gen(function* () {
        const { root } = layout()
        const files = filesOf(root)
        for (const path of ["sub/b.txt", "sub\\b.txt", "./sub//b.txt", "sub/x/../b.txt", "a.txt/../sub/b.txt"]) {
          expect([path, decode(yield* files.read(path))]).toEqual([path, "in sub\n"])
        }
        expect((yield* files.stat("sub/..")).kind).toBe("folder")
      })
    )

    it.effect("a symlinked folder leading outside is refused on the way in, for reads and writes alike", () =>
      Effect.gen(function* () {
        const { root, outside } = layout()
        Fs.symlinkSync(outside, NodePath.join(root, "out"))
        Fs.symlinkSync(NodePath.join(root, "sub"), NodePath.join(root, "inside"))
        const files = filesOf(root)
        const before = tree(outside)
        expect(yield* outcome(files.read("out/secret.txt"))).toBe("outside-root")
        expect(yield* outcome(files.stat("out/secret.txt"))).toBe("outside-root")
        expect(yield* outcome(files.list("out"))).toBe("outside-root")
        expect(yield* outcome(files.write("out/new.txt", "x"))).toBe("outside-root")
        expect(yield* outcome(files.write("out/secret.txt", "x"))).toBe("outside-root")
        expect(yield* outcome(files.remove("out/secret.txt"))).toBe("outside-root")
        expect(yield* outcome(files.rename("out/secret.txt", "stolen.txt"))).toBe("outside-root")
        expect(yield* outcome(files.rename("a.txt", "out/a.txt"))).toBe("outside-root")
        expect(yield* outcome(files.makeFolder("out/deeper"))).toBe("outside-root")
        expect(yield* outcome(files.truncate("out/secret.txt", 0))).toBe("outside-root")
        expect(tree(outside)).toEqual(before)
        expect(Fs.readFileSync(NodePath.join(outside, "secret.txt"), "utf8")).toBe(`${SECRET}\n`)
        // One that stays inside is followed.
        expect(decode(yield* files.read("inside/b.txt"))).toBe("in sub\n")
        yield* files.write("inside/c.txt", "c")
        expect(Fs.readFileSync(NodePath.join(root, "sub", "c.txt"), "utf8")).toBe("c")
      })
    )

    it.effect("a symlink as the last name is never followed: read and write refuse it, remove takes the link only", () =>
      Effect.gen(function* () {
        const { root, secret } = layout()
        Fs.symlinkSync(secret, NodePath.join(root, "escape.txt"))
        Fs.symlinkSync("a.txt", NodePath.join(root, "alias.txt"))
        const files = filesOf(root)
        expect(yield* outcome(files.read("escape.txt"))).toBe("symlink")
        expect(yield* outcome(files.read("alias.txt"))).toBe("symlink")
        expect(yield* outcome(files.write("escape.txt", "overwritten"))).toBe("symlink")
        expect(yield* outcome(files.truncate("escape.txt", 0))).toBe("symlink")
        expect((yield* files.stat("escape.txt")).kind).toBe("symlink")
        yield* files.remove("escape.txt")
        expect(Fs.existsSync(NodePath.join(root, "escape.txt"))).toBe(false)
        expect(Fs.readFileSync(secret, "utf8")).toBe(`${SECRET}\n`)
      })
    )

    it.effect("a hard link to an outside file: never read, never written through", () =>
      Effect.gen(function* () {
        const { root, secret } = layout()
        Fs.linkSync(secret, NodePath.join(root, "linked.txt"))
        const files = filesOf(root)
        expect(yield* outcome(files.read("linked.txt"))).toBe("hard-link")
        expect(yield* outcome(files.truncate("linked.txt", 0))).toBe("hard-link")
        // The atomic write gives the name a new file: the outside one keeps its content.
        yield* files.write("linked.txt", "replaced")
        expect(Fs.readFileSync(secret, "utf8")).toBe(`${SECRET}\n`)
        expect(Fs.readFileSync(NodePath.join(root, "linked.txt"), "utf8")).toBe("replaced")
        expect(Fs.statSync(secret).nlink).toBe(1)
      })
    )

    it.scoped("1,000 writes or more while a folder on the way is re-pointed outside and back: nothing lands outside", () =>
      Effect.gen(function* () {
        const { root, outside } = layout()
        const via = NodePath.join(root, "via")
        Fs.symlinkSync(NodePath.join(root, "sub"), via)
        const files = filesOf(root)
        const { swaps } = yield* startSwapper({ mode: "link", target: via, inside: NodePath.join(root, "sub"), outside })
        let written = 0
        // More than 1,000 until some got through and the swapper really raced them (a busy machine starves its thread).
        for (let i = 0; i < 20_000 && (i < 1000 || written === 0 || swaps() <= 100); i++) {
          const result = yield* Effect.exit(files.write("via/w.txt", `write ${i}`))
          if (Exit.isSuccess(result)) written++
        }
        expect(swaps()).toBeGreaterThan(100)
        expect(written).toBeGreaterThan(0)
        expect(tree(outside)).toEqual(["secret.txt"])
        expect(Fs.readFileSync(NodePath.join(root, "sub", "w.txt"), "utf8")).toMatch(/^write \d+$/)
        // No temporary file left anywhere.
        expect(tree(NodePath.join(root, "sub")).filter((name) => name.endsWith(".tmp"))).toEqual([])
      })
    )

    it.effect("a whole read is limited; a larger file is `too-large`, read in ranges instead", () =>
      Effect.gen(function* () {
        const { root } = layout()
        Fs.writeFileSync(NodePath.join(root, "big.txt"), "x".repeat(1000))
        const files = filesOf(root)
        expect((yield* files.read("big.txt", { maxBytes: 1000 })).length).toBe(1000)
        const error = yield* Effect.flip(files.read("big.txt", { maxBytes: 999 }))
        expect(error).toMatchObject({ path: "big.txt", problem: "too-large" })
        expect(error.message).toContain("1000 bytes")
        const range = yield* Effect.scoped(Effect.flatMap(files.open("big.txt"), (file) => file.read(990, 100)))
        expect(range.length).toBe(10)
        expect(yield* outcome(files.read("sub"))).toBe("not-regular-file")
        expect(yield* outcome(files.read("nope.txt"))).toBe("not-found")
        expect(yield* outcome(files.read("a.txt/x"))).toBe("not-a-folder")
      })
    )

    it.effect("writes atomically: the old mode kept whatever the umask (less the execute bits when asked), a new file's mode as asked, no temporary file left", () =>
      Effect.gen(function* () {
        const { root } = layout()
        const files = filesOf(root)
        const kept = NodePath.join(root, "kept.txt")
        Fs.writeFileSync(kept, "old")
        Fs.chmodSync(kept, 0o666)
        yield* files.write("kept.txt", "new")
        expect(Fs.readFileSync(kept, "utf8")).toBe("new")
        expect(Fs.statSync(kept).mode & 0o777).toBe(0o666)
        Fs.chmodSync(kept, 0o640)
        yield* files.write("kept.txt", new TextEncoder().encode("bytes"))
        expect(Fs.statSync(kept).mode & 0o777).toBe(0o640)
        yield* files.write("sub/fresh.txt", "fresh")
        expect(Fs.statSync(NodePath.join(root, "sub", "fresh.txt")).mode & 0o777).toBe(0o644)
        yield* files.write("private.txt", "p", { mode: 0o600 })
        expect(Fs.statSync(NodePath.join(root, "private.txt")).mode & 0o777).toBe(0o600)
        // `stripExecute`: whatever the file had when the write came (setuid included), the new one is never a program.
        Fs.chmodSync(kept, 0o4755)
        expect((yield* files.stat("kept.txt")).mode).toBe(0o4755)
        yield* files.write("kept.txt", "text", { stripExecute: true })
        expect(Fs.statSync(kept).mode & 0o7777).toBe(0o644)
        // Failures leave nothing behind either.
        expect(yield* outcome(files.write("missing/x.txt", "x"))).toBe("not-found")
        expect(yield* outcome(files.write("sub", "x"))).toBe("not-regular-file")
        expect(tree(root).filter((name) => name.endsWith(".tmp"))).toEqual([])
      })
    )

    it.effect("renames within the root; an existing target only when asked to replace it", () =>
      Effect.gen(function* () {
        const { root } = layout()
        const files = filesOf(root)
        yield* files.rename("a.txt", "sub/a2.txt")
        expect(Fs.readFileSync(NodePath.join(root, "sub", "a2.txt"), "utf8")).toBe("hello\n")
        expect(yield* outcome(files.rename("sub/a2.txt", "sub/b.txt"))).toBe("exists")
        yield* files.rename("sub/a2.txt", "sub/b.txt", { replace: true })
        expect(Fs.readFileSync(NodePath.join(root, "sub", "b.txt"), "utf8")).toBe("hello\n")
        expect(yield* outcome(files.rename("nope.txt", "x.txt"))).toBe("not-found")
        expect(yield* outcome(files.rename("nope.txt", "./nope.txt"))).toBe("not-found")
        yield* files.rename("sub/b.txt", "sub//./b.txt")
        expect(yield* outcome(files.rename("sub", "sub/inner"))).toBe("invalid-path")
        yield* files.rename("sub", "renamed")
        expect(tree(root)).toEqual(["renamed", "renamed/b.txt"])
      })
    )

    it.effect("removes files, empty folders, and whole trees only when asked, never what a symlink inside points at", () =>
      Effect.gen(function* () {
        const { root, outside, secret } = layout()
        const files = filesOf(root)
        Fs.mkdirSync(NodePath.join(root, "sub", "deep", "deeper"), { recursive: true })
        Fs.writeFileSync(NodePath.join(root, "sub", "deep", "deeper", "c.txt"), "c")
        Fs.symlinkSync(outside, NodePath.join(root, "sub", "deep", "out"))
        Fs.symlinkSync(secret, NodePath.join(root, "sub", "deep", "secret-link"))
        expect(yield* outcome(files.remove("sub"))).toBe("not-empty")
        yield* files.remove("a.txt")
        expect(yield* outcome(files.remove("a.txt"))).toBe("not-found")
        yield* files.remove("sub", { recursive: true })
        expect(tree(root)).toEqual([])
        expect(tree(outside)).toEqual(["secret.txt"])
        expect(Fs.readFileSync(secret, "utf8")).toBe(`${SECRET}\n`)
        Fs.mkdirSync(NodePath.join(root, "empty"))
        yield* files.remove("empty")
        expect(yield* outcome(files.remove(""))).toBe("invalid-path")
      })
    )

    it.effect("lists entries with kind, size and time; stats the root; makes nested folders", () =>
      Effect.gen(function* () {
        const { root, secret } = layout()
        Fs.symlinkSync(secret, NodePath.join(root, "escape.txt"))
        const files = filesOf(root)
        const entries = [...(yield* files.list(""))].sort((a, b) => a.name.localeCompare(b.name))
        expect(entries.map(({ name, kind }) => [name, kind])).toEqual([
          ["a.txt", "file"],
          ["escape.txt", "symlink"],
          ["sub", "folder"]
        ])
        expect(entries[0]!.size).toBe(6)
        expect(entries[0]!.modified.getTime()).toBe(Math.floor(Fs.statSync(NodePath.join(root, "a.txt")).mtimeMs))
        expect((yield* files.list("sub")).map((e) => e.name)).toEqual(["b.txt"])
        expect(yield* outcome(files.list("a.txt"))).toBe("not-a-folder")
        expect((yield* files.stat("")).kind).toBe("folder")
        expect(yield* files.stat("sub/b.txt")).toMatchObject({ name: "b.txt", kind: "file", size: 7 })
        yield* files.makeFolder("x/y/z")
        yield* files.makeFolder("x/y")
        expect(Fs.statSync(NodePath.join(root, "x", "y", "z")).isDirectory()).toBe(true)
        expect(yield* outcome(files.makeFolder("a.txt/z"))).toBe("not-a-folder")
        yield* files.truncate("a.txt", 2)
        expect(Fs.readFileSync(NodePath.join(root, "a.txt"), "utf8")).toBe("he")
      })
    )

    it.effect("a root that does not exist makes every operation not-found", () =>
      Effect.gen(function* () {
        const { root } = layout()
        const files = filesOf(NodePath.join(root, "missing"))
        expect(yield* outcome(files.read("a.txt"))).toBe("not-found")
        expect(yield* outcome(files.write("a.txt", "x"))).toBe("not-found")
        expect(yield* outcome(files.list(""))).toBe("not-found")
        expect(Fs.existsSync(NodePath.join(root, "missing"))).toBe(false)
      })
    )
  })
}

/** The HTTP error a failed operation maps to. */
const httpErrorOf = <A>(effect: Effect.Effect<A, ConfinedFileError>, field?: string) =>
  Effect.flatMap(Effect.flip(effect), (error) => Effect.flip(confinedFileHttpError(error, field)))

describe("a refused path over HTTP", () => {
  it.effect("is 400 naming the field and the path; missing is 404; in the way or swapped 409; an I/O fault dies", () =>
    Effect.gen(function* () {
      const { root } = layout()
      const files = ServerFiles.local(root)
      const refused = yield* httpErrorOf(files.read("../etc/passwd"), "file")
      expect(refused).toBeInstanceOf(BadRequest)
      expect(refused.message).toBe(`file: "../etc/passwd" must not go up out of its folder ('..')`)
      expect(refused.details).toEqual([{ path: "file", message: "must not go up out of its folder ('..')", file: "../etc/passwd", problem: "invalid-path" }])
      expect((yield* httpErrorOf(files.read("a\uD800"))).message).toContain(`path: "a\\ud800"`)
      expect(yield* httpErrorOf(files.read("nope.txt"))).toBeInstanceOf(NotFound)
      expect(yield* httpErrorOf(files.rename("a.txt", "sub/b.txt"), "to")).toBeInstanceOf(Conflict)
      const fault = yield* Effect.exit(confinedFileHttpError(new ConfinedFileError({ path: "x", problem: "io", message: "cannot be read (EIO)" })))
      expect(Exit.isFailure(fault) && fault.cause._tag === "Die").toBe(true)
    })
  )
})

describe("ServerFiles.copyFrom", () => {
  it.effect("copies a file larger than a piece from one server's files to another's, atomically, confined on both sides", () =>
    Effect.gen(function* () {
      const from = layout()
      const to = layout()
      const big = Buffer.alloc(ServerFiles.COPY_CHUNK * 2 + 12345)
      for (let i = 0; i < big.length; i++) big[i] = (i * 7) % 251
      Fs.writeFileSync(NodePath.join(from.root, "world.bin"), big)
      const source = ServerFiles.local(from.root)
      const target = ServerFiles.local(to.root)
      yield* Effect.scoped(Effect.flatMap(source.open("world.bin"), (opened) => target.copyFrom(opened, "copied.bin")))
      expect(Buffer.compare(Fs.readFileSync(NodePath.join(to.root, "copied.bin")), big)).toBe(0)
      // Confined on the way out as on the way in.
      const before = tree(to.outside)
      const refused = yield* outcome(Effect.scoped(Effect.flatMap(source.open("world.bin"), (opened) => target.copyFrom(opened, "../x.bin"))))
      expect(refused).toBe("invalid-path")
      expect(tree(to.outside)).toEqual(before)
    }))

  it.effect("a source that fails halfway leaves the target as it was and no piece behind", () =>
    Effect.gen(function* () {
      const to = layout()
      Fs.writeFileSync(NodePath.join(to.root, "keep.bin"), "old content")
      const before = tree(to.root)
      let reads = 0
      const failing: ServerFiles.OpenedFile = {
        path: "source.bin",
        size: ServerFiles.COPY_CHUNK * 3,
        modified: new Date(),
        identity: { device: 0n, inode: 0n },
        read: (_position, length) =>
          ++reads < 3 ? Effect.succeed(new Uint8Array(length)) : Effect.fail(new ConfinedFileError({ path: "source.bin", problem: "io", message: "vanished" }))
      }
      const result = yield* Effect.exit(ServerFiles.local(to.root).copyFrom(failing, "keep.bin"))
      expect(Exit.isFailure(result)).toBe(true)
      expect(reads).toBe(3)
      expect(Fs.readFileSync(NodePath.join(to.root, "keep.bin"), "utf8")).toBe("old content")
      expect(tree(to.root)).toEqual(before)
    }))
})
