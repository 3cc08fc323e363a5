/**
 * A counter of changes to who may do what: every write that can change a
 * caller's principal (users, roles and their grants, session revocations)
 * moves it on. The session authenticator remembers callers it has checked
 * (see `CallerCache`) only for as long as the counter stands where it stood
 * when it read them, so a revoked session, a disabled user or a narrowed role
 * takes effect on the very next request.
 *
 * Moving it on after a write's statement (or its whole transaction) is
 * enough: a caller read before the write carries the old count and is
 * dropped; one read while a transaction holds SQLite's only connection waits
 * for the commit and reads what it wrote.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

export interface AccountChangesShape {
  /** Where the counter stands now. */
  readonly version: () => number
  /** `effect`, then the counter moved on (whether it succeeded or not: a rolled-back write only costs a re-read). */
  readonly changing: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}

export class AccountChanges extends Context.Tag("@garrison/plugins/accounts/AccountChanges")<AccountChanges, AccountChangesShape>() {
  static readonly make = (): AccountChangesShape => {
    let version = 0
    const bump = Effect.sync(() => {
      version++
    })
    return { version: () => version, changing: (effect) => Effect.ensuring(effect, bump) }
  }

  static readonly layer = Layer.sync(AccountChanges, AccountChanges.make)
}

/** The service's write methods (`names`) wrapped in `changing`; the rest as they are. */
export const changingWrites = <S extends object, K extends keyof S>(changes: AccountChangesShape, service: S, names: ReadonlyArray<K>): S => {
  const wrapped = { ...service } as Record<PropertyKey, unknown>
  for (const name of names) {
    const method = service[name]
    if (typeof method !== "function") throw new Error(`changingWrites: ${String(name)} is not a method`)
    wrapped[name as PropertyKey] = (...args: ReadonlyArray<unknown>) =>
      changes.changing((method as (...a: ReadonlyArray<unknown>) => Effect.Effect<unknown, unknown, unknown>)(...args))
  }
  return wrapped as S
}
