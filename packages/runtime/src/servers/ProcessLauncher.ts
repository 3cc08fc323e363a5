/**
 * Starting and finding game server processes. The actor talks to this
 * interface only, so its rules (stop escalation, watchdog, reattach) are
 * tested against a fake while the Node implementation below runs the real
 * thing.
 *
 * Game servers are spawned detached, with no pipes to the controller, so
 * they outlive a controller restart; the controller then reattaches by pid,
 * checking the process start time so a recycled pid is never mistaken for
 * the server. Their output goes to a bounded file in the profiles folder
 * (`ProcessOutput`), where a failed start's reason is read from.
 */
import type * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import { spawn as spawnChild } from "node:child_process"
import * as Fs from "node:fs"
import pidusage from "pidusage"
import type { Owner } from "../files/Ownership.js"
import type { HostPort } from "./EntryPorts.js"
import { gameServerUserSettings, type GameServerUserSettings, launchUser, type LaunchUserRefused } from "./GameServerUser.js"
import { takenHostPorts } from "./HostPorts.js"
import { launchProblem } from "./LaunchParameters.js"
import { openOutputForChild } from "./ProcessOutput.js"
import { executablePath, launchArguments, type ServerEntry } from "./ServerEntry.js"
import { errorMessage } from "../errorMessage.js"

export interface ProcessExit {
  readonly code: number | null
  readonly signal: string | null
}

export interface ProcessHandle {
  readonly pid: number
  /** Identifies this process among all that ever had `pid` (Linux: start time in clock ticks). */
  readonly startToken: string
  /** Completes when the process has ended. */
  readonly exited: Effect.Effect<ProcessExit>
  readonly signal: (signal: "SIGTERM" | "SIGKILL") => Effect.Effect<void>
}

export interface ProcessUsage {
  /** Percent of one core. */
  readonly cpu: number
  readonly memoryBytes: number
}

export class SpawnFailed extends Schema.TaggedError<SpawnFailed>()("SpawnFailed", {
  executable: Schema.String,
  message: Schema.String
}) {}

/**
 * `spawn` throws, rather than emitting `error`, on arguments it cannot pass (a NUL byte, say): make that a failure.
 * `user`: the uid and gid the process runs as (`GameServerUser`); undefined: as the controller.
 */
const trySpawn = (executable: string, entry: ServerEntry, user: Owner | undefined): Either.Either<ReturnType<typeof spawnChild>, SpawnFailed> => {
  const output = openOutputForChild(entry, user)
  try {
    const stdio: "ignore" | Array<"ignore" | number> = output === undefined ? "ignore" : ["ignore", output, output]
    // Node drops the controller's supplementary groups when it switches user (libuv's setgroups(0)).
    const identity = user === undefined ? {} : { uid: user.uid, gid: user.gid }
    return Either.right(spawnChild(executable, [...launchArguments(entry)], { cwd: entry.installDir, detached: true, stdio, ...identity }))
  } catch (error) {
    return Either.left(new SpawnFailed({ executable, message: errorMessage(error) }))
  } finally {
    // The child has its own copy of the descriptor now.
    if (output !== undefined) Fs.closeSync(output)
  }
}

export interface ProcessLauncherShape {
  /** Fails `LaunchUserRefused` when the process would run as root (see `GameServerUser`), before anything runs. */
  readonly spawn: (entry: ServerEntry) => Effect.Effect<ProcessHandle, SpawnFailed | LaunchUserRefused>
  /** The process still running with this pid and start token, if any. */
  readonly attach: (pid: number, startToken: string) => Effect.Effect<Option.Option<ProcessHandle>>
  readonly usage: (pid: number) => Effect.Effect<Option.Option<ProcessUsage>>
  /** Which of these ports something on the host holds now (checked before each spawn). */
  readonly takenPorts: (ports: ReadonlyArray<HostPort>) => Effect.Effect<ReadonlyArray<HostPort>>
}

export class ProcessLauncher extends Context.Tag("@garrison/runtime/ProcessLauncher")<
  ProcessLauncher,
  ProcessLauncherShape
>() {
  /** Real processes, run as `GAME_SERVER_USER` or the install's owner (`GameServerUser`); an unknown user fails the layer. */
  static readonly node: Layer.Layer<ProcessLauncher, ConfigError.ConfigError> = Layer.effect(
    ProcessLauncher,
    Effect.map(gameServerUserSettings, (users) => nodeLauncher(users))
  )
}

/** Field 22 of /proc/<pid>/stat: when the process started, in clock ticks since boot. */
export const readStartToken = (pid: number): string | undefined => {
  try {
    const stat = Fs.readFileSync(`/proc/${pid}/stat`, "utf8")
    // The command name (field 2) may hold spaces and parentheses: count from the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return fields[19]
  } catch {
    return undefined
  }
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

const signalProcess = (pid: number, signal: "SIGTERM" | "SIGKILL") =>
  Effect.sync(() => {
    try {
      process.kill(pid, signal)
    } catch {
      // Already gone: nothing to signal.
    }
  })

/**
 * How often a reattached process is checked: it is not the controller's
 * child, so no exit event comes (tests bound their wait for a wrong "it
 * exited" by it).
 */
export const ATTACHED_POLL_INTERVAL = Duration.millis(500)

/** A process that is not our child (after a controller restart): watch it by polling. */
const attachedHandle = (pid: number, startToken: string): ProcessHandle => {
  const gone = () => !isAlive(pid) || readStartToken(pid) !== startToken
  const exited = Effect.sync(gone).pipe(
    Effect.repeat({ schedule: Schedule.spaced(ATTACHED_POLL_INTERVAL), until: (done) => done }),
    Effect.as<ProcessExit>({ code: null, signal: null })
  )
  return { pid, startToken, exited, signal: (s) => signalProcess(pid, s) }
}

const nodeLauncher = (users: GameServerUserSettings): ProcessLauncherShape => ({
  spawn: (entry) =>
    Effect.gen(function* () {
      const executable = executablePath(entry)
      // The actor checks first; checking here too keeps the launcher total for any caller.
      const problem = launchProblem(entry)
      if (problem !== undefined) {
        return yield* new SpawnFailed({ executable, message: `${problem.field}: ${problem.message}` })
      }
      const user = yield* launchUser(entry, users)
      const exitSignal = yield* Deferred.make<ProcessExit>()
      const child = yield* Effect.async<ReturnType<typeof spawnChild>, SpawnFailed>((resume) => {
        const spawned = trySpawn(executable, entry, user)
        if (Either.isLeft(spawned)) {
          resume(Effect.fail(spawned.left))
          return
        }
        const child = spawned.right
        child.once("error", (error) => resume(Effect.fail(new SpawnFailed({ executable, message: error.message }))))
        child.once("spawn", () => resume(Effect.succeed(child)))
        child.once("exit", (code, signal) => Deferred.unsafeDone(exitSignal, Effect.succeed({ code, signal })))
      })
      // The controller may exit before the game server; don't keep it alive for it.
      child.unref()
      const pid = child.pid!
      return {
        pid,
        startToken: readStartToken(pid) ?? "",
        exited: Deferred.await(exitSignal),
        signal: (s: "SIGTERM" | "SIGKILL") => signalProcess(pid, s)
      }
    }),
  attach: (pid, startToken) =>
    Effect.sync(() =>
      isAlive(pid) && readStartToken(pid) === startToken ? Option.some(attachedHandle(pid, startToken)) : Option.none()
    ),
  usage: (pid) =>
    Effect.tryPromise(() => pidusage(pid)).pipe(
      Effect.map((stat) => Option.some({ cpu: stat.cpu, memoryBytes: stat.memory })),
      Effect.orElseSucceed(() => Option.none())
    ),
  takenPorts: takenHostPorts
})
