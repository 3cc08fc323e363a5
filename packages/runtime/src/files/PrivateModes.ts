/**
 * The data directory holds the database, its backups and the key files: only
 * the controller's user may read them. Modes are set with chmod after
 * creating (never left to the process umask), and a path found looser than
 * it should be is tightened once, with one log line naming it.
 */
import * as Effect from "effect/Effect"
import * as NodeFs from "node:fs"

/** Folders of the data directory: owner only. */
export const PRIVATE_DIR_MODE = 0o700
/** The database, its -wal/-shm, backups and key files: owner read/write. */
export const PRIVATE_FILE_MODE = 0o600

const octal = (mode: number) => `0${(mode & 0o777).toString(8).padStart(3, "0")}`

/**
 * Removes every permission bit of `path` that `mode` does not grant (a
 * missing path is left alone). Returns whether it changed anything; a
 * change is logged at Warning with the path and the old and new mode.
 */
export const tightenMode = (path: string, mode: number): Effect.Effect<boolean, unknown> =>
  Effect.try({
    try: () => {
      let current: number
      try {
        current = NodeFs.statSync(path).mode & 0o777
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined
        throw error
      }
      if ((current & ~mode) === 0) return undefined
      const next = current & mode
      NodeFs.chmodSync(path, next)
      return { current, next }
    },
    catch: (cause) => cause
  }).pipe(
    Effect.tap((changed) =>
      changed === undefined
        ? Effect.void
        : Effect.logWarning(
            `Tightened the permissions of ${path} from ${octal(changed.current)} to ${octal(changed.next)}: it holds data only this user may read`
          )
    ),
    Effect.map((changed) => changed !== undefined)
  )

/** Creates `path` empty with mode 0600 if it does not exist (set by fchmod, whatever the umask). */
export const createPrivateFile = (path: string): void => {
  let fd: number
  try {
    fd = NodeFs.openSync(path, "wx", PRIVATE_FILE_MODE)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return
    throw error
  }
  try {
    NodeFs.fchmodSync(fd, PRIVATE_FILE_MODE)
  } finally {
    NodeFs.closeSync(fd)
  }
}

/** mkdir -p with mode 0700 for what it creates, then `path` itself tightened to 0700 (chmod, whatever the umask). */
export const makePrivateDir = (path: string): Effect.Effect<boolean, unknown> =>
  Effect.try({ try: () => NodeFs.mkdirSync(path, { recursive: true, mode: PRIVATE_DIR_MODE }), catch: (cause) => cause }).pipe(
    Effect.zipRight(tightenMode(path, PRIVATE_DIR_MODE))
  )
