/**
 * The recent RCON server messages of each server: a fixed-size ring per
 * server, fed by the plugin's `ConsoleLine` handler and freed by its
 * `ServerDeleted` handler. Kept in memory only: the RPT and ADM files are
 * the durable record.
 */
import type { ConsoleLine } from "@garrison/runtime"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { CONSOLE_CAPACITY } from "./contract/Api.js"

/** Lines of one server older than a given one, for paging back through the ring. */
export interface ConsolePage {
  /** Oldest first. */
  readonly lines: ReadonlyArray<ConsoleLine>
  /** The number of the oldest line returned (lines are numbered 1, 2, ... per server as they arrive). */
  readonly first: number
  /** Whether older lines are still kept. */
  readonly more: boolean
  /** Lines kept for the server. */
  readonly kept: number
}

export interface ConsoleBufferShape {
  readonly push: (line: ConsoleLine) => Effect.Effect<void>
  /** The newest `limit` lines (all kept when undefined), oldest first. */
  readonly recent: (serverId: string, limit?: number) => Effect.Effect<ReadonlyArray<ConsoleLine>>
  /** The newest `limit` lines numbered below `before` (the newest kept when undefined). */
  readonly page: (serverId: string, limit: number, before?: number) => Effect.Effect<ConsolePage>
  /** Frees a server's ring (its entry was deleted); answers whether it had one. */
  readonly forget: (serverId: string) => Effect.Effect<boolean>
}

/** A ring over a fixed array: pushing is O(1) however busy the server is. */
class Ring {
  private readonly items: Array<ConsoleLine | undefined>
  private next = 0
  private size = 0
  /** Lines ever pushed: the newest line's number. */
  private pushed = 0

  constructor(readonly capacity: number) {
    this.items = new Array<ConsoleLine | undefined>(capacity)
  }

  push(line: ConsoleLine): void {
    this.items[this.next] = line
    this.next = (this.next + 1) % this.capacity
    this.size = Math.min(this.size + 1, this.capacity)
    this.pushed++
  }

  page(limit: number, before: number | undefined): ConsolePage {
    const oldest = this.pushed - this.size + 1
    const end = Math.min(before === undefined ? this.pushed : before - 1, this.pushed)
    const start = Math.max(end - limit + 1, oldest)
    const lines: Array<ConsoleLine> = []
    for (let n = start; n <= end; n++) {
      const item = this.items[(((this.next - 1 - (this.pushed - n)) % this.capacity) + this.capacity) % this.capacity]
      if (item !== undefined) lines.push(item)
    }
    return { lines, first: start, more: lines.length > 0 && start > oldest, kept: this.size }
  }

  last(limit: number): Array<ConsoleLine> {
    const count = Math.min(limit, this.size)
    const out: Array<ConsoleLine> = []
    for (let i = count; i > 0; i--) {
      const item = this.items[(this.next - i + this.capacity) % this.capacity]
      if (item !== undefined) out.push(item)
    }
    return out
  }
}

export const makeConsoleBuffer = (capacity: number = CONSOLE_CAPACITY): ConsoleBufferShape => {
  const rings = new Map<string, Ring>()
  return {
    push: (line) =>
      Effect.sync(() => {
        let ring = rings.get(line.serverId)
        if (ring === undefined) {
          ring = new Ring(capacity)
          rings.set(line.serverId, ring)
        }
        ring.push(line)
      }),
    recent: (serverId, limit) =>
      Effect.sync(() => rings.get(serverId)?.last(limit ?? capacity) ?? []),
    page: (serverId, limit, before) =>
      Effect.sync(() => rings.get(serverId)?.page(limit, before) ?? { lines: [], first: 1, more: false, kept: 0 }),
    forget: (serverId) => Effect.sync(() => rings.delete(serverId))
  }
}

export class ConsoleBuffer extends Context.Tag("@garrison/plugins/logs/ConsoleBuffer")<ConsoleBuffer, ConsoleBufferShape>() {
  static readonly layer = Layer.sync(ConsoleBuffer, () => makeConsoleBuffer())
}
