/**
 * Password hashing and policy. Argon2id with OWASP's parameters (19 MiB,
 * 2 passes, 1 lane) through `@node-rs/argon2`, which hashes on libuv's
 * thread pool so the event loop never waits. Passwords are never returned
 * or logged; callers only ever see "ok" or "wrong".
 */
import { type Algorithm, hash, parseOptions, verify } from "@node-rs/argon2"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { randomInt } from "node:crypto"
import type { PasswordRejected } from "../errors.js"
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./limits.js"
import { checkPolicy, type PolicySubject } from "./policy.js"

export { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH }
export { checkPolicy, MIN_STRENGTH } from "./policy.js"
export type { PolicySubject } from "./policy.js"

/** OWASP Password Storage Cheat Sheet, first Argon2id option. */
export const ARGON2_OPTIONS = {
  // `Algorithm` is an ambient const enum; 2 is its Argon2id member.
  algorithm: 2 as Algorithm,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1
} as const

// No look-alike characters (0/O, 1/l/I), so a password read from a log can be typed.
const ALPHABET = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"

/** A random password of `length` characters (about 5.8 bits each). */
export const generatePassword = (length = 24): string => {
  let out = ""
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)]
  return out
}

export interface PasswordsShape {
  /** The PHC string of a password a person chose, once the policy (policy.ts) allows it for `subject`. */
  readonly hash: (password: string, subject: PolicySubject) => Effect.Effect<string, PasswordRejected>
  /**
   * The PHC string of a password the policy does not judge: one `generatePassword`
   * made, or one that just verified and is only hashed again with today's parameters.
   */
  readonly hashUnchecked: (password: string) => Effect.Effect<string>
  /** Whether `password` matches `encoded`; a malformed hash is a mismatch, not a fault. */
  readonly verify: (encoded: string, password: string) => Effect.Effect<boolean>
  /**
   * Spends the time of one verification and answers false: used when the
   * username does not exist, so timing does not reveal which names do.
   */
  readonly verifyNobody: (password: string) => Effect.Effect<false>
  /** Whether a stored hash was made with other parameters than today's. */
  readonly needsRehash: (encoded: string) => boolean
}

export class Passwords extends Context.Tag("@garrison/plugins/accounts/Passwords")<Passwords, PasswordsShape>() {
  static readonly make = Effect.gen(function* () {
    const hashOf = (password: string) =>
      // Invariant: the options are fixed and valid and any string hashes; argon2 rejects only on a native fault (memory).
      Effect.tryPromise((signal) => hash(password, ARGON2_OPTIONS, signal)).pipe(Effect.orDie)
    const check = (encoded: string, password: string) =>
      Effect.tryPromise((signal) => verify(encoded, password, undefined, signal)).pipe(
        Effect.orElseSucceed(() => false)
      )
    const decoy = yield* hashOf(generatePassword())

    return Passwords.of({
      hash: (password, subject) => Effect.flatMap(checkPolicy(password, subject), hashOf),
      hashUnchecked: hashOf,
      verify: check,
      verifyNobody: (password) => Effect.as(check(decoy, password), false as const),
      needsRehash: (encoded) => {
        try {
          const used = parseOptions(encoded)
          return (
            used.algorithm !== ARGON2_OPTIONS.algorithm ||
            used.memoryCost !== ARGON2_OPTIONS.memoryCost ||
            used.timeCost !== ARGON2_OPTIONS.timeCost ||
            used.parallelism !== ARGON2_OPTIONS.parallelism
          )
        } catch {
          return true
        }
      }
    })
  })

  static readonly layer = Layer.effect(Passwords, Passwords.make)
}
