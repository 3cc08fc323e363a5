/**
 * The OpenAPI document is usable by a standard generator: from the live
 * `/api/openapi.json` of a real controller, openapi-typescript generates
 * types; a small client written against them with openapi-fetch
 * (`test/fixtures/openapi-client/calls.ts`) must type-check strictly
 * (including calls the types must refuse), and then sign in, add a ban with
 * a bearer token, list bans with a typed query, and delete the ban with the
 * session cookie, refused without its CSRF header and done with it.
 */
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import * as NodePath from "node:path"
import { pathToFileURL } from "node:url"
import openapiTS, { astToString, type OpenAPI3 } from "openapi-typescript"
import ts from "typescript"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ControllerHandle, makeTempDir, removeDir, repoRoot, startController, stopProcess } from "../support/controller.js"

const ADMIN = { username: "client-admin", password: "a generated client signs in" }
const FIXTURE = NodePath.join(repoRoot, "test/fixtures/openapi-client/calls.ts")

let controller: ControllerHandle
const temporary: Array<string> = []

beforeAll(async () => {
  const dataDir = makeTempDir("garrison-client-data-")
  temporary.push(dataDir)
  controller = await startController({
    dataDir,
    logLevel: "Warning",
    env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password }
  })
})

afterAll(async () => {
  if (controller !== undefined) await stopProcess(controller)
  for (const dir of temporary.splice(0)) removeDir(dir)
})

/** Strict type-check of `entry` and what it imports; the diagnostics as text, empty when it compiles. */
const typeCheck = (entry: string): Array<string> => {
  const program = ts.createProgram([entry], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
    types: [],
    strict: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    // openapi-fetch's own declarations are trusted; the generated `api.ts` and the client are checked.
    skipLibCheck: true
  })
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined
    const at = d.file ? `${NodePath.basename(d.file.fileName)}:${(where?.line ?? 0) + 1}: ` : ""
    return at + ts.flattenDiagnosticMessageText(d.messageText, "\n")
  })
}

describe("a client generated from /api/openapi.json", () => {
  it("compiles against the generated types and signs in, reads and writes with the right credentials", async () => {
    const response = await fetch(`${controller.baseUrl}/api/openapi.json`)
    expect(response.status).toBe(200)
    const document = (await response.json()) as OpenAPI3

    const started = performance.now()
    const types = astToString(await openapiTS(document))
    const generationMs = performance.now() - started

    // A package of its own beside the repository's node_modules, so `openapi-fetch` resolves as in a user's project.
    const dir = makeTempDir("garrison-client-")
    temporary.push(dir)
    writeFileSync(NodePath.join(dir, "package.json"), JSON.stringify({ type: "module" }))
    symlinkSync(NodePath.join(repoRoot, "node_modules"), NodePath.join(dir, "node_modules"), "dir")
    writeFileSync(NodePath.join(dir, "api.ts"), types)
    copyFileSync(FIXTURE, NodePath.join(dir, "calls.ts"))

    expect(typeCheck(NodePath.join(dir, "calls.ts"))).toEqual([])

    // Run it: types only are erased, so transpiling the client alone is enough.
    const js = ts.transpileModule(readFileSync(NodePath.join(dir, "calls.ts"), "utf8"), {
      compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false }
    }).outputText
    mkdirSync(NodePath.join(dir, "out"))
    writeFileSync(NodePath.join(dir, "out", "calls.js"), js)
    const client = (await import(pathToFileURL(NodePath.join(dir, "out", "calls.js")).href)) as {
      readonly run: (baseUrl: string, admin: typeof ADMIN) => Promise<unknown>
    }
    expect(await client.run(controller.baseUrl, ADMIN)).toEqual({
      signedIn: { username: ADMIN.username, mustChangePassword: false },
      // Steam2 in, Steam64 out.
      created: { status: 201, platformId: "76561198000000001", expiresAt: "2099-01-31T12:00:00.000Z" },
      listed: { status: 200, count: 1, containsCreated: true },
      anonymous: { status: 401, error: "unauthenticated" },
      cookieWithoutCsrf: { status: 403, error: "csrf-mismatch" },
      cookieWithCsrf: { status: 204 },
      afterDelete: { status: 404, error: "not-found" }
    })
    // Generation from the live document stays cheap enough to run in every test run.
    expect(generationMs).toBeLessThan(10_000)
  }, 60_000)
})
