/**
 * Per chat user, per action cooldowns: an action run by a user cannot run
 * again for that user until its kind's cooldown has passed. Kept in memory
 * (a restart forgets them: they pace people, they guard nothing). An entry is
 * forgotten once its cooldown is over, so memory follows recent use only.
 */
export interface Cooldowns {
  /** Starts the cooldown and answers undefined, or answers how long is left (ms) without starting anything. */
  readonly take: (chatUserId: string, action: string, cooldownMs: number, nowMs: number) => number | undefined
  /** Ends a cooldown early (the call it started was refused before it did anything). */
  readonly release: (chatUserId: string, action: string) => void
  readonly size: () => number
}

export const makeCooldowns = (): Cooldowns => {
  /** `${chatUserId}\u0000${action}` -> when it may run again (ms). */
  const until = new Map<string, number>()
  let lastSweep = Number.NEGATIVE_INFINITY
  return {
    take: (chatUserId, action, cooldownMs, nowMs) => {
      if (nowMs - lastSweep >= 1_000) {
        for (const [key, at] of until) if (at <= nowMs) until.delete(key)
        lastSweep = nowMs
      }
      const key = `${chatUserId}\u0000${action}`
      const at = until.get(key)
      if (at !== undefined && at > nowMs) return at - nowMs
      until.set(key, nowMs + cooldownMs)
      return undefined
    },
    release: (chatUserId, action) => void until.delete(`${chatUserId}\u0000${action}`),
    size: () => until.size
  }
}
