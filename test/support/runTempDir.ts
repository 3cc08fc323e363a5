/**
 * Vitest global setup: every test process of one run (workers, spawned
 * controllers and simulated servers) gets one temporary folder of its own
 * through TMPDIR, and the run ends by checking it. A `garrison-*` folder
 * still there means a test did not clean up after itself: the run fails
 * naming it (the folder is removed either way, keys and all).
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as NodePath from "node:path"

export default function setup(): () => void {
  const previous = process.env.TMPDIR
  const root = mkdtempSync(NodePath.join(tmpdir(), "garrison-test-run-"))
  process.env.TMPDIR = root
  return () => {
    const leftovers = readdirSync(root).filter((name) => name.startsWith("garrison-"))
    rmSync(root, { recursive: true, force: true })
    if (previous === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = previous
    if (leftovers.length > 0) {
      throw new Error(`tests left ${leftovers.length} temporary folder(s) behind: ${leftovers.sort().join(", ")}`)
    }
  }
}
