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
 * id, or is not a regular file (a link, a pipe), is logged and dropped.
 */
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Runtime from "effect/Runtime"
import * as Schedule from "effect/Schedule"
import { randomUUID } from "node:crypto"
import * as Fs from "node:fs"
import * as FsP from "node:fs/promises"
import * as NodePath from "node:path"
import { AgentModError, AgentTimedOut, AgentUnavailable, timedOutMessage } from "../contract/Errors.js"
import type { ModLiveness } from "../contract/Protocol.js"
import { errorText } from "../errorText.js"

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
  /**
   * The agent is stopping: every waiting command fails with
   * `AgentUnavailable` and is withdrawn, so its caller gets an answer now
   * and the mod never runs it after the agent is gone. Later commands are
   * refused the same way. Answers how many were waiting.
   */
  readonly stop: Effect.Effect<number>
}

export class CommandChannel extends Context.Tag("@garrison/agent/CommandChannel")<CommandChannel, CommandChannelService>() {}

/** A response file not (yet) readable as JSON is given this long to become whole before it is dropped. */
const BAD_FILE_GRACE_MS = 1_000
/** How many timed-out ids are remembered, to tell a late response from a stranger's. */
const REMEMBERED_TIMEOUTS = 10_000

interface Waiting {
  readonly startedAt: number
  readonly resume: (effect: Effect.Effect<CommandResult, AgentModError | AgentUnavailable>) => void
}

const STOPPING = "The agent is stopping; the command was withdrawn"

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

const errorCode = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : undefined

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
    /** Response files being read, and whether another look was asked for meanwhile. */
    const reading = new Map<string, { again: boolean }>()
    const badSince = new Map<string, number>()
    /** Response files read but not removable (permissions): never read twice. */
    const stuck = new Set<string>()
    let lastResponseAt: number | undefined
    let watcher: Fs.FSWatcher | undefined
    let watchedIno: number | undefined
    let closed = false
    let stopping = false

    const commandPath = (id: string) => NodePath.join(commands, `${id}${commandSuffix}`)

    const ensureFolders = () => {
      Fs.mkdirSync(commands, { recursive: true })
      Fs.mkdirSync(responses, { recursive: true })
    }

    // --- Responses -------------------------------------------------------

    /** Removes a response file, unless another file took its name since it was read (a mod's answer is never lost to a stranger's). */
    const unlinkIfSame = async (path: string, ino: number) => {
      const now = await FsP.lstat(path).catch(() => undefined)
      if (now !== undefined && now.ino === ino) await FsP.unlink(path)
    }

    const drop = async (name: string, ino: number, why: string) => {
      badSince.delete(name)
      log("Warning", `response file ${name} dropped: ${why}`)
      await unlinkIfSame(NodePath.join(responses, name), ino).catch(() => undefined)
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

    /** Reads one response file and settles or drops it; done once what it removes is removed. */
    const readOnce = async (name: string) => {
      const path = NodePath.join(responses, name)
      const id = name.slice(0, name.length - responseSuffix.length)
      let read: { readonly text: string; readonly ino: number } | { readonly strange: string; readonly ino: number }
      try {
        // Never through a link, and never waiting on a pipe: a strange file is dropped, not read.
        const handle = await FsP.open(path, Fs.constants.O_RDONLY | Fs.constants.O_NOFOLLOW | Fs.constants.O_NONBLOCK)
        try {
          const stats = await handle.stat()
          read = stats.isFile() ? { ino: stats.ino, text: await handle.readFile("utf8") } : { ino: stats.ino, strange: "not a regular file" }
        } finally {
          await handle.close()
        }
      } catch (error) {
        const code = errorCode(error)
        const link = code === "ELOOP" ? await FsP.lstat(path).catch(() => undefined) : undefined
        if (link !== undefined) return drop(name, link.ino, "a symbolic link")
        if (code !== "ENOENT") log("Warning", `cannot read response file ${name}: ${errorText(error)}`)
        return
      }
      if ("strange" in read) return drop(name, read.ino, read.strange)
      let parsed: unknown
      try {
        parsed = JSON.parse(read.text)
      } catch {
        parsed = undefined
      }
      if (!isRecord(parsed)) {
        // Maybe still being written by a mod that does not rename into place: wait a little.
        const since = badSince.get(name)
        if (since === undefined) badSince.set(name, now())
        else if (now() - since >= BAD_FILE_GRACE_MS) await drop(name, read.ino, "not a JSON object")
        return
      }
      badSince.delete(name)
      if (parsed["id"] !== id) return drop(name, read.ino, `its id ${JSON.stringify(parsed["id"])} is not the file's (${id})`)
      if (typeof parsed["ok"] !== "boolean") return drop(name, read.ino, `"ok" is not true or false`)
      try {
        await unlinkIfSame(path, read.ino)
      } catch (error) {
        // Gone already (ENOENT) is fine: the answer was read. Otherwise it stays; it is not read again.
        if (errorCode(error) !== "ENOENT") {
          stuck.add(name)
          log("Warning", `cannot remove response file ${name}: ${errorText(error)}`)
        }
      }
      settle(id, name, parsed)
    }

    /**
     * Reads a response file, one read per name at a time: a look asked for
     * while one is under way (the watcher's next event, the poll) is made
     * right after it, never skipped, so a file that lands meanwhile is seen.
     */
    const readResponse = (name: string) => {
      if (closed || stuck.has(name)) return
      const current = reading.get(name)
      if (current !== undefined) {
        current.again = true
        return
      }
      const look = { again: false }
      reading.set(name, look)
      void readOnce(name).finally(() => {
        reading.delete(name)
        if (look.again) readResponse(name)
      })
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
        log("Warning", `cannot watch ${responses}: ${errorText(error)}; polling every ${options.pollIntervalMs} ms`)
        return
      }
      // Anything that landed before the watcher saw it.
      scan()
    }

    const scan = () => {
      if (closed) return
      Fs.readdir(responses, (error, names) => {
        if (error !== null) return
        // Forget files that are gone.
        if (stuck.size + badSince.size > 0) {
          const present = new Set(names)
          for (const name of stuck) if (!present.has(name)) stuck.delete(name)
          for (const name of badSince.keys()) if (!present.has(name)) badSince.delete(name)
        }
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
        return { error: errorText(error), commands: 0, responses: 0 }
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
        if (stopping) return Effect.fail(new AgentUnavailable({ error: STOPPING }))
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
            log("Error", `cannot write command ${id} (${action}) into ${commands}: ${errorText(error)}`)
            resume(Effect.fail(new AgentUnavailable({ error: `Cannot queue the command: ${errorText(error)}` })))
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
            const failure = Option.getOrUndefined(Cause.failureOption(exit.cause))
            // Answered by the mod (it took the file), or never queued (the write failed): nothing to withdraw.
            if (failure?._tag === "AgentModError" || (failure?._tag === "AgentUnavailable" && failure.error !== STOPPING)) return Effect.void
            const what =
              failure?._tag === "AgentTimedOut"
                ? `timed out after ${options.timeoutMs} ms`
                : failure?._tag === "AgentUnavailable"
                  ? "abandoned: the agent is stopping"
                  : "abandoned by its caller"
            return Effect.flatMap(withdraw(id, written), (withdrawn) =>
              Effect.logWarning(`command ${id} (${action}) ${what}; ${withdrawn ? "withdrawn before the mod took it" : "the mod had taken it already"}`)
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

    const stop = Effect.sync(() => {
      stopping = true
      const all = [...waiting.values()]
      waiting.clear()
      for (const entry of all) entry.resume(Effect.fail(new AgentUnavailable({ error: STOPPING })))
      return all.length
    })

    return { run, liveness, queueDir: commands, stop } satisfies CommandChannelService
  })

export const layer = (options: ChannelOptions) => Layer.scoped(CommandChannel, make(options))
