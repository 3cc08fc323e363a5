/**
 * Every body of every default plugin, decoded as the routes decode it (the
 * plan's payload schemas) with bad inputs, and answered as the front door
 * answers (the platform's issue list, then `safeIssueList`): no message
 * speaks the schema library's words (`Struct (Encoded side)`, `{ readonly
 * ...}`, `Expected ...`), and the unknown-field message lists every field
 * the body takes, uncut. Inputs: each body's example with each field in
 * turn replaced by values of other shapes, items of lists broken, unknown
 * fields added at every depth, and a body that is not an object at all.
 */
import { HttpApi } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { defaultPlugins } from "@garrison/plugins"
import { BodyExample, planPlugins } from "@garrison/runtime"
import { Context, Either, ParseResult, Schema } from "effect"
import { safeIssueList, summarizeIssues } from "../src/ErrorRedaction.js"
import { SCHEMA_WORDS } from "../src/IssueMessages.js"
import { docsHostRoutes } from "../src/OpenApiDocs.js"

interface Body {
  readonly label: string
  readonly schema: Schema.Schema<unknown, unknown>
  readonly example: unknown
}

/** The plan's payloads (strict, plain messages), with their examples. */
const bodies = (): ReadonlyArray<Body> => {
  const plan = planPlugins(defaultPlugins, docsHostRoutes)
  if (Either.isLeft(plan)) throw new Error(`the default plugins do not plan: ${plan.left.message}`)
  const out: Array<Body> = []
  for (const plugin of defaultPlugins) {
    if (plugin.http === undefined) continue
    HttpApi.reflect(plugin.http.api as HttpApi.HttpApi<string, never, never, never>, {
      onGroup: () => {},
      onEndpoint: ({ endpoint }) => {
        if (endpoint.payloadSchema._tag === "None" || !["POST", "PUT", "PATCH", "DELETE"].includes(endpoint.method)) return
        const example = Context.getOption(endpoint.annotations, BodyExample)
        out.push({
          label: `${endpoint.method} ${endpoint.path}`,
          schema: endpoint.payloadSchema.value as unknown as Schema.Schema<unknown, unknown>,
          example: example._tag === "Some" ? example.value : {}
        })
      }
    })
  }
  return out
}

/** What the front door answers for a body the schema refuses: its message and details; undefined when accepted. */
const answer = (schema: Schema.Schema<unknown, unknown>, input: unknown) => {
  // As the platform decodes a payload (HttpApiBuilder), and as its error reaches the front door (JSON).
  const decoded = Schema.decodeUnknownEither(schema)(input)
  if (Either.isRight(decoded)) return undefined
  const issues = JSON.parse(JSON.stringify(ParseResult.ArrayFormatter.formatErrorSync(decoded.left))) as ReadonlyArray<unknown>
  const { listed, count } = safeIssueList(issues)
  return { message: listed[0] === undefined ? "" : summarizeIssues(listed[0], count), details: listed }
}

const OTHER_SHAPES: ReadonlyArray<unknown> = [5, "x", true, null, {}, [], [5], [{}], { zzUnknown: 1 }]

/** The example, broken in one place at a time: each field (at every depth) replaced, items broken, unknown fields added. */
const variants = (example: unknown): ReadonlyArray<unknown> => {
  const out: Array<unknown> = [...OTHER_SHAPES]
  const at = (value: unknown, replace: (inner: unknown) => ReadonlyArray<unknown>, depth: number): ReadonlyArray<unknown> => {
    if (depth > 4) return []
    if (Array.isArray(value)) {
      const made: Array<unknown> = [[...value, 5], [...value, {}], [...value, { zzUnknown: 1 }]]
      value.forEach((item, i) => {
        for (const other of at(item, replace, depth + 1)) made.push(value.map((v, j) => (j === i ? other : v)))
      })
      return made
    }
    if (typeof value === "object" && value !== null) {
      const made: Array<unknown> = [{ ...value, zzUnknown: 1 }]
      for (const key of Object.keys(value)) {
        for (const other of replace((value as Record<string, unknown>)[key])) made.push({ ...value, [key]: other })
        for (const other of at((value as Record<string, unknown>)[key], replace, depth + 1)) made.push({ ...value, [key]: other })
      }
      return made
    }
    return []
  }
  out.push(...at(example, () => OTHER_SHAPES, 0))
  return out
}

describe("body errors in the words of the fields", () => {
  const all = bodies()

  it("never speak the schema library's words, on any body of the default plugins", () => {
    expect(all.length).toBeGreaterThan(25)
    const leaks: Array<string> = []
    let refused = 0
    for (const { label, schema, example } of all) {
      for (const input of variants(example)) {
        const reply = answer(schema, input)
        if (reply === undefined) continue
        refused += 1
        for (const text of [reply.message, ...reply.details.map((d) => d.message)]) {
          if (SCHEMA_WORDS.test(text) || text.length === 0) leaks.push(`${label} ${JSON.stringify(input).slice(0, 120)}: ${text}`)
        }
      }
    }
    expect(refused).toBeGreaterThan(1000)
    expect(leaks.slice(0, 20)).toEqual([])
  })

  it("lists every field a body takes for an unknown one, uncut, at any depth", () => {
    const cut: Array<string> = []
    let checked = 0
    for (const { schema, example, label } of all) {
      if (typeof example !== "object" || example === null || Array.isArray(example)) continue
      const reply = answer(schema, { ...example, zzUnknown: 1 })
      // A body that takes any name (run-time settings by name, a provider's webhook event) has no list to give.
      if (reply === undefined) continue
      checked += 1
      const unknown = reply.details.find((d) => d.path === "zzUnknown")
      if (unknown === undefined || !unknown.message.startsWith("is not a field of this body; its fields are ") || unknown.message.includes("characters)")) {
        cut.push(`${label}: ${JSON.stringify(reply.details)}`)
        continue
      }
      for (const field of Object.keys(example)) if (!unknown.message.split(/, |are /).includes(field)) cut.push(`${label}: ${field} not listed`)
    }
    expect(checked).toBeGreaterThan(25)
    expect(cut).toEqual([])
  })

  it("names what a list's items and a config's fields take, as the API spells them", () => {
    const rollout = all.find((b) => b.label === "POST /api/servers/:id/rollout")!
    expect(answer(rollout.schema, { install: [5] })).toEqual({
      message: "install.0 must be an object with fields workshopId, name, type (got 5)",
      details: [{ path: "install.0", message: "must be an object with fields workshopId, name, type (got 5)" }]
    })
    expect(answer(rollout.schema, { install: [{ workshopId: "1", type: "both" }] })?.message).toBe('install.0.type must be one of client, server (got "both")')
    expect(answer(rollout.schema, { install: [{ workshopId: "1", extra: 1 }] })?.message).toBe("install.0.extra is not a field of this body; its fields are workshopId, name, type")
    expect(answer(rollout.schema, { install: "all" })?.message).toBe('install must be a list (each item an object with fields workshopId, name, type) (got "all")')
    expect(answer(rollout.schema, 5)?.message).toBe("must be an object with fields mods, install, server, now (got 5)")

    const config = all.find((b) => b.label === "PATCH /api/servers/:id/config")!
    const unknown = answer(config.schema, { hostnme: "typo" })!
    expect(unknown.message).toMatch(/^hostnme is not a field of this body; its fields are hostname, /)
    expect(unknown.message.length).toBeGreaterThan(500)
    expect(unknown.message).not.toContain("…")
    // Only the caller's own key is cut.
    const long = answer(config.schema, { ["k".repeat(300)]: 1 })!
    expect(long.details[0]!.path).toBe(`${"k".repeat(64)}…`)
    expect(long.details[0]!.message).toContain("instanceId")
  })
})
