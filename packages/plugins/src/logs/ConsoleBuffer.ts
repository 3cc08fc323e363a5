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

export interface ConsoleBufferShape {
  readonly push: (line: ConsoleLine) => Effect.Effect<void>
  /** The newest `limit` lines (all kept when undefined), oldest first. */
  readonly recent: (serverId: string, limit?: number) => Effect.Effect<ReadonlyArray<ConsoleLine>>
  /** Frees a server's ring (its entry was deleted); answers whether it had one. */
  readonly forget: (serverId: string) => Effect.Effect<boolean>
}

/** A ring over a fixed array: pushing is O(1) however busy the server is. */
class Ring {
  private readonly items: Array<ConsoleLine | undefined>
  private next = 0
  private size = 0

  constructor(readonly capacity: number) {
    this.items = new Array<ConsoleLine | undefined>(capacity)
  }

  push(line: ConsoleLine): void {
    this.items[this.next] = line
    this.next = (this.next + 1) % this.capacity
    this.size = Math.min(this.size + 1, this.capacity)
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
    forget: (serverId) => Effect.sync(() => rings.delete(serverId))
  }
}

export class ConsoleBuffer extends Context.Tag("@garrison/plugins/logs/ConsoleBuffer")<ConsoleBuffer, ConsoleBufferShape>() {
  static readonly layer = Layer.sync(ConsoleBuffer, () => makeConsoleBuffer())
}
