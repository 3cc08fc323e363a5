/**
 * Domain errors to the host's HTTP errors. The mapping is typed, so each
 * endpoint declares exactly the HTTP errors its handler can produce. Every
 * handler's errors go through `asHttp`, the one place a store failure
 * (`AccountStoreError`) is answered: `storeDefect`, a 500 with a request id,
 * the database's message in the log only.
 *
 * Not the runtime's shared mappers (`fieldBadRequest`, `notFoundWith`, ...):
 * `asHttp` maps a whole union at once and answers, per error type, the one
 * HTTP class it becomes (`HttpFor`), which needs the errors as values from
 * one switch; most of these refusals name no field (a 400 here has no
 * `details` path, except a refused password's), so the shared 400 shape
 * would change what they answer.
 */
import { BadRequest, Conflict, Forbidden, NotFound, storeDefect } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import {
  AccountStoreError,
  type BuiltInRole,
  type ConfirmationFailed,
  type InvalidBackup,
  type LastAdmin,
  type MfaAlreadyEnabled,
  type MfaNotEnabled,
  type MfaNotPending,
  type PasswordRejected,
  type RoleExists,
  type RoleInUse,
  type RoleNotFound,
  type SetupClosed,
  type UnknownPermissions,
  type UsernameTaken,
  type UserNotFound
} from "../errors.js"

export type AccountsError =
  | PasswordRejected
  | UsernameTaken
  | UserNotFound
  | RoleNotFound
  | RoleExists
  | UnknownPermissions
  | BuiltInRole
  | RoleInUse
  | LastAdmin
  | SetupClosed
  | MfaAlreadyEnabled
  | MfaNotPending
  | MfaNotEnabled
  | ConfirmationFailed
  | InvalidBackup

type HttpError = BadRequest | NotFound | Forbidden | Conflict

type HttpFor<E> = E extends HttpError
  ? E
  : E extends AccountStoreError
  ? never
  : E extends PasswordRejected | UnknownPermissions | InvalidBackup
  ? BadRequest
  : E extends UserNotFound | RoleNotFound
    ? NotFound
    : E extends ConfirmationFailed
      ? Forbidden
      : Conflict

export const toHttpError = (error: AccountsError): BadRequest | NotFound | Forbidden | Conflict => {
  switch (error._tag) {
    case "PasswordRejected":
      // The shape of a refused field (the runtime's fieldBadRequest): the field in the message and in `details`.
      return new BadRequest({ message: `${error.field}: ${error.message}`, details: [{ path: error.field, message: error.message }] })
    case "UnknownPermissions":
      return new BadRequest({
        message: `unknown permission${error.names.length === 1 ? "" : "s"}: ${error.names.join(", ")}`,
        details: { unknown: error.names }
      })
    case "InvalidBackup":
      return new BadRequest({ message: error.message })
    case "UserNotFound":
      return new NotFound({ message: `no user with id "${error.id}"` })
    case "RoleNotFound":
      return new NotFound({ message: `no role named "${error.name}"` })
    case "ConfirmationFailed":
      return new Forbidden({ message: error.message })
    case "UsernameTaken":
      return new Conflict({ message: `the username "${error.username}" is taken` })
    case "RoleExists":
      return new Conflict({ message: `a role named "${error.name}" exists` })
    case "BuiltInRole":
      return new Conflict({ message: error.message })
    case "RoleInUse":
      return new Conflict({ message: `role "${error.name}" is held by ${error.users} user(s); move them to another role first` })
    case "LastAdmin":
      return new Conflict({ message: error.message })
    case "SetupClosed":
      return new Conflict({ message: "setup is closed: a user already exists; sign in instead" })
    case "MfaAlreadyEnabled":
      return new Conflict({ message: "MFA is already on; disable it first to enrol a new device" })
    case "MfaNotPending":
      return new Conflict({ message: "no MFA enrolment in progress; start with POST /api/auth/mfa/setup" })
    case "MfaNotEnabled":
      return new Conflict({ message: "MFA is not on for this account" })
  }
}

/**
 * Maps a service's domain errors to HTTP errors, keeping the types exact;
 * a store failure is a fault, not an answer: it dies (`storeDefect`).
 */
export const asHttp = <A, E extends AccountsError | AccountStoreError | HttpError, R>(
  self: Effect.Effect<A, E, R>
): Effect.Effect<A, HttpFor<E>, R> =>
  Effect.catchAll(self, (error) =>
    error instanceof AccountStoreError
      ? storeDefect(error)
      : // Neither a store nor an HTTP error, so one of AccountsError; toHttpError answers the class HttpFor<E>
        // names for each E, and the compiler cannot follow the switch.
        Effect.fail((isHttpError(error) ? error : toHttpError(error as AccountsError)) as HttpFor<E>)
  )

const isHttpError = (error: unknown): error is HttpError =>
  error instanceof BadRequest || error instanceof NotFound || error instanceof Forbidden || error instanceof Conflict

/** When an unknown role in a request body is a bad request rather than a missing resource. */
export const roleAsBadRequest = <A, E, R>(self: Effect.Effect<A, E | RoleNotFound, R>): Effect.Effect<A, E | BadRequest, R> =>
  Effect.catchIf(
    self,
    (error): error is RoleNotFound => typeof error === "object" && error !== null && "_tag" in error && error._tag === "RoleNotFound",
    (error) => Effect.fail(new BadRequest({ message: `no role named "${error.name}"` }))
  )
