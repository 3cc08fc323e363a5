/** A small seeded PRNG (mulberry32): the same seed gives the same roster and the same events, in the same order. */
export class Rng {
  private state: number

  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0)
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  float(min: number, max: number, decimals = 1): number {
    const f = 10 ** decimals
    return Math.round((min + this.next() * (max - min)) * f) / f
  }

  pick<A>(items: ReadonlyArray<A>): A {
    return items[Math.floor(this.next() * items.length)]!
  }

  chance(p: number): boolean {
    return this.next() < p
  }

  /** A child generator, so one stream of events does not shift another. */
  fork(salt: number): Rng {
    return new Rng((this.int(0, 0x7fffffff) ^ Math.imul(salt, 0x85ebca6b)) >>> 0)
  }
}
