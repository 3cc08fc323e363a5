/**
 * Which user a game server runs as. A game server runs mods and scripts
 * that players and mod authors wrote; it must never run as root.
 *
 * - A controller that is not root starts game servers as itself: it cannot
 *   do anything else, and it is no one's root.
 * - A controller that runs as root starts each game server as
 *   `GAME_SERVER_USER` when that is set (a name or a numeric uid of this
 *   host), else as the owner of the server's install folder (after links:
 *   the folder the process really runs in).
 * - If that user is root (a root-owned install, say), the start is refused
 *   with a 409 saying how to fix it, unless `ALLOW_ROOT_GAME_SERVERS=true`
 *   (an admin's explicit choice).
 *
 * A process started before this rule keeps running and is adopted as
 * before: adopting never starts anything.
 */
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Either from "effect/Either"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Fs from "node:fs"
import { controllerIsRoot, type Owner } from "../files/Ownership.js"
import type { ServerEntry } from "./ServerEntry.js"

export class LaunchUserRefused extends Schema.TaggedError<LaunchUserRefused>()("LaunchUserRefused", {
  message: Schema.String
}) {}

export interface GameServerUserSettings {
  /** `GAME_SERVER_USER`, resolved; undefined: the install folder's owner. */
  readonly user: (Owner & { readonly name: string }) | undefined
  /** `ALLOW_ROOT_GAME_SERVERS`. */
  readonly allowRoot: boolean
}

/** A user of this host by name or numeric uid, from `/etc/passwd` (`passwd` for tests). */
export const lookUpUser = (nameOrUid: string, passwd?: string): Owner | undefined => {
  let text = passwd
  if (text === undefined) {
    try {
      text = Fs.readFileSync("/etc/passwd", "utf8")
    } catch {
      text = ""
    }
  }
  const wanted = nameOrUid.trim()
  for (const line of text.split("\n")) {
    const [name, , uid, gid] = line.split(":")
    if (name === undefined || uid === undefined || gid === undefined || !/^\d+$/.test(uid) || !/^\d+$/.test(gid)) continue
    if (name === wanted || uid === wanted) return { uid: Number(uid), gid: Number(gid) }
  }
  // A uid with no line in /etc/passwd (a container's user): its own group.
  return /^\d+$/.test(wanted) ? { uid: Number(wanted), gid: Number(wanted) } : undefined
}

/** `GAME_SERVER_USER` and `ALLOW_ROOT_GAME_SERVERS`; an unknown user stops the controller at start-up. */
export const gameServerUserSettings: Effect.Effect<GameServerUserSettings, ConfigError.ConfigError> = Effect.gen(function* () {
  const name = yield* Config.string("GAME_SERVER_USER").pipe(Config.withDefault(""))
  const allowRoot = yield* Config.boolean("ALLOW_ROOT_GAME_SERVERS").pipe(Config.withDefault(false))
  if (name.trim() === "") return { user: undefined, allowRoot }
  const found = lookUpUser(name)
  if (found === undefined) {
    return yield* Effect.fail(ConfigError.InvalidData(["GAME_SERVER_USER"], `"${name}" is not a user of this host (no such name in /etc/passwd)`))
  }
  return { user: { ...found, name: name.trim() }, allowRoot }
})

const HOW_TO_FIX =
  "give the install folder to the user the game should run as (chown -R), set GAME_SERVER_USER, or set ALLOW_ROOT_GAME_SERVERS=true"

/**
 * The user `entry`'s process is started as: undefined for "as the
 * controller" (a controller that is not root), else the uid and gid, or
 * the reason it must not start.
 */
export const launchUser = (
  entry: ServerEntry,
  settings: GameServerUserSettings,
  isRoot: boolean = controllerIsRoot()
): Either.Either<Owner | undefined, LaunchUserRefused> => {
  if (!isRoot) return Either.right(undefined)
  let owner: Owner | undefined = settings.user
  let whose = `GAME_SERVER_USER (${settings.user?.name})`
  if (owner === undefined) {
    try {
      const stats = Fs.statSync(Fs.realpathSync(entry.installDir))
      owner = { uid: stats.uid, gid: stats.gid }
      whose = `the install folder ${entry.installDir} is owned by root, and game servers run as its owner`
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "unreadable"
      return Either.left(new LaunchUserRefused({ message: `${entry.name} cannot start: the install folder ${entry.installDir} cannot be read (${code})` }))
    }
  }
  if (owner.uid === 0 && !settings.allowRoot) {
    return Either.left(
      new LaunchUserRefused({
        message: `${entry.name} cannot start as root: ${settings.user === undefined ? whose : `${whose} is root`}; ${HOW_TO_FIX}`
      })
    )
  }
  return Either.right(owner)
}
