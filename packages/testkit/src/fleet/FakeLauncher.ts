/**
 * A `ProcessLauncher` whose processes the test controls: they run until
 * the test ends them (`crash`, or a signal they obey), print what the test
 * says, and the ports the test says are held look taken. Give its `layer`
 * to the real servers plugin (`fakeFleet`) or its `launcher` to an actor.
 */
import {
  outputPath,
  type ProcessExit,
  type ProcessHandle,
  ProcessLauncher,
  type ProcessLauncherShape,
  type ProcessUsage,
  SpawnFailed
} from "@garrison/runtime"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Fs from "node:fs"
import * as NodePath from "node:path"

/** The executable name whose spawn fails (`EACCES`), for a start that cannot launch. */
export const FAILING_EXECUTABLE = "fails"

/** A process the test controls: which signals it obeys, what it was sent, and when it exits. */
export interface FakeProcess {
  readonly pid: number
  readonly exit: Deferred.Deferred<ProcessExit>
  /** Every signal sent to it, in order. */
  readonly signals: Array<string>
  /** The signals that end it; a signal it does not obey is recorded and ignored. Both by default. */
  obeys: ReadonlyArray<"SIGTERM" | "SIGKILL">
}

export interface FakeLauncherOptions {
  /** The first pid handed out; the next process gets the next number. 1000 by default. */
  readonly firstPid?: number
  /** What every process's CPU and memory read as. */
  readonly usage?: ProcessUsage
}

export interface FakeLauncher {
  /** The service itself, for an actor built by hand. */
  readonly launcher: ProcessLauncherShape
  /** The service as a layer, for the servers plugin. */
  readonly layer: Layer.Layer<ProcessLauncher>
  /** Every process spawned or adopted, oldest first. */
  readonly processes: ReadonlyArray<FakeProcess>
  /** Ports the host is said to hold: the launcher's probe answers these as taken. */
  readonly holdPorts: (ports: ReadonlyArray<number>) => void
  /** What the next spawned process "prints" into its output file (e.g. for a start that fails). */
  readonly printNext: (text: string) => void
  /** The next `n` spawns fail (`ENOENT`). */
  readonly failNextSpawns: (n: number) => void
  /** The newest process exits on its own with `code`. */
  readonly crash: (code?: number) => Effect.Effect<boolean>
  /** Ends a process as if it exited with `exit`. */
  readonly end: (process: FakeProcess, exit: ProcessExit) => Effect.Effect<boolean>
  /** A process that runs before the controller (found again by pid), obeying SIGTERM only. */
  readonly adopt: (pid: number) => Effect.Effect<void>
}

/** A launcher of fake processes; see `FakeLauncher`. */
export const fakeLauncher = (options: FakeLauncherOptions = {}): FakeLauncher => {
  const processes: Array<FakeProcess> = []
  const usage = options.usage ?? { cpu: 12.5, memoryBytes: 1_000_000 }
  let nextPid = options.firstPid ?? 1000
  let failuresLeft = 0
  let heldPorts: ReadonlyArray<number> = []
  let nextOutput: string | undefined

  const handleOf = (p: FakeProcess): ProcessHandle => ({
    pid: p.pid,
    startToken: `t${p.pid}`,
    exited: Deferred.await(p.exit),
    signal: (signal) =>
      Effect.suspend(() => {
        p.signals.push(signal)
        return p.obeys.includes(signal) ? Deferred.succeed(p.exit, { code: null, signal }) : Effect.void
      }).pipe(Effect.asVoid)
  })

  const launcher: ProcessLauncherShape = {
    spawn: (entry) =>
      Effect.gen(function* () {
        if (entry.executable === FAILING_EXECUTABLE) {
          return yield* Effect.fail(new SpawnFailed({ executable: entry.executable, message: "EACCES" }))
        }
        if (failuresLeft > 0) {
          failuresLeft--
          return yield* Effect.fail(new SpawnFailed({ executable: entry.executable, message: "ENOENT" }))
        }
        const p: FakeProcess = { pid: nextPid++, exit: yield* Deferred.make<ProcessExit>(), signals: [], obeys: ["SIGTERM", "SIGKILL"] }
        processes.push(p)
        if (nextOutput !== undefined) {
          // What the real launcher does: this run's output goes to the file.
          const file = outputPath(entry)
          Fs.mkdirSync(NodePath.dirname(file), { recursive: true })
          Fs.writeFileSync(file, nextOutput)
          nextOutput = undefined
        }
        return handleOf(p)
      }),
    attach: (pid, token) =>
      Effect.sync(() => {
        const p = processes.find((x) => x.pid === pid && `t${x.pid}` === token)
        return p === undefined ? Option.none() : Option.some(handleOf(p))
      }),
    usage: () => Effect.succeed(Option.some(usage)),
    takenPorts: (ports) => Effect.sync(() => ports.filter((p) => heldPorts.includes(p.port)))
  }

  const end = (p: FakeProcess, exit: ProcessExit) => Deferred.succeed(p.exit, exit)
  return {
    launcher,
    layer: Layer.succeed(ProcessLauncher, launcher),
    processes,
    holdPorts: (ports) => void (heldPorts = ports),
    printNext: (text) => void (nextOutput = text),
    failNextSpawns: (n) => void (failuresLeft = n),
    crash: (code = 1) =>
      Effect.suspend(() => {
        const newest = processes[processes.length - 1]
        return newest === undefined ? Effect.dieMessage("no fake process to crash") : end(newest, { code, signal: null })
      }),
    end,
    adopt: (pid) =>
      Effect.map(Deferred.make<ProcessExit>(), (exit) => {
        processes.push({ pid, exit, signals: [], obeys: ["SIGTERM"] })
      })
  }
}
