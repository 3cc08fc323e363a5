/**
 * Throw-away folders in the system's temporary directory (data
 * directories, install folders). Name them `garrison-*`: the run's global
 * setup (`@garrison/testkit/globalSetup`) fails a run that leaves one behind.
 */
import * as Effect from "effect/Effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as NodePath from "node:path"

const created = new Set<string>()

/** Removes every folder `tempDir` made so far (the `@garrison/testkit/fileSetup` hook calls it after each test file). */
export const removeTempDirs = (): void => {
  for (const dir of created) Fs.rmSync(dir, { recursive: true, force: true })
  created.clear()
}
const removeAll = removeTempDirs

// Under vitest each test file loads this module afresh (unless `isolate` is off: then the
// `@garrison/testkit/fileSetup` setup file does this per file): its folders go after that file's tests.
// Anywhere else (a benchmark, a script), they go when the process exits.
if (process.env["VITEST"] !== undefined) {
  const { afterAll } = await import("vitest")
  afterAll(removeAll)
} else {
  process.once("exit", removeAll)
}

const make = (prefix: string): string => Fs.mkdtempSync(NodePath.join(Os.tmpdir(), prefix))

/**
 * A fresh folder whose name starts with `prefix`, removed after the tests
 * of the file that made it (or at exit, outside vitest).
 */
export const tempDir = (prefix = "garrison-test-"): string => {
  const dir = make(prefix)
  created.add(dir)
  return dir
}

/** A fresh folder whose name starts with `prefix`, removed when the scope closes. */
export const scopedTempDir = (prefix = "garrison-test-") =>
  Effect.acquireRelease(Effect.sync(() => make(prefix)), (dir) => Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true })))
