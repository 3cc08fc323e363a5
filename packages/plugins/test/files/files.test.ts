/**
 * The file editor over the real servers plugin (fake processes) and real
 * files: list, read and write text files in the install folder with a
 * version check, and a corpus of hostile paths (escapes in every spelling,
 * links leading out, a link swapped in while requests run) that never
 * reads or writes a byte outside the install folder.
 */
import { describe, expect, it } from "@effect/vitest"
import { callWithText as call, fakeFleet, fakeInstall, request, tempDir, testController } from "@garrison/testkit"
import { Effect, LogLevel } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { FilesPlugin } from "../../src/files/index.js"

const ADMIN = "root:admin"
const EDITOR = "eda:server.config"

const setup = () => {
  const fleet = fakeFleet()
  return testController([fleet.plugin, FilesPlugin], { dataPrefix: "garrison-files-", logLevel: LogLevel.Error, config: { RATE_LIMIT_API: "off" } })
}

/** An install with a profiles folder, a binary file and links leading out to a folder holding a secret. */
const server = Effect.gen(function* () {
  const dir = fakeInstall()
  const outside = tempDir("garrison-files-outside-")
  Fs.writeFileSync(NodePath.join(outside, "secret.txt"), "OUTSIDE SECRET")
  Fs.mkdirSync(NodePath.join(dir, "profiles"))
  Fs.writeFileSync(NodePath.join(dir, "profiles", "server.log"), "line 1\n")
  Fs.writeFileSync(NodePath.join(dir, "data.bin"), Buffer.from([0x50, 0x00, 0x01, 0xff]))
  Fs.symlinkSync(NodePath.join(outside, "secret.txt"), NodePath.join(dir, "link-file"))
  Fs.symlinkSync(outside, NodePath.join(dir, "link-dir"))
  const created = yield* call("POST", "/api/servers", { as: ADMIN, json: { name: "Main", installDir: dir } })
  return { id: String((created.body as { id: string }).id), dir, outside }
})

/** The path as a query value; a lone surrogate (no UTF-8 form) as the bytes a client would send for it. */
const q = (path: string) => {
  try {
    return encodeURIComponent(path)
  } catch {
    return path.replace(/[\ud800-\udfff]/g, "%ED%A0%80")
  }
}

describe("the file editor", () => {
  it.scoped("lists, reads and writes text files; a stale version is 412; binary files are listed, not read", () =>
    Effect.gen(function* () {
      yield* Effect.gen(function* () {
        const { id, dir } = yield* server
        const root = (yield* call("GET", `/api/servers/${id}/files`, { as: EDITOR })).body as { items: ReadonlyArray<{ name: string; kind: string }> }
        expect(root.items.slice(0, 3).every((e) => e.kind === "folder")).toBe(true)
        expect(root.items.map((e) => [e.name, e.kind])).toEqual(expect.arrayContaining([["serverDZ.cfg", "file"], ["link-dir", "symlink"], ["data.bin", "file"]]))
        expect(((yield* call("GET", `/api/servers/${id}/files?path=profiles`, { as: EDITOR })).body as { path: string; items: ReadonlyArray<unknown> })).toMatchObject({ path: "profiles", items: [{ name: "server.log", path: "profiles/server.log" }] })

        const cfg = (yield* call("GET", `/api/servers/${id}/files/read?path=serverDZ.cfg`, { as: EDITOR })).body as { content: string; etag: string }
        expect(cfg.content).toContain("Detected Server")
        const binary = yield* call("GET", `/api/servers/${id}/files/read?path=data.bin`, { as: EDITOR })
        expect(binary.status).toBe(409)
        expect(binary.text).toContain("binary")

        const created = yield* call("PUT", `/api/servers/${id}/files/write`, { as: EDITOR, json: { path: "profiles\\notes.txt", content: "restart at 06:00\n" } })
        expect(created.body).toMatchObject({ path: "profiles/notes.txt", created: true })
        expect(Fs.readFileSync(NodePath.join(dir, "profiles", "notes.txt"), "utf8")).toBe("restart at 06:00\n")
        const written = yield* call("PUT", `/api/servers/${id}/files/write`, { as: EDITOR, json: { path: "serverDZ.cfg", content: "hostname = \"New\";\n", etag: cfg.etag } })
        expect(written.status).toBe(200)
        const stale = yield* call("PUT", `/api/servers/${id}/files/write`, { as: EDITOR, json: { path: "serverDZ.cfg", content: "x", etag: cfg.etag } })
        expect(stale.status).toBe(412)
        expect(stale.body).toMatchObject({ error: "precondition-failed" })
        const viaHeader = yield* call("PUT", `/api/servers/${id}/files/write`, { as: EDITOR, json: { path: "serverDZ.cfg", content: "x" }, headers: { "if-match": cfg.etag } })
        expect(viaHeader.status).toBe(412)
        expect(Fs.readFileSync(NodePath.join(dir, "serverDZ.cfg"), "utf8")).toBe('hostname = "New";\n')

        expect((yield* call("PUT", `/api/servers/${id}/files/write`, { as: EDITOR, json: { path: ".garrison/x", content: "x" } })).status).toBe(400)
        expect((yield* call("PUT", `/api/servers/${id}/files/write`, { as: EDITOR, json: { path: "nope/x.txt", content: "x" } })).status).toBe(404)
        expect((yield* call("PUT", `/api/servers/${id}/files/write`, { as: EDITOR, json: { path: "a.txt", content: "a\u0000b" } })).status).toBe(400)
        expect((yield* call("GET", `/api/servers/${id}/files`, { as: "v:server.view" })).status).toBe(403)
      }).pipe(Effect.provide(setup()))
    }))

  it.scoped("one ETag: the header is the body's; If-Match with it writes, a stale one is 412; If-None-Match with it is 304", () =>
    Effect.gen(function* () {
      yield* Effect.gen(function* () {
        const { id, dir } = yield* server
        const url = `/api/servers/${id}/files/read?path=serverDZ.cfg`
        const first = yield* request("GET", url, { as: EDITOR })
        const tag = first.headers["etag"]!
        expect(tag).toBe((JSON.parse(first.text) as { etag: string }).etag)
        expect((yield* request("GET", url, { as: EDITOR, headers: { "if-none-match": tag } })).status).toBe(304)

        const written = yield* request("PUT", `/api/servers/${id}/files/write`, { as: EDITOR, json: { path: "serverDZ.cfg", content: 'hostname = "New";\n' }, headers: { "if-match": tag } })
        expect(written.status).toBe(200)
        const next = (JSON.parse(written.text) as { etag: string }).etag
        expect(written.headers["etag"]).toBe(next)
        const read = yield* request("GET", url, { as: EDITOR, headers: { "if-none-match": tag } })
        expect(read.status).toBe(200)
        expect(read.headers["etag"]).toBe(next)

        const stale = yield* request("PUT", `/api/servers/${id}/files/write`, { as: EDITOR, json: { path: "serverDZ.cfg", content: "x" }, headers: { "if-match": tag } })
        expect(stale.status).toBe(412)
        expect(JSON.parse(stale.text)).toMatchObject({ error: "precondition-failed", details: { etag: next } })
        expect(Fs.readFileSync(NodePath.join(dir, "serverDZ.cfg"), "utf8")).toBe('hostname = "New";\n')
      }).pipe(Effect.provide(setup()))
    }))

  it.scoped("hostile paths in every spelling are refused, and nothing outside the install folder is read or written", () =>
    Effect.gen(function* () {
      yield* Effect.gen(function* () {
        const { id, outside } = yield* server
        const escaping = [
          "..",
          "../",
          "../../etc/passwd",
          "/etc/passwd",
          "a/../../x",
          "profiles/../../secret.txt",
          "..\\..\\etc\\passwd",
          "\\etc\\passwd",
          "C:\\Windows\\win.ini",
          "link-file",
          "link-dir",
          "link-dir/secret.txt",
          "a\u0000b",
          "\ud800.txt",
          `${outside}/secret.txt`
        ]
        for (const path of escaping) {
          for (const [method, url, json] of [
            ["GET", `/api/servers/${id}/files?path=${q(path)}`, undefined],
            ["GET", `/api/servers/${id}/files/read?path=${q(path)}`, undefined],
            ["PUT", `/api/servers/${id}/files/write`, { path, content: "PWNED" }]
          ] as const) {
            const reply = yield* call(method, url, { as: EDITOR, ...(json === undefined ? {} : { json }) })
            expect([400, 403], `${method} ${JSON.stringify(path)} -> ${reply.status} ${reply.text}`).toContain(reply.status)
            expect(reply.text).not.toContain("OUTSIDE SECRET")
          }
        }
        // Spellings the URL decodes to an escape are escapes; one encoded twice is a literal name (not there).
        for (const raw of ["%2e%2e%2fetc%2fpasswd", "%2E%2E/%2E%2E/etc/passwd", "..%2f..%2fetc%2fpasswd", "..%5c..%5cetc"]) {
          expect((yield* call("GET", `/api/servers/${id}/files/read?path=${raw}`, { as: EDITOR })).status, raw).toBe(400)
        }
        expect((yield* call("GET", `/api/servers/${id}/files/read?path=%252e%252e%252fetc`, { as: EDITOR })).status).toBe(404)
        expect(Fs.readdirSync(outside)).toEqual(["secret.txt"])
        expect(Fs.readFileSync(NodePath.join(outside, "secret.txt"), "utf8")).toBe("OUTSIDE SECRET")
      }).pipe(Effect.provide(setup()))
    }))

  it.scopedLive("a folder swapped for a link leading out while requests run: never a byte from or to outside", () =>
    Effect.gen(function* () {
      yield* Effect.gen(function* () {
        const { id, dir, outside } = yield* server
        const swap = NodePath.join(dir, "swap")
        const aside = NodePath.join(dir, "swap-real")
        Fs.mkdirSync(swap)
        Fs.writeFileSync(NodePath.join(swap, "inside.txt"), "INSIDE")
        Fs.writeFileSync(NodePath.join(outside, "inside.txt"), "OUTSIDE SECRET")
        // Every few milliseconds the folder becomes a link out, or a folder again: requests start on one and go on on the other.
        let swapping = true
        let swaps = 0
        const flip = () => {
          if (!swapping) return
          try {
            if (Fs.lstatSync(swap).isSymbolicLink()) {
              Fs.unlinkSync(swap)
              Fs.renameSync(aside, swap)
            } else {
              Fs.renameSync(swap, aside)
              Fs.symlinkSync(outside, swap)
            }
            swaps++
          } catch {
            // A request holds it this instant: next turn.
          }
          setTimeout(flip, 2)
        }
        setTimeout(flip, 2)
        const statuses = new Map<number, number>()
        for (let i = 0; i < 150; i++) {
          const readReply = yield* call("GET", `/api/servers/${id}/files/read?path=swap/inside.txt`, { as: EDITOR })
          expect(readReply.text).not.toContain("OUTSIDE")
          if (readReply.status === 200) expect((readReply.body as { content: string }).content).toBe("INSIDE")
          const writeReply = yield* call("PUT", `/api/servers/${id}/files/write`, { as: EDITOR, json: { path: `swap/new-${i}.txt`, content: "PWNED" } })
          statuses.set(readReply.status, (statuses.get(readReply.status) ?? 0) + 1)
          statuses.set(writeReply.status, (statuses.get(writeReply.status) ?? 0) + 1)
        }
        swapping = false
        expect(swaps, JSON.stringify([...statuses])).toBeGreaterThan(50)
        // Both outcomes happened: the swap really raced the requests.
        expect(statuses.get(200) ?? 0, JSON.stringify([...statuses])).toBeGreaterThan(0)
        expect([...statuses.keys()].filter((s) => s !== 200).length).toBeGreaterThan(0)
        expect(Fs.readdirSync(outside).sort()).toEqual(["inside.txt", "secret.txt"])
        expect(Fs.readFileSync(NodePath.join(outside, "inside.txt"), "utf8")).toBe("OUTSIDE SECRET")
      }).pipe(Effect.provide(setup()))
    }))
})
