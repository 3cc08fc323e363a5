/**
 * Config backups of users and roles: no password hash and no MFA secret in
 * the export; a restore keeps the credentials of users that exist and gives
 * users new to this controller a one-time password they must change.
 */
import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect } from "effect"
import { accountsController, ADMIN, call, createUser, login, type Session, signIn, signInAdmin, totp } from "./support.js"

interface UsersBackup {
  readonly kind: string
  readonly version: number
  readonly users: Array<{ id: string; username: string; role: string; disabled: boolean }>
}

const turnOnMfa = (session: Session) =>
  Effect.gen(function* () {
    const setup = yield* call("POST", "/api/auth/mfa/setup", { headers: session.bearer })
    const { secret } = setup.body as { secret: string }
    const now = yield* Clock.currentTimeMillis
    yield* call("POST", "/api/auth/mfa/verify", { json: { code: totp(secret, now) }, headers: session.bearer })
    return secret
  })

describe("config backups", () => {
  it.scoped("the users backup carries no password hash and no MFA secret", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      const secret = yield* turnOnMfa(admin)
      yield* createUser(admin, { username: "mod", password: "quiet-harbour-lantern-41", role: "moderator" })
      const reply = yield* call("GET", "/api/backup/users", { headers: admin.bearer })
      expect(reply.status).toBe(200)
      const backup = reply.body as UsersBackup
      expect(backup).toMatchObject({ kind: "garrison.users", version: 1 })
      expect(backup.users.map((u) => [u.username, u.role])).toEqual([["mod", "moderator"], [ADMIN.username, "admin"]])
      expect(Object.keys(backup.users[0]!).sort()).toEqual(["disabled", "id", "role", "username"])
      expect(reply.text).not.toContain(secret)
      expect(reply.text).not.toMatch(/argon2|mfa|password/i)
    }).pipe(Effect.provide(accountsController())))

  it.scoped("a users restore keeps existing credentials and gives new users one-time, must-change passwords", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      yield* createUser(admin, { username: "mod", password: "quiet-harbour-lantern-41", role: "moderator" })
      const backup = (yield* call("GET", "/api/backup/users", { headers: admin.bearer })).body as UsersBackup

      const edited = {
        ...backup,
        users: [
          ...backup.users.map((u) => (u.username === "mod" ? { ...u, role: "chat-bot" } : u)),
          { username: "newcomer", role: "moderator", disabled: false },
          { username: "sleeper", role: "moderator", disabled: true }
        ]
      }
      const restored = yield* call("POST", "/api/restore/users", { json: edited, headers: admin.bearer })
      expect(restored.status).toBe(200)
      const report = restored.body as {
        created: Array<string>
        updated: Array<string>
        temporaryPasswords: Array<{ username: string; password: string }>
      }
      expect(report.created).toEqual(["newcomer", "sleeper"])
      expect(report.updated.sort()).toEqual(["mod", ADMIN.username].sort())
      expect(report.temporaryPasswords.map((t) => t.username)).toEqual(["newcomer", "sleeper"])

      // Existing users kept their passwords; the role came from the backup.
      const mod = yield* login("mod", "quiet-harbour-lantern-41")
      expect(mod.body).toMatchObject({ user: { role: "chat-bot" } })
      expect((yield* login(ADMIN.username, ADMIN.password)).status).toBe(200)

      // New users sign in with the one-time password and must change it first.
      const temporary = report.temporaryPasswords[0]!.password
      expect(temporary).toMatch(/^[A-Za-z0-9]{20}$/)
      const newcomer = yield* signIn("newcomer", temporary)
      const blocked = yield* call("POST", "/api/auth/mfa/setup", { headers: newcomer.bearer })
      expect(blocked.body).toMatchObject({ error: "password-change-required" })
      // Disabled in the backup: disabled here.
      expect((yield* login("sleeper", report.temporaryPasswords[1]!.password)).status).toBe(401)

      // A restore that would leave no enabled admin is refused whole.
      const coup = { kind: "garrison.users", version: 1, users: [{ username: ADMIN.username, role: "moderator", disabled: false }, { username: "x1", role: "moderator", disabled: false }] }
      expect((yield* call("POST", "/api/restore/users", { json: coup, headers: admin.bearer })).status).toBe(409)
      expect((yield* login("x1", "anything-at-all")).status).toBe(401)
      // An unknown role is a bad request; so is a roles document.
      const ghost = { kind: "garrison.users", version: 1, users: [{ username: "x2", role: "ghosts", disabled: false }] }
      expect((yield* call("POST", "/api/restore/users", { json: ghost, headers: admin.bearer })).status).toBe(400)
      expect((yield* call("POST", "/api/restore/users", { json: { kind: "garrison.roles", version: 1, roles: [] }, headers: admin.bearer })).status).toBe(400)
    }).pipe(Effect.provide(accountsController())))

  it.scoped("a roles backup round-trips; unknown permissions are 400; the admin role keeps `admin`", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      yield* call("POST", "/api/roles", { json: { name: "ops", permissions: ["server.view"] }, headers: admin.bearer })
      const backup = (yield* call("GET", "/api/backup/roles", { headers: admin.bearer })).body as {
        kind: string
        roles: Array<{ name: string; permissions: Array<string>; builtIn: boolean }>
      }
      expect(backup.kind).toBe("garrison.roles")
      expect(backup.roles.map((r) => r.name).sort()).toEqual(["admin", "chat-bot", "moderator", "ops"])

      const unknown = { ...backup, roles: [{ name: "x", permissions: ["nope.nope"] }] }
      const bad = yield* call("POST", "/api/restore/roles", { json: unknown, headers: admin.bearer })
      expect(bad.status).toBe(400)
      expect(bad.body).toMatchObject({ details: { unknown: ["nope.nope"] } })

      const edited = {
        ...backup,
        roles: [
          ...backup.roles.map((r) => (r.name === "admin" ? { ...r, permissions: ["server.view"] } : r.name === "ops" ? { ...r, permissions: ["server.start"] } : r)),
          { name: "auditors", permissions: ["server.view", "players.view"] }
        ]
      }
      const restored = yield* call("POST", "/api/restore/roles", { json: edited, headers: admin.bearer })
      expect(restored.status).toBe(200)
      expect(restored.body).toMatchObject({ created: ["auditors"] })
      const roles = ((yield* call("GET", "/api/roles", { headers: admin.bearer })).body as { items: Array<{ name: string; permissions: Array<string> }> }).items
      expect(roles.find((r) => r.name === "admin")?.permissions).toEqual(["admin"])
      expect(roles.find((r) => r.name === "ops")?.permissions).toEqual(["server.start"])
      expect(roles.find((r) => r.name === "auditors")?.permissions).toEqual(["server.view", "players.view"])
    }).pipe(Effect.provide(accountsController())))
})
