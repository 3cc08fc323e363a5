/**
 * A first start that cannot go wrong, over real processes: a start that
 * fails (port taken, bad ADMIN_PASSWORD) writes nothing and shows no
 * password, so the next start is still a first start; the one-time password
 * is printed only once the controller listens; a later start says how to get
 * a new one, and `reset-admin` gives one; a stop says the game servers keep
 * running. On the PostgreSQL pass the controller and `reset-admin` share the
 * data directory's database (`DATABASE_URL`), and `reset-admin` also
 * refuses a database without Garrison's tables.
 */
import { postgresDatabase, startPostgres, testDatabaseEngine } from "@garrison/testkit/core"
import { afterAll, describe, expect, it } from "vitest"
import { existsSync } from "node:fs"
import { createServer } from "node:net"
import * as NodePath from "node:path"
import {
  freePort,
  HOST,
  makeTempDir,
  removeDir,
  repoRoot,
  requestJson,
  runControllerToExit,
  spawnNode,
  startController,
  stopProcess
} from "../support/controller.js"

const dirs: Array<string> = []
afterAll(() => dirs.forEach(removeDir))

/** A first start with a generated admin password (empty counts as unset). */
const NO_ADMIN_ENV = { ADMIN_USERNAME: "", ADMIN_PASSWORD: "" }

const tempRoot = () => {
  const dir = makeTempDir("garrison-first-start-")
  dirs.push(dir)
  return dir
}

const errorLines = (output: string) => output.split("\n").filter((line) => /\b(ERROR|FATAL)\b/.test(line))

const oneTimePassword = (output: string): string | undefined => /one-time password (\S+) ;/.exec(output)?.[1]

const login = (baseUrl: string, username: string, password: string) =>
  requestJson(baseUrl, "POST", "/api/auth/login", { body: { username, password } })

const resetAdmin = async (dataDir: string, ...args: ReadonlyArray<string>) => resetAdminWith({ DATA_DIR: dataDir }, ...args)

const resetAdminWith = async (env: Readonly<Record<string, string>>, ...args: ReadonlyArray<string>) => {
  const run = spawnNode({ args: [NodePath.join(repoRoot, "packages/http/dist/resetAdmin.js"), ...args], env: { ...env, ...NO_ADMIN_ENV } })
  const exit = await run.exited
  return { code: exit.code, output: run.output() }
}

/** reset-admin on an empty PostgreSQL database: refused twice (the first refusal made no tables: no migration ran). */
const refusesEmptyDatabase = async (url: string) => {
  const { username, host, pathname } = new URL(url)
  const where = `postgres://${username}@${host}${pathname}` // as the store names it: never a password
  for (let run = 0; run < 2; run++) {
    const empty = await resetAdminWith({ DATA_DIR: NodePath.join(tempRoot(), "data"), DATABASE_URL: url })
    expect(empty.code, empty.output).toBe(1)
    expect(empty.output.trim()).toBe(
      `cannot reset: no controller database at ${where}: the database has no Garrison tables (no garrison_migrations); ` +
        "start the controller once on this DATABASE_URL, or set DATABASE_URL to its database"
    )
  }
}

describe("a failed first start", () => {
  it("on a taken port writes nothing and shows no password; the next start is a first start", async () => {
    const dataDir = NodePath.join(tempRoot(), "data")
    const port = await freePort()
    const squatter = createServer()
    await new Promise<void>((resolve) => squatter.listen(port, HOST, resolve))
    try {
      const refused = await runControllerToExit({ dataDir, port, env: NO_ADMIN_ENV })
      expect(refused.code, refused.output).toBe(1)
      expect(errorLines(refused.output), refused.output).toEqual([expect.stringContaining(`cannot listen on ${HOST}:${port}: the port is already in use`)])
      expect(refused.output).not.toContain("one-time password")
      expect(existsSync(dataDir), "the data directory was created").toBe(false)
    } finally {
      await new Promise((resolve) => squatter.close(resolve))
    }

    const controller = await startController({ dataDir, port, env: NO_ADMIN_ENV })
    try {
      expect(oneTimePassword(controller.output()), controller.output()).toMatch(/^[A-Za-z0-9]{24}$/)
    } finally {
      await stopProcess(controller)
    }
  }, 60_000)

  it("with a bad ADMIN_PASSWORD says why in one line, before anything is written", async () => {
    const dataDir = NodePath.join(tempRoot(), "data")
    const refused = await runControllerToExit({ dataDir, env: { ADMIN_USERNAME: "boss", ADMIN_PASSWORD: "short" } })
    expect(refused.code, refused.output).toBe(1)
    expect(errorLines(refused.output), refused.output).toEqual([
      expect.stringMatching(/cannot start: ADMIN_PASSWORD: passwords are \d+ to \d+ characters long/)
    ])
    // No stack frame, no migration, no file.
    expect(refused.output).not.toMatch(/\n\s+at /)
    expect(refused.output).not.toContain("Applied migration")
    expect(existsSync(dataDir)).toBe(false)
  }, 30_000)

  it("with a weak or common ADMIN_PASSWORD (the password policy) says why in one line, before anything is written", async () => {
    const dataDir = NodePath.join(tempRoot(), "data")
    for (const [password, reason] of [
      ["Password1", /cannot start: ADMIN_PASSWORD: this password is among the most common ones; .*\(strength [0-2] of 4, at least 3 needed\)$/],
      ["boss-Lantern-Harbour-2026", /cannot start: ADMIN_PASSWORD: it contains your username/]
    ] as const) {
      const refused = await runControllerToExit({ dataDir, env: { ADMIN_USERNAME: "boss", ADMIN_PASSWORD: password } })
      expect(refused.code, refused.output).toBe(1)
      expect(errorLines(refused.output), refused.output).toEqual([expect.stringMatching(reason)])
      expect(refused.output).not.toMatch(/\n\s+at /)
      expect(existsSync(dataDir)).toBe(false)
    }
  }, 30_000)
})

describe("the first admin's password", () => {
  it("is printed after 'listening on'; a later start says how to get a new one; reset-admin gives one", async () => {
    const dataDir = NodePath.join(tempRoot(), "data")
    const first = await startController({ dataDir, env: NO_ADMIN_ENV })
    const firstOutput = first.output()
    await stopProcess(first)
    const password = oneTimePassword(firstOutput)
    expect(password, firstOutput).toBeDefined()
    const listening = firstOutput.indexOf(`listening on http://${HOST}:${first.port}`)
    expect(listening, firstOutput).toBeGreaterThan(-1)
    expect(firstOutput.indexOf("one-time password")).toBeGreaterThan(listening)
    // Shutdown: one line about the game servers, which outlive the controller.
    expect(first.output()).toContain("stopping: no game server is running")

    // Never signed in: the next start points at the reset command.
    const second = await startController({ dataDir, env: NO_ADMIN_ENV })
    try {
      expect(oneTimePassword(second.output())).toBeUndefined()
      expect(second.output()).toContain('the admin "admin" has not set its own password yet')
      expect(second.output()).toContain("npm run reset-admin -- admin")

      // The reset works beside the running controller: the old password and its session are gone.
      const before = await login(second.baseUrl, "admin", password!)
      expect(before.status).toBe(200)
      const oldToken = (before.body as { token: string }).token

      const reset = await resetAdmin(dataDir)
      expect(reset.code, reset.output).toBe(0)
      const fresh = /one-time password for the admin "admin": (\S+) ;/.exec(reset.output)?.[1]
      expect(fresh, reset.output).toMatch(/^[A-Za-z0-9]{24}$/)

      expect((await login(second.baseUrl, "admin", password!)).status).toBe(401)
      const after = await login(second.baseUrl, "admin", fresh!)
      expect(after.status).toBe(200)
      expect(after.body).toMatchObject({ user: { username: "admin", mustChangePassword: true } })
      // A live must-change session would get 403 here; the ended one is 401.
      const oldSession = await requestJson(second.baseUrl, "GET", "/api/servers", { headers: { authorization: `Bearer ${oldToken}` } })
      expect(oldSession.status).toBe(401)
    } finally {
      await stopProcess(second)
    }

    // Unknown names and missing databases are refused in one line, with what there is.
    const unknown = await resetAdmin(dataDir, "nobody")
    expect(unknown.code).toBe(1)
    expect(unknown.output.trim()).toBe('cannot reset: no user "nobody"; admins: admin')
    const bogus = await resetAdmin(dataDir, "--bogus")
    expect(bogus.code).toBe(1)
    expect(bogus.output.trim()).toBe("cannot reset: unknown option --bogus; usage: npm run reset-admin -- [username] [--mfa-off]")
    // SQLite (whatever the pass: DATABASE_URL empty): no garrison.db in DATA_DIR.
    const missing = NodePath.join(tempRoot(), "missing")
    const nowhere = await resetAdminWith({ DATA_DIR: missing, DATABASE_URL: "" })
    expect(nowhere.code).toBe(1)
    expect(nowhere.output.trim()).toBe(
      `cannot reset: no controller database at ${NodePath.join(missing, "garrison.db")}: start the controller once, or set DATA_DIR to its data directory`
    )
  }, 90_000)

  // On both passes: the run's PostgreSQL when it has one, else a server of this test's own.
  it("PostgreSQL: reset-admin refuses a database without Garrison's tables, and leaves it so", async () => {
    const own = testDatabaseEngine() === "postgres" ? undefined : await startPostgres()
    try {
      await refusesEmptyDatabase(own === undefined ? await postgresDatabase() : await own.createDatabase())
    } finally {
      await own?.stop()
    }
  }, 180_000)
})
