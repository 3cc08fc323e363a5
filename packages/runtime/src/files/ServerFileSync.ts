/**
 * `ServerFileSync`: the one mechanism that keeps the files Garrison
 * generates into every server's install folder (`ban.txt`, `priority.txt`)
 * current. A plugin registers a `GeneratedFile`; for each, the sync
 * - writes it into every install folder at start, after changes (debounced:
 *   N changes in a burst, one write), and when its content changes by itself
 *   (the next expiry, slept until on the `Clock`);
 * - writes every registered file into a server's folder before it starts
 *   (`beforeServerStart`, a `BeforeServerStart` hook): a file that cannot be
 *   written refuses the start, naming it;
 * - renders once per sync and writes each folder once (entries sharing a
 *   folder are one folder in the list it is given), through that folder's
 *   `ServerFiles` (confined, atomic), and skips a folder whose file already
 *   holds exactly those bytes;
 * - writes one file at a time per registration (render and write under one
 *   lock), so an older rendering never overwrites a newer one.
 *
 * Where it lives: the mechanism is here, in the runtime, next to
 * `ServerFiles`, and knows nothing of server entries; the servers plugin
 * provides it (`layer`), because it owns the entries (which install folders
 * exist, one per folder) and, later, the `ServerFiles` of each server (the
 * agent's, for remote hosts), and it registers the start hook. Plugins that
 * generate files (bans, priority) import only this Tag, as they import the
 * `Supervisor` the servers plugin provides.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Ref from "effect/Ref"
import type * as Scope from "effect/Scope"
import { BeforeServerStart } from "../kernel/Hooks.js"
import type { ConfinedFileError } from "./ConfinedFileError.js"
import {
  type FolderFailure,
  type GeneratedFile,
  type GeneratedFileHandle,
  type Rendered,
  ServerFileSyncError,
  type SyncReport
} from "./GeneratedFile.js"
import * as ServerFiles from "./ServerFiles.js"
import { errorMessage } from "../errorMessage.js"

export interface ServerFileSyncShape {
  /** Keeps `file` current in every install folder until the scope closes (the plugin's layer scope). */
  readonly register: <E>(file: GeneratedFile<E>) => Effect.Effect<GeneratedFileHandle<E>, never, Scope.Scope>
  /** Every registered file into one install folder, now: what runs before a server starts. */
  readonly writeFolder: (installDir: string) => Effect.Effect<void, ServerFileSyncError>
}

export interface ServerFileSyncOptions {
  /** The install folders to keep current, each once (entries sharing a folder share its files). Read at every sync. */
  readonly folders: Effect.Effect<ReadonlyArray<string>>
  /** The files of an install folder. Default: the local disk. */
  readonly filesFor?: (installDir: string) => ServerFiles.ServerFiles
  /** Most folders written at once. Default 32. */
  readonly concurrency?: number
}

const DEFAULT_DEBOUNCE = Duration.millis(200)
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024
/** When the next expiry cannot be read, look again after this long rather than never. */
const RETRY_NEXT_CHANGE_MS = 60_000
const EMPTY = new Uint8Array(0)


const sameBytes = (a: Uint8Array, b: Uint8Array) =>
  a.byteLength === b.byteLength && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b)

/** The file's message as a folder failure: `ban.txt is a symbolic link`. */
const describeFileError = (error: ConfinedFileError) => `${error.path} ${error.message}`

export class ServerFileSync extends Context.Tag("@garrison/runtime/ServerFileSync")<ServerFileSync, ServerFileSyncShape>() {
  static readonly make = (options: ServerFileSyncOptions): Effect.Effect<ServerFileSyncShape> =>
    Effect.sync(() => {
      const filesFor = options.filesFor ?? ((installDir: string) => ServerFiles.local(installDir))
      const concurrency = options.concurrency ?? 32
      /** Each registration's own write into one folder, for the start hook. */
      const registered = new Set<{ readonly file: GeneratedFile<unknown>; readonly writeFolder: (installDir: string) => Effect.Effect<void, unknown> }>()

      /** Writes `rendered` into one folder: "written", "unchanged", or the file system's refusal. */
      const writeOne = <E>(file: GeneratedFile<E>, installDir: string, rendered: Rendered) =>
        Effect.gen(function* () {
          const files = filesFor(installDir)
          const existing = yield* files.read(file.path, { maxBytes: file.maxBytes ?? DEFAULT_MAX_BYTES }).pipe(
            Effect.map(Option.some),
            Effect.catchAll((error) =>
              // A file Garrison owns whole is replaced whatever it is; one shared with the owner must be read first.
              error.problem === "not-found" || !rendered.keepsExisting ? Effect.succeed(Option.none<Uint8Array>()) : Effect.fail(error)
            )
          )
          const next = rendered.content(Option.getOrElse(existing, () => EMPTY))
          if (Option.isSome(existing) && sameBytes(existing.value, next)) return "unchanged" as const
          yield* files.write(file.path, next)
          return "written" as const
        })

      const writeAll = <E>(file: GeneratedFile<E>, installDirs: ReadonlyArray<string>, rendered: Rendered): Effect.Effect<SyncReport> =>
        Effect.gen(function* () {
          const outcomes = yield* Effect.forEach(
            installDirs,
            (installDir) =>
              writeOne(file, installDir, rendered).pipe(
                Effect.catchAll((error) => Effect.succeed({ installDir, message: describeFileError(error) } satisfies FolderFailure))
              ),
            { concurrency }
          )
          const failed = outcomes.filter((o): o is FolderFailure => typeof o === "object")
          for (const failure of failed) {
            yield* Effect.logWarning(`${file.owner}: cannot write ${file.path} in ${failure.installDir}: ${failure.message}`)
          }
          return {
            path: file.path,
            folders: installDirs.length,
            written: outcomes.filter((o) => o === "written").length,
            unchanged: outcomes.filter((o) => o === "unchanged").length,
            failed,
            entries: rendered.entries
          } satisfies SyncReport
        })

      const register: ServerFileSyncShape["register"] = <E>(file: GeneratedFile<E>) =>
        Effect.gen(function* () {
          // Render and write under one lock: each sync reads the latest state, an older one never lands last.
          const lock = yield* Effect.makeSemaphore(1)
          const dirty = yield* Ref.make(false)
          const waits = yield* Ref.make(0)
          // Wakes the worker: after a change (dirty set) or an explicit sync (the next expiry may have moved).
          const wake = yield* Queue.sliding<void>(1)
          const debounce = Duration.decode(file.debounce ?? DEFAULT_DEBOUNCE)
          const now = Clock.currentTimeMillis

          const changed = Effect.zipRight(Ref.set(dirty, true), Queue.offer(wake, undefined)).pipe(Effect.asVoid)
          const reschedule = Queue.offer(wake, undefined).pipe(Effect.asVoid)

          const writeFolder = (installDir: string) =>
            lock.withPermits(1)(
              Effect.gen(function* () {
                const rendered = yield* file.render(yield* now)
                yield* writeOne(file, installDir, rendered).pipe(
                  Effect.mapError(
                    (error) => new ServerFileSyncError({ path: file.path, installDir, owner: file.owner, message: describeFileError(error) })
                  )
                )
              })
            )

          const syncAll = Effect.zipLeft(
            lock.withPermits(1)(
              Effect.gen(function* () {
                const rendered = yield* file.render(yield* now)
                // Each folder once, even when the list names one twice.
                return yield* writeAll(file, [...new Set(yield* options.folders)], rendered)
              })
            ),
            reschedule
          )

          const syncLogged = syncAll.pipe(
            Effect.catchAllCause((cause) => Effect.logWarning(`${file.owner}: cannot render ${file.path}`, cause)),
            Effect.asVoid
          )

          /** Until the next expiry or a wake-up; after a change, the debounce, then whatever gathered meanwhile counts as one. */
          const nextSync = Effect.gen(function* () {
            const at = yield* now
            const next =
              file.nextChange === undefined
                ? Option.none<number>()
                : yield* file.nextChange(at).pipe(
                    Effect.catchAllCause((cause) =>
                      Effect.as(
                        Effect.logWarning(`${file.owner}: cannot tell when ${file.path} next changes; looking again in a minute`, cause),
                        Option.some(at + RETRY_NEXT_CHANGE_MS)
                      )
                    )
                  )
            const expiry = Option.match(next, {
              onNone: () => Effect.never,
              // Measured from the clock as the wait begins, not from `at`: the query above takes time (and a test's clock may move meanwhile).
              onSome: (when) => Effect.flatMap(now, (current) => Effect.sleep(Duration.millis(Math.max(1, when - current))))
            })
            yield* Ref.update(waits, (n) => n + 1)
            const woke = yield* Effect.raceFirst(Effect.as(expiry, "expiry" as const), Effect.as(Queue.take(wake), "wake" as const))
            if (woke === "wake") {
              if (!(yield* Ref.get(dirty))) return false
              if (Duration.toMillis(debounce) > 0) yield* Effect.sleep(debounce)
              yield* Queue.takeAll(wake)
            }
            yield* Ref.set(dirty, false)
            return true
          })

          const worker = Effect.zipRight(
            syncLogged,
            Effect.forever(Effect.flatMap(nextSync, (sync) => (sync ? syncLogged : Effect.void)))
          )
          yield* Effect.forkScoped(worker)
          if (file.changed !== undefined) yield* Effect.forkScoped(Effect.forever(Effect.zipRight(file.changed, changed)))

          const entry = { file: file as GeneratedFile<unknown>, writeFolder: writeFolder as (installDir: string) => Effect.Effect<void, unknown> }
          registered.add(entry)
          yield* Effect.addFinalizer(() => Effect.sync(() => registered.delete(entry)))

          return {
            writeFolder,
            syncAll,
            writeAll: (installDirs, rendered) => writeAll(file, installDirs, rendered),
            changed,
            waits: Ref.get(waits)
          } satisfies GeneratedFileHandle<E>
        })

      const writeFolder: ServerFileSyncShape["writeFolder"] = (installDir) =>
        Effect.gen(function* () {
          const outcomes = yield* Effect.forEach([...registered], ({ file, writeFolder }) =>
            writeFolder(installDir).pipe(
              Effect.as(undefined),
              Effect.catchAll((error) =>
                Effect.succeed({
                  file,
                  message: error instanceof ServerFileSyncError ? error.message : `${file.path} cannot be rendered: ${errorMessage(error)}`
                })
              )
            )
          )
          const failed = outcomes.filter((o) => o !== undefined)
          if (failed.length === 0) return
          return yield* new ServerFileSyncError({
            path: failed.map(({ file }) => file.path).join(", "),
            installDir,
            owner: [...new Set(failed.map(({ file }) => file.owner))].join(", "),
            message: failed.map(({ file, message }) => `${file.owner}: ${message}`).join("; ")
          })
        })

      return ServerFileSync.of({ register, writeFolder })
    })

  static readonly layer = (options: ServerFileSyncOptions): Layer.Layer<ServerFileSync> => Layer.effect(ServerFileSync, ServerFileSync.make(options))

  /** The start hook: every generated file written into the server's folder first, or the start is refused naming them. */
  static readonly beforeServerStart = BeforeServerStart.handle((input) =>
    Effect.flatMap(ServerFileSync, (sync) => sync.writeFolder(input.installDir))
  )
}
