/**
 * The dispatcher's pacing while it gives way to the requests (see queue.ts):
 * one piece of work at a time, one per slot. Not giving way, everything may
 * start at once (the per-webhook limits still apply).
 */
export interface Pacer {
  /**
   * Whether one more piece of work may start now (taking the slot when giving way): not while another is under
   * way, nor before the slot the last one took has passed.
   */
  readonly take: (now: number, givingWay: boolean, underWay: number) => boolean
  /** When the next slot frees (ms): the time to look again when giving way with nothing under way. */
  readonly nextSlotAt: () => number
}

export const makePacer = (slotMs: number): Pacer => {
  let nextSlotAt = 0
  return {
    take: (now, givingWay, underWay) => {
      if (!givingWay) return true
      if (underWay > 0 || now < nextSlotAt) return false
      nextSlotAt = now + slotMs
      return true
    },
    nextSlotAt: () => nextSlotAt
  }
}
