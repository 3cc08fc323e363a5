/**
 * The file editor never makes code and never shows a secret, as a user
 * with `server.config` on one server only: the game binary, any file with
 * an execute bit, a program by name and the BattlEye folders are 403 with
 * nothing written; new files are 0644, and what it writes never has an
 * execute bit (decided at the write: `stripExecute`, tested with
 * `ServerFiles`). Reads mask
 * `password`, `passwordAdmin` and `RConPassword` in any file, and the ETag
 * is of what is shown; the mask written back keeps the value.
 */
import { describe, expect, it } from "@effect/vitest"
import { callWithText as call, fakeFleet, fakeInstall, testController } from "@garrison/testkit"
import { Effect, LogLevel } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { FilesPlugin } from "../../src/files/index.js"

const ADMIN = "root:admin"

const setup = () => testController([fakeFleet().plugin, FilesPlugin], { dataPrefix: "garrison-files-code-", logLevel: LogLevel.Error, config: { RATE_LIMIT_API: "off" } })

const CONFIG = 'hostname = "Main";\npassword = "join-secret";\npasswordAdmin = "admin-secret"; // the admins\nmaxPlayers = 60;\n'

const server = Effect.gen(function* () {
  const dir = fakeInstall()
  Fs.writeFileSync(NodePath.join(dir, "serverDZ.cfg"), CONFIG)
  Fs.writeFileSync(NodePath.join(dir, "serverDZ.cfg.bak"), CONFIG)
  Fs.writeFileSync(NodePath.join(dir, "start.sh"), "#!/bin/sh\n", { mode: 0o755 })
  Fs.mkdirSync(NodePath.join(dir, "profiles", "BattlEye"), { recursive: true })
  Fs.writeFileSync(NodePath.join(dir, "profiles", "BattlEye", "beserver_x64.cfg"), "RConPassword be-secret\nRConPort 2306\n")
  const created = yield* call("POST", "/api/servers", { as: ADMIN, json: { name: "Main", installDir: dir } })
  const id = String((created.body as { id: string }).id)
  return { id, dir, editor: `eda:server.config@${id}` }
})

const write = (id: string, as: string, path: string, content: string, etag?: string) =>
  call("PUT", `/api/servers/${id}/files/write`, { as, json: { path, content, ...(etag === undefined ? {} : { etag }) } })

describe("the file editor never makes code", () => {
  it.scoped("refuses the binary, executables, programs by name and the BattlEye folders; what it writes is never executable", () =>
    Effect.gen(function* () {
      const { id, dir, editor } = yield* server
      const binary = Fs.readFileSync(NodePath.join(dir, "DayZServer"))
      for (const [path, says] of [
        ["DayZServer", "is the server's executable"],
        ["./dayzserver", "is the server's executable"],
        ["start.sh", "is executable"],
        ["libsteam_api.so", "is a program by its name"],
        ["bin/steamclient.so.2", "is a program by its name"],
        ["BEServer_x64.dll", "is a program by its name"],
        ["battleye/beserver_x64.cfg", "is in the BattlEye folder"],
        ["BattlEye/new.cfg", "is in the BattlEye folder"],
        ["profiles/BattlEye/beserver_x64.cfg", "is in the BattlEye folder"]
      ] as const) {
        const refused = yield* write(id, editor, path, "#!/bin/sh\nid > /tmp/pwned\n")
        expect(refused.status, `${path}: ${refused.text}`).toBe(403)
        expect(refused.text).toContain(says)
      }
      expect(Fs.readFileSync(NodePath.join(dir, "DayZServer"))).toEqual(binary)
      expect(Fs.statSync(NodePath.join(dir, "start.sh")).mode & 0o777).toBe(0o755)
      expect(Fs.existsSync(NodePath.join(dir, "libsteam_api.so"))).toBe(false)
      // An admin is held to the same rules: the editor is not how programs get onto a host.
      expect((yield* write(id, ADMIN, "start.sh", "echo hi\n")).status).toBe(403)

      // A new file is 0644.
      expect((yield* write(id, editor, "notes.txt", "restart at 06:00\n")).status).toBe(200)
      expect(Fs.statSync(NodePath.join(dir, "notes.txt")).mode & 0o7777).toBe(0o644)
    }).pipe(Effect.provide(setup())))
})

describe("the file editor never shows a secret", () => {
  it.scoped("reads mask the passwords in any file, the version is of what is shown, and the mask written back keeps the value", () =>
    Effect.gen(function* () {
      const { id, dir, editor } = yield* server
      const read = (path: string) => Effect.map(call("GET", `/api/servers/${id}/files/read?path=${encodeURIComponent(path)}`, { as: editor }), (r) => r.body as { content: string; etag: string; masked: ReadonlyArray<string> })
      const cfg = yield* read("serverDZ.cfg")
      expect(cfg.content).toBe('hostname = "Main";\npassword = "********";\npasswordAdmin = "********"; // the admins\nmaxPlayers = 60;\n')
      expect(cfg.masked).toEqual(["password", "passwordAdmin"])
      const copy = yield* read("serverDZ.cfg.bak")
      expect(copy.content).not.toContain("secret")
      const battleye = yield* read("profiles/BattlEye/beserver_x64.cfg")
      expect(battleye.content).toBe("RConPassword ********\nRConPort 2306\n")
      expect(battleye.masked).toEqual(["RConPassword"])
      // The version says nothing of the secrets: a file with other passwords and the same rest has the same one.
      Fs.writeFileSync(NodePath.join(dir, "other.cfg"), CONFIG.replace("join-secret", "x").replace("admin-secret", "y"))
      expect((yield* read("other.cfg")).etag).toBe(cfg.etag)

      // Written back with a change and the masks: the values stay.
      const edited = cfg.content.replace("maxPlayers = 60", "maxPlayers = 40")
      const written = yield* write(id, editor, "serverDZ.cfg", edited, cfg.etag)
      expect(written.status, written.text).toBe(200)
      expect(Fs.readFileSync(NodePath.join(dir, "serverDZ.cfg"), "utf8")).toBe(CONFIG.replace("maxPlayers = 60", "maxPlayers = 40"))
      // The version answered is the one the next read shows.
      expect((written.body as { etag: string }).etag).toBe((yield* read("serverDZ.cfg")).etag)
      // A new password is written as sent.
      expect((yield* write(id, editor, "serverDZ.cfg", edited.replace('password = "********"', 'password = "new-one"'))).status).toBe(200)
      expect(Fs.readFileSync(NodePath.join(dir, "serverDZ.cfg"), "utf8")).toContain('password = "new-one"')
      // A mask where the file has no such secret has nothing to keep: 400, nothing written.
      const orphan = yield* write(id, editor, "notes.cfg", 'password = "********";\n')
      expect(orphan.status).toBe(400)
      expect(orphan.text).toContain("line 1: password is the mask")
      expect(Fs.existsSync(NodePath.join(dir, "notes.cfg"))).toBe(false)
    }).pipe(Effect.provide(setup())))
})
