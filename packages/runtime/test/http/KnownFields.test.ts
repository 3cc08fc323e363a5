/**
 * One rule for unknown body fields: planning a plugin list makes every
 * endpoint's payload refuse fields its schema does not name, at any depth,
 * unless the schema chose otherwise. The e2e and plugin tests check it over
 * HTTP on real routes; this checks what the plan does to an API.
 */
import { HttpApi, HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Either, Option, Schema } from "effect"
import { Access } from "../../src/access/Access.js"
import { knownFieldsOnly, requireKnownFields } from "../../src/http/KnownFields.js"
import * as Plugin from "../../src/kernel/Plugin.js"
import { planPlugins } from "../../src/kernel/PluginPlan.js"

class Inner extends Schema.Class<Inner>("Inner")({ x: Schema.Number }) {}

const Body = Schema.Struct({
  name: Schema.String,
  inner: Schema.optional(Inner),
  list: Schema.optional(Schema.Array(Schema.Struct({ y: Schema.String })))
})
const Webhook = Schema.Struct({ event: Schema.String }).annotations({ parseOptions: { onExcessProperty: "ignore" } })

const makeApi = () =>
  HttpApi.make("things").add(
    HttpApiGroup.make("things")
      .add(HttpApiEndpoint.post("create", "/api/things").setPayload(Body))
      .add(HttpApiEndpoint.post("hook", "/api/things/hook").setPayload(Webhook))
      .add(HttpApiEndpoint.get("search", "/api/things").setPayload(Schema.Struct({ q: Schema.optional(Schema.String) })))
      .annotate(Access, Access.anyAuth)
  )

const payloadOf = (api: ReturnType<typeof makeApi>, name: "create" | "hook" | "search") =>
  Option.getOrThrow((api.groups.things!.endpoints as Record<string, { payloadSchema: Option.Option<Schema.Schema.Any> }>)[name]!.payloadSchema)

const decode = (schema: Schema.Schema.Any, input: unknown) =>
  Either.mapLeft(Schema.decodeUnknownEither(schema as Schema.Schema<unknown>)(input), (error) => error.message)

describe("unknown body fields", () => {
  it("after planning, a body refuses a field its schema does not name, nested objects and array items included", () => {
    const api = makeApi()
    expect(Either.isRight(planPlugins([Plugin.make({ id: "things", http: { api, routes: undefined as never } })]))).toBe(true)
    const create = payloadOf(api, "create")
    expect(Either.isRight(decode(create, { name: "a", inner: { x: 1 }, list: [{ y: "b" }] }))).toBe(true)
    for (const [input, field] of [
      [{ name: "a", colour: "red" }, "colour"],
      [{ name: "a", inner: { x: 1, z: 2 } }, "z"],
      [{ name: "a", list: [{ y: "b", w: 1 }] }, "w"]
    ] as const) {
      const refused = decode(create, input)
      // The plan's payloads say their failures in the words of their fields (`DecodeIssues`), carried in the one message.
      expect(Either.isLeft(refused) && refused.left).toContain(`"${field}"],"rule":"is not a field of this body; its fields are `)
    }
  })

  it("leaves a schema that chose for itself, and query payloads, alone; applying it twice changes nothing", () => {
    const api = makeApi()
    requireKnownFields(api)
    const strict = payloadOf(api, "create")
    requireKnownFields(api)
    expect(payloadOf(api, "create")).toBe(strict)
    expect(decode(payloadOf(api, "hook"), { event: "paid", extra: 1 })).toEqual(Either.right({ event: "paid" }))
    expect(Either.isRight(decode(payloadOf(api, "search"), { q: "x", page: "2" }))).toBe(true)
    expect(knownFieldsOnly(Webhook)).toBe(Webhook)
  })
})
