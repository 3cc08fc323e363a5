/**
 * The installable package (`npm run pack`, packages/http/scripts/pack.mjs):
 * the tarball installs into a folder that knows nothing of the clone, and
 * what it installed runs the controller, its dashboard and the command
 * line. Nothing of the workspace (no `@garrison/*` package, no testkit)
 * is installed: the bundles carry it.
 *
 * Installed as install-debian.sh installs it: unpacked, then `npm ci
 * --omit=dev` in the folder, which installs exactly the package's
 * npm-shrinkwrap.json. Here offline, from npm's cache (the clone's `npm ci`
 * filled it with the same versions), and without install scripts: better-
 * sqlite3's script fetches or compiles its native binary, which needs the
 * network or a compiler's minute, so the clone's own build of the same
 * version is copied in instead. The agent's package is installed the same
 * way and answers its health check. Both run on SQLite on either pass.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { spawnSync } from "node:child_process"
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs"
import * as NodePath from "node:path"
import { delay, freePort, HOST, makeTempDir, removeDir, repoRoot, requestJson, spawnNode, stopProcess, waitForHttp } from "../support/controller.js"

const dirs: Array<string> = []
afterAll(() => dirs.forEach(removeDir))

const ADMIN = { username: "packaged", password: "Boxed-Password-2026!" }

const tempDir = (prefix: string) => {
  const dir = makeTempDir(prefix)
  dirs.push(dir)
  return dir
}

/** `npm run pack` once for both tests: the controller's and the agent's tarballs. */
let tarballs: { readonly controller: string; readonly agent: string }
beforeAll(async () => {
  const out = tempDir("garrison-package-")
  const pack = spawnNode({ args: [NodePath.join(repoRoot, "packages/http/scripts/pack.mjs"), "--no-build", "--out", out] })
  const packed = await pack.exited
  if (packed.code !== 0) throw new Error(`pack failed (${packed.code}):\n${pack.output()}`)
  const lines = pack.output().split("\n")
  const controller = lines.find((line) => /\/garrison-\d+\.\d+\.\d+\.tgz$/.test(line))
  const agent = lines.find((line) => /\/garrison-agent-\d+\.\d+\.\d+\.tgz$/.test(line))
  if (controller === undefined || agent === undefined) throw new Error(`pack named no tarballs:\n${pack.output()}`)
  tarballs = { controller, agent }
}, 180_000)

/**
 * A tarball installed as install-debian.sh does: unpacked into an empty folder, then `npm ci --omit=dev`
 * there, which installs exactly its npm-shrinkwrap.json (offline, from npm's cache; no install scripts: see above).
 */
const installInto = (folder: string, tarball: string) => {
  mkdirSync(folder, { recursive: true })
  const unpack = spawnSync("tar", ["-xzf", tarball, "-C", folder, "--strip-components=1"], { encoding: "utf8" })
  expect(unpack.status, unpack.stderr).toBe(0)
  const install = spawnSync("npm", ["ci", "--omit=dev", "--offline", "--ignore-scripts", "--no-audit", "--no-fund"], {
    cwd: folder,
    encoding: "utf8",
    timeout: 150_000
  })
  expect(install.status, `${install.stdout}\n${install.stderr}`).toBe(0)
  return folder
}

const contentsOf = (tarball: string) => spawnSync("tar", ["-tzf", tarball], { encoding: "utf8" }).stdout.split("\n").filter((line) => line !== "")

describe("the installable package", () => {
  it("installs from its tarball alone and runs the controller, the dashboard and the command line", { timeout: 240_000 }, async () => {
    const work = tempDir("garrison-package-controller-")
    const files = contentsOf(tarballs.controller)
    expect(files).toContain("package/npm-shrinkwrap.json")
    expect(files.filter((file) => /testkit|\/test\/|\.ts$/.test(file))).toEqual([])
    const installed = installInto(NodePath.join(work, "install"), tarballs.controller)
    expect(readdirSync(NodePath.join(installed, "node_modules"))).not.toContain("@garrison")
    const manifest = JSON.parse(readFileSync(NodePath.join(installed, "package.json"), "utf8")) as { dependencies: Record<string, string> }
    expect(Object.keys(manifest.dependencies)).toContain("better-sqlite3")
    cpSync(NodePath.join(repoRoot, "node_modules/better-sqlite3/build"), NodePath.join(installed, "node_modules/better-sqlite3/build"), { recursive: true })

    const bin = NodePath.join(installed, "bin", "garrison.mjs")
    const help = spawnSync(process.execPath, [bin, "--help"], { cwd: work, encoding: "utf8", timeout: 60_000 })
    expect(help.status, help.stderr).toBe(0)
    expect(help.stdout).toMatch(/doctor/)

    const port = await freePort()
    const dataDir = NodePath.join(work, "data")
    // From the installed bin, in a folder outside the clone.
    const controller = spawnNode({
      args: [bin, "start"],
      cwd: work,
      env: { DATA_DIR: dataDir, PORT: String(port), HOST, ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, DATABASE_URL: "" }
    })
    try {
      const baseUrl = `http://${HOST}:${port}`
      await waitForHttp(controller, `${baseUrl}/api/health/ping`, 60_000)
      const login = await requestJson(baseUrl, "POST", "/api/auth/login", { body: ADMIN })
      expect(login.status).toBe(200)
      const page = await fetch(`${baseUrl}/servers`)
      expect(page.status).toBe(200)
      expect(await page.text()).toMatch(/<div id="root"/)
      expect(existsSync(NodePath.join(dataDir, "garrison.db"))).toBe(true)
    } finally {
      await stopProcess(controller)
    }
    // A command that loads a package on first use (the zip library): the package's dependencies are all there.
    const archive = NodePath.join(work, "backup.zip")
    const backup = spawnSync(process.execPath, [bin, "backup", "--out", archive], { cwd: work, encoding: "utf8", timeout: 60_000, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" } })
    expect(backup.status, `${backup.stdout}\n${backup.stderr}`).toBe(0)
    expect(existsSync(archive)).toBe(true)
  })

  it("install-debian.sh --dry-run: the steps in order, on the given package, with the unit's folders and user", { timeout: 60_000 }, () => {
    const script = NodePath.join(repoRoot, "packages/http/scripts/install-debian.sh")
    const run = spawnSync("bash", [script, "--dry-run", "--prefix", "/opt/g", "--data-dir", "/var/lib/g", "--servers-dir", "/srv/g", "--user", "gar", tarballs.controller], {
      encoding: "utf8",
      timeout: 30_000
    })
    expect(run.status, run.stderr).toBe(0)
    const steps = run.stdout.split("\n").filter((line) => line.startsWith("+ "))
    const at = (pattern: RegExp) => {
      const index = steps.findIndex((line) => pattern.test(line))
      expect(index, `${pattern} in:\n${steps.join("\n")}`).toBeGreaterThanOrEqual(0)
      return index
    }
    const version = NodePath.basename(tarballs.controller, ".tgz")
    const user = at(/useradd --system .*--shell \/usr\/sbin\/nologin .*gar$/)
    const unpack = at(new RegExp(`tar -xzf .*${version}\\.tgz -C /opt/g/${version}\\.partial`))
    const install = at(/npm\\ ci\\ --omit=dev/) // inside `sh -c`, quoted by printf %q
    const current = at(new RegExp(`ln -sfn /opt/g/${version} /opt/g/current`))
    const data = at(/install -d -m 0750 -o gar -g gar \/var\/lib\/g$/)
    const unit = at(/\/opt\/g\/current\/bin\/garrison\.mjs service install --user gar --data-dir \/var\/lib\/g --servers-dir \/srv\/g$/)
    const enable = at(/systemctl enable --now garrison$/)
    expect(user).toBeLessThan(data)
    expect([unpack, install, current, unit, enable]).toEqual([...[unpack, install, current, unit, enable]].sort((a, b) => a - b))
    // Nothing was done: a dry run changes nothing on the host.
    expect(existsSync("/opt/g")).toBe(false)
  })

  it("packs the agent, which installs alone and answers its health check", { timeout: 180_000 }, async () => {
    const work = tempDir("garrison-package-agent-")
    expect(contentsOf(tarballs.agent).filter((file) => /\/(src|test)\/|\.tsbuildinfo$/.test(file))).toEqual([])
    const installed = installInto(NodePath.join(work, "install"), tarballs.agent)

    const port = await freePort()
    const key = "package-test-agent-key-0123456789abcdef"
    const profiles = NodePath.join(work, "profiles")
    mkdirSync(profiles)
    const agent = spawnNode({
      args: [NodePath.join(installed, "dist", "main.js")],
      cwd: work,
      env: { SIDECAR_API_KEY: key, AGENT_PROFILES_DIR: profiles, AGENT_PORT: String(port), AGENT_HOST: HOST }
    })
    try {
      // /health needs the key, so the wait asks with it (waitForHttp asks without).
      let status = 0
      for (const deadline = Date.now() + 60_000; status !== 200 && !agent.hasExited() && Date.now() < deadline; ) {
        status = await fetch(`http://${HOST}:${port}/health`, { headers: { authorization: `Bearer ${key}` } }).then(
          (response) => response.status,
          () => 0
        )
        if (status !== 200) await delay(100)
      }
      expect(status, agent.output()).toBe(200)
    } finally {
      await stopProcess(agent)
    }
  })
})
