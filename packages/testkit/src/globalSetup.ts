/**
 * A vitest global setup (`globalSetup: ["@garrison/testkit/globalSetup"]`,
 * or a file re-exporting it): every process of one run (test workers and
 * the controllers or game servers they spawn) gets one temporary folder of
 * its own through TMPDIR, and the run ends by checking it. A `garrison-*`
 * folder still there means a test did not clean up after itself: the run
 * fails naming it (the folder is removed either way, keys and all).
 */
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as NodePath from "node:path"

export default function setup(): () => void {
  const previous = process.env["TMPDIR"]
  const root = Fs.mkdtempSync(NodePath.join(Os.tmpdir(), "garrison-test-run-"))
  process.env["TMPDIR"] = root
  return () => {
    const leftovers = Fs.readdirSync(root).filter((name) => name.startsWith("garrison-"))
    Fs.rmSync(root, { recursive: true, force: true })
    if (previous === undefined) delete process.env["TMPDIR"]
    else process.env["TMPDIR"] = previous
    if (leftovers.length > 0) {
      throw new Error(`tests left ${leftovers.length} temporary folder(s) behind: ${leftovers.sort().join(", ")}`)
    }
  }
}
