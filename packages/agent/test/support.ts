/**
 * Helpers for the agent's unit tests: a temporary profiles folder, a fake
 * companion mod that answers command files as soon as it sees them (or as
 * a test tells it), real-time waits for what the file system does, and a
 * logger that keeps lines.
 */
import { Effect, Logger } from "effect"
import { randomBytes } from "node:crypto"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { eventually, tempDir } from "@garrison/testkit/core"

export const profilesFolder = () => tempDir("garrison-agent-unit-")

/** Waits in real time (the testkit's `eventually`) until `check` holds (at most `timeoutMs`), naming `what` if it never does. */
export const until = (check: () => boolean, timeoutMs = 10_000, what?: string) =>
  Effect.asVoid(eventually(Effect.sync(check), (holds) => holds, timeoutMs, what))

export const writeAtomic = (path: string, text: string) => {
  const temp = NodePath.join(NodePath.dirname(path), `.${NodePath.basename(path)}.${randomBytes(3).toString("hex")}.tmp`)
  Fs.writeFileSync(temp, text)
  Fs.renameSync(temp, path)
}

export interface Command {
  readonly id: string
  readonly action: string
  readonly params: Record<string, unknown>
  readonly timestamp: number
}

export type Answer = { readonly ok: true; readonly data?: unknown } | { readonly ok: false; readonly error: string } | "ignore"

export interface FakeMod {
  readonly seen: Array<Command>
  readonly commands: string
  readonly responses: string
  /** Writes a response file as the mod would. */
  readonly respond: (id: string, body: Record<string, unknown>) => void
  readonly stop: () => void
}

/**
 * A mod that polls `<root>/commands` every `pollMs` (and on every watcher
 * event), answers each command with `answer(command)` (default `{ok: true,
 * data: {echo: params}}`), removes the command file, unless the answer is
 * "ignore" (then the file stays, as with a mod that stopped).
 */
export const fakeMod = (root: string, answer: (command: Command) => Answer = (c) => ({ ok: true, data: { echo: c.params } }), pollMs = 20): FakeMod => {
  const commands = NodePath.join(root, "commands")
  const responses = NodePath.join(root, "responses")
  const seen: Array<Command> = []
  const respond = (id: string, body: Record<string, unknown>) => {
    Fs.mkdirSync(responses, { recursive: true })
    writeAtomic(NodePath.join(responses, `${id}.json`), JSON.stringify(body))
  }
  const handled = new Set<string>()
  const poll = () => {
    let names: Array<string>
    try {
      names = Fs.readdirSync(commands).filter((n) => n.endsWith(".json") && !n.startsWith("."))
    } catch {
      return
    }
    for (const name of names) {
      if (handled.has(name)) continue
      let command: Command
      try {
        command = JSON.parse(Fs.readFileSync(NodePath.join(commands, name), "utf8")) as Command
      } catch {
        continue
      }
      const result = answer(command)
      if (result === "ignore") continue
      handled.add(name)
      seen.push(command)
      respond(command.id, { id: command.id, ...result, timestamp: Date.now() })
      Fs.rmSync(NodePath.join(commands, name), { force: true })
    }
  }
  const timer = setInterval(poll, pollMs)
  return { seen, commands, responses, respond, stop: () => clearInterval(timer) }
}

/** A logger that keeps every message (and still prints nothing). */
export const captureLogs = () => {
  const lines: Array<string> = []
  const logger = Logger.make(({ logLevel, message }) => {
    lines.push(`${logLevel.label} ${Array.isArray(message) ? message.join(" ") : String(message)}`)
  })
  return { lines, layer: Logger.replace(Logger.defaultLogger, logger) }
}
