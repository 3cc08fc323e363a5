/**
 * A controller plus simulated servers, for end-to-end tests over real
 * processes: the real controller (TestAuthPlugin header auth as an admin,
 * short actor timings) on a temporary data directory, simulated DayZ
 * installs, server entries made for them through `POST /api/servers`, and
 * polling helpers for what the API and the engine log report.
 *
 * ```ts
 * const fleet = makeFleet()
 * afterAll(() => fleet.close())
 * // in the test:
 * const install = await fleet.installSim()
 * await fleet.startController()
 * const created = await fleet.createServer(install, "Sim 1")   // assert 201 in the test
 * await fleet.api("POST", `/api/servers/${id}/start`)
 * await fleet.rconConnected(id, 15_000)
 * ```
 *
 * Framework-free like `controller.ts` and `sim.ts`: the tests keep their
 * own assertions. `close()` stops and removes everything the fleet made,
 * last made first; game servers the controller started are not its own.
 */
import * as NodePath from "node:path"
import {
  type ControllerHandle,
  delay,
  type ExitInfo,
  type JsonResponse,
  makeTempDir,
  removeDir,
  requestJson,
  startController,
  stopProcess,
  testAuth,
  testPlugins
} from "./controller.js"
import { installSim, type InstallSimOptions, readRpt, type SimInstall, simArguments, testSimSettings } from "./sim.js"

/** Every request of a fleet carries this: an admin through the TestAuthPlugin. */
export const fleetAuth = testAuth(["admin"], "e2e")

/** The watchdog's first delay in the fleet's controller (`WATCHDOG_BASE_DELAY`), for tests that wait it out. */
export const FLEET_WATCHDOG_BASE_DELAY_MS = 300

/** The controller's environment: fast watchdog, status sampling, RCON retries and restarts; no scheduled backup. */
export const fleetEnv: Readonly<Record<string, string>> = {
  WATCHDOG_BASE_DELAY: `${FLEET_WATCHDOG_BASE_DELAY_MS} millis`,
  SERVER_STATUS_INTERVAL: "300 millis",
  RCON_RETRY_DELAY: "200 millis",
  SERVER_RESTART_BACKOFF: "200 millis",
  DB_BACKUP_INTERVAL: "365 days"
}

/** The `extraArgs` of every entry `createServer` makes: the quiet test settings of the simulator. */
/**
 * `fleetEnv` for a controller with real accounts and no Steam (SteamCMD
 * missing, the Web API on a closed loopback port: 503s at once), behind one
 * trusted proxy so each request may name its client address.
 */
export const offlineAdminEnv = (dataDir: string, admin: { readonly username: string; readonly password: string }): Readonly<Record<string, string>> => ({
  ...fleetEnv,
  TRUST_PROXY: "1",
  ADMIN_USERNAME: admin.username,
  ADMIN_PASSWORD: admin.password,
  STEAMCMD_PATH: NodePath.join(dataDir, "no-steamcmd.sh"),
  STEAM_WEB_API_URL: "http://127.0.0.1:9",
  DEPLOY_DIR: NodePath.join(dataDir, "deployed")
})

export const fleetSimArgs: ReadonlyArray<string> = simArguments(testSimSettings)

/** `GET /api/servers/:id/status`, as far as the tests read it. */
export interface ServerStatus {
  readonly id: string
  readonly status: string
  readonly pid: number | null
  readonly playerCount: number
  readonly players: ReadonlyArray<{ readonly slot: number; readonly name: string }>
  readonly locked: boolean
  readonly rconStatus: string | null
  readonly lastError: string | null
  readonly consecutiveCrashes: number
  readonly map: string | null
  readonly version: string | null
}

/** `GET /api/servers/:id/players`: a live snapshot, so one page (`nextCursor` null) and `total` the players online. */
export interface PlayerList {
  readonly items: ReadonlyArray<{ readonly slot: number; readonly name: string }>
  readonly nextCursor: null
  readonly total: number
}

/** Polls `probe` every 100 ms until `done` holds; fails naming `what` and the last value after `timeoutMs`. */
export const until = async <A>(probe: () => Promise<A> | A, done: (a: A) => boolean, timeoutMs: number, what: string): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  let last: A | undefined
  while (Date.now() < deadline) {
    last = await probe()
    if (done(last)) return last
    await delay(100)
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last: ${JSON.stringify(last)}`)
}

/**
 * State that one test of an ordered `describe.sequential` leaves for the
 * next (a server's id, a pid): `set` it in the test that makes it, `get` it
 * in the tests after. A test whose predecessor failed then fails at once,
 * naming that test, instead of with a confusing error of its own.
 */
export interface Handoff<A> {
  readonly set: (value: A) => A
  readonly get: () => A
}

export const handoff = <A>(setBy: string): Handoff<A> => {
  let value: A | undefined
  return {
    set: (next) => (value = next),
    get: () => {
      if (value === undefined) throw new Error(`this test starts where "${setBy}" ends, and that test did not finish`)
      return value
    }
  }
}

/** Waits until the install's newest RPT holds `text`. */
export const rptContains = (install: SimInstall, text: string, timeoutMs: number): Promise<string> =>
  until(() => readRpt(install), (t) => t.includes(text), timeoutMs, `"${text}" in the RPT`)

export interface Fleet {
  /** Installs a simulator into a new temporary folder (removed by `close`). */
  readonly installSim: (options?: InstallSimOptions) => Promise<SimInstall>
  /** Starts the controller and waits until it answers; the first call makes the data directory, later ones reuse it (a restart). */
  readonly startController: () => Promise<ControllerHandle>
  /** Stops the running controller (SIGTERM, then SIGKILL); its data directory stays. */
  readonly stopController: () => Promise<ExitInfo>
  /** The running controller's base URL (`http://127.0.0.1:<port>`). */
  readonly baseUrl: () => string
  /** The admin's credentials as headers (the test header, or `admin`'s bearer token). */
  readonly authHeaders: () => Promise<Readonly<Record<string, string>>>
  /** One request to the running controller as the admin (the test header, or `admin`'s bearer token), with a 30 s time-out. */
  readonly api: (method: string, path: string, body?: unknown) => Promise<JsonResponse>
  /** `POST /api/servers` for `install`: its folder and game port, `fleetSimArgs`, stop waits of 5 s and 3 s. */
  readonly createServer: (install: SimInstall, name: string) => Promise<JsonResponse>
  readonly status: (id: string) => Promise<ServerStatus>
  readonly players: (id: string) => Promise<PlayerList>
  /** Polls the status until the server's RCON session is connected. */
  readonly rconConnected: (id: string, timeoutMs: number, what?: string) => Promise<ServerStatus>
  /** A game server process `close` must end (they outlive the controller by design). */
  readonly trackGameProcess: (pid: number) => void
  /** Ends the tracked game processes, stops the controller and removes its data directory and the installs. */
  readonly close: () => Promise<void>
}

/** Whether a process with this id still runs (signal 0 only checks). */
export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

export interface FleetOptions {
  /** The controller's `LOG_LEVEL` (default `Warning`: its output is only read when a test fails or asks). */
  readonly logLevel?: string
  /** More environment for the controller, over `fleetEnv` (e.g. `DASHBOARD_DIR`). */
  readonly env?: Readonly<Record<string, string>>
  /**
   * Real accounts instead of the test authenticator (which takes the
   * `session` scheme over, so cookies from `POST /api/auth/login` would not
   * be read): the controller runs bundled, without `PLUGINS`, its first
   * admin made from these (`ADMIN_USERNAME`/`ADMIN_PASSWORD`), and `api`
   * calls as that admin with a bearer token from signing in. For browser
   * tests that sign in with the session cookie and its CSRF token.
   */
  readonly admin?: { readonly username: string; readonly password: string }
}

/** A fleet with nothing running yet; call `close` in `afterAll`. */
export const makeFleet = (options: FleetOptions = {}): Fleet => {
  const cleanups: Array<() => unknown> = []
  const gamePids = new Set<number>()
  let dataDir: string | undefined
  let controller: ControllerHandle | undefined

  const running = (): ControllerHandle => {
    if (controller === undefined) throw new Error("the fleet's controller has not been started")
    return controller
  }
  const admin = options.admin
  /** The admin's bearer token (real accounts), from a sign-in made once per controller start. */
  let adminToken: Promise<string> | undefined
  const authHeaders = async (): Promise<Readonly<Record<string, string>>> => {
    if (admin === undefined) return fleetAuth
    adminToken ??= requestJson(running().baseUrl, "POST", "/api/auth/login", { body: admin }).then((answer) => {
      const token = (answer.body as { token?: unknown } | undefined)?.token
      if (answer.status !== 200 || typeof token !== "string") {
        adminToken = undefined
        throw new Error(`the fleet's admin could not sign in: ${answer.status} ${JSON.stringify(answer.body)}`)
      }
      return token
    })
    return { authorization: `Bearer ${await adminToken}` }
  }
  const api = async (method: string, path: string, body?: unknown) =>
    requestJson(running().baseUrl, method, path, { headers: await authHeaders(), timeoutMs: 30_000, ...(body === undefined ? {} : { body }) })
  const status = async (id: string) => (await api("GET", `/api/servers/${id}/status`)).body as ServerStatus

  return {
    installSim: async (options) => {
      const install = await installSim(options)
      cleanups.push(() => install.remove())
      return install
    },
    startController: async () => {
      if (dataDir === undefined) {
        const dir = makeTempDir()
        dataDir = dir
        cleanups.push(() => removeDir(dir))
      }
      const first = controller === undefined
      adminToken = undefined
      controller = await startController({
        dataDir,
        plugins: admin === undefined ? [testPlugins.auth] : [],
        env: { ...fleetEnv, ...(admin === undefined ? {} : { ADMIN_USERNAME: admin.username, ADMIN_PASSWORD: admin.password }), ...options.env },
        logLevel: options.logLevel ?? "Warning"
      })
      if (first) cleanups.push(() => controller !== undefined && stopProcess(controller))
      return controller
    },
    stopController: () => stopProcess(running()),
    baseUrl: () => running().baseUrl,
    authHeaders,
    api,
    createServer: (install, name) =>
      api("POST", "/api/servers", {
        name,
        installDir: install.dir,
        gamePort: install.gamePort,
        extraArgs: fleetSimArgs,
        stop: { shutdownWaitMs: 5_000, terminateWaitMs: 3_000 }
      }),
    status,
    players: async (id) => (await api("GET", `/api/servers/${id}/players`)).body as PlayerList,
    rconConnected: (id, timeoutMs, what = "the RCON session") => until(() => status(id), (s) => s.rconStatus === "connected", timeoutMs, what),
    trackGameProcess: (pid) => {
      gamePids.add(pid)
    },
    close: async () => {
      for (const pid of gamePids) if (isAlive(pid)) process.kill(pid, "SIGKILL")
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
    }
  }
}
