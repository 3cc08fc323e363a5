/**
 * The controller serving a single-page app to a real Chromium: a tiny
 * fixture app (hashed script and style under `assets/`, a page with an
 * inline script) in a temporary folder, served through `DASHBOARD_DIR` by
 * the real controller process. The app renders and calls the API; the
 * Content-Security-Policy blocks the inline script and the page reports
 * it; hashed assets are kept for a year and compressed; a deep client
 * route survives a reload; axe finds no serious violation (and does find
 * one on a page made to have one); screenshots at
 * desktop and phone widths are left in `test-artifacts/screenshots`.
 */
import { createHash } from "node:crypto"
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import * as NodePath from "node:path"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { csrfHeaders, forEachViewport, launchBrowser, noProblems, type TestBrowser, viewports } from "../support/browser.js"
import { makeTempDir, removeDir } from "../support/controller.js"
import { type Fleet, makeFleet, until } from "../support/fleet.js"

const APP_SCRIPT = `const root = document.getElementById("root")
const heading = document.createElement("h1")
heading.textContent = "Garrison fixture app"
const route = document.createElement("p")
route.id = "route"
const health = document.createElement("p")
health.id = "health"
health.textContent = "Asking the controller..."
const deep = document.createElement("a")
deep.href = "/servers/12/players"
deep.id = "deep"
deep.textContent = "Players of server 12"
deep.addEventListener("click", (event) => {
  event.preventDefault()
  history.pushState(null, "", deep.href)
  showRoute()
})
const showRoute = () => { route.textContent = "Route: " + location.pathname }
showRoute()
root.replaceChildren(heading, route, health, deep)
fetch("/api/health")
  .then((response) => { health.textContent = "Controller answered " + response.status })
  .catch((error) => { health.textContent = "Controller unreachable: " + error })
`

const APP_STYLE = `body { font-family: sans-serif; color: #1a1a1a; background: #ffffff; margin: 2rem; }
a { color: #0645ad; }
`

const ADMIN = { username: "admin", password: "Browser-Tests-Sign-In-7" } as const

const hashed = (name: string, extension: string, content: string) =>
  `${name}-${createHash("sha256").update(content).digest("hex").slice(0, 8)}.${extension}`

interface FixtureApp {
  readonly root: string
  readonly dist: string
  readonly script: string
  readonly style: string
}

/** `<tmp>/dist`: index.html loading a hashed script and style, and inline.html with an inline script. */
const makeFixtureApp = (): FixtureApp => {
  const root = makeTempDir("garrison-browser-")
  const dist = NodePath.join(root, "dist")
  mkdirSync(NodePath.join(dist, "assets"), { recursive: true })
  const script = hashed("app", "js", APP_SCRIPT)
  const style = hashed("app", "css", APP_STYLE)
  writeFileSync(NodePath.join(dist, "assets", script), APP_SCRIPT)
  writeFileSync(NodePath.join(dist, "assets", style), APP_STYLE)
  writeFileSync(
    NodePath.join(dist, "index.html"),
    `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Garrison fixture</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/${style}">
<script type="module" src="/assets/${script}"></script>
</head>
<body><main id="root"><p>Loading...</p></main></body>
</html>
`
  )
  writeFileSync(
    NodePath.join(dist, "inline.html"),
    `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Inline script</title></head>
<body><main><h1>A page with an inline script</h1><p id="marker">untouched</p></main>
<script>document.getElementById("marker").textContent = "the inline script ran"; window.inlineRan = true</script>
</body>
</html>
`
  )
  // What axe must catch, so a clean report means something: an image without a text alternative.
  writeFileSync(
    NodePath.join(dist, "unlabelled.html"),
    `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Unlabelled</title><link rel="icon" href="data:,"></head>
<body><main><h1>An image without alt text</h1><img src="data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw=="></main></body>
</html>
`
  )
  return { root, dist, script, style }
}

/** Width and height from a PNG's IHDR chunk. */
const pngSize = (path: string) => {
  const bytes = readFileSync(path)
  expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG")
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }
}

describe.sequential("the dashboard in a real browser", () => {
  let app: FixtureApp | undefined
  let fleet: Fleet | undefined
  let browser: TestBrowser | undefined
  let baseUrl = ""
  const started = Date.now()

  beforeAll(async () => {
    app = makeFixtureApp()
    // Real accounts, so the browser signs in with the session cookie as the dashboard does.
    fleet = makeFleet({ env: { DASHBOARD_DIR: app.dist }, admin: ADMIN })
    baseUrl = (await fleet.startController()).baseUrl
    browser = await launchBrowser()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await fleet?.close()
    if (app !== undefined) removeDir(app.root)
  })

  const running = () => {
    if (browser === undefined || app === undefined || fleet === undefined) throw new Error("beforeAll did not finish")
    return { browser, app, fleet }
  }

  it("renders the app, whose script, style and API call the policy allows", async () => {
    const page = await running().browser.open(`${baseUrl}/`)
    try {
      await expectText(page.page, "#health", "Controller answered 200")
      expect(await page.page.textContent("h1")).toBe("Garrison fixture app")
      expect(await page.page.textContent("#route")).toBe("Route: /")
      // The stylesheet applied: the margin it sets.
      expect(await page.page.evaluate("getComputedStyle(document.body).marginTop")).toBe("32px")
      expect(page.problems()).toEqual(noProblems)
      // The first load's JavaScript, as sent (the dashboard's budget is 300 KB compressed).
      const scripts = page.responses().filter((r) => r.contentType.startsWith("text/javascript"))
      expect(scripts.map((r) => new URL(r.url).pathname)).toEqual([`/assets/${running().app.script}`])
      expect(page.scriptBytes()).toBe(scripts[0]!.bytes)
      expect(page.scriptBytes()).toBeGreaterThan(0)
      expect(page.scriptBytes()).toBeLessThanOrEqual(Buffer.byteLength(APP_SCRIPT))
    } finally {
      await page.close()
    }
  })

  it("blocks an inline script; the page reports the violation", async () => {
    const page = await running().browser.open(`${baseUrl}/inline.html`)
    try {
      expect(await page.page.textContent("#marker")).toBe("untouched")
      expect(await page.page.evaluate("typeof window.inlineRan")).toBe("undefined")
      // Reports from the page arrive through the DevTools protocol, a moment after the page has loaded.
      await until(() => page.problems().cspViolations.length, (count) => count > 0, 10_000, "the CSP violation report")
      const [violation] = page.problems().cspViolations
      expect(violation).toMatchObject({ blockedURI: "inline", disposition: "enforce", documentURI: `${baseUrl}/inline.html` })
      expect(violation!.effectiveDirective).toMatch(/^script-src/)
      // Chromium also says so on the console.
      expect(page.problems().consoleErrors.join("\n")).toMatch(/Content Security Policy/)
    } finally {
      await page.close()
    }
  })

  it("hashed assets are kept for a year and compressed; index.html is revalidated under the strict policy", async () => {
    const { browser, app } = running()
    const page = await browser.open("about:blank")
    try {
      const responses = new Map<string, Awaited<ReturnType<typeof page.page.waitForResponse>>>()
      page.page.on("response", (response) => responses.set(new URL(response.url()).pathname, response))
      await page.page.goto(`${baseUrl}/`)
      await expectText(page.page, "#health", "Controller answered 200")

      const document = responses.get("/")
      expect(document?.status()).toBe(200)
      const documentHeaders = await document!.allHeaders()
      expect(documentHeaders["cache-control"]).toBe("no-cache")
      expect(documentHeaders["content-security-policy"]).toBe(
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; " +
          "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
      )
      expect(documentHeaders["x-content-type-options"]).toBe("nosniff")
      expect(documentHeaders["x-frame-options"]).toBe("DENY")

      for (const [file, type] of [[app.script, "text/javascript; charset=utf-8"], [app.style, "text/css; charset=utf-8"]] as const) {
        const asset = responses.get(`/assets/${file}`)
        expect(asset?.status(), file).toBe(200)
        const headers = await asset!.allHeaders()
        expect(headers["cache-control"], file).toBe("public, max-age=31536000, immutable")
        expect(headers["content-type"], file).toBe(type)
        expect(headers["etag"], file).toMatch(/^"[A-Za-z0-9_-]{22}(-br|-gzip)?"$/)
        // Chromium takes brotli; files this small may be sent as they are.
        expect([undefined, "br"], file).toContain(headers["content-encoding"])
      }
      const api = responses.get("/api/health")
      expect((await api!.allHeaders())["cache-control"]).toBe("no-store")

      // A missing asset is the API's one error shape, never the page.
      const missing = await page.page.request.get(`${baseUrl}/assets/app-00000000.js`)
      expect(missing.status()).toBe(404)
      expect(await missing.json()).toEqual({ error: "not-found", message: "no file /assets/app-00000000.js" })
    } finally {
      await page.close()
    }
  })

  it("a deep client route, reached in the app or typed, reloads to index.html", async () => {
    const page = await running().browser.open(`${baseUrl}/`)
    try {
      await expectText(page.page, "#health", "Controller answered 200")
      await page.page.click("#deep")
      expect(await page.page.textContent("#route")).toBe("Route: /servers/12/players")
      const reloaded = await page.page.reload()
      expect(reloaded?.status()).toBe(200)
      expect((await reloaded!.allHeaders())["content-type"]).toBe("text/html; charset=utf-8")
      await expectText(page.page, "#route", "Route: /servers/12/players")
      await expectText(page.page, "#health", "Controller answered 200")

      const typed = await page.page.goto(`${baseUrl}/settings/security?tab=mfa`)
      expect(typed?.status()).toBe(200)
      await expectText(page.page, "#route", "Route: /settings/security")
      expect(page.problems()).toEqual(noProblems)
    } finally {
      await page.close()
    }
  })

  it("a page can start signed in (cookie mode): reads with the cookie, writes need its CSRF token", async () => {
    const page = await running().browser.open(`${baseUrl}/settings`, { signIn: ADMIN })
    try {
      const cookies = await page.context.cookies(baseUrl)
      expect(cookies.find((c) => c.name === "auth-token")).toMatchObject({ httpOnly: true, sameSite: "Lax" })
      expect(cookies.find((c) => c.name === "csrf-token")).toMatchObject({ httpOnly: false })
      const request = page.page.request
      const users = await request.get(`${baseUrl}/api/users`)
      expect(users.status(), JSON.stringify(cookies) + (await users.text())).toBe(200)
      const role = { name: "browser-testers", permissions: ["server.view"] }
      const without = await request.post(`${baseUrl}/api/roles`, { data: role })
      expect(without.status()).toBe(403)
      expect((await without.json()) as unknown).toMatchObject({ error: "csrf-mismatch" })
      const withToken = await request.post(`${baseUrl}/api/roles`, { data: role, headers: await csrfHeaders(page.context, baseUrl) })
      expect(withToken.status(), await withToken.text()).toBe(201)
      // The fleet's own calls sign in as the same admin, with a bearer token.
      const roles = await running().fleet.api("GET", "/api/roles")
      expect(roles.status).toBe(200)
      expect(JSON.stringify(roles.body)).toContain("browser-testers")
    } finally {
      await page.close()
    }
  })

  it("the accessibility check finds a serious violation where there is one", async () => {
    const page = await running().browser.open(`${baseUrl}/unlabelled.html`)
    try {
      const violations = await page.seriousAccessibilityViolations()
      expect(violations.map((v) => v.id)).toContain("image-alt")
      expect(violations.find((v) => v.id === "image-alt")).toMatchObject({ impact: "critical", targets: ["img"] })
    } finally {
      await page.close()
    }
  })

  it("passes axe at desktop and phone widths, and leaves their screenshots", async () => {
    const { browser } = running()
    for (const [path, name] of [["/", "fixture-home"], ["/servers/12/players", "fixture-deep-route"]] as const) {
      const shots = await forEachViewport(browser, `${baseUrl}${path}`, name, async (page) => {
        await expectText(page.page, "#health", "Controller answered 200")
        expect(await page.seriousAccessibilityViolations(), `${path} at ${page.viewport}`).toEqual([])
        expect(page.problems(), `${path} at ${page.viewport}`).toEqual(noProblems)
      })
      for (const viewport of ["desktop", "phone"] as const) {
        const shot = shots[viewport]
        expect(shot).toMatch(new RegExp(`test-artifacts/screenshots/${name}-${viewport}\\.png$`))
        expect(statSync(shot).mtimeMs).toBeGreaterThanOrEqual(started - 1_000)
        const size = pngSize(shot)
        expect(size.width).toBe(viewports[viewport].width)
        expect(size.height).toBeGreaterThanOrEqual(viewports[viewport].height)
      }
    }
  })
})

/**
 * Waits (up to 10 s) until `selector` holds exactly `text`. A locator, not `waitForFunction`: Playwright
 * turns a function given as text into code with `new Function` inside the page, which the dashboard's
 * policy (no 'unsafe-eval') refuses.
 */
const expectText = async (page: Page, selector: string, text: string) => {
  const exactly = new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`)
  await page
    .locator(selector)
    .filter({ hasText: exactly })
    .waitFor({ timeout: 10_000 })
    .catch(async (error: unknown) => {
      const reads = await page.textContent(selector).catch(() => null)
      throw new Error(`"${selector}" never read ${JSON.stringify(text)}; it reads ${JSON.stringify(reads)} (${error instanceof Error ? error.message : String(error)})`)
    })
}
