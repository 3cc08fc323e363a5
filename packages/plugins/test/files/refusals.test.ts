/**
 * The file editor's refusals as clients see them: the service fails with
 * its own errors (`errors.ts`) and the install folder's `ConfinedFileError`,
 * and the routes answer each with one status, message and `details` shape
 * (`filesHttpError`). The wording and shapes are pinned here: the dashboard
 * reads `details` (the field, `binary`).
 */
import { describe, expect, it } from "@effect/vitest"
import { callWithText as call, fakeFleet, fakeInstall, testController } from "@garrison/testkit"
import { Effect, LogLevel } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { FilesPlugin } from "../../src/files/index.js"

const ADMIN = "root:admin"
const EDITOR = "eda:server.config"

const setup = () => testController([fakeFleet().plugin, FilesPlugin], { dataPrefix: "garrison-files-refusals-", logLevel: LogLevel.Error, config: { RATE_LIMIT_API: "off" } })

const server = Effect.gen(function* () {
  const dir = fakeInstall()
  Fs.writeFileSync(NodePath.join(dir, "data.bin"), Buffer.from([0x50, 0x00, 0x01, 0xff]))
  const created = yield* call("POST", "/api/servers", { as: ADMIN, json: { name: "Main", installDir: dir } })
  return { id: String((created.body as { id: string }).id), dir }
})

describe("the file editor's refusals", () => {
  it.scoped("each is one status with its message and details: 400 naming the field, 403 never written, 409 binary, the folder's own 404", () =>
    Effect.gen(function* () {
      const { id, dir } = yield* server
      const read = (path: string) => call("GET", `/api/servers/${id}/files/read?path=${encodeURIComponent(path)}`, { as: EDITOR })
      const list = (path: string) => call("GET", `/api/servers/${id}/files?path=${encodeURIComponent(path)}`, { as: EDITOR })
      const write = (path: string, content: string) => call("PUT", `/api/servers/${id}/files/write`, { as: EDITOR, json: { path, content } })

      // A path out of the install folder: 400 naming `path`, the reason as the details' message.
      for (const [path, answer] of [
        ["../outside.txt", yield* read("../outside.txt")],
        ["../", yield* list("../")],
        ["../outside.txt", yield* write("../outside.txt", "x")]
      ] as const) {
        expect(answer.status, answer.text).toBe(400)
        const body = answer.body as { error: string; message: string; details: ReadonlyArray<{ path: string; message: string }> }
        expect(body.error).toBe("invalid-request")
        expect(body.details).toEqual([{ path: "path", message: expect.any(String) }])
        expect(body.message).toBe(`path: ${JSON.stringify(path)} ${body.details[0]!.message}`)
      }

      const binary = yield* read("data.bin")
      expect(binary.status).toBe(409)
      expect(binary.body).toMatchObject({ error: "conflict", message: 'path: "data.bin" is a binary file: the editor reads text files only', details: { binary: true } })

      // A file that is not there is the install folder's answer, naming `path`.
      const missing = yield* read("nope.txt")
      expect(missing.status).toBe(404)
      expect(missing.body).toMatchObject({ error: "not-found", message: 'path: "nope.txt" does not exist' })

      const own = yield* write(".garrison/notes.txt", "x")
      expect(own.status).toBe(400)
      expect(own.body).toMatchObject({
        error: "invalid-request",
        message: "path: .garrison is Garrison's own folder (mod staging, kept versions): not written through the editor",
        details: [{ path: "path", message: "is Garrison's own folder" }]
      })

      const program = yield* write("steam_api.dll", "x")
      expect(program.status).toBe(403)
      expect(program.body).toMatchObject({ error: "forbidden", message: 'path: "steam_api.dll" is a program by its name: the file editor never writes programs', details: { field: "path" } })
      const executable = yield* write("DayZServer", "x")
      expect(executable.status).toBe(403)
      expect(executable.body).toMatchObject({ error: "forbidden", message: `path: "DayZServer" is the server's executable: the file editor never writes programs`, details: { field: "path" } })

      const nul = yield* write("notes.txt", "a\u0000b")
      expect(nul.status).toBe(400)
      expect(nul.body).toMatchObject({
        error: "invalid-request",
        message: "content holds a NUL character: the editor writes text files only",
        details: [{ path: "content", message: "holds a NUL character" }]
      })

      const mask = yield* write("notes.cfg", 'password = "********";\n')
      expect(mask.status).toBe(400)
      expect(mask.body).toMatchObject({
        error: "invalid-request",
        message: "content: line 1: password is the mask, but the file has no password for it to keep: write the value",
        details: [{ path: "content", message: "password is the mask" }]
      })

      // Nothing refused was written.
      expect(Fs.existsSync(NodePath.join(dir, "notes.txt"))).toBe(false)
      expect(Fs.existsSync(NodePath.join(dir, "notes.cfg"))).toBe(false)
      expect(Fs.existsSync(NodePath.join(dir, "steam_api.dll"))).toBe(false)
    }).pipe(Effect.provide(setup())))
})
