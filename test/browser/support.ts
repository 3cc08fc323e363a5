/**
 * The setup the browser tests over one real controller share, on top of
 * `test/support/browser.ts` (which stays framework-free): this module
 * registers vitest hooks and makes the assertions every page check makes.
 *
 * ```ts
 * const suite = browserSuite("webhooks")          // screenshots test-artifacts/screenshots/webhooks-*
 * beforeAll(async () => {
 *   controller = await suite.startControllerWithAdmin({ WEBHOOKS_ALLOW_PRIVATE: "true" })
 *   api = await signInAdminApi(controller.baseUrl)
 *   await createModerator(api, MODERATOR)
 *   serverId = await suite.addSimServer(api, "Sim Hooks")
 *   browser = await suite.launchBrowser()
 * })
 * // in a test:
 * await suite.checkAtBothWidths(admin, "created", (phone) => waitForHeading(phone, "Webhooks"))
 * ```
 *
 * Everything started through the suite is stopped after the file's tests,
 * the last started first (the browser, then the controllers, then what
 * the test registered with `onCleanup` before them).
 */
import { afterAll, expect } from "vitest"
import { launchBrowser, noProblems, openSameSessionAt, type PageProblems, type TestBrowser, waitForFirstLoad, type WatchedPage } from "../support/browser.js"
import { type ControllerHandle, type JsonResponse, makeTempDir, removeDir, requestJson, startController, stopProcess } from "../support/controller.js"
import { installSim } from "../support/sim.js"

/** The admin account every controller here starts with (`ADMIN_USERNAME`, `ADMIN_PASSWORD`). */
export const ADMIN = { username: "admin", password: "correct horse battery staple" } as const

export interface Credentials {
  readonly username: string
  readonly password: string
}

/** A call to the controller's API as the admin: `Authorization: Bearer <session token>`, 30 s timeout. */
export type AdminApi = (method: string, path: string, body?: unknown) => Promise<JsonResponse>

/**
 * Signs in as `ADMIN` through `POST /api/auth/login` (expected to answer
 * 200) and returns calls to the API carrying that session as a bearer
 * token (the spec's second mode, beside the dashboard's cookie).
 */
export const signInAdminApi = async (baseUrl: string): Promise<AdminApi> => {
  const login = await requestJson(baseUrl, "POST", "/api/auth/login", { body: ADMIN })
  expect(login.status, JSON.stringify(login.body)).toBe(200)
  const bearer = { authorization: `Bearer ${(login.body as { token: string }).token}` }
  return (method, path, body) => requestJson(baseUrl, method, path, { headers: bearer, timeoutMs: 30_000, ...(body === undefined ? {} : { body }) })
}

/** Makes the user `credentials` with the built-in moderator role, no password change asked (expected to answer 201). */
export const createModerator = async (api: AdminApi, credentials: Credentials): Promise<void> => {
  const user = await api("POST", "/api/users", { username: credentials.username, password: credentials.password, role: "moderator", mustChangePassword: false })
  expect(user.status, JSON.stringify(user.body)).toBe(201)
}

export interface CheckAtBothWidthsOptions {
  /** Checks the problems of the page opened at phone width; by default there must be none (`noProblems`). */
  readonly phoneProblems?: (problems: PageProblems) => void
}

export interface BrowserSuite {
  /** Adds something to undo after the file's tests (they run the last added first). */
  readonly onCleanup: (cleanup: () => unknown) => void
  /**
   * Starts the controller (serving the built dashboard) on a new data
   * directory with the admin account `ADMIN`, no scheduled backup, log
   * level Warning, and `env` on top; stopped and its directory removed
   * after the file's tests.
   */
  readonly startControllerWithAdmin: (env?: Readonly<Record<string, string>>) => Promise<ControllerHandle>
  /**
   * Installs a simulated game server and adds it through the API as `name`
   * (expected to answer 201); returns its id. The install is removed after
   * the file's tests.
   */
  readonly addSimServer: (api: AdminApi, name: string) => Promise<string>
  /** Chromium for the file's tests (closed after them); `checkAtBothWidths` opens its phone pages in it. */
  readonly launchBrowser: () => Promise<TestBrowser>
  /**
   * Accessibility at desktop and phone widths, each left as a screenshot
   * `<prefix>-<name>-<desktop|phone>.png`. `page` (at desktop width), as it
   * is now, scrolled to the top first (scrolled down, the sticky top bar
   * covers the first nav entries, which axe's target-size rule counts
   * against whatever page is open): no serious axe violation, screenshot.
   * Then its URL in a new page at phone width, signed in as `page` is:
   * `ready` (what shows the page is there), its first load settled, no
   * serious axe violation, screenshot, and its problems as
   * `options.phoneProblems` says (none by default); closed after.
   */
  readonly checkAtBothWidths: (
    page: WatchedPage,
    name: string,
    ready: (phone: WatchedPage) => Promise<unknown>,
    options?: CheckAtBothWidthsOptions
  ) => Promise<void>
}

/**
 * The shared setup of one browser test file, its screenshots named
 * `<screenshotPrefix>-…`. Call it once at the top of the file: it
 * registers the `afterAll` that undoes what was started through it.
 */
export const browserSuite = (screenshotPrefix: string): BrowserSuite => {
  const cleanups: Array<() => unknown> = []
  let browser: TestBrowser | undefined
  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })
  const onCleanup = (cleanup: () => unknown) => {
    cleanups.push(cleanup)
  }

  return {
    onCleanup,
    startControllerWithAdmin: async (env = {}) => {
      const dataDir = makeTempDir()
      onCleanup(() => removeDir(dataDir))
      const controller = await startController({
        dataDir,
        env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, DB_BACKUP_INTERVAL: "365 days", ...env },
        logLevel: "Warning"
      })
      onCleanup(() => stopProcess(controller))
      return controller
    },
    addSimServer: async (api, name) => {
      const install = await installSim()
      onCleanup(() => install.remove())
      const server = await api("POST", "/api/servers", { name, installDir: install.dir, gamePort: install.gamePort })
      expect(server.status, JSON.stringify(server.body)).toBe(201)
      return (server.body as { id: string }).id
    },
    launchBrowser: async () => {
      const launched = await launchBrowser()
      browser = launched
      onCleanup(() => launched.close())
      return launched
    },
    checkAtBothWidths: async (page, name, ready, options = {}) => {
      if (browser === undefined) throw new Error("checkAtBothWidths before launchBrowser: launch the suite's browser first")
      const screenshot = `${screenshotPrefix}-${name}`
      await page.page.evaluate("window.scrollTo(0, 0)")
      expect(await page.seriousAccessibilityViolations(), `${name} at desktop width`).toEqual([])
      await page.screenshot(screenshot)
      const phone = await openSameSessionAt(browser, page, "phone")
      try {
        await ready(phone)
        await waitForFirstLoad(phone)
        expect(await phone.seriousAccessibilityViolations(), `${name} at phone width`).toEqual([])
        await phone.screenshot(screenshot)
        if (options.phoneProblems === undefined) expect(phone.problems()).toEqual(noProblems)
        else options.phoneProblems(phone.problems())
      } finally {
        await phone.close()
      }
    }
  }
}
