/**
 * The PostgreSQL harness against the real server (Debian's postgresql-15):
 * a server of the test's own, whatever GARRISON_TEST_DATABASE says, and,
 * when it says postgres, the run's server that the global setup started.
 */
import { describe, expect, inject, it } from "vitest"
import * as Fs from "node:fs"
import * as NodeNet from "node:net"
import * as Os from "node:os"
import * as NodePath from "node:path"
import { startPostgres, testDatabaseEngine, TEST_POSTGRES_URL_VARIABLE } from "../src/Postgres.js"
import { postgresDatabase, testPostgresUrl } from "../src/TestDatabase.js"

// initdb and a first start take 1 to 3 s, much more on a busy machine (three workers, fsync on).
const SLOW = 180_000

/** Whether a TCP port on 127.0.0.1 can be bound (nothing listens on it). */
const portIsFree = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = NodeNet.createServer()
    server.once("error", () => resolve(false))
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)))
  })

/** Whether a process is still running: gone, or a zombie waiting for its reaper, is not. */
const isRunning = (pid: number): boolean => {
  try {
    const status = Fs.readFileSync(`/proc/${pid}/status`, "utf8")
    return !/^State:\s+Z/m.test(status)
  } catch {
    return false
  }
}

describe("startPostgres", () => {
  it(
    "starts a PostgreSQL 15 of its own with separate databases, fsync on, and leaves nothing behind when stopped",
    async () => {
      const server = await startPostgres()
      let stopped = false
      try {
        expect(server.url).toBe(`postgres://garrison@127.0.0.1:${server.port}/postgres`)
        expect(NodePath.dirname(server.folder)).toBe(Os.tmpdir())
        expect(NodePath.basename(server.folder)).toMatch(/^garrison-pg-/)
        expect(server.user).toBe(process.getuid?.() === 0 ? process.env["PG_USER"] || "nobody" : undefined)

        expect(await server.query("SHOW server_version")).toMatch(/^15\./)
        expect(await server.query("SHOW fsync")).toBe("on")
        expect(await server.query("SHOW max_connections")).toBe("200")
        expect(await server.query("SHOW listen_addresses")).toBe("127.0.0.1")
        expect(await server.query("SELECT pg_encoding_to_char(encoding) || ' ' || datcollate FROM pg_database WHERE datname = 'postgres'")).toBe("UTF8 C")

        const first = await server.createDatabase()
        const second = await server.createDatabase()
        const [firstName, secondName] = [new URL(first).pathname.slice(1), new URL(second).pathname.slice(1)]
        expect(firstName).toMatch(/^garrison_\d+_\d+_[0-9a-f]+$/)
        expect(secondName).not.toBe(firstName)
        expect(first).toBe(`postgres://garrison@127.0.0.1:${server.port}/${firstName}`)

        await server.query("CREATE TABLE notes (id integer PRIMARY KEY, body text NOT NULL); INSERT INTO notes VALUES (1, 'hello')", firstName)
        expect(await server.query("SELECT body FROM notes", firstName)).toBe("hello")
        expect(await server.query("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", secondName)).toBe("0")
        await expect(server.query("SELECT body FROM notes", secondName)).rejects.toThrow(/relation "notes" does not exist/)

        await server.dropDatabase(secondName)
        expect(await server.query(`SELECT count(*) FROM pg_database WHERE datname = '${secondName}'`)).toBe("0")

        const pid = Number(Fs.readFileSync(NodePath.join(server.dataDir, "postmaster.pid"), "utf8").split("\n")[0])
        expect(isRunning(pid)).toBe(true)
        await server.stop()
        stopped = true
        expect(Fs.existsSync(server.folder)).toBe(false)
        expect(isRunning(pid)).toBe(false)
        expect(await portIsFree(server.port)).toBe(true)
        // A second stop is harmless.
        await server.stop()
      } finally {
        if (!stopped) await server.stop()
      }
    },
    SLOW
  )

  // Folders of a prefix of the test's own: other files start servers (garrison-pg-*) in the same folder meanwhile.
  const foldersOf = (prefix: string) => Fs.readdirSync(Os.tmpdir()).filter((name) => name.startsWith(prefix))

  it("fails naming the apt package when the binaries are missing, and makes no folder", async () => {
    const prefix = `garrison-pg-missing-${process.pid}-`
    const failure = startPostgres({ bin: "/nonexistent", prefix })
    await expect(failure).rejects.toThrow(/\/nonexistent\/postgres.*missing/)
    await expect(failure).rejects.toThrow(/apt-get install postgresql-15/)
    expect(foldersOf(prefix)).toEqual([])
  })

  it(
    "fails with the tail of the server's log when the server does not start, and removes its folder",
    async () => {
      const prefix = `garrison-pg-broken-${process.pid}-`
      const failure = startPostgres({ settings: { max_connections: -5 }, prefix })
      await expect(failure).rejects.toThrow(/server log[\s\S]*max_connections/)
      expect(foldersOf(prefix)).toEqual([])
    },
    SLOW
  )
})

describe("testDatabaseEngine", () => {
  it("reads GARRISON_TEST_DATABASE: sqlite unless it says postgres, and refuses anything else", () => {
    expect(testDatabaseEngine({})).toBe("sqlite")
    expect(testDatabaseEngine({ GARRISON_TEST_DATABASE: "" })).toBe("sqlite")
    expect(testDatabaseEngine({ GARRISON_TEST_DATABASE: "sqlite" })).toBe("sqlite")
    expect(testDatabaseEngine({ GARRISON_TEST_DATABASE: "postgres" })).toBe("postgres")
    expect(() => testDatabaseEngine({ GARRISON_TEST_DATABASE: "mysql" })).toThrow(/sqlite.*postgres/)
  })
})

describe("the run's PostgreSQL", () => {
  // One test for both engines (npm test runs the suite on each): the run has a server exactly when asked for one.
  it(
    "with GARRISON_TEST_DATABASE=postgres the global setup's server hands each caller a fresh database; without, asking says how to get one",
    async () => {
      if (testDatabaseEngine() === "sqlite") {
        expect(await testPostgresUrl()).toBeUndefined()
        await expect(postgresDatabase()).rejects.toThrow(/GARRISON_TEST_DATABASE=postgres/)
        return
      }
      const admin = await testPostgresUrl()
      expect(admin).toMatch(/^postgres:\/\/garrison@127\.0\.0\.1:\d+\/postgres$/)
      // Through vitest's provide/inject, and the environment too, for processes the tests spawn.
      expect(inject("postgresUrl")).toBe(admin)
      expect(process.env[TEST_POSTGRES_URL_VARIABLE]).toBe(admin)
      const [one, two] = await Promise.all([postgresDatabase(), postgresDatabase()])
      expect(one).not.toBe(two)
      expect(new URL(one).port).toBe(new URL(admin!).port)
    },
    SLOW
  )
})
