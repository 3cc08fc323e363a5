/**
 * The command flow (spec, Agent API, steps 1-4): a UUID per command, the
 * command file written atomically (temporary name, then rename) into
 * `commands/`, the response matched by id in `responses/` through a
 * watcher with a slow poll as the safety net, the response file removed
 * once read. The wait is on the Effect `Clock` (tests drive it with
 * `TestClock`); on the time-out the command file is withdrawn so a
 * timed-out command never runs late, and a response arriving afterwards is
 * logged and dropped.
 *
 * The hot path is plain Node (a map of waiting commands, `fs.watch`
 * callbacks, promises); Effect is entered once per command. Nothing a file
 * holds can crash the agent: a response that is not JSON, or names another
 * id, is logged and dropped.
 */
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Runtime from "effect/Runtime"
import * as Schedule from "effect/Schedule"
import { randomUUID } from "node:crypto"
import * as Fs from "node:fs"
import * as FsP from "node:fs/promises"
import * as NodePath from "node:path"
import { AgentModError, AgentTimedOut, AgentUnavailable, timedOutMessage } from "../contract/Errors.js"
import type { ModLiveness } from "../contract/Protocol.js"

export interface ChannelOptions {
  /** `<profiles>/<modDir>`. */
  readonly root: string
  readonly commandSuffix: string
  readonly responseSuffix: string
  readonly timeoutMs: number
  readonly pollIntervalMs: number
  readonly maxPending: number
  readonly modStaleAfterMs: number
  readonly heartbeatFile: string
}

/** What the mod answered for one command. */
export interface CommandResult {
  readonly id: string
  readonly data: unknown
}

export interface CommandChannelService {
  /** Sends one command and waits for its answer or its time-out. */
  readonly run: (action: string, params: Readonly<Record<string, unknown>>) => Effect.Effect<CommandResult, AgentModError | AgentTimedOut | AgentUnavailable>
  readonly liveness: Effect.Effect<ModLiveness>
  /** The commands folder. */
  readonly queueDir: string
}

export class CommandChannel extends Context.Tag("@garrison/agent/CommandChannel")<CommandChannel, CommandChannelService>() {}

/** A response file not (yet) readable as JSON is given this long to become whole before it is dropped. */
const BAD_FILE_GRACE_MS = 1_000
/** How many timed-out ids are remembered, to tell a late response from a stranger's. */
const REMEMBERED_TIMEOUTS = 10_000

interface Waiting {
  readonly startedAt: number
  readonly resume: (effect: Effect.Effect<CommandResult, AgentModError>) => void
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

const errorCode = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : undefined

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error))

export const make = (options: ChannelOptions) =>
  Effect.gen(function* () {
    const runtime = yield* Effect.runtime<never>()
    const runFork = Runtime.runFork(runtime)
    const clock = yield* Effect.clock
    const now = () => clock.unsafeCurrentTimeMillis()
    const log = (level: "Debug" | "Info" | "Warning" | "Error", message: string) => {
      runFork(
        level === "Debug"
          ? Effect.logDebug(message)
          : level === "Info"
            ? Effect.logInfo(message)
            : level === "Warning"
              ? Effect.logWarning(message)
              : Effect.logError(message)
      )
    }

    const commands = NodePath.join(options.root, "commands")
    const responses = NodePath.join(options.root, "responses")
    const { commandSuffix, responseSuffix } = options
    const waiting = new Map<string, Waiting>()
    const timedOut = new Map<string, number>()
    const reading = new Set<string>()
    const badSince = new Map<string, number>()
    let lastResponseAt: number | undefined
    let watcher: Fs.FSWatcher | undefined
    let watchedIno: number | undefined
    let closed = false

    const commandPath = (id: string) => NodePath.join(commands, `${id}${commandSuffix}`)

    const ensureFolders = () => {
      Fs.mkdirSync(commands, { recursive: true })
      Fs.mkdirSync(responses, { recursive: true })
    }

    // --- Responses -------------------------------------------------------

    const drop = (name: string, why: string) => {
      badSince.delete(name)
      log("Warning", `response file ${name} dropped: ${why}`)
      FsP.unlink(NodePath.join(responses, name)).catch(() => undefined)
    }

    const settle = (id: string, name: string, response: Record<string, unknown>) => {
      const entry = waiting.get(id)
      if (entry === undefined) {
        const deadline = timedOut.get(id)
        if (deadline !== undefined) {
          timedOut.delete(id)
          log("Warning", `response to command ${id} arrived ${Math.max(0, now() - deadline)} ms after its time-out; dropped`)
        } else log("Warning", `response file ${name} answers no command this agent is waiting for; dropped`)
        return
      }
      waiting.delete(id)
      lastResponseAt = now()
      if (response["ok"] === true) entry.resume(Effect.succeed({ id, data: response["data"] ?? null }))
      else {
        const error = typeof response["error"] === "string" && response["error"] !== "" ? response["error"] : "the mod answered ok:false without a reason"
        entry.resume(Effect.fail(new AgentModError({ error, id })))
      }
    }

    const readResponse = (name: string) => {
      if (closed || reading.has(name)) return
      reading.add(name)
      const path = NodePath.join(responses, name)
      const id = name.slice(0, name.length - responseSuffix.length)
      FsP.readFile(path, "utf8").then(
        (text) => {
          let parsed: unknown
          try {
            parsed = JSON.parse(text)
          } catch {
            parsed = undefined
          }
          if (!isRecord(parsed)) {
            // Maybe still being written by a mod that does not rename into place: wait a little.
            const since = badSince.get(name)
            if (since === undefined) badSince.set(name, now())
            else if (now() - since >= BAD_FILE_GRACE_MS) drop(name, "not a JSON object")
            return
          }
          badSince.delete(name)
          if (parsed["id"] !== id) {
            drop(name, `its id ${JSON.stringify(parsed["id"])} is not the file's (${id})`)
            return
          }
          if (typeof parsed["ok"] !== "boolean") {
            drop(name, `"ok" is not true or false`)
            return
          }
          return FsP.unlink(path).then(
            () => settle(id, name, parsed),
            (error: unknown) => {
              // Someone else removed it first: it is not ours to answer twice.
              if (errorCode(error) !== "ENOENT") log("Warning", `cannot remove response file ${name}: ${describe(error)}`)
              else settle(id, name, parsed)
            }
          )
        },
        (error: unknown) => {
          if (errorCode(error) !== "ENOENT") log("Warning", `cannot read response file ${name}: ${describe(error)}`)
        }
      ).finally(() => reading.delete(name))
    }

    const isResponseName = (name: string) => name.endsWith(responseSuffix) && !name.startsWith(".") && name.length > responseSuffix.length

    // --- Watcher and poll ------------------------------------------------

    const closeWatcher = () => {
      watcher?.close()
      watcher = undefined
      watchedIno = undefined
    }

    /** (Re)arms the watcher on the responses folder when it is missing or watches a folder that was replaced. */
    const arm = () => {
      if (closed) return
      let ino: number
      try {
        ino = Fs.statSync(responses).ino
      } catch {
        closeWatcher()
        return
      }
      if (watcher !== undefined && watchedIno === ino) return
      closeWatcher()
      try {
        const made = Fs.watch(responses, { persistent: false }, (_event, filename) => {
          if (filename === null || filename === undefined) return scanSoon()
          const name = filename.toString()
          if (isResponseName(name)) readResponse(name)
          else if (name === NodePath.basename(responses)) {
            // The folder itself went away (the mod folder deleted): watch the new one once it is back.
            closeWatcher()
            setImmediate(arm)
          }
        })
        made.on("error", () => {
          if (watcher === made) closeWatcher()
        })
        watcher = made
        watchedIno = ino
      } catch (error) {
        log("Warning", `cannot watch ${responses}: ${describe(error)}; polling every ${options.pollIntervalMs} ms`)
        return
      }
      // Anything that landed before the watcher saw it.
      scan()
    }

    const scan = () => {
      if (closed) return
      Fs.readdir(responses, (error, names) => {
        if (error !== null) return
        for (const name of names) if (isResponseName(name)) readResponse(name)
      })
    }
    let scanQueued = false
    const scanSoon = () => {
      if (scanQueued) return
      scanQueued = true
      setImmediate(() => {
        scanQueued = false
        scan()
      })
    }

    // --- Start-up: clear what an earlier run left, then watch -------------

    const cleared = yield* Effect.sync(() => {
      try {
        ensureFolders()
      } catch (error) {
        return { error: describe(error), commands: 0, responses: 0 }
      }
      const clear = (dir: string, match: (name: string) => boolean) => {
        let count = 0
        for (const name of Fs.readdirSync(dir)) {
          if (!match(name)) continue
          try {
            Fs.unlinkSync(NodePath.join(dir, name))
            count++
          } catch {
            // Gone already, or not a file: leave it.
          }
        }
        return count
      }
      return {
        error: undefined,
        commands: clear(commands, (n) => (n.endsWith(commandSuffix) && !n.startsWith(".")) || /^\.agent-.*\.tmp$/.test(n)),
        responses: clear(responses, isResponseName)
      }
    })
    if (cleared.error !== undefined) yield* Effect.logWarning(`cannot prepare ${options.root}: ${cleared.error} (will try again for each command)`)
    else if (cleared.commands + cleared.responses > 0) {
      yield* Effect.logInfo(`cleared ${cleared.commands} stale command file(s) and ${cleared.responses} stale response file(s) from ${options.root}`)
    }
    arm()

    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        closed = true
        closeWatcher()
      })
    )

    // The safety net: re-arm the watcher if the folder was replaced, and look for answers it missed.
    yield* Effect.sync(() => {
      arm()
      scan()
    }).pipe(Effect.repeat(Schedule.spaced(options.pollIntervalMs)), Effect.forkScoped)

    // --- Commands --------------------------------------------------------

    const writeCommand = async (id: string, action: string, params: Readonly<Record<string, unknown>>) => {
      const text = JSON.stringify({ id, action, params, timestamp: now() })
      const attempt = async () => {
        const temp = NodePath.join(commands, `.agent-${id}.tmp`)
        await FsP.writeFile(temp, text, { flag: "wx" })
        try {
          await FsP.rename(temp, commandPath(id))
        } catch (error) {
          await FsP.unlink(temp).catch(() => undefined)
          throw error
        }
      }
      try {
        await attempt()
      } catch (error) {
        if (errorCode(error) !== "ENOENT") throw error
        // The mod folder was deleted: make it again and watch the new one.
        ensureFolders()
        arm()
        await attempt()
      }
    }

    /** Removes the command file once its write has settled (so a write still in flight cannot land after). */
    const withdraw = (id: string, written: Promise<void> | undefined) =>
      Effect.promise(() =>
        (written ?? Promise.resolve())
          .catch(() => undefined)
          .then(() => FsP.unlink(commandPath(id)))
          .then(
            () => true,
            () => false
          )
      )

    const remember = (id: string) => {
      timedOut.set(id, now())
      if (timedOut.size > REMEMBERED_TIMEOUTS) {
        const oldest = timedOut.keys().next()
        if (oldest.done !== true) timedOut.delete(oldest.value)
      }
    }

    const run: CommandChannelService["run"] = (action, params) =>
      Effect.suspend(() => {
        if (waiting.size >= options.maxPending) {
          return Effect.fail(new AgentUnavailable({ error: `Too many commands waiting (${options.maxPending}); try again shortly` }))
        }
        const id = randomUUID()
        // No watcher (the folder was deleted and has not been seen again): look now, not at the next poll.
        if (watcher === undefined) arm()
        let written: Promise<void> | undefined
        const wait = Effect.async<CommandResult, AgentModError | AgentUnavailable>((resume) => {
          waiting.set(id, { startedAt: now(), resume })
          written = writeCommand(id, action, params)
          written.catch((error: unknown) => {
            if (!waiting.delete(id)) return
            log("Error", `cannot write command ${id} (${action}) into ${commands}: ${describe(error)}`)
            resume(Effect.fail(new AgentUnavailable({ error: `Cannot queue the command: ${describe(error)}` })))
          })
          // Interrupted (the time-out, or the caller went away): stop waiting.
          return Effect.sync(() => {
            if (waiting.delete(id)) remember(id)
          })
        })
        return wait.pipe(
          Effect.timeoutFail({ duration: options.timeoutMs, onTimeout: () => new AgentTimedOut({ error: timedOutMessage(options.timeoutMs), id }) }),
          Effect.onExit((exit) => {
            if (Exit.isSuccess(exit)) return Effect.void
            const failure = Exit.isFailure(exit) ? Cause.failureOption(exit.cause) : undefined
            const timedOutNow = failure !== undefined && failure._tag === "Some" && failure.value._tag === "AgentTimedOut"
            if (!timedOutNow && !Exit.isInterrupted(exit)) return Effect.void
            return Effect.flatMap(withdraw(id, written), (withdrawn) =>
              Effect.logWarning(
                timedOutNow
                  ? `command ${id} (${action}) timed out after ${options.timeoutMs} ms; ${withdrawn ? "withdrawn before the mod took it" : "the mod had taken it already"}`
                  : `command ${id} (${action}) abandoned by its caller; ${withdrawn ? "withdrawn" : "the mod had taken it already"}`
              )
            )
          })
        )
      })

    const liveness: Effect.Effect<ModLiveness> = Effect.promise(async () => {
      const at = now()
      let heartbeatAgeMs: number | null = null
      try {
        const stat = await FsP.stat(NodePath.join(options.root, options.heartbeatFile))
        heartbeatAgeMs = Math.max(0, Math.round(Date.now() - stat.mtimeMs))
      } catch {
        heartbeatAgeMs = null
      }
      const lastResponseAgeMs = lastResponseAt === undefined ? null : Math.max(0, at - lastResponseAt)
      let oldest: number | undefined
      for (const entry of waiting.values()) if (oldest === undefined || entry.startedAt < oldest) oldest = entry.startedAt
      const ages = [lastResponseAgeMs, heartbeatAgeMs].filter((a): a is number => a !== null)
      return {
        answering: ages.some((a) => a <= options.modStaleAfterMs),
        lastResponseAgeMs,
        heartbeatAgeMs,
        pending: waiting.size,
        oldestPendingMs: oldest === undefined ? null : at - oldest
      }
    })

    return { run, liveness, queueDir: commands } satisfies CommandChannelService
  })

export const layer = (options: ChannelOptions) => Layer.scoped(CommandChannel, make(options))
