/**
 * First run. On start, when no user exists, the first admin is created from
 * `ADMIN_USERNAME`/`ADMIN_PASSWORD` when both are set, else as `admin` with
 * a random password printed once to the log and marked must-change. The
 * setup endpoints create the first admin only while no user exists.
 */
import { Announcements, AuditTrail, StartupError } from "@garrison/runtime"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { AccountsConfig } from "../config.js"
import type { AccountStoreError, PasswordRejected, SetupClosed } from "../errors.js"
import { generatePassword } from "../passwords/Passwords.js"
import { type UserRecord, Users } from "../users/Users.js"

export const DEFAULT_ADMIN_USERNAME = "admin"

/** How a person gets a new one-time password for an admin (README, "First start"). */
export const RESET_ADMIN_COMMAND = "npm run reset-admin --"

export interface SetupShape {
  /** Setup is open while no user exists. */
  readonly isOpen: Effect.Effect<boolean, AccountStoreError>
  readonly createFirstAdmin: (
    input: { readonly username: string; readonly password: string },
    ip: string | null
  ) => Effect.Effect<UserRecord, SetupClosed | PasswordRejected | AccountStoreError>
  /** The plugin's start hook: a store failure stops the start. */
  readonly bootstrap: Effect.Effect<void, StartupError | AccountStoreError>
}

export class Setup extends Context.Tag("@garrison/plugins/accounts/Setup")<Setup, SetupShape>() {
  static readonly make = Effect.gen(function* () {
    const users = yield* Users
    const config = yield* AccountsConfig
    const announcements = yield* Announcements

    const createFirstAdmin: SetupShape["createFirstAdmin"] = (input, ip) =>
      Effect.tap(users.createFirstAdmin({ ...input, mustChangePassword: false }), (admin) =>
        Effect.flatMap(AuditTrail, (audit) =>
          // Named here: the first admin is made before anyone can sign in.
          audit.record({ actor: admin.id, actorName: admin.username, ip, action: "setup.admin", target: admin.username, result: "success" })
        )
      )

    // ADMIN_USERNAME and ADMIN_PASSWORD were checked before anything was written (`checkAccountsSettings`).
    const fromEnvironment = (username: string, password: string) =>
      Effect.gen(function* () {
        // Trusted: the start checked it against the policy (in a worker), so the dictionaries stay out of this process.
        const created = yield* Effect.either(users.createFirstAdmin({ username, password, mustChangePassword: false, passwordTrusted: true }))
        if (Either.isRight(created)) {
          yield* Effect.logInfo(`created the first admin "${username}" from ADMIN_USERNAME and ADMIN_PASSWORD`)
        } else if (created.left._tag === "PasswordRejected") {
          return yield* new StartupError({ reason: "config", message: `ADMIN_PASSWORD: ${created.left.message}` })
        } else if (created.left._tag === "AccountStoreError") {
          return yield* created.left
        }
      })

    const generated = Effect.gen(function* () {
      const password = generatePassword()
      const created = yield* Effect.either(
        users.createFirstAdmin({ username: DEFAULT_ADMIN_USERNAME, password, mustChangePassword: true, passwordTrusted: true })
      )
      if (Either.isLeft(created) && created.left._tag === "AccountStoreError") return yield* created.left
      if (Either.isRight(created)) {
        // The one time a password is logged, by design: there is no other way to hand it over. It is
        // announced once the controller listens, so a start that fails first shows no password.
        yield* announcements.announce(
          LogLevel.Warning,
          `created the first admin "${DEFAULT_ADMIN_USERNAME}" with the one-time password ${password} ; ` +
            "sign in and change it now (it is not shown again; set ADMIN_USERNAME and ADMIN_PASSWORD to choose your own)"
        )
      }
    })

    /** An admin still on a one-time password may have lost it: say how to get a new one. */
    const remindOfReset = Effect.gen(function* () {
      const waiting = (yield* users.list).filter((u) => u.role === "admin" && u.mustChangePassword && !u.disabled)
      for (const admin of waiting) {
        yield* announcements.announce(
          LogLevel.Warning,
          `the admin "${admin.username}" has not set its own password yet; if its one-time password is lost, ` +
            `run \`${RESET_ADMIN_COMMAND} ${admin.username}\` for a new one`
        )
      }
    })

    const bootstrap: SetupShape["bootstrap"] = Effect.gen(function* () {
      if ((yield* users.count) > 0) return yield* remindOfReset
      const username = Option.map(config.adminUsername, (s) => s.trim())
      const password = Option.map(config.adminPassword, Redacted.value)
      if (Option.isSome(username) && Option.isSome(password)) return yield* fromEnvironment(username.value, password.value)
      if (Option.isSome(username) || Option.isSome(password)) {
        yield* Effect.logWarning("only one of ADMIN_USERNAME and ADMIN_PASSWORD is set; both are needed, so a random admin password is generated")
      }
      yield* generated
    })

    return Setup.of({ isOpen: Effect.map(users.count, (n) => n === 0), createFirstAdmin, bootstrap })
  })

  static readonly layer = Layer.effect(Setup, Setup.make)
}
