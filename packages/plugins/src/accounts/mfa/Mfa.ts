/**
 * Per-user TOTP: enrolment (`begin` stores a pending secret, `confirm`
 * turns MFA on with a valid code and hands out recovery codes), checking a
 * login code, and turning it off. The last used time step is persisted and
 * advanced atomically, so a code is accepted once even under races.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { SealedSecrets } from "@garrison/runtime"
import { type AccountStoreError, ConfirmationFailed, MfaAlreadyEnabled, MfaNotEnabled, MfaNotPending, storeError } from "../errors.js"
import { Passwords } from "../passwords/Passwords.js"
import { hashRecoveryCode, looksLikeRecoveryCode, newRecoveryCode, RECOVERY_CODE_COUNT } from "./RecoveryCodes.js"
import { MFA_KEY } from "./SecretBox.js"
import { matchStep, newTotpSecret, otpauthUri } from "./Totp.js"

export interface MfaEnrolment {
  /** Base32, for typing into an authenticator app. */
  readonly secret: string
  /** `otpauth://totp/...`, for a QR code. */
  readonly uri: string
}

/** Every method fails with `AccountStoreError` when the database does. */
export interface MfaShape {
  readonly begin: (user: { readonly id: string; readonly username: string }) => Effect.Effect<MfaEnrolment, MfaAlreadyEnabled | AccountStoreError>
  /** Turns MFA on; returns the one-time recovery codes (only their hashes are kept). */
  readonly confirm: (
    userId: string,
    code: string
  ) => Effect.Effect<ReadonlyArray<string>, MfaNotPending | MfaAlreadyEnabled | ConfirmationFailed | AccountStoreError>
  /** Needs a current code (not used before) or the account password. */
  readonly disable: (
    userId: string,
    proof: { readonly code?: string | undefined; readonly password?: string | undefined }
  ) => Effect.Effect<void, MfaNotEnabled | ConfirmationFailed | AccountStoreError>
  /** Whether `code` (TOTP or an unused recovery code) lets this user in; a match is used up. */
  readonly acceptLoginCode: (userId: string, code: string) => Effect.Effect<Option.Option<"totp" | "recovery">, AccountStoreError>
  /** An admin turns a user's MFA off (lost device). */
  readonly reset: (userId: string) => Effect.Effect<void, AccountStoreError>
}

interface MfaRow {
  readonly mfa_enabled: number
  readonly mfa_secret: string | null
  readonly mfa_pending_secret: string | null
  readonly mfa_last_step: number | null
  readonly password_hash: string
}

export class Mfa extends Context.Tag("@garrison/plugins/accounts/Mfa")<Mfa, MfaShape>() {
  static readonly make = Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const passwords = yield* Passwords
    // Checked before the port opens: a bad key file, or a missing one while secrets sealed with it
    // are stored, is a one-line start-up error naming it.
    const [stored] = yield* sql<{ readonly n: number }>`SELECT COUNT(*) AS n FROM accounts_users
      WHERE mfa_secret IS NOT NULL OR mfa_pending_secret IS NOT NULL`.pipe(Effect.mapError(storeError("count the stored MFA secrets")))
    const box = yield* (yield* SealedSecrets).box(MFA_KEY, {
      sealedValuesExist: Number(stored?.n ?? 0) > 0,
      sealedWhat: "MFA secrets"
    })
    const isoNow = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms).toISOString())

    const row = (userId: string) =>
      Effect.map(
        sql<MfaRow>`SELECT mfa_enabled, mfa_secret, mfa_pending_secret, mfa_last_step, password_hash
          FROM accounts_users WHERE id = ${userId}`,
        (rows) => Option.fromNullable(rows[0])
      ).pipe(Effect.mapError(storeError("read a user's MFA state")))

    const secretOf = (sealed: string | null, userId: string) =>
      sealed === null ? Option.none<string>() : Either.getRight(box.open(sealed, userId))

    /** Advances the last used step; false when another request used this step (or a later one) first. */
    const useStep = (userId: string, step: number) =>
      sql<{ readonly id: string }>`UPDATE accounts_users SET mfa_last_step = ${step}
        WHERE id = ${userId} AND mfa_enabled = 1 AND (mfa_last_step IS NULL OR mfa_last_step < ${step})
        RETURNING id`.pipe(
        Effect.map((rows) => rows.length === 1),
        Effect.mapError(storeError("use an MFA time step"))
      )

    const acceptTotp = (userId: string, current: MfaRow, code: string) =>
      Effect.gen(function* () {
        const secret = secretOf(current.mfa_secret, userId)
        if (current.mfa_enabled !== 1 || Option.isNone(secret)) return false
        const now = yield* Clock.currentTimeMillis
        const step = matchStep(secret.value, code, now, current.mfa_last_step === null ? null : Number(current.mfa_last_step))
        return Option.isSome(step) ? yield* useStep(userId, step.value) : false
      })

    const begin: MfaShape["begin"] = (user) =>
      Effect.gen(function* () {
        const current = yield* row(user.id)
        if (Option.isSome(current) && current.value.mfa_enabled === 1) return yield* new MfaAlreadyEnabled()
        const secret = newTotpSecret()
        const updatedAt = yield* isoNow
        yield* sql`UPDATE accounts_users SET mfa_pending_secret = ${box.seal(secret, user.id)}, updated_at = ${updatedAt}
          WHERE id = ${user.id}`.pipe(Effect.mapError(storeError("store a pending MFA secret")))
        return { secret, uri: otpauthUri(secret, user.username) }
      })

    const confirm: MfaShape["confirm"] = (userId, code) =>
      Effect.gen(function* () {
        const current = yield* row(userId)
        if (Option.isNone(current)) return yield* new MfaNotPending()
        if (current.value.mfa_enabled === 1) return yield* new MfaAlreadyEnabled()
        const pending = current.value.mfa_pending_secret
        const secret = secretOf(pending, userId)
        if (pending === null || Option.isNone(secret)) return yield* new MfaNotPending()
        const now = yield* Clock.currentTimeMillis
        const step = matchStep(secret.value, code, now, null)
        if (Option.isNone(step)) {
          return yield* new ConfirmationFailed({ message: "the code is wrong or too old; check the device clock and try again" })
        }
        const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode)
        const updatedAt = yield* isoNow
        const enabled = yield* Effect.gen(function* () {
          // Guarded by the pending secret: a second `begin` in between wins, this confirm does not.
          const changed = yield* sql<{ readonly id: string }>`UPDATE accounts_users
            SET mfa_enabled = 1, mfa_secret = ${pending}, mfa_pending_secret = NULL, mfa_last_step = ${step.value},
                updated_at = ${updatedAt}
            WHERE id = ${userId} AND mfa_enabled = 0 AND mfa_pending_secret = ${pending}
            RETURNING id`
          if (changed.length !== 1) return false
          yield* sql`DELETE FROM accounts_recovery_codes WHERE user_id = ${userId}`
          for (const code of codes) {
            yield* sql`INSERT INTO accounts_recovery_codes (user_id, code_hash) VALUES (${userId}, ${hashRecoveryCode(code)})`
          }
          return true
        }).pipe(sql.withTransaction, Effect.mapError(storeError("turn MFA on")))
        if (!enabled) return yield* new MfaNotPending()
        return codes
      })

    const turnOff = (userId: string) =>
      Effect.gen(function* () {
        const updatedAt = yield* isoNow
        yield* sql`UPDATE accounts_users
          SET mfa_enabled = 0, mfa_secret = NULL, mfa_pending_secret = NULL, mfa_last_step = NULL, updated_at = ${updatedAt}
          WHERE id = ${userId}`
        yield* sql`DELETE FROM accounts_recovery_codes WHERE user_id = ${userId}`
      }).pipe(sql.withTransaction, Effect.mapError(storeError("turn MFA off")))

    const disable: MfaShape["disable"] = (userId, proof) =>
      Effect.gen(function* () {
        const current = yield* row(userId)
        if (Option.isNone(current) || current.value.mfa_enabled !== 1) return yield* new MfaNotEnabled()
        const proven =
          proof.code !== undefined
            ? yield* acceptTotp(userId, current.value, proof.code)
            : proof.password !== undefined
              ? yield* passwords.verify(current.value.password_hash, proof.password)
              : false
        if (!proven) {
          return yield* new ConfirmationFailed({ message: "send a current MFA code or the account password" })
        }
        yield* turnOff(userId)
      })

    const acceptLoginCode: MfaShape["acceptLoginCode"] = (userId, code) =>
      Effect.gen(function* () {
        const current = yield* row(userId)
        if (Option.isNone(current) || current.value.mfa_enabled !== 1) return Option.none()
        if (yield* acceptTotp(userId, current.value, code)) return Option.some("totp" as const)
        if (!looksLikeRecoveryCode(code)) return Option.none()
        const used = yield* sql<{ readonly user_id: string }>`DELETE FROM accounts_recovery_codes
          WHERE user_id = ${userId} AND code_hash = ${hashRecoveryCode(code)} RETURNING user_id`.pipe(
          Effect.mapError(storeError("use a recovery code"))
        )
        return used.length === 1 ? Option.some("recovery" as const) : Option.none()
      })

    return Mfa.of({ begin, confirm, disable, acceptLoginCode, reset: turnOff })
  })

  static readonly layer = Layer.effect(Mfa, Mfa.make)
}
