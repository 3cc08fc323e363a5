/**
 * The count of writes that can change a caller's principal: users, roles
 * and their grants, session revocations. The session authenticator keeps
 * the callers it has checked only while the count stands where it stood
 * when it read them (see the runtime's `WriteCount`), so a revoked session,
 * a disabled user or a narrowed role takes effect on the very next request.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { makeWriteCount, type WriteCount } from "@garrison/runtime"

export class AccountChanges extends Context.Tag("@garrison/plugins/accounts/AccountChanges")<AccountChanges, WriteCount>() {
  static readonly layer = Layer.sync(AccountChanges, makeWriteCount)
}

/** The service's write methods (`names`) wrapped in `counted`; the rest as they are. */
export const changingWrites = <S extends object, K extends keyof S>(changes: WriteCount, service: S, names: ReadonlyArray<K>): S => {
  const wrapped = { ...service } as Record<PropertyKey, unknown>
  for (const name of names) {
    const method = service[name]
    if (typeof method !== "function") throw new Error(`changingWrites: ${String(name)} is not a method`)
    wrapped[name as PropertyKey] = (...args: ReadonlyArray<unknown>) =>
      changes.counted((method as (...a: ReadonlyArray<unknown>) => Effect.Effect<unknown, unknown, unknown>)(...args))
  }
  return wrapped as S
}
