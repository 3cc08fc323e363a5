/**
 * What a server entry may hand to the game server's command line and to
 * `spawn`: one schema for a path, one for a command-line flag, one for a mod
 * name. The servers API decodes requests with them; the launcher checks a
 * stored entry with `launchProblem` before spawning, so an entry stored
 * before these rules gives a clear refusal, never a crash.
 *
 * - Paths (`installDir`, `executable`, `configFile`, `profilesDir`,
 *   `battleyeDir`): 1 to 4096 characters, no NUL or other control character.
 * - Extra arguments: DayZ reads only `-name` and `-name=value` parameters, so
 *   each must be one (name: a letter, then letters, digits, `_`, `.` or `-`;
 *   at most 1024 characters, no control character). A bare word would be
 *   ignored by the game but taken as a positional argument by a wrapper
 *   script. The parameters Garrison sets from the entry's own fields
 *   (`-config`, `-port`, `-profiles`, `-BEpath`, `-mod`, `-serverMod`) are
 *   refused here: change the field instead, so the logs Garrison reads and
 *   the files it writes stay the ones the game uses.
 * - Mods: 1 to 1024 characters, no control character and no `;` (mods are
 *   joined with `;` on the command line).
 *
 * Arguments go to `spawn` as an array, never through a shell.
 */
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type { ServerEntry } from "./ServerEntry.js"

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/

const bounded = (what: string, max: number) =>
  Schema.String.pipe(
    Schema.minLength(1, { message: () => `${what} must not be empty` }),
    Schema.maxLength(max, { message: () => `${what} must be at most ${max} characters` }),
    Schema.filter((s) => {
      if (s.includes("\0")) return `${what} must not contain a NUL character`
      return !CONTROL.test(s) || `${what} must not contain control characters (tab, newline, ...)`
    })
  )

/** A file or folder path handed to the game server or to `spawn`. */
export const LaunchPath = bounded("a path", 4096).annotations({
  identifier: "LaunchPath",
  description: "1 to 4096 characters, no NUL or other control character"
})

/** The parameters Garrison sets from the entry's fields (lower case: DayZ reads them case-insensitively). */
export const MANAGED_PARAMETERS: ReadonlyMap<string, string> = new Map([
  ["config", "configFile"],
  ["port", "gamePort"],
  ["profiles", "profilesDir"],
  ["bepath", "battleyeDir"],
  ["mod", "mods"],
  ["servermod", "serverMods"]
])

const FLAG = /^-([A-Za-z][A-Za-z0-9_.-]*)(=.*)?$/s

/** One extra command-line parameter: `-name` or `-name=value`. */
export const LaunchArgument = bounded("an argument", 1024).pipe(
  Schema.filter((s) => {
    const match = FLAG.exec(s)
    if (match === null) return `an argument must look like -name or -name=value, got ${JSON.stringify(s.slice(0, 40))}`
    const field = MANAGED_PARAMETERS.get(match[1]!.toLowerCase())
    return field === undefined || `-${match[1]} is set from the entry's ${field}: change that field instead`
  })
).annotations({
  identifier: "LaunchArgument",
  description: "-name or -name=value (at most 1024 characters, no control character); not one of the parameters set from the entry's fields"
})

/** A mod folder for `-mod=` or `-serverMod=`. */
export const ModName = bounded("a mod name", 1024).pipe(
  Schema.filter((s) => !s.includes(";") || "a mod name may not contain ';'")
).annotations({ identifier: "ModName", description: "1 to 1024 characters, no control character, no ';'" })

/** The launch fields of an entry, checked together (and by whatever restores entries from a backup). */
export const LaunchFields = Schema.Struct({
  installDir: LaunchPath,
  executable: LaunchPath,
  configFile: LaunchPath,
  profilesDir: LaunchPath,
  battleyeDir: LaunchPath,
  mods: Schema.Array(ModName),
  serverMods: Schema.Array(ModName),
  extraArgs: Schema.Array(LaunchArgument)
})

const checkFields = Schema.decodeUnknownEither(LaunchFields, { errors: "first" })

export interface LaunchProblem {
  /** The failing field, e.g. `configFile` or `extraArgs.2`. */
  readonly field: string
  readonly message: string
}

/** Why this entry cannot be launched as stored, or undefined when every launch field is sound. */
export const launchProblem = (entry: ServerEntry): LaunchProblem | undefined =>
  Either.match(checkFields(entry), {
    onRight: () => undefined,
    onLeft: (error) => {
      const issue = ParseResult.ArrayFormatter.formatErrorSync(error)[0]
      return { field: issue?.path.map(String).join(".") ?? "entry", message: issue?.message ?? "is not a valid launch parameter" }
    }
  })
