/**
 * What a game server prints (stdout and stderr) goes to one file in its
 * profiles folder, `garrison-output.log`, so a start that fails or a crash
 * can say why with the process's own last lines instead of "exited with
 * code 1". A file, not a pipe: game servers outlive the controller, and a
 * pipe to a controller that went away would break their output.
 *
 * Bounded: each start moves the previous run's file to `.1`, and while the
 * server runs the status poller cuts the file back to its last part once it
 * passes `MAX_OUTPUT_BYTES` (the child writes with O_APPEND, so it goes on
 * writing at the new end).
 *
 * Read and bounded through the profiles folder's `ServerFiles` (see
 * `ProfilesFolder`): a symlink or hard link planted as the output file is
 * never read, cut or written through.
 */
import * as Effect from "effect/Effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import type { Owner } from "../files/Ownership.js"
import { inLogFolder } from "../game/LogFolder.js"
import { profilesFolder } from "./ProfilesFolder.js"
import { profilesPath, type ServerEntry } from "./ServerEntry.js"

export const OUTPUT_FILE = "garrison-output.log"
export const MAX_OUTPUT_BYTES = 1024 * 1024
/** What is kept when the file is cut back, and what is read for the last lines. */
const TAIL_BYTES = 16 * 1024

export const outputPath = (entry: ServerEntry): string => NodePath.join(profilesPath(entry), OUTPUT_FILE)

/**
 * Opens a fresh output file for a new process (the last run's becomes `.1`)
 * and gives its descriptor, for `spawn`'s stdio; the caller closes it once
 * the child has it. Undefined when the profiles folder cannot be made or
 * written: the server then starts with its output discarded, as before.
 */
export const openOutputForChild = (entry: ServerEntry, user?: Owner): number | undefined => {
  const file = outputPath(entry)
  try {
    const firstMade = Fs.mkdirSync(NodePath.dirname(file), { recursive: true })
    // Folders made here belong to the user the game runs as: it writes its logs into them.
    if (firstMade !== undefined && user !== undefined) giveMadeFolders(firstMade, NodePath.dirname(file), user)
    try {
      Fs.renameSync(file, `${file}.1`)
    } catch {
      // No earlier output: nothing to keep.
    }
    return Fs.openSync(file, Fs.constants.O_WRONLY | Fs.constants.O_CREAT | Fs.constants.O_APPEND | Fs.constants.O_NOFOLLOW, 0o640)
  } catch {
    return undefined
  }
}

/** `lchown`s each folder from `first` down to `last` (the ones `mkdir -p` just made). */
const giveMadeFolders = (first: string, last: string, user: Owner) => {
  const below = NodePath.relative(first, last)
  let path = first
  Fs.lchownSync(path, user.uid, user.gid)
  for (const name of below === "" ? [] : below.split(NodePath.sep)) {
    path = NodePath.join(path, name)
    Fs.lchownSync(path, user.uid, user.gid)
  }
}

/** The output file, in the files of the entry's profiles folder. */
const outputFile = (entry: ServerEntry) => {
  const logs = profilesFolder(entry)
  return { files: logs.files, path: inLogFolder(logs, OUTPUT_FILE) }
}

/** The last part of the output file, at most `bytes`, as whole lines (a cut first line is dropped). */
const readTail = (entry: ServerEntry, bytes: number) =>
  Effect.gen(function* () {
    const { files, path } = outputFile(entry)
    const file = yield* files.open(path)
    const length = Math.min(file.size, bytes)
    const tail = yield* file.read(file.size - length, length)
    const lines = Buffer.from(tail.buffer, tail.byteOffset, tail.byteLength).toString("utf8").split(/\r?\n/)
    return length < file.size ? lines.slice(1) : lines
  }).pipe(Effect.scoped)

/**
 * The last non-empty lines the process printed (at most `count`, each cut
 * to 300 characters); empty when there is no output file.
 */
export const recentOutput = (entry: ServerEntry, count = 50): Effect.Effect<ReadonlyArray<string>> =>
  readTail(entry, TAIL_BYTES).pipe(
    Effect.map((lines) =>
      lines
        .map((line) => line.trim())
        .filter((line) => line.length > 0)
        .slice(-count)
        .map((line) => (line.length > 300 ? `${line.slice(0, 300)}…` : line))
    ),
    Effect.orElseSucceed((): ReadonlyArray<string> => [])
  )

/** Cuts the output file back to its last part once it passes the limit (the part kept goes to `.1`). Never fails. */
export const boundOutput = (entry: ServerEntry, maxBytes = MAX_OUTPUT_BYTES): Effect.Effect<void> =>
  Effect.gen(function* () {
    const { files, path } = outputFile(entry)
    const info = yield* files.stat(path)
    if (info.kind !== "file" || info.size <= maxBytes) return
    const kept = (yield* readTail(entry, TAIL_BYTES)).join("\n")
    yield* files.write(`${path}.1`, kept)
    yield* files.truncate(path, 0)
  }).pipe(
    // Gone, unreadable or refused: nothing to bound.
    Effect.catchAll(() => Effect.void)
  )

/** A line that says what went wrong, as engines and runtimes word it. */
const TELLING = /\b(error|errormessage|fatal|exception|failed|failure|cannot|can't|unable|not found|denied|invalid|missing|abort(ed)?|segmentation fault|out of memory)\b/i

/**
 * "exited with code 1; last output: ErrorMessage: cannot read serverDZ.cfg"
 * when the last lines the process printed say what went wrong (at most the
 * last three such lines), else just the reason: a server killed while it
 * ran normally printed nothing that explains it, and its ordinary chatter
 * would only hide the reason.
 */
export const withRecentOutput = (reason: string, lines: ReadonlyArray<string>): string => {
  const telling = lines.filter((line) => TELLING.test(line)).slice(-3)
  return telling.length === 0 ? reason : `${reason}; last output: ${telling.join(" | ")}`
}
