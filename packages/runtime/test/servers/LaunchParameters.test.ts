/** The launch rules as plain checks, and the real launcher refusing (never crashing on) an entry that breaks them. */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Exit, Schema } from "effect"
import { LaunchArgument, LaunchPath, launchProblem, ModName } from "../../src/servers/LaunchParameters.js"
import { ProcessLauncher } from "../../src/servers/ProcessLauncher.js"
import { makeServerEntry } from "../../src/servers/ServerEntry.js"

const accepts = <A, I>(schema: Schema.Schema<A, I>, value: unknown) => Either.isRight(Schema.decodeUnknownEither(schema)(value))

describe("launch parameter schemas", () => {
  it("a path: 1 to 4096 characters without control characters", () => {
    for (const good of ["serverDZ.cfg", "/srv/dayz", "C:\\DayZ Server\\profiles", "profiles/é"]) expect([good, accepts(LaunchPath, good)]).toEqual([good, true])
    for (const bad of ["", "a\0b", "a\nb", "a\tb", "\u007f", "x".repeat(4097)]) expect([bad.slice(0, 10), accepts(LaunchPath, bad)]).toEqual([bad.slice(0, 10), false])
  })

  it("an argument: -name or -name=value, not a parameter set from the entry's fields", () => {
    for (const good of ["-dologs", "-cpuCount=4", "-limitFPS=60", "-mission=./mp missions/x", "-a.b-c_d=", "-filePatching"]) {
      expect([good, accepts(LaunchArgument, good)]).toEqual([good, true])
    }
    for (const bad of ["dologs", "--", "-", "-=x", "-1=x", " -x", "-x=\0", "-x=a\nb", "-config=x", "-Port=1", "-bepath=x", "-MOD=@x", "-serverMod=@y", "-profiles"]) {
      expect([bad, accepts(LaunchArgument, bad)]).toEqual([bad, false])
    }
  })

  it("a mod: no control characters, no ';'", () => {
    expect(accepts(ModName, "@CF")).toBe(true)
    expect(accepts(ModName, "D:\\mods\\@Trader")).toBe(true)
    for (const bad of ["", "@A;@B", "@A\0", "@A\r"]) expect([bad, accepts(ModName, bad)]).toEqual([bad, false])
  })
})

describe("launchProblem", () => {
  const base = { id: "s", name: "S", installDir: "/srv/dayz" }

  it("names the first bad field, with its index in a list", () => {
    expect(launchProblem(makeServerEntry(base))).toBeUndefined()
    expect(launchProblem(makeServerEntry({ ...base, profilesDir: "p\0" }))).toEqual({
      field: "profilesDir",
      message: "a path must not contain a NUL character"
    })
    expect(launchProblem(makeServerEntry({ ...base, serverMods: ["@ok", "@b;c"] }))).toEqual({
      field: "serverMods.1",
      message: "a mod name may not contain ';'"
    })
    expect(launchProblem(makeServerEntry({ ...base, extraArgs: ["-mod=@x"] }))?.field).toBe("extraArgs.0")
  })
})

describe("ProcessLauncher.node", () => {
  it.effect("fails with SpawnFailed naming the field on an entry spawn would throw on, instead of dying", () =>
    Effect.gen(function* () {
      const launcher = yield* ProcessLauncher
      const exit = yield* Effect.exit(launcher.spawn(makeServerEntry({ id: "s", name: "S", installDir: "/tmp", configFile: "x\0y" })))
      // A failure (a 409 for the actor's caller), not a defect.
      expect(Exit.isFailure(exit) && exit.cause._tag === "Fail").toBe(true)
      const error = yield* Effect.flip(launcher.spawn(makeServerEntry({ id: "s", name: "S", installDir: "/tmp", extraArgs: ["-a\0"] })))
      expect(error).toMatchObject({ _tag: "SpawnFailed", message: "extraArgs.0: an argument must not contain a NUL character" })
    }).pipe(Effect.provide(ProcessLauncher.node))
  )
})
