/**
 * Users: the accounts table and every change to it. Disabling or deleting
 * a user, or setting their password, ends their sessions in the same
 * transaction; a change that would leave no enabled admin is refused.
 * Exported so other plugins can look users up.
 */
import { AccountChanges, changingWrites } from "../authenticator/AccountChanges.js"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { randomUUID } from "node:crypto"
import {
  type AccountStoreError,
  LastAdmin,
  PasswordRejected,
  RoleNotFound,
  SetupClosed,
  storeError,
  UsernameTaken,
  UserNotFound
} from "../errors.js"
import { Mfa } from "../mfa/Mfa.js"
import { generatePassword, Passwords } from "../passwords/Passwords.js"
import { keepingAnAdmin } from "../roles/adminGuard.js"
import { ADMIN_ROLE } from "../roles/builtIn.js"
import { parsePermissions, splitGrants } from "../roles/permissions.js"
import { Sessions } from "../sessions/Sessions.js"
import { userPaging } from "./paging.js"
import { usernameKey } from "./username.js"

/** A user as the API shows it: never a hash or a secret. */
export interface UserRecord {
  readonly id: string
  readonly username: string
  readonly role: string
  readonly disabled: boolean
  readonly mustChangePassword: boolean
  readonly mfaEnabled: boolean
  readonly createdAt: string
  readonly updatedAt: string
}

export interface NewUser {
  readonly username: string
  readonly password: string
  readonly role: string
  readonly mustChangePassword: boolean
  /**
   * The policy does not judge it: a password the controller made (`generatePassword`, a one-time password),
   * or ADMIN_PASSWORD, which the start checked already (`checkAccountsSettings`, in a worker thread).
   */
  readonly passwordTrusted?: boolean | undefined
}

export interface UserPatch {
  readonly username?: string | undefined
  readonly role?: string | undefined
  readonly disabled?: boolean | undefined
  /** Set by an admin: the user must change it at next sign-in unless `mustChangePassword` is false. */
  readonly password?: string | undefined
  /** As `NewUser.passwordTrusted`. */
  readonly passwordTrusted?: boolean | undefined
  readonly mustChangePassword?: boolean | undefined
  /** Only `false`: an admin can turn a user's MFA off, never on. */
  readonly mfaEnabled?: false | undefined
}

export interface RestoredUser {
  readonly id?: string | undefined
  readonly username: string
  readonly role: string
  readonly disabled: boolean
}

export interface RestoreReport {
  readonly created: ReadonlyArray<string>
  readonly updated: ReadonlyArray<string>
  /** One-time passwords of the users new to this controller (they must change them). */
  readonly temporaryPasswords: ReadonlyArray<{ readonly username: string; readonly password: string }>
}

/** Every method fails with `AccountStoreError` when the database does. */
export interface UsersShape {
  /** Every user, in username order (ignoring case). */
  readonly list: Effect.Effect<ReadonlyArray<UserRecord>, AccountStoreError>
  /**
   * Up to `limit` users in username order after the one whose `usernameKey`
   * is `afterKey` (from the start when undefined), and how many there are.
   */
  readonly listAfter: (
    afterKey: string | undefined,
    limit: number
  ) => Effect.Effect<{ readonly users: ReadonlyArray<UserRecord>; readonly total: number }, AccountStoreError>
  readonly findById: (id: string) => Effect.Effect<Option.Option<UserRecord>, AccountStoreError>
  readonly findByUsername: (username: string) => Effect.Effect<Option.Option<UserRecord>, AccountStoreError>
  readonly count: Effect.Effect<number, AccountStoreError>
  /** The user and what their role grants now: everywhere (`permissions`) and on some servers only (`scoped`). */
  readonly principal: (id: string) => Effect.Effect<
    Option.Option<{
      readonly user: UserRecord
      readonly permissions: ReadonlySet<string>
      readonly scoped: ReadonlyMap<string, ReadonlySet<string>>
    }>,
    AccountStoreError
  >
  /** For sign-in only: the user and their password hash. */
  readonly credentials: (
    username: string
  ) => Effect.Effect<Option.Option<{ readonly user: UserRecord; readonly passwordHash: string }>, AccountStoreError>
  readonly create: (input: NewUser) => Effect.Effect<UserRecord, UsernameTaken | RoleNotFound | PasswordRejected | AccountStoreError>
  /** Creates an admin only while no user exists (atomic, so two racing setups cannot both win). */
  readonly createFirstAdmin: (input: Omit<NewUser, "role">) => Effect.Effect<UserRecord, SetupClosed | PasswordRejected | AccountStoreError>
  readonly update: (
    id: string,
    patch: UserPatch
  ) => Effect.Effect<UserRecord, UserNotFound | UsernameTaken | RoleNotFound | PasswordRejected | LastAdmin | AccountStoreError>
  readonly remove: (id: string) => Effect.Effect<void, UserNotFound | LastAdmin | AccountStoreError>
  /** The user's own change: clears must-change and ends their other sessions. */
  readonly changeOwnPassword: (
    id: string,
    newPassword: string,
    currentSession: string
  ) => Effect.Effect<void, PasswordRejected | AccountStoreError>
  /** Stores a hash made with today's parameters for a password that just verified. */
  readonly rehash: (id: string, password: string) => Effect.Effect<void, AccountStoreError>
  readonly restore: (users: ReadonlyArray<RestoredUser>) => Effect.Effect<RestoreReport, RoleNotFound | LastAdmin | AccountStoreError>
}

interface UserRow {
  readonly id: string
  readonly username: string
  readonly role: string
  readonly disabled: number
  readonly must_change_password: number
  readonly mfa_enabled: number
  readonly created_at: string
  readonly updated_at: string
}

const toRecord = (row: UserRow): UserRecord => ({
  id: row.id,
  username: row.username,
  role: row.role,
  disabled: row.disabled === 1,
  mustChangePassword: row.must_change_password === 1,
  mfaEnabled: row.mfa_enabled === 1,
  createdAt: row.created_at,
  updatedAt: row.updated_at
})

const flag = (value: boolean) => (value ? 1 : 0)

export class Users extends Context.Tag("@garrison/plugins/accounts/Users")<Users, UsersShape>() {
  static readonly make = Effect.gen(function* () {
    const changes = yield* AccountChanges
    const sql = yield* SqlClient.SqlClient
    const passwords = yield* Passwords
    const sessions = yield* Sessions
    const mfa = yield* Mfa
    const isoNow = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms).toISOString())
    const columns = sql`id, username, role, disabled, must_change_password, mfa_enabled, created_at, updated_at`

    const one = (rows: ReadonlyArray<UserRow>) => Option.map(Option.fromNullable(rows[0]), toRecord)
    const byId = (id: string) => Effect.map(sql<UserRow>`SELECT ${columns} FROM accounts_users WHERE id = ${id}`, one)
    const byKey = (username: string) =>
      Effect.map(sql<UserRow>`SELECT ${columns} FROM accounts_users WHERE username_key = ${usernameKey(username)}`, one)
    const roleExists = (role: string) =>
      Effect.map(sql<{ readonly name: string }>`SELECT name FROM accounts_roles WHERE name = ${role}`, (rows) => rows.length === 1)

    const insert = (id: string, input: NewUser, hash: string, now: string) =>
      sql<{ readonly id: string }>`INSERT INTO accounts_users
        (id, username, username_key, password_hash, role, disabled, must_change_password, mfa_enabled,
         mfa_secret, mfa_pending_secret, mfa_last_step, created_at, updated_at)
        VALUES (${id}, ${input.username}, ${usernameKey(input.username)}, ${hash}, ${input.role}, 0,
          ${flag(input.mustChangePassword)}, 0, NULL, NULL, NULL, ${now}, ${now})
        ON CONFLICT (username_key) DO NOTHING RETURNING id`

    const created = (id: string, input: Omit<NewUser, "password">, now: string): UserRecord => ({
      id,
      username: input.username,
      role: input.role,
      disabled: false,
      mustChangePassword: input.mustChangePassword,
      mfaEnabled: false,
      createdAt: now,
      updatedAt: now
    })

    /** The hash of a new password: a chosen one within the policy (named as the request field `password`), a trusted one as it is. */
    const hashNew = (password: string, username: string, trusted: boolean | undefined) =>
      trusted === true ? passwords.hashUnchecked(password) : passwords.hash(password, { username, field: "password" })

    const count = Effect.map(sql<{ readonly n: number }>`SELECT COUNT(*) AS n FROM accounts_users`, (rows) => Number(rows[0]?.n ?? 0))

    const list: UsersShape["list"] = sql<UserRow>`SELECT ${columns} FROM accounts_users ORDER BY username_key`.pipe(
      Effect.map((rows) => rows.map(toRecord)),
      Effect.mapError(storeError("list users"))
    )

    const listAfter: UsersShape["listAfter"] = (afterKey, limit) =>
      Effect.all({
        users: sql<UserRow>`SELECT ${columns} FROM accounts_users
          WHERE ${afterKey === undefined ? sql`1 = 1` : userPaging.after(sql, afterKey)}
          ORDER BY ${sql.literal(userPaging.orderBy)} LIMIT ${limit}`.pipe(
          Effect.map((rows) => rows.map(toRecord))
        ),
        total: count
      }).pipe(sql.withTransaction, Effect.mapError(storeError("list a page of users")))

    const principal: UsersShape["principal"] = (id) =>
      sql<UserRow & { readonly permissions: string }>`
        SELECT u.id, u.username, u.role, u.disabled, u.must_change_password, u.mfa_enabled, u.created_at, u.updated_at,
               r.permissions
        FROM accounts_users u JOIN accounts_roles r ON r.name = u.role WHERE u.id = ${id}`.pipe(
        Effect.map((rows) =>
          Option.map(Option.fromNullable(rows[0]), (row) => ({ user: toRecord(row), ...splitGrants(parsePermissions(row.permissions)) }))
        ),
        Effect.mapError(storeError("read a user and their role"))
      )

    const credentials: UsersShape["credentials"] = (username) =>
      sql<UserRow & { readonly password_hash: string }>`
        SELECT ${columns}, password_hash FROM accounts_users WHERE username_key = ${usernameKey(username)}`.pipe(
        Effect.map((rows) =>
          Option.map(Option.fromNullable(rows[0]), (row) => ({ user: toRecord(row), passwordHash: row.password_hash }))
        ),
        Effect.mapError(storeError("read a user's credentials"))
      )

    const create: UsersShape["create"] = (input) =>
      Effect.gen(function* () {
        // Hash first: the transaction should not wait on Argon2.
        const hash = yield* hashNew(input.password, input.username, input.passwordTrusted)
        const now = yield* isoNow
        const id = randomUUID()
        return yield* Effect.gen(function* () {
          if (!(yield* roleExists(input.role))) return yield* new RoleNotFound({ name: input.role })
          const inserted = yield* insert(id, input, hash, now)
          if (inserted.length === 0) return yield* new UsernameTaken({ username: input.username })
          return created(id, input, now)
        }).pipe(
          sql.withTransaction,
          Effect.catchTag("SqlError", (e) => Effect.fail(storeError("create a user")(e)))
        )
      })

    const createFirstAdmin: UsersShape["createFirstAdmin"] = (input) =>
      Effect.gen(function* () {
        // A closed setup is 409 whatever the password: answered before the policy and Argon2 (the insert below stays the atomic check).
        if ((yield* Effect.mapError(count, storeError("count the users"))) > 0) return yield* new SetupClosed()
        const hash = yield* hashNew(input.password, input.username, input.passwordTrusted)
        const now = yield* isoNow
        const id = randomUUID()
        const admin = { ...input, role: ADMIN_ROLE }
        const inserted = yield* sql<{ readonly id: string }>`INSERT INTO accounts_users
          (id, username, username_key, password_hash, role, disabled, must_change_password, mfa_enabled,
           mfa_secret, mfa_pending_secret, mfa_last_step, created_at, updated_at)
          SELECT ${id}, ${input.username}, ${usernameKey(input.username)}, ${hash}, ${ADMIN_ROLE}, 0,
            ${flag(input.mustChangePassword)}, 0, NULL, NULL, NULL, ${now}, ${now}
          WHERE NOT EXISTS (SELECT 1 FROM accounts_users)
          RETURNING id`.pipe(Effect.mapError(storeError("create the first admin")))
        if (inserted.length === 0) return yield* new SetupClosed()
        return created(id, admin, now)
      })

    const update: UsersShape["update"] = (id, patch) =>
      Effect.gen(function* () {
        let hash: string | undefined
        if (patch.password !== undefined) {
          // The policy looks for the username the user will have: read it before hashing, outside the transaction.
          const current = yield* Effect.mapError(byId(id), storeError("read a user"))
          if (Option.isNone(current)) return yield* new UserNotFound({ id })
          hash = yield* hashNew(patch.password, patch.username ?? current.value.username, patch.passwordTrusted)
        }
        const now = yield* isoNow
        return yield* keepingAnAdmin(
          sql,
          "this would leave no enabled admin; make another user an admin first",
          Effect.gen(function* () {
            const current = yield* byId(id)
            if (Option.isNone(current)) return yield* new UserNotFound({ id })
            const user = current.value
            if (patch.username !== undefined && usernameKey(patch.username) !== usernameKey(user.username)) {
              const taken = yield* byKey(patch.username)
              if (Option.isSome(taken)) return yield* new UsernameTaken({ username: patch.username })
            }
            if (patch.role !== undefined && !(yield* roleExists(patch.role))) return yield* new RoleNotFound({ name: patch.role })
            const next: UserRecord = {
              ...user,
              username: patch.username ?? user.username,
              role: patch.role ?? user.role,
              disabled: patch.disabled ?? user.disabled,
              mustChangePassword: patch.mustChangePassword ?? (hash !== undefined ? true : user.mustChangePassword),
              updatedAt: now
            }
            yield* sql`UPDATE accounts_users SET username = ${next.username}, username_key = ${usernameKey(next.username)},
              role = ${next.role}, disabled = ${flag(next.disabled)}, must_change_password = ${flag(next.mustChangePassword)},
              updated_at = ${now}
              WHERE id = ${id}`
            if (hash !== undefined) yield* sql`UPDATE accounts_users SET password_hash = ${hash} WHERE id = ${id}`
            if (patch.mfaEnabled === false && user.mfaEnabled) yield* mfa.reset(id)
            // A disabled user, or one whose password an admin reset, is signed out everywhere.
            if ((next.disabled && !user.disabled) || hash !== undefined) yield* sessions.revokeAllFor(id)
            return { ...next, mfaEnabled: patch.mfaEnabled === false ? false : user.mfaEnabled }
          })
        ).pipe(Effect.catchTag("SqlError", (e) => Effect.fail(storeError("update a user")(e))))
      })

    const remove: UsersShape["remove"] = (id) =>
      keepingAnAdmin(
        sql,
        "this is the last enabled admin; make another user an admin first",
        Effect.gen(function* () {
          const deleted = yield* sql<{ readonly id: string }>`DELETE FROM accounts_users WHERE id = ${id} RETURNING id`
          if (deleted.length === 0) return yield* new UserNotFound({ id })
          yield* sessions.revokeAllFor(id)
        })
      ).pipe(Effect.catchTag("SqlError", (e) => Effect.fail(storeError("delete a user")(e))))

    const changeOwnPassword: UsersShape["changeOwnPassword"] = (id, newPassword, currentSession) =>
      Effect.gen(function* () {
        const user = yield* Effect.mapError(byId(id), storeError("read a user"))
        const username = Option.match(user, { onNone: () => "", onSome: (u) => u.username })
        const hash = yield* passwords.hash(newPassword, { username, field: "newPassword" })
        const now = yield* isoNow
        yield* Effect.gen(function* () {
          yield* sql`UPDATE accounts_users SET password_hash = ${hash}, must_change_password = 0, updated_at = ${now}
            WHERE id = ${id}`
          yield* sessions.revokeAllFor(id, currentSession)
        }).pipe(
          sql.withTransaction,
          Effect.catchTag("SqlError", (e) => Effect.fail(storeError("change a user's own password")(e)))
        )
      })

    const rehash: UsersShape["rehash"] = (id, password) =>
      // Only ever called with a password that verified, which may predate today's policy: hashed as it is.
      passwords.hashUnchecked(password).pipe(
        Effect.flatMap((hash) => sql`UPDATE accounts_users SET password_hash = ${hash} WHERE id = ${id}`),
        Effect.asVoid,
        Effect.mapError(storeError("store a rehashed password"))
      )

    const restore: UsersShape["restore"] = (users) =>
      Effect.gen(function* () {
        for (const role of new Set(users.map((u) => u.role))) {
          if (!(yield* Effect.mapError(roleExists(role), storeError("read the roles of a users restore")))) {
            return yield* new RoleNotFound({ name: role })
          }
        }
        // Passwords for the users that look new, hashed before the transaction.
        const fresh = new Map<string, { readonly password: string; readonly hash: string }>()
        for (const user of users) {
          if (Option.isSome(yield* Effect.mapError(byKey(user.username), storeError("read the users of a users restore")))) continue
          const password = generatePassword(20)
          fresh.set(usernameKey(user.username), { password, hash: yield* passwords.hashUnchecked(password) })
        }
        const now = yield* isoNow
        return yield* keepingAnAdmin(
          sql,
          "the restore would leave no enabled admin",
          Effect.gen(function* () {
            const report = { created: [] as Array<string>, updated: [] as Array<string>, temporaryPasswords: [] as Array<{ username: string; password: string }> }
            for (const user of users) {
              const existing = yield* byKey(user.username)
              const secret = fresh.get(usernameKey(user.username))
              if (Option.isSome(existing) || secret === undefined) {
                if (Option.isNone(existing)) continue
                // Existing users keep their password and MFA; role and state come from the backup.
                yield* sql`UPDATE accounts_users SET role = ${user.role}, disabled = ${flag(user.disabled)}, updated_at = ${now}
                  WHERE id = ${existing.value.id}`
                if (user.disabled && !existing.value.disabled) yield* sessions.revokeAllFor(existing.value.id)
                report.updated.push(existing.value.username)
                continue
              }
              const idTaken = user.id !== undefined && Option.isSome(yield* byId(user.id))
              const id = user.id !== undefined && !idTaken ? user.id : randomUUID()
              yield* insert(id, { username: user.username, password: "", role: user.role, mustChangePassword: true }, secret.hash, now)
              if (user.disabled) yield* sql`UPDATE accounts_users SET disabled = 1 WHERE id = ${id}`
              report.created.push(user.username)
              report.temporaryPasswords.push({ username: user.username, password: secret.password })
            }
            return report
          })
        ).pipe(Effect.catchTag("SqlError", (e) => Effect.fail(storeError("restore users")(e))))
      })

    return Users.of(
      changingWrites(
        changes,
        {
      list,
      listAfter,
      findById: (id) => Effect.mapError(byId(id), storeError("read a user")),
      findByUsername: (username) => Effect.mapError(byKey(username), storeError("read a user")),
      count: Effect.mapError(count, storeError("count users")),
      principal,
      credentials,
      create,
      createFirstAdmin,
      update,
      remove,
      changeOwnPassword,
      rehash,
      restore
        },
        ["create", "createFirstAdmin", "update", "remove", "changeOwnPassword", "restore"]
      )
    )
  })

  static readonly layer = Layer.effect(Users, Users.make)
}
