/**
 * Throw-away folders for tests (data directories, install folders): each is
 * removed after the tests of the file that made it.
 */
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as NodePath from "node:path"
import { afterAll } from "vitest"

const created: Array<string> = []
afterAll(() => {
  for (const dir of created) Fs.rmSync(dir, { recursive: true, force: true })
})

/** A fresh folder in the system's temporary directory, its name starting with `prefix`. */
export const tempDir = (prefix: string): string => {
  const dir = Fs.mkdtempSync(NodePath.join(Os.tmpdir(), prefix))
  created.push(dir)
  return dir
}
