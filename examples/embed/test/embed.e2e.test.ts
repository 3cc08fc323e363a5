/**
 * The embedding example as a user would run it: the built program, twice on
 * one data directory, with no HTTP server involved.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { execFile } from "node:child_process"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll } from "vitest"

const ROOT = fileURLToPath(new URL("../../../", import.meta.url))
const MAIN = NodePath.join(ROOT, "examples/embed/dist/main.js")

class ProgramFailed extends Schema.TaggedError<ProgramFailed>()("ProgramFailed", {
  message: Schema.String
}) {}

const scratch = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "garrison-embed-test-"))
afterAll(() => NodeFs.rmSync(scratch, { recursive: true, force: true }))

/** Runs the program to completion; fails with its output unless it exits 0. */
const runProgram = (args: ReadonlyArray<string>) =>
  Effect.async<{ readonly stdout: string; readonly stderr: string }, ProgramFailed>((resume) => {
    const child = execFile(process.execPath, [MAIN, ...args], { cwd: ROOT, timeout: 20_000 }, (error, stdout, stderr) =>
      resume(
        error === null
          ? Effect.succeed({ stdout, stderr })
          : Effect.fail(new ProgramFailed({ message: `${error.message}\n${stdout}\n${stderr}` }))
      )
    )
    return Effect.sync(() => child.kill())
  })

describe("embedding the runtime", () => {
  it.live("builds the runtime without HTTP, uses the Motd service, prints and exits", () =>
    Effect.gen(function* () {
      if (!NodeFs.existsSync(MAIN)) return yield* new ProgramFailed({ message: `${MAIN} is missing: run \`npx tsc -b\` first` })
      const dataDir = NodePath.join(scratch, "data")

      const first = yield* runProgram([dataDir, "Maintenance", "at", "noon"])
      const lines = first.stdout.trim().split("\n")
      expect(lines[0]).toBe("plugins: health, motd")
      expect(lines[1]).toMatch(/^posted [0-9a-f-]{36}$/)
      expect(lines[2]).toBe(`1 message(s) in ${dataDir}:`)
      expect(lines[3]).toMatch(/^- \[\d{4}-\d\d-\d\dT[\d:.]+Z\] embed: Maintenance at noon$/)
      expect(lines).toHaveLength(4)
      // Runtime logs are filtered to warnings; a clean run writes none.
      expect(first.stderr).toBe("")

      // The same data directory again: the first message is still there, newest first.
      const second = yield* runProgram([dataDir, "Second", "run"])
      expect(second.stdout).toContain(`2 message(s) in ${dataDir}:`)
      const messages = second.stdout.trim().split("\n").slice(3)
      expect(messages.map((line) => line.replace(/^- \[[^\]]+\] /, ""))).toEqual([
        "embed: Second run",
        "embed: Maintenance at noon"
      ])
      expect(NodeFs.existsSync(NodePath.join(dataDir, "garrison.db"))).toBe(true)
    }), 60_000)
})
