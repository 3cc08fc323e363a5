/**
 * Browser tests: a real Chromium driven by `playwright-core` (Playwright
 * cannot download browsers here, so it runs Debian's `chromium`:
 * `CHROMIUM_PATH`, else `/usr/bin/chromium`; `.ci/run` installs it), with
 * what every dashboard test checks on every page:
 *
 * - problems the page had: console errors, uncaught exceptions, requests
 *   that failed, and Content-Security-Policy violations (each page's
 *   `securitypolicyviolation` events, recorded from before its first
 *   script runs);
 * - accessibility: axe-core's serious and critical violations (tests
 *   assert there are none);
 * - screenshots at desktop (1280x800) and phone (390x844) widths, saved as
 *   test artefacts under `test-artifacts/screenshots/<name>-<desktop|phone>.png`.
 *
 * ```ts
 * const browser = await launchBrowser()          // beforeAll
 * afterAll(() => browser.close())                // closes every context and page too
 * await forEachViewport(browser, `${baseUrl}/servers`, "servers", async (page, viewport) => {
 *   await page.page.getByRole("heading", { name: "Servers" }).waitFor()
 *   expect(await page.seriousAccessibilityViolations()).toEqual([])
 *   expect(page.problems()).toEqual(noProblems)
 * })                                             // screenshots servers-desktop.png and servers-phone.png
 * ```
 *
 * `waitForHeading(page, "Servers")` waits for a page's heading and, when it
 * does not come, fails with what the page shows instead;
 * `waitForFirstLoad(page)` waits for its first load's spinners to go;
 * `openSameSessionAt(browser, page, "phone")` opens the page again at
 * another width, signed in as it is.
 *
 * `scriptBytes()` sums the JavaScript a page received, as sent (compressed):
 * the dashboard's first load must stay under 300 KB.
 *
 * Waiting: use locators (`page.getByRole(...).waitFor()`,
 * `locator.filter({ hasText })`), not `page.waitForFunction` with a string:
 * Playwright compiles that inside the page with `new Function`, which the
 * dashboard's policy (no 'unsafe-eval') refuses, and the refusal shows up as
 * a CSP violation. `page.evaluate("...")` is fine (it goes through the
 * DevTools protocol). The tests compile without the DOM's types, so code
 * for the page is passed as text or touches only Playwright's API.
 *
 * Framework-free like `controller.ts`: tests keep their own assertions.
 */
import AxeBuilder from "@axe-core/playwright"
import { existsSync, mkdirSync } from "node:fs"
import * as NodePath from "node:path"
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from "playwright-core"
import { repoRoot } from "./controller.js"

/** Where the browser tests leave what a person looks at afterwards (ignored by git). */
export const artifactsDir = NodePath.join(repoRoot, "test-artifacts")
export const screenshotsDir = NodePath.join(artifactsDir, "screenshots")

export const viewports = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 }
} as const
export type ViewportName = keyof typeof viewports
export const viewportNames: ReadonlyArray<ViewportName> = ["desktop", "phone"]

/** The Chromium executable: `CHROMIUM_PATH`, else Debian's. */
export const chromiumPath = (): string => process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium"

/** One violation of the Content-Security-Policy, as the page's `securitypolicyviolation` event reports it. */
export interface CspViolation {
  readonly effectiveDirective: string
  readonly violatedDirective: string
  /** `inline`, `eval`, or the URL refused. */
  readonly blockedURI: string
  readonly sourceFile: string
  readonly lineNumber: number
  readonly disposition: string
  readonly documentURI: string
}

/** What went wrong in a page so far; `noProblems` when nothing did. */
export interface PageProblems {
  readonly consoleErrors: ReadonlyArray<string>
  readonly pageErrors: ReadonlyArray<string>
  /** Requests that got no answer (a refused connection, a blocked URL); not those a navigation cut off. */
  readonly failedRequests: ReadonlyArray<string>
  readonly cspViolations: ReadonlyArray<CspViolation>
}

export const noProblems: PageProblems = { consoleErrors: [], pageErrors: [], failedRequests: [], cspViolations: [] }

/** One axe-core violation, cut to what a failure message needs. */
export interface AccessibilityViolation {
  readonly id: string
  readonly impact: string
  readonly help: string
  readonly helpUrl: string
  /** CSS selectors of the offending elements (at most 10). */
  readonly targets: ReadonlyArray<string>
}

/** One response the page received, as sent on the wire. */
export interface SeenResponse {
  readonly url: string
  readonly status: number
  readonly contentType: string
  /** `br`, `gzip`, or `""` when sent as it is. */
  readonly contentEncoding: string
  /** Bytes on the wire (compressed when `contentEncoding` says so): the response's Content-Length. */
  readonly bytes: number
}

export interface WatchedPage {
  readonly page: Page
  readonly context: BrowserContext
  readonly viewport: ViewportName
  /** Everything collected since the page opened (console errors, uncaught exceptions, failed requests, CSP violations). */
  readonly problems: () => PageProblems
  /** Every response since the page opened, in order. */
  readonly responses: () => ReadonlyArray<SeenResponse>
  /**
   * JavaScript received since the page opened, in bytes on the wire (what a
   * first load costs: the budget is 300 KB of compressed JavaScript).
   */
  readonly scriptBytes: () => number
  /** Forgets what was collected so far (e.g. after a step that is expected to log an error). */
  readonly clearProblems: () => void
  /**
   * axe-core over the page as it is now (WCAG 2.0-2.2 A and AA rules and
   * best practices): the violations of serious or critical impact.
   * `exclude`: CSS selectors axe leaves out.
   */
  readonly seriousAccessibilityViolations: (options?: { readonly exclude?: ReadonlyArray<string> }) => Promise<ReadonlyArray<AccessibilityViolation>>
  /** Saves `test-artifacts/screenshots/<name>-<viewport>.png` (the whole page) and returns its path. */
  readonly screenshot: (name: string) => Promise<string>
  readonly close: () => Promise<void>
}

export interface OpenOptions {
  readonly viewport?: ViewportName
  /** More options for the page's browser context (`storageState` to start signed in, `locale`, ...). */
  readonly context?: BrowserContextOptions
  /**
   * Sign in before the page loads: `POST /api/auth/login` on the page's
   * origin from inside its context, which then holds the session cookie
   * (`auth-token`, HttpOnly) and `csrf-token`, as after the sign-in form.
   */
  readonly signIn?: { readonly username: string; readonly password: string }
  /** Wait for this load state after navigating (default `load`). */
  readonly waitUntil?: "load" | "domcontentloaded" | "networkidle" | "commit"
}

export interface TestBrowser {
  readonly browser: Browser
  /** A new browser context (its own cookies and storage) with one page at `url`, watched from before it loads. */
  readonly open: (url: string, options?: OpenOptions) => Promise<WatchedPage>
  /** Closes every page and context opened and the browser itself; safe to call twice. */
  readonly close: () => Promise<void>
}

/** The name of the function each page calls with its CSP violations (exposed by the harness, not by the app). */
const CSP_BINDING = "__garrisonReportCspViolation"

/**
 * Runs in every document before its own scripts (Playwright injects it
 * through the DevTools protocol, which the page's policy does not govern).
 */
const cspListener = `document.addEventListener("securitypolicyviolation", (event) => {
  window.${CSP_BINDING}({
    effectiveDirective: event.effectiveDirective,
    violatedDirective: event.violatedDirective,
    blockedURI: event.blockedURI,
    sourceFile: event.sourceFile,
    lineNumber: event.lineNumber,
    disposition: event.disposition,
    documentURI: event.documentURI
  })
}, true)`

/**
 * Chromium, headless, through playwright-core. Fails with what to do when
 * the executable is missing. `--no-sandbox` only when running as root
 * (Chromium refuses to start sandboxed as root).
 */
export const launchBrowser = async (): Promise<TestBrowser> => {
  const executablePath = chromiumPath()
  if (!existsSync(executablePath)) {
    throw new Error(
      `no Chromium at ${executablePath}: install Debian's chromium package (\`apt-get install chromium\`; .ci/run does it), or set CHROMIUM_PATH to a Chromium executable`
    )
  }
  const asRoot = typeof process.getuid === "function" && process.getuid() === 0
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: [...(asRoot ? ["--no-sandbox"] : []), "--disable-dev-shm-usage", "--disable-gpu"]
  })
  const contexts = new Set<BrowserContext>()
  let closed = false

  const open = async (url: string, options: OpenOptions = {}): Promise<WatchedPage> => {
    const viewport = options.viewport ?? "desktop"
    const context = await browser.newContext({ ...options.context, viewport: viewports[viewport], deviceScaleFactor: 1 })
    contexts.add(context)
    const consoleErrors: Array<string> = []
    const pageErrors: Array<string> = []
    const failedRequests: Array<string> = []
    const cspViolations: Array<CspViolation> = []
    const seen: Array<SeenResponse> = []
    await context.exposeBinding(CSP_BINDING, (_source, violation: CspViolation) => {
      cspViolations.push(violation)
    })
    await context.addInitScript({ content: cspListener })
    const page = await context.newPage()
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(`${message.text()} (${message.location().url}:${message.location().lineNumber})`)
    })
    page.on("pageerror", (error) => pageErrors.push(error.stack ?? error.message))
    page.on("response", (response) => {
      const headers = response.headers()
      seen.push({
        url: response.url(),
        status: response.status(),
        contentType: headers["content-type"] ?? "",
        contentEncoding: headers["content-encoding"] ?? "",
        bytes: Number(headers["content-length"] ?? 0)
      })
    })
    page.on("requestfailed", (request) => {
      const why = request.failure()?.errorText ?? "failed"
      // A request cut off by a navigation or a reload (net::ERR_ABORTED) did not fail: the page went away.
      if (why !== "net::ERR_ABORTED") failedRequests.push(`${request.method()} ${request.url()}: ${why}`)
    })
    if (options.signIn !== undefined) await signIn(context, new URL(url).origin, options.signIn)
    await page.goto(url, { waitUntil: options.waitUntil ?? "load" })

    const close = async () => {
      contexts.delete(context)
      await context.close()
    }
    return {
      page,
      context,
      viewport,
      problems: () => ({
        consoleErrors: [...consoleErrors],
        pageErrors: [...pageErrors],
        failedRequests: [...failedRequests],
        cspViolations: [...cspViolations]
      }),
      responses: () => [...seen],
      scriptBytes: () => seen.filter((r) => /^(text|application)\/javascript\b/.test(r.contentType)).reduce((sum, r) => sum + r.bytes, 0),
      clearProblems: () => {
        consoleErrors.length = 0
        pageErrors.length = 0
        failedRequests.length = 0
        cspViolations.length = 0
      },
      seriousAccessibilityViolations: (axeOptions = {}) => seriousAccessibilityViolations(page, axeOptions.exclude ?? []),
      screenshot: (name) => saveScreenshot(page, `${name}-${viewport}`),
      close
    }
  }

  return {
    browser,
    open,
    close: async () => {
      if (closed) return
      closed = true
      for (const context of [...contexts]) await context.close().catch(() => undefined)
      contexts.clear()
      await browser.close()
    }
  }
}

/** Signs `context` in on `origin` through the API (cookie mode); fails with the API's answer when refused. */
export const signIn = async (context: BrowserContext, origin: string, credentials: { readonly username: string; readonly password: string }) => {
  const response = await context.request.post(`${origin}/api/auth/login`, { data: credentials })
  if (response.status() !== 200) throw new Error(`sign-in as ${credentials.username} answered ${response.status()}: ${await response.text()}`)
}

/** The headers of a write in cookie mode: `X-CSRF-Token` from the context's `csrf-token` cookie (what the app sends). */
export const csrfHeaders = async (context: BrowserContext, origin: string): Promise<Record<string, string>> => {
  const token = (await context.cookies(origin)).find((cookie) => cookie.name === "csrf-token")?.value
  if (token === undefined) throw new Error(`no csrf-token cookie for ${origin}: sign in first`)
  return { "x-csrf-token": token }
}

const SERIOUS = new Set(["serious", "critical"])

/** axe-core over `page`: its serious and critical violations. */
export const seriousAccessibilityViolations = async (page: Page, exclude: ReadonlyArray<string> = []): Promise<ReadonlyArray<AccessibilityViolation>> => {
  let builder = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
  for (const selector of exclude) builder = builder.exclude(selector)
  const results = await builder.analyze()
  return results.violations
    .filter((violation) => SERIOUS.has(violation.impact ?? ""))
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? "",
      help: violation.help,
      helpUrl: violation.helpUrl,
      targets: violation.nodes.slice(0, 10).map((node) => node.target.map(String).join(" "))
    }))
}

/** Saves `test-artifacts/screenshots/<file>.png`, the whole page, and returns its path. */
export const saveScreenshot = async (page: Page, file: string): Promise<string> => {
  if (!/^[A-Za-z0-9._-]+$/.test(file)) throw new Error(`a screenshot name is letters, digits, ".", "_" and "-": ${JSON.stringify(file)}`)
  mkdirSync(screenshotsDir, { recursive: true })
  const path = NodePath.join(screenshotsDir, `${file}.png`)
  await page.screenshot({ path, fullPage: true, animations: "disabled" })
  return path
}

/**
 * Opens `url` at each width in turn (desktop, then phone), runs `check`
 * on it, then saves its screenshot (`<name>-desktop.png`,
 * `<name>-phone.png`) and closes it. The screenshot is taken after the
 * check, so it shows the page the check waited for.
 */
export const forEachViewport = async (
  browser: TestBrowser,
  url: string,
  name: string,
  check: (page: WatchedPage, viewport: ViewportName) => Promise<void>,
  options: Omit<OpenOptions, "viewport"> = {}
): Promise<Record<ViewportName, string>> => {
  const shots: Partial<Record<ViewportName, string>> = {}
  for (const viewport of viewportNames) {
    const watched = await browser.open(url, { ...options, viewport })
    try {
      await check(watched, viewport)
      shots[viewport] = await watched.screenshot(name)
    } finally {
      await watched.close()
    }
  }
  return shots as Record<ViewportName, string>
}

/**
 * Waits (20 s) for the page's heading `name` at `level` (1 unless said);
 * when it does not come, fails with the page's URL, what it shows instead
 * (its first 800 characters) and the problems it had.
 */
export const waitForHeading = async (page: WatchedPage, name: string | RegExp, level = 1): Promise<void> => {
  try {
    await page.page.getByRole("heading", { name, level }).waitFor({ timeout: 20_000 })
  } catch (error) {
    const shown = await page.page.locator("body").innerText().catch(() => "(no page)")
    throw new Error(`no heading "${String(name)}" on ${page.page.url()}; the page shows: ${shown.slice(0, 800)}; problems: ${JSON.stringify(page.problems())}`, {
      cause: error
    })
  }
}

/** Waits (15 s) until the page has settled: its first load's spinners (`.loading`) gone, however many sections load at once. */
export const waitForFirstLoad = (page: WatchedPage): Promise<void> =>
  // A locator, not waitForFunction: see the note on waiting above (the policy refuses a compiled string while spinners remain).
  page.page.locator(".loading").first().waitFor({ state: "detached", timeout: 15_000 })

/**
 * Opens `page`'s URL again in a new context at `viewport`, with `page`'s
 * cookies and storage (signed in as it is, or not).
 */
export const openSameSessionAt = async (browser: TestBrowser, page: WatchedPage, viewport: ViewportName): Promise<WatchedPage> => {
  const storageState = (await page.context.storageState()) as NonNullable<BrowserContextOptions["storageState"]>
  return browser.open(page.page.url(), { viewport, context: { storageState } })
}
