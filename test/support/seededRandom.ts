/**
 * Random numbers a test can repeat: a small seeded generator (mulberry32)
 * and the seed read from an environment variable, or a fresh one when it is
 * not set. A test prints the seed it used, so a failure can be run again
 * with the same numbers. Framework-free, like `controller.ts`.
 */
import { randomInt } from "node:crypto"

export interface SeededRandom {
  /** A number in [0, 1). */
  readonly next: () => number
  /** An integer in [min, max). */
  readonly int: (min: number, max: number) => number
  /** `length` bytes. */
  readonly bytes: (length: number) => Buffer
}

/** The generator for `seed` and `label` (each label draws its own numbers, whatever ran before it). */
export const seededRandom = (seed: number, label = ""): SeededRandom => {
  let state = seed >>> 0
  for (let i = 0; i < label.length; i++) state = Math.imul(state ^ label.charCodeAt(i), 0x5bd1e995) >>> 0
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min)),
    bytes: (length) => Buffer.from(Array.from({ length }, () => Math.floor(next() * 256)))
  }
}

/** The seed in `variable` (a whole number from 0 to 2^32 - 1), or a new random one when it is unset or empty. */
export const seedFrom = (variable: string): number => {
  const text = process.env[variable]
  if (text === undefined || text.trim() === "") return randomInt(0, 2 ** 32 - 1)
  const seed = Number(text)
  if (!Number.isInteger(seed) || seed < 0 || seed >= 2 ** 32) {
    throw new Error(`${variable} must be a whole number from 0 to 4294967295, got ${JSON.stringify(text)}`)
  }
  return seed
}
