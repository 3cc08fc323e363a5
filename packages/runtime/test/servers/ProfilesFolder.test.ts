/**
 * Where a server's logs are read: the profiles folder inside the install
 * folder through the install folder's files (a symlink leading out of it is
 * refused), or a folder configured elsewhere through files of its own; the
 * output file read and bounded through them, never through a planted link.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as NodePath from "node:path"
import { inLogFolder } from "../../src/game/LogFolder.js"
import { boundOutput, OUTPUT_FILE, recentOutput } from "../../src/servers/ProcessOutput.js"
import { profilesFolder, profilesInsideInstall } from "../../src/servers/ProfilesFolder.js"
import { makeServerEntry } from "../../src/servers/ServerEntry.js"

const made: Array<string> = []
afterAll(() => {
  for (const dir of made) Fs.rmSync(dir, { recursive: true, force: true })
})
const tempDir = () => {
  const dir = Fs.mkdtempSync(NodePath.join(Os.tmpdir(), "garrison-profiles-"))
  made.push(dir)
  return dir
}
const entry = (installDir: string, profilesDir = "profiles") => makeServerEntry({ id: "s", name: "s", installDir, profilesDir })

describe("profilesFolder", () => {
  it("is a folder of the install folder's files when the settings put it inside, files of its own otherwise", () => {
    expect(profilesInsideInstall(entry("/srv/a"))).toBe("profiles")
    expect(profilesInsideInstall(entry("/srv/a", "./logs//profiles/"))).toBe("logs/profiles")
    expect(profilesInsideInstall(entry("/srv/a", "/srv/a/p"))).toBe("p")
    expect(profilesInsideInstall(entry("/srv/a", "."))).toBe("")
    expect(profilesInsideInstall(entry("/srv/a", "x/../../b"))).toBeUndefined()
    expect(profilesInsideInstall(entry("/srv/a", "/var/dayz/profiles"))).toBeUndefined()
    expect(profilesInsideInstall(entry("/srv/a", "..profiles"))).toBe("..profiles")
    const inside = profilesFolder(entry("/srv/a"))
    expect([inside.files.root, inside.folder]).toEqual(["/srv/a", "profiles"])
    const outside = profilesFolder(entry("/srv/a", "/var/dayz/profiles"))
    expect([outside.files.root, outside.folder]).toEqual(["/var/dayz/profiles", ""])
  })

  it.effect("refuses a profiles folder inside the install folder that is a symlink leading out of it", () =>
    Effect.gen(function* () {
      const install = tempDir()
      const elsewhere = tempDir()
      Fs.writeFileSync(NodePath.join(elsewhere, "x.RPT"), "x")
      Fs.symlinkSync(elsewhere, NodePath.join(install, "profiles"))
      const logs = profilesFolder(entry(install))
      expect((yield* Effect.flip(logs.files.list(logs.folder))).problem).toBe("outside-root")
      // Configured where it really is, it is read.
      const configured = profilesFolder(entry(install, elsewhere))
      expect((yield* configured.files.list(configured.folder)).map((e) => e.name)).toEqual(["x.RPT"])
    })
  )
})

describe("the output file", () => {
  it.effect("its last lines, and bounded: the tail kept in .1, the file cut in place", () =>
    Effect.gen(function* () {
      const install = tempDir()
      Fs.mkdirSync(NodePath.join(install, "profiles"))
      const server = entry(install)
      const file = NodePath.join(install, "profiles", OUTPUT_FILE)
      expect(yield* recentOutput(server)).toEqual([])
      Fs.writeFileSync(file, Array.from({ length: 2000 }, (_, i) => `line ${i}`).join("\n") + "\n")
      expect(yield* recentOutput(server, 2)).toEqual(["line 1998", "line 1999"])
      yield* boundOutput(server, 1000)
      expect(Fs.statSync(file).size).toBe(0)
      expect(Fs.readFileSync(`${file}.1`, "utf8").endsWith("line 1999\n")).toBe(true)
      expect(inLogFolder(profilesFolder(server), OUTPUT_FILE)).toBe(`profiles/${OUTPUT_FILE}`)
    })
  )

  it.effect("a symlink or hard link planted as the output file is never read, cut or written through", () =>
    Effect.gen(function* () {
      const install = tempDir()
      const outside = tempDir()
      Fs.mkdirSync(NodePath.join(install, "profiles"))
      const secret = NodePath.join(outside, "secret.db")
      Fs.writeFileSync(secret, "S".repeat(5000) + "\nsecret last line\n")
      const server = entry(install)
      const file = NodePath.join(install, "profiles", OUTPUT_FILE)
      Fs.symlinkSync(secret, file)
      expect(yield* recentOutput(server)).toEqual([])
      yield* boundOutput(server, 1000)
      Fs.rmSync(file)
      Fs.linkSync(secret, file)
      expect(yield* recentOutput(server)).toEqual([])
      yield* boundOutput(server, 1000)
      expect(Fs.statSync(secret).size).toBe(5018)
      expect(Fs.existsSync(`${file}.1`)).toBe(false)
    })
  )
})
