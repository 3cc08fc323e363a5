/**
 * A counter the pool moves on every write, so what is kept from reads (a
 * community's accuracy, a looked-up score) is dropped at once when the pool
 * changes here. Another controller sharing the database does not move this
 * one's counter: what it keeps also expires after a few seconds.
 */
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"

export interface PoolGenerationShape {
  readonly current: () => number
  readonly bump: () => void
}

export class PoolGeneration extends Context.Tag("@garrison/plugins/trust/PoolGeneration")<PoolGeneration, PoolGenerationShape>() {
  static readonly layer = Layer.sync(PoolGeneration, () => {
    let generation = 0
    return { current: () => generation, bump: () => void generation++ }
  })
}

/**
 * Values kept for `ttlMs` and while the pool has not changed, at most
 * `capacity` of them (the oldest dropped first).
 */
export const makeReadCache = <K, V>(generation: PoolGenerationShape, ttlMs: number, capacity: number) => {
  const entries = new Map<K, { readonly value: V; readonly until: number; readonly generation: number }>()
  return {
    get: (key: K, now: number): V | undefined => {
      const entry = entries.get(key)
      if (entry === undefined) return undefined
      if (entry.until < now || entry.generation !== generation.current()) {
        entries.delete(key)
        return undefined
      }
      return entry.value
    },
    set: (key: K, value: V, now: number): void => {
      if (entries.size >= capacity) entries.delete(entries.keys().next().value as K)
      entries.set(key, { value, until: now + ttlMs, generation: generation.current() })
    }
  }
}
