/**
 * The backups benchmark (issue: "backing up a 1 GB server folder streams
 * (controller RSS grows less than 100 MB) at a throughput of at least
 * 0.5 × `tar -czf` of the same folder at the same compression level").
 *
 * Set-up (not measured): a ~1 GiB server folder in a temporary folder,
 * made from a seeded generator so every run backs up the same bytes:
 * - ~40% incompressible (mods' `.pbo` files: three of 50-190 MiB, ~150
 *   small ones, their `.bisign` signatures, `.bikey` keys), random bytes;
 * - ~60% compressible but not trivially so: XML (`types.xml`-like entries,
 *   spawn positions), JSON (trader prices, player records), text with
 *   timestamps, names, ids and coordinates, and binary persistence records
 *   (`storage_1/data/*.bin`, half structure, half random), in ~2,400 small
 *   files (1-64 KiB), ~250 medium ones (0.2-3 MiB) and a few large ones;
 * in all about 3,300 files. Random and text pools of a few MiB are made
 * once and written out at varying offsets (deflate's window is 32 KiB, so
 * a pool repeated megabytes apart compresses no better than fresh bytes).
 * Then `sync`, so neither side pays for the other's write-back.
 *
 * Baseline: `tar -czf <out>.tar.gz -C <folder> <the same top-level names>`
 * (tar pipes through `gzip` with no level, i.e. gzip's default -6: zlib
 * level 6, the backups plugin's `COMPRESSION_LEVEL`), wall time, with the
 * CPU time of tar and gzip (bash's `times`). For information only, the
 * time of then syncing the .tar.gz to disk (the plugin syncs its zip before
 * publishing it; tar does not).
 *
 * Measured: the built controller (default plugins, a real admin from
 * ADMIN_USERNAME/ADMIN_PASSWORD, BACKUP_DIR in the temporary folder) with
 * a server entry for the folder (it never runs) whose backup paths are
 * every top-level name of the folder (`excludeLogs: false`; the folder has
 * no log files anyway). `POST /api/servers/:id/backups` (202), then
 * `GET /api/servers/:id/backup-status` every 150 ms until `done`: wall
 * time from the POST to the first `done`. Meanwhile the controller's VmRSS
 * every 50 ms; before = the settled value after start-up, the entry and its
 * config (no GC can be forced from outside); peak = the highest sample, or
 * VmHWM when the backup raised it above its value before. Goals: growth
 * (peak - before) < 100 MiB; throughput (folder bytes / wall time)
 * garrison/tar >= 0.5. The zip is then checked with yauzl: one entry per
 * file and folder made plus the manifest, the manifest listing every file
 * with its size and the folder's total, and three files' SHA-256 (the
 * largest and two random) equal to the manifest's and to the entry's
 * inflated bytes.
 *
 * `/api/*` is rate-limited per client IP, so (like `servers.ts`) the
 * controller runs with TRUST_PROXY=1 and requests carry an
 * `X-Forwarded-For` from a pool of addresses.
 *
 * Env: BENCH_BACKUPS_MIB (1024: the folder's size), BENCH_BACKUPS_SEED (1);
 * BENCH_BACKUPS_KEEP=1 keeps the temporary folder (path printed);
 * BENCH_BACKUPS_CPU_PROF=1 runs the controller with `--cpu-prof` and
 * prints where its profile went (kept with the folder, which is then kept).
 * Run alone: `node test/dist/bench/backups.js`; with the rest: `npm run bench`.
 */
import { spawn } from "node:child_process"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import {
  assertBuilt,
  controllerEntry,
  type ControllerHandle,
  delay,
  freePort,
  HOST,
  killAllChildren,
  makeTempDir,
  removeDir,
  requestJson,
  spawnController,
  spawnNode,
  stopProcess,
  waitForHttp
} from "../support/controller.js"
import { type Benchmark, type BenchmarkReport, envInt, runAloneIfMain } from "./internal/Benchmark.js"
import { checkZip } from "./internal/backupZipCheck.js"
import { cpuSeconds, hwmMiB, rssMiB } from "./internal/procfs.js"
import { type MadeFolder, seeded, writeFolder } from "./internal/serverFolder.js"

const GOALS = { throughputRatio: 0.5, rssGrowthMiB: 100 } as const
const ADMIN = { username: "bench-admin", password: "bench admin password 1" }
const MiB = 1024 * 1024
const POLL_MS = 150
const RSS_SAMPLE_MS = 50

const settings = () => ({
  mib: envInt("BENCH_BACKUPS_MIB", 1024),
  seed: envInt("BENCH_BACKUPS_SEED", 1),
  keep: process.env["BENCH_BACKUPS_KEEP"] === "1",
  cpuProf: process.env["BENCH_BACKUPS_CPU_PROF"] === "1"
})

// ---------------------------------------------------------------------------
// Processes
// ---------------------------------------------------------------------------

interface Ran {
  readonly code: number | null
  readonly ms: number
  readonly stdout: string
  readonly stderr: string
}

/** Runs a command to its end; wall time in ms. */
const runCommand = (command: string, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = process.env): Promise<Ran> =>
  new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(command, [...args], { stdio: ["ignore", "pipe", "pipe"], env })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")))
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")))
    child.on("error", reject)
    child.on("close", (code) => resolve({ code, ms: performance.now() - started, stdout, stderr }))
  })

/** bash's `times`, second line: the children's user and system time, e.g. `0m12.345s 0m1.234s`. */
const childCpuSeconds = (times: string): number | undefined => {
  const line = times.trim().split("\n")[1]
  const parts = line === undefined ? [] : [...line.matchAll(/(\d+)m([\d.]+)s/g)]
  return parts.length === 2 ? parts.reduce((sum, m) => sum + Number(m[1]) * 60 + Number(m[2]), 0) : undefined
}

interface TarResult {
  readonly ms: number
  readonly cpuS: number | undefined
  readonly sizeBytes: number
  readonly syncMs: number
}

const tarBaseline = async (folder: MadeFolder, output: string): Promise<TarResult> => {
  // No GZIP in the environment: tar's gzip then runs at its default level, 6.
  const env = { ...process.env }
  delete env["GZIP"]
  const ran = await runCommand(
    "bash",
    ["-c", 'tar -czf "$0" -C "$1" "${@:2}"; status=$?; times; exit $status', output, folder.root, ...folder.topLevel],
    env
  )
  if (ran.code !== 0) throw new Error(`tar -czf exited ${ran.code}: ${ran.stderr}`)
  const synced = await runCommand("sync", [output])
  return { ms: ran.ms, cpuS: childCpuSeconds(ran.stdout), sizeBytes: Fs.statSync(output).size, syncMs: synced.ms }
}

// ---------------------------------------------------------------------------
// The controller
// ---------------------------------------------------------------------------

/** `spawnController`'s child with `--cpu-prof` (not allowed in NODE_OPTIONS); the profile is written when it exits. */
const spawnProfiledController = async (dataDir: string, env: Readonly<Record<string, string>>, profDir: string): Promise<ControllerHandle> => {
  assertBuilt()
  const port = await freePort()
  const handle = spawnNode({
    args: ["--cpu-prof", `--cpu-prof-dir=${profDir}`, controllerEntry],
    env: { PORT: String(port), HOST, DATA_DIR: dataDir, PLUGINS: "", LOG_LEVEL: "Warn", ...env }
  })
  return { ...handle, port, baseUrl: `http://${HOST}:${port}`, dataDir }
}

let addressCounter = 0
/** A fresh client address per call, so no single address reaches the per-IP limit. */
const nextAddress = () => {
  const i = addressCounter++ % 65536
  return `10.98.${(i >> 8) & 255}.${i & 255}`
}

const api = (controller: ControllerHandle, method: string, path: string, token?: string, body?: unknown) =>
  requestJson(controller.baseUrl, method, path, {
    headers: { "x-forwarded-for": nextAddress(), ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
    timeoutMs: 30_000,
    ...(body === undefined ? {} : { body })
  })

const expectStatus = (what: string, response: { readonly status: number; readonly body: unknown }, status: number) => {
  if (response.status !== status) throw new Error(`${what} answered ${response.status} ${JSON.stringify(response.body)}`)
  return response.body
}

interface BackupStatus {
  readonly state: "idle" | "running" | "done" | "failed"
  readonly phase: string
  readonly filename: string | null
  readonly bytesDone: number
  readonly bytesTotal: number
  readonly error: string | null
}

interface BackupRun {
  readonly ms: number
  readonly status: BackupStatus
  /** When each phase was first seen, ms after the POST. */
  readonly phases: ReadonlyArray<{ readonly phase: string; readonly atMs: number }>
  readonly rssBefore: number
  readonly rssPeakSampled: number
  readonly hwmBefore: number | undefined
  readonly hwmAfter: number | undefined
  readonly rssAfter: number | undefined
  readonly samples: number
  readonly cpuS: number | undefined
}

/** Waits until VmRSS moves less than 1 MiB over a second (at most 10 s); the last value. */
const settledRss = async (pid: number): Promise<number> => {
  let last = rssMiB(pid) ?? 0
  for (let i = 0; i < 10; i++) {
    await delay(1_000)
    const now = rssMiB(pid) ?? 0
    if (Math.abs(now - last) < 1) return now
    last = now
  }
  return last
}

const runBackup = async (controller: ControllerHandle, token: string, serverId: string, budgetMs: number): Promise<BackupRun> => {
  const rssBefore = await settledRss(controller.pid)
  const hwmBefore = hwmMiB(controller.pid)
  const cpuBefore = cpuSeconds(controller.pid)
  let peak = rssBefore
  let samples = 0
  const sampler = setInterval(() => {
    const now = rssMiB(controller.pid)
    if (now !== undefined) {
      samples++
      peak = Math.max(peak, now)
    }
  }, RSS_SAMPLE_MS)
  try {
    const started = performance.now()
    const posted = expectStatus(`POST /api/servers/${serverId}/backups`, await api(controller, "POST", `/api/servers/${serverId}/backups`, token), 202) as BackupStatus
    const phases: Array<{ phase: string; atMs: number }> = [{ phase: posted.phase, atMs: performance.now() - started }]
    const deadline = Date.now() + budgetMs
    for (;;) {
      const status = expectStatus("GET backup-status", await api(controller, "GET", `/api/servers/${serverId}/backup-status`, token), 200) as BackupStatus
      const at = performance.now() - started
      if (phases[phases.length - 1]!.phase !== status.phase) phases.push({ phase: status.phase, atMs: at })
      if (status.state === "done") {
        const cpuAfter = cpuSeconds(controller.pid)
        return {
          ms: at,
          status,
          phases,
          rssBefore,
          rssPeakSampled: peak,
          hwmBefore,
          hwmAfter: hwmMiB(controller.pid),
          rssAfter: rssMiB(controller.pid),
          samples,
          cpuS: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore
        }
      }
      if (status.state === "failed") throw new Error(`the backup failed: ${status.error}`)
      if (status.state !== "running") throw new Error(`backup-status is ${status.state} during the backup`)
      if (controller.hasExited()) throw new Error(`the controller exited during the backup; output:\n${controller.output()}`)
      if (Date.now() > deadline) throw new Error(`the backup did not end within ${budgetMs} ms (last: ${JSON.stringify(status)})`)
      await delay(POLL_MS)
    }
  } finally {
    clearInterval(sampler)
  }
}

// ---------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------

const mib = (bytes: number) => bytes / MiB
const f1 = (n: number | undefined) => (n === undefined ? "n/a" : n.toFixed(1))
const verdict = (met: boolean) => (met ? "met" : "NOT met")

const BUDGET_MS = 10 * 60_000

const run = async (): Promise<BenchmarkReport> => {
  const s = settings()
  const phase = (() => {
    const t0 = performance.now()
    return (what: string) => console.log(`  [${((performance.now() - t0) / 1000).toFixed(1)} s] ${what}`)
  })()
  const root = makeTempDir("garrison-bench-backups-")
  let controller: ControllerHandle | undefined
  const keep = s.keep || s.cpuProf
  try {
    const serverDir = NodePath.join(root, "server")
    const dataDir = NodePath.join(root, "data")
    const backupDir = NodePath.join(root, "backups")
    const profDir = NodePath.join(root, "cpu-prof")
    for (const dir of [serverDir, dataDir, backupDir]) Fs.mkdirSync(dir)

    const folder = writeFolder(serverDir, s.seed, s.mib * MiB)
    phase(
      `server folder: ${f1(mib(folder.bytes))} MiB in ${folder.files.length} files and ${folder.folders.length} folders (seed ${s.seed}); ` +
        `zlib-6 ratio of the pools: ${Object.entries(folder.poolRatios).map(([name, r]) => `${name} ${r.toFixed(2)}x`).join(", ")}`
    )
    await runCommand("sync", [])
    phase("synced to disk")

    const tar = await tarBaseline(folder, NodePath.join(root, "baseline.tar.gz"))
    const tarMiBs = mib(folder.bytes) / (tar.ms / 1000)
    phase(
      `tar -czf (gzip -6): ${(tar.ms / 1000).toFixed(2)} s, ${tarMiBs.toFixed(1)} MiB/s, ${f1(mib(tar.sizeBytes))} MiB, CPU (tar + gzip) ${f1(tar.cpuS)} s; ` +
        `syncing the .tar.gz afterwards took ${(tar.syncMs / 1000).toFixed(2)} s more`
    )
    Fs.rmSync(NodePath.join(root, "baseline.tar.gz"))

    if (s.cpuProf) Fs.mkdirSync(profDir)
    const env = { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, TRUST_PROXY: "1", DB_BACKUP_INTERVAL: "365 days", BACKUP_DIR: backupDir }
    controller = s.cpuProf ? await spawnProfiledController(dataDir, env, profDir) : await spawnController({ dataDir, logLevel: "Warn", env })
    await waitForHttp(controller, `${controller.baseUrl}/api/health/ping`, 60_000)
    const login = expectStatus("login", await api(controller, "POST", "/api/auth/login", undefined, ADMIN), 200) as { token: string }
    const token = login.token
    const created = expectStatus("POST /api/servers", await api(controller, "POST", "/api/servers", token, { name: "Backup bench", installDir: serverDir }), 201) as {
      id: string
    }
    expectStatus(
      "PUT backup-config",
      await api(controller, "PUT", `/api/servers/${created.id}/backup-config`, token, { paths: folder.topLevel, excludeLogs: false }),
      200
    )
    phase(`controller up (pid ${controller.pid}), entry ${created.id}, backup paths: ${folder.topLevel.join(" ")}`)

    const backup = await runBackup(controller, token, created.id, BUDGET_MS)
    const seconds = backup.ms / 1000
    const garrisonMiBs = mib(folder.bytes) / seconds
    // VmHWM catches a peak between samples, once the backup raised it above what start-up had reached.
    const hwmRaised = backup.hwmAfter !== undefined && backup.hwmBefore !== undefined && backup.hwmAfter > backup.hwmBefore
    const peak = hwmRaised ? Math.max(backup.rssPeakSampled, backup.hwmAfter!) : backup.rssPeakSampled
    const growth = peak - backup.rssBefore
    const zipPath = NodePath.join(backupDir, created.id, backup.status.filename!)
    const zipBytes = Fs.statSync(zipPath).size
    phase(
      `backup ${backup.status.filename}: ${seconds.toFixed(2)} s, ${garrisonMiBs.toFixed(1)} MiB/s, ${f1(mib(zipBytes))} MiB, controller CPU ${f1(backup.cpuS)} s; ` +
        `phases ${backup.phases.map((p) => `${p.phase || "(none)"}@${(p.atMs / 1000).toFixed(2)}s`).join(" ")}`
    )
    console.log(
      `  controller RSS: before ${f1(backup.rssBefore)} MiB, peak ${f1(peak)} MiB (sampled ${f1(backup.rssPeakSampled)} MiB over ${backup.samples} samples; ` +
        `VmHWM ${f1(backup.hwmBefore)} -> ${f1(backup.hwmAfter)} MiB), after ${f1(backup.rssAfter)} MiB; growth ${f1(growth)} MiB`
    )

    const check = await checkZip(zipPath, folder, seeded(s.seed + 1))
    phase(
      `zip checked: ${check.entries} entries, manifest lists ${check.manifestFiles} files` +
        (check.complete ? ", complete" : `; PROBLEMS: ${check.problems.join("; ")}`) +
        (check.warnings.length > 0 ? `; manifest warnings: ${check.warnings.slice(0, 3).join("; ")}` : "")
    )

    const ratio = garrisonMiBs / tarMiBs
    const ratioMet = ratio >= GOALS.throughputRatio
    const rssMet = growth < GOALS.rssGrowthMiB
    console.log(`  throughput garrison/tar ${ratio.toFixed(2)} (goal >= ${GOALS.throughputRatio}: ${verdict(ratioMet)})`)
    console.log(`  RSS growth ${f1(growth)} MiB (goal < ${GOALS.rssGrowthMiB} MiB: ${verdict(rssMet)})`)
    console.log(`  zip ${f1(mib(zipBytes))} MiB vs tar.gz ${f1(mib(tar.sizeBytes))} MiB (${(zipBytes / tar.sizeBytes).toFixed(3)}x)`)
    if (s.cpuProf) {
      await stopProcess(controller, 20_000)
      phase(`CPU profile(s) of the controller: ${Fs.readdirSync(profDir).map((name) => NodePath.join(profDir, name)).join(" ")}`)
    }

    return {
      headline:
        `${f1(mib(folder.bytes))} MiB, ${folder.files.length} files: garrison ${seconds.toFixed(1)} s ${garrisonMiBs.toFixed(1)} MiB/s, ` +
        `tar -czf ${(tar.ms / 1000).toFixed(1)} s ${tarMiBs.toFixed(1)} MiB/s, ratio ${ratio.toFixed(2)}; RSS ${f1(backup.rssBefore)} -> peak ${f1(peak)} MiB ` +
        `(+${f1(growth)}); zip ${f1(mib(zipBytes))} MiB vs tar.gz ${f1(mib(tar.sizeBytes))} MiB${check.complete ? "" : "; ZIP INCOMPLETE"}`,
      goals: [
        { description: `throughput garrison/tar -czf >= ${GOALS.throughputRatio}`, met: ratioMet },
        { description: `controller RSS growth < ${GOALS.rssGrowthMiB} MiB`, met: rssMet },
        { description: "the zip holds every file and folder, with the manifest", met: check.complete }
      ]
    }
  } catch (error) {
    if (controller !== undefined && !controller.hasExited()) console.error(`  controller output:\n${controller.output().slice(-4000)}`)
    throw error
  } finally {
    if (controller !== undefined) await stopProcess(controller, 10_000)
    if (keep) console.log(`  kept: ${root}`)
    else removeDir(root)
  }
}

export const benchmark: Benchmark = {
  name: "backups",
  description: "a 1 GiB server folder: backup throughput against tar -czf, controller RSS growth",
  // Making the folder (~10-20 s), tar (~30-60 s), the backup, the check: 10 min is ample.
  budgetMs: BUDGET_MS,
  run
}

// `node test/dist/bench/backups.js` runs just this one.
runAloneIfMain(benchmark, import.meta.url, () => killAllChildren())
