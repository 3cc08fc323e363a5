/**
 * The companion mod's file channel, as the real mods do it: every `pollMs`
 * read `<profiles>/<modDir>/commands/`, take at most `batch` command files
 * (oldest first), run each, write `<profiles>/<modDir>/responses/<id><resSuffix>`
 * atomically (temporary file, then rename) and delete the command file.
 *
 * Command file `<id><cmdSuffix>`: `{id, action, params, timestamp}`.
 * Response: `{id, ok: true, data, timestamp}` or `{id, ok: false, error, timestamp}`.
 *
 * The mod also keeps `players.json` (who is online, where) current,
 * appends every world event to `events.jsonl`, and touches `heartbeat.json`
 * while it polls (at most every 500 ms), in the same folder: the agent's
 * `/health` reads its age.
 *
 * For tests, the control folder's `mod pause` stops the polling (commands
 * wait in the folder, the heartbeat goes stale), `mod resume` starts it
 * again, and `mod delay <ms>` makes the mod take each command at once but
 * answer only `<ms>` later (0: at once again).
 */
import { randomBytes } from "node:crypto"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { type ActionContext, runAction } from "./actions.js"
import type { WorldEvent } from "./world.js"

export interface ModOptions {
  readonly root: string
  readonly pollMs: number
  readonly batch: number
  readonly cmdSuffix: string
  readonly resSuffix: string
  readonly log: (line: string) => void
}

export interface ModResponse {
  readonly id: string
  readonly ok: boolean
  readonly data?: unknown
  readonly error?: string
  readonly timestamp: number
}

/** Writes `data` to `path` through a temporary file in the same folder and a rename. */
export const writeAtomic = (path: string, data: string): void => {
  const temp = NodePath.join(NodePath.dirname(path), `.${NodePath.basename(path)}.${randomBytes(4).toString("hex")}.tmp`)
  const fd = Fs.openSync(temp, "w")
  try {
    Fs.writeSync(fd, data)
    Fs.fsyncSync(fd)
  } finally {
    Fs.closeSync(fd)
  }
  Fs.renameSync(temp, path)
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v)

export class CompanionMod {
  readonly commands: string
  readonly responses: string
  private timer: NodeJS.Timeout | undefined
  private stopped = false
  private lastPlayers = ""
  /** While frozen (hang mode "freeze") nothing is answered. */
  frozen = false
  /** While paused (`mod pause`) the command folder is not polled. */
  paused = false
  /** Milliseconds between taking a command and answering it (`mod delay`). */
  delayMs = 0
  handled = 0
  private lastHeartbeat = 0
  private readonly delayed = new Set<NodeJS.Timeout>()

  constructor(
    private readonly options: ModOptions,
    private readonly ctx: ActionContext
  ) {
    this.commands = NodePath.join(options.root, "commands")
    this.responses = NodePath.join(options.root, "responses")
  }

  start(): void {
    Fs.mkdirSync(this.commands, { recursive: true })
    Fs.mkdirSync(this.responses, { recursive: true })
    // What happened before the mod was up (players who joined first), then everything as it happens.
    for (const event of this.ctx.world.events) this.appendEvent(event)
    this.ctx.world.onEvent = (event) => this.appendEvent(event)
    this.schedule()
  }

  stop(): void {
    this.stopped = true
    if (this.timer !== undefined) clearTimeout(this.timer)
    for (const timer of this.delayed) clearTimeout(timer)
    this.delayed.clear()
  }

  private schedule(): void {
    if (this.stopped) return
    this.timer = setTimeout(() => {
      try {
        if (!this.frozen && !this.paused) this.poll()
      } catch (error) {
        this.options.log(`[Garrison mod] poll failed: ${error instanceof Error ? error.message : String(error)}`)
      }
      this.schedule()
    }, this.options.pollMs)
  }

  private appendEvent(event: WorldEvent): void {
    try {
      Fs.appendFileSync(NodePath.join(this.options.root, "events.jsonl"), JSON.stringify(event) + "\n")
    } catch {
      // The folder may be gone during shutdown.
    }
  }

  /** One poll: at most `batch` commands, oldest first. Returns how many were answered. */
  poll(): number {
    this.writePlayers()
    this.writeHeartbeat()
    const { cmdSuffix } = this.options
    let names: Array<string>
    try {
      names = Fs.readdirSync(this.commands).filter((n) => n.endsWith(cmdSuffix) && !n.startsWith(".") && !n.includes(".tmp"))
    } catch {
      // The folder was deleted: make it again, as the real mods do on their next poll.
      try {
        Fs.mkdirSync(this.commands, { recursive: true })
        Fs.mkdirSync(this.responses, { recursive: true })
      } catch {
        // The profiles folder itself is gone; try again next poll.
      }
      return 0
    }
    if (names.length === 0) return 0
    const dated = names.map((name) => {
      let mtime = Number.POSITIVE_INFINITY
      try {
        mtime = Fs.statSync(NodePath.join(this.commands, name)).mtimeMs
      } catch {
        // Vanished: sorted last, skipped below.
      }
      return { name, mtime }
    })
    dated.sort((a, b) => a.mtime - b.mtime || a.name.localeCompare(b.name))
    let answered = 0
    for (const { name } of dated.slice(0, this.options.batch)) {
      if (this.handle(name)) answered++
    }
    this.handled += answered
    return answered
  }

  private handle(name: string): boolean {
    const path = NodePath.join(this.commands, name)
    let text: string
    try {
      text = Fs.readFileSync(path, "utf8")
    } catch {
      return false
    }
    const fileId = name.slice(0, name.length - this.options.cmdSuffix.length)
    let response: ModResponse
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      parsed = undefined
    }
    if (!isRecord(parsed)) {
      response = { id: fileId, ok: false, error: "the command file is not a JSON object", timestamp: Date.now() }
    } else {
      const id = typeof parsed["id"] === "string" && parsed["id"] !== "" ? parsed["id"] : fileId
      const action = parsed["action"]
      const params = parsed["params"] ?? {}
      if (typeof action !== "string" || action === "") {
        response = { id, ok: false, error: `"action" must be a non-empty string`, timestamp: Date.now() }
      } else if (!isRecord(params)) {
        response = { id, ok: false, error: `"params" must be an object`, timestamp: Date.now() }
      } else {
        const result = runAction(this.ctx, action, params)
        response = result.ok
          ? { id, ok: true, data: result.data, timestamp: Date.now() }
          : { id, ok: false, error: result.error, timestamp: Date.now() }
        this.options.log(`[Garrison mod] ${action} ${result.ok ? "ok" : `failed: ${result.error}`}`)
      }
    }
    const answer = () => {
      try {
        writeAtomic(NodePath.join(this.responses, `${response.id}${this.options.resSuffix}`), JSON.stringify(response))
        Fs.rmSync(path, { force: true })
      } catch (error) {
        this.options.log(`[Garrison mod] cannot answer ${name}: ${error instanceof Error ? error.message : String(error)}`)
        return false
      }
      return true
    }
    if (this.delayMs <= 0) return answer()
    // Taken now (the command file goes), answered later.
    Fs.rmSync(path, { force: true })
    const timer = setTimeout(() => {
      this.delayed.delete(timer)
      answer()
    }, this.delayMs)
    this.delayed.add(timer)
    return true
  }

  private writeHeartbeat(): void {
    const now = Date.now()
    if (now - this.lastHeartbeat < 500) return
    this.lastHeartbeat = now
    try {
      writeAtomic(NodePath.join(this.options.root, "heartbeat.json"), JSON.stringify({ timestamp: now, handled: this.handled, pollMs: this.options.pollMs }))
    } catch {
      // The folder may be gone (deleted while running): the next poll makes it again.
    }
  }

  private writePlayers(): void {
    const players = this.ctx.world.onlineSorted().map((o) => ({
      platformId: o.person.steam64,
      name: o.person.name,
      slot: o.slot,
      position: o.person.character.position,
      health: o.person.character.health,
      blood: o.person.character.blood
    }))
    const text = JSON.stringify({ updatedAt: 0, players })
    if (text === this.lastPlayers) return
    this.lastPlayers = text
    try {
      writeAtomic(NodePath.join(this.options.root, "players.json"), JSON.stringify({ updatedAt: Date.now(), players }, null, 2))
    } catch {
      // Ignore: the next poll tries again.
    }
  }
}
