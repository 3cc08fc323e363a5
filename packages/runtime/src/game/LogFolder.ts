/**
 * Where a server's logs are: a folder inside a `ServerFiles` root (the
 * profiles folder inside the install folder, normally). The log readers
 * (`followLogs`, `readRptFacts`, the output file, the logs plugin) read
 * through it, so they are confined like every other access to a server's
 * files, and read a remote server's logs the day its `ServerFiles` is the
 * agent's.
 */
import type { ServerFiles } from "../files/ServerFiles.js"

export interface LogFolder {
  readonly files: ServerFiles
  /** The folder, relative to the root of `files` (`""`: the root itself). */
  readonly folder: string
}

/** The path of `name` in the log folder, relative to the root of its files. */
export const inLogFolder = (logs: LogFolder, name: string): string => (logs.folder === "" ? name : `${logs.folder}/${name}`)
