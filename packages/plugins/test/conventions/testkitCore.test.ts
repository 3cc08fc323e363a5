/**
 * The runtime's tests load the runtime, not the controller: they import
 * the testkit's light entry, `@garrison/testkit/core`, never the main
 * entry `@garrison/testkit` (whose `testController`, `fakeFleet` and
 * `StubFleet` bring the host, `@garrison/http`, and the built-in plugins,
 * `@garrison/plugins`). And the core stays light: no module it reaches
 * through its relative imports imports the host or the plugins. Read off
 * the sources, so a new import that breaks either fails here, naming the
 * file and line (or the chain of imports).
 */
import { describe, expect, it } from "vitest"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { fileURLToPath } from "node:url"

const RUNTIME_TESTS = fileURLToPath(new URL("../../../runtime/test", import.meta.url))
const TESTKIT_SRC = fileURLToPath(new URL("../../../testkit/src", import.meta.url))

/**
 * Runtime test files allowed to import the whole testkit, each with its
 * reason (a test that needs the controller belongs beside the host or a
 * plugin, not here). Paths relative to packages/runtime/test, with `/`.
 */
const WHOLE_TESTKIT_ALLOWED: Readonly<Record<string, string>> = {}

/** The packages a core module must not import: the host and the built-in plugins. */
const HEAVY = /^@garrison\/(http|plugins)(\/|$)/

/** What the core may import besides its own modules: the runtime, `effect`, Node, and vitest (the folders' cleanup hook). */
const CORE_MAY_IMPORT = /^(@garrison\/runtime|effect|effect\/[A-Za-z]+|node:[a-z_/]+|vitest)$/

/** Every `.ts` file under `dir`, relative to it, with `/`. */
const tsFiles = (dir: string, base = dir): ReadonlyArray<string> =>
  Fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = NodePath.join(dir, entry.name)
    if (entry.isDirectory()) return tsFiles(path, base)
    return /\.tsx?$/.test(entry.name) ? [NodePath.relative(base, path).split(NodePath.sep).join("/")] : []
  })

/** The source without its comments (block comments, and lines that are `//` comments): a comment naming a package is no import. */
const code = (source: string): string =>
  source
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, " "))
    .split("\n")
    .map((line) => (/^\s*\/\//.test(line) ? "" : line))
    .join("\n")

/** The module specifiers a source imports or re-exports, static and dynamic, with the line of each. */
const importsOf = (source: string): ReadonlyArray<{ readonly specifier: string; readonly line: number }> => {
  const text = code(source)
  const patterns = [
    /\b(?:import|export)\b[^;"'`]*?\bfrom\s*["']([^"']+)["']/g, // import x from "m", export { x } from "m", import type ..., multi-line lists
    /\bimport\s*["']([^"']+)["']/g, // import "m"
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g // import("m")
  ]
  return patterns.flatMap((pattern) =>
    [...text.matchAll(pattern)].map((match) => ({ specifier: match[1]!, line: text.slice(0, match.index).split("\n").length }))
  )
}

/** The file a relative specifier names (`./X.js` is `X.ts`), or undefined. */
const resolveRelative = (from: string, specifier: string): string | undefined => {
  const target = NodePath.resolve(NodePath.dirname(from), specifier)
  const candidates = [target.replace(/\.js$/, ".ts"), target.replace(/\.js$/, ".tsx"), `${target}.ts`, NodePath.join(target, "index.ts"), target]
  return candidates.find((candidate) => Fs.existsSync(candidate) && Fs.statSync(candidate).isFile())
}

interface Graph {
  /** Each module reached, relative to the testkit's `src`, with the chain of modules that leads to it from the entry. */
  readonly modules: ReadonlyMap<string, ReadonlyArray<string>>
  /** Each package import (not relative), as `chain -> file:line imports "specifier"`. */
  readonly packageImports: ReadonlyArray<{ readonly specifier: string; readonly where: string }>
  /** Relative imports that name no file (the walk would silently miss what they import). */
  readonly unresolved: ReadonlyArray<string>
}

/** The static (and dynamic) import graph of `entry` over its relative imports, recursively. */
const importGraph = (entry: string): Graph => {
  const modules = new Map<string, ReadonlyArray<string>>()
  const packageImports: Array<{ specifier: string; where: string }> = []
  const unresolved: Array<string> = []
  const name = (file: string) => NodePath.relative(TESTKIT_SRC, file).split(NodePath.sep).join("/")
  const visit = (file: string, chain: ReadonlyArray<string>) => {
    if (modules.has(name(file))) return
    const here = [...chain, name(file)]
    modules.set(name(file), here)
    for (const { specifier, line } of importsOf(Fs.readFileSync(file, "utf8"))) {
      if (specifier.startsWith(".")) {
        const target = resolveRelative(file, specifier)
        if (target === undefined) unresolved.push(`${name(file)}:${line}: "${specifier}"`)
        else visit(target, here)
      } else {
        packageImports.push({ specifier, where: `${here.join(" -> ")}:${line}` })
      }
    }
  }
  visit(entry, [])
  return { modules, packageImports, unresolved }
}

describe("the testkit's core", () => {
  it("runtime tests import @garrison/testkit/core, not the whole testkit (which loads the host and the plugins)", () => {
    const offenders = tsFiles(RUNTIME_TESTS)
      .filter((file) => WHOLE_TESTKIT_ALLOWED[file] === undefined)
      .flatMap((file) =>
        importsOf(Fs.readFileSync(NodePath.join(RUNTIME_TESTS, file), "utf8"))
          .filter(({ specifier }) => specifier === "@garrison/testkit")
          .map(({ line }) => `packages/runtime/test/${file}:${line}`)
      )
    expect(offenders).toEqual([])
  })

  it("each runtime test allowed the whole testkit still imports it (a stale exception goes)", () => {
    const stale = Object.keys(WHOLE_TESTKIT_ALLOWED).filter((file) => {
      const path = NodePath.join(RUNTIME_TESTS, file)
      return !Fs.existsSync(path) || !importsOf(Fs.readFileSync(path, "utf8")).some(({ specifier }) => specifier === "@garrison/testkit")
    })
    expect(stale).toEqual([])
  })

  it("no module core.ts reaches imports @garrison/http or @garrison/plugins", () => {
    const graph = importGraph(NodePath.join(TESTKIT_SRC, "core.ts"))
    // The walk saw the core's modules (a broken reader would find nothing and pass).
    expect([...graph.modules.keys()]).toEqual(expect.arrayContaining(["core.ts", "Eventually.ts", "TempDir.ts", "TestClockSleeps.ts", "fleet/FakeLauncher.ts"]))
    expect(graph.unresolved).toEqual([])
    expect(graph.packageImports.filter(({ specifier }) => HEAVY.test(specifier)).map(({ specifier, where }) => `${where} imports "${specifier}"`)).toEqual([])
  })

  it("the core imports nothing but the runtime, effect, Node and vitest", () => {
    const graph = importGraph(NodePath.join(TESTKIT_SRC, "core.ts"))
    expect(graph.packageImports.filter(({ specifier }) => !CORE_MAY_IMPORT.test(specifier)).map(({ specifier, where }) => `${where} imports "${specifier}"`)).toEqual([])
  })

  it("the walk finds the host and the plugins behind the main entry (so it would find them behind the core)", () => {
    const heavy = new Set(importGraph(NodePath.join(TESTKIT_SRC, "index.ts")).packageImports.map(({ specifier }) => specifier).filter((specifier) => HEAVY.test(specifier)))
    expect([...heavy]).toEqual(expect.arrayContaining(["@garrison/http", "@garrison/plugins/servers"]))
  })
})
