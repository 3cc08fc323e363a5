/**
 * Which user a game server runs as (`GameServerUser`), and who owns what
 * the controller writes into an install (`Ownership`): a root controller
 * runs each game as its install's owner or `GAME_SERVER_USER`, refuses
 * root unless allowed, and gives what it writes to the folder's owner,
 * never following a symlink. The ownership checks need root (as CI runs);
 * a controller that is not root writes everything as itself.
 */
import { describe, expect, it } from "@effect/vitest"
import { tempDir } from "@garrison/testkit/core"
import { Cause, ConfigProvider, Effect, Either, Exit } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { ServerFiles } from "../../src/index.js"
import { controllerIsRoot, giveTree } from "../../src/files/Ownership.js"
import { gameServerUserSettings, launchUser, lookUpUser } from "../../src/servers/GameServerUser.js"
import { makeServerEntry } from "../../src/servers/ServerEntry.js"

const PASSWD = ["root:x:0:0:root:/root:/bin/bash", "dayz:x:1001:1002::/home/dayz:/bin/sh", "broken line", "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin", ""].join("\n")
const NOBODY = { uid: 65534, gid: 65534 }

describe("lookUpUser", () => {
  it("finds a user by name or uid in /etc/passwd, with its group; an unknown name is undefined", () => {
    expect(lookUpUser("dayz", PASSWD)).toEqual({ uid: 1001, gid: 1002 })
    expect(lookUpUser("1001", PASSWD)).toEqual({ uid: 1001, gid: 1002 })
    expect(lookUpUser(" dayz ", PASSWD)).toEqual({ uid: 1001, gid: 1002 })
    expect(lookUpUser("steam", PASSWD)).toBeUndefined()
    expect(lookUpUser("x:0", PASSWD)).toBeUndefined()
    // A container's numeric user with no line: its own group.
    expect(lookUpUser("4242", PASSWD)).toEqual({ uid: 4242, gid: 4242 })
  })
})

describe("gameServerUserSettings", () => {
  const read = (settings: Record<string, string>) =>
    gameServerUserSettings.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(settings)))), Effect.exit, Effect.runSync)

  it("defaults to the install's owner and no root; an unknown GAME_SERVER_USER stops the start-up naming it", () => {
    expect(read({})).toEqual(Exit.succeed({ user: undefined, allowRoot: false }))
    expect(read({ GAME_SERVER_USER: "nobody", ALLOW_ROOT_GAME_SERVERS: "true" })).toEqual(
      Exit.succeed({ user: { uid: 65534, gid: 65534, name: "nobody" }, allowRoot: true })
    )
    const unknown = read({ GAME_SERVER_USER: "no-such-user-here" })
    expect(Exit.isFailure(unknown) && Cause.pretty(unknown.cause)).toContain('Invalid data at GAME_SERVER_USER: ""no-such-user-here" is not a user of this host')
  })
})

describe("launchUser", () => {
  const entryIn = (installDir: string) => makeServerEntry({ id: "s1", name: "Alpha", installDir })
  const noSettings = { user: undefined, allowRoot: false }

  it("a controller that is not root runs the game as itself", () => {
    expect(launchUser(entryIn(tempDir()), noSettings, false)).toEqual(Either.right(undefined))
  })

  it("as root: the install's owner (after links); GAME_SERVER_USER over it; root refused unless allowed, saying how to fix it", () => {
    const install = tempDir()
    Fs.chownSync(install, 65534, 65534)
    expect(launchUser(entryIn(install), noSettings, true)).toEqual(Either.right(NOBODY))
    // A link to the install: the folder it leads to decides.
    const link = NodePath.join(tempDir(), "link")
    Fs.symlinkSync(install, link)
    expect(launchUser(entryIn(link), noSettings, true)).toEqual(Either.right(NOBODY))

    const rootOwned = tempDir()
    Fs.chownSync(rootOwned, 0, 0)
    const refused = launchUser(entryIn(rootOwned), noSettings, true)
    expect(Either.isLeft(refused)).toBe(true)
    expect(Either.getLeft(refused).pipe((o) => o._tag === "Some" && o.value.message)).toBe(
      `Alpha cannot start as root: the install folder ${rootOwned} is owned by root, and game servers run as its owner; ` +
        "give the install folder to the user the game should run as (chown -R), set GAME_SERVER_USER, or set ALLOW_ROOT_GAME_SERVERS=true"
    )
    expect(launchUser(entryIn(rootOwned), { user: undefined, allowRoot: true }, true)).toEqual(Either.right({ uid: 0, gid: 0 }))
    expect(launchUser(entryIn(rootOwned), { user: { ...NOBODY, name: "nobody" }, allowRoot: false }, true)).toEqual(
      Either.right({ ...NOBODY, name: "nobody" })
    )
    const asRoot = launchUser(entryIn(rootOwned), { user: { uid: 0, gid: 0, name: "root" }, allowRoot: false }, true)
    expect(Either.getLeft(asRoot).pipe((o) => o._tag === "Some" && o.value.message)).toContain("GAME_SERVER_USER (root) is root")
  })

  it("a missing install folder is refused, not run as root", () => {
    const missing = NodePath.join(tempDir(), "gone")
    const refused = launchUser(entryIn(missing), noSettings, true)
    expect(Either.getLeft(refused).pipe((o) => o._tag === "Some" && o.value.message)).toBe(
      `Alpha cannot start: the install folder ${missing} cannot be read (ENOENT)`
    )
  })
})

// As root (as CI runs) the game's folders belong to `nobody`; a controller that is not root cannot give files away and
// must not try: everything stays its own.
const asRoot = controllerIsRoot()
const gameUid = asRoot ? 65534 : process.getuid!()
const chownToGame = (path: string) => asRoot && Fs.chownSync(path, 65534, 65534)

describe("what the controller writes into a folder is the folder owner's", () => {
  it.effect("a written file and a made folder take the owner of the folder they are made in; a replaced file too", () =>
    Effect.gen(function* () {
      const root = tempDir()
      Fs.mkdirSync(NodePath.join(root, "game"))
      chownToGame(NodePath.join(root, "game"))
      Fs.writeFileSync(NodePath.join(root, "game", "ban.txt"), "old\n")
      const files = ServerFiles.local(root)
      yield* files.write("game/ban.txt", "new\n")
      yield* files.makeFolder("game/profiles/logs")
      yield* files.write("game/profiles/logs/a.txt", "x")
      yield* files.write("mine.txt", "x")
      const owner = (path: string) => Fs.lstatSync(NodePath.join(root, path)).uid
      expect([owner("game/ban.txt"), owner("game/profiles"), owner("game/profiles/logs"), owner("game/profiles/logs/a.txt")]).toEqual([
        gameUid, gameUid, gameUid, gameUid
      ])
      expect(owner("mine.txt")).toBe(process.getuid!())
    })
  )

  it("giveTree re-owns links themselves, never what they point at", async () => {
    const outside = NodePath.join(tempDir(), "host-file")
    Fs.writeFileSync(outside, "keep\n")
    const tree = tempDir()
    Fs.mkdirSync(NodePath.join(tree, "sub"))
    Fs.writeFileSync(NodePath.join(tree, "sub", "f"), "x")
    Fs.symlinkSync(outside, NodePath.join(tree, "sub", "link"))
    await giveTree(tree, NOBODY)
    for (const path of ["", "sub", "sub/f", "sub/link"]) expect(Fs.lstatSync(NodePath.join(tree, path)).uid).toBe(gameUid)
    expect(Fs.statSync(outside).uid).toBe(process.getuid!())
  })
})
