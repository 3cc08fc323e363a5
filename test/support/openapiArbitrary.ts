/**
 * Requests generated from an OpenAPI document, for the no-5xx property test:
 * for each operation, path parameters, query strings and JSON bodies that
 * follow the operation's schemas most of the time (so handlers run, not only
 * the decoder) with hostile values mixed in at every leaf: lone surrogates,
 * NUL, 100 KB strings, impossible dates, path tricks, numbers out of range,
 * wrong types, unknown and prototype-polluting keys, deep nesting, and raw
 * bodies that are not UTF-8 or not JSON at all.
 *
 * Framework-free (fast-check through `effect/FastCheck`), like the other
 * support modules.
 */
import * as fc from "effect/FastCheck"

export interface JsonSchema {
  readonly $ref?: string
  readonly type?: string
  readonly enum?: ReadonlyArray<unknown>
  readonly anyOf?: ReadonlyArray<JsonSchema>
  readonly oneOf?: ReadonlyArray<JsonSchema>
  readonly properties?: Readonly<Record<string, JsonSchema>>
  readonly required?: ReadonlyArray<string>
  readonly items?: JsonSchema
  readonly minLength?: number
  readonly maxLength?: number
  readonly minimum?: number
  readonly maximum?: number
  readonly minItems?: number
  readonly maxItems?: number
  readonly pattern?: string
}

export interface OpenApiParameter {
  readonly name: string
  readonly in: "path" | "query" | "header" | "cookie"
  readonly required?: boolean
  readonly schema?: JsonSchema
}

export interface OpenApiOperation {
  readonly method: string
  /** The template, e.g. `/api/servers/{id}/start`. */
  readonly path: string
  readonly parameters: ReadonlyArray<OpenApiParameter>
  readonly body?: JsonSchema
}

export interface OpenApiDocument {
  readonly paths: Readonly<Record<string, Readonly<Record<string, {
    readonly parameters?: ReadonlyArray<OpenApiParameter>
    readonly requestBody?: { readonly content?: Readonly<Record<string, { readonly schema?: JsonSchema }>> }
  }>>>>
  readonly components?: { readonly schemas?: Readonly<Record<string, JsonSchema>> }
}

/** A request ready to send: the target is already percent-encoded; the body is raw bytes. */
export interface GeneratedRequest {
  readonly method: string
  readonly target: string
  readonly body?: Buffer
  readonly contentType?: string
  /** Which credentials to send: the signed-in admin's, none, or a forged token. */
  readonly auth: "admin" | "none" | "forged"
}

export const operationsOf = (document: OpenApiDocument): Array<OpenApiOperation> =>
  Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => {
      const body = operation.requestBody?.content?.["application/json"]?.schema
      return { method: method.toUpperCase(), path, parameters: operation.parameters ?? [], ...(body ? { body } : {}) }
    })
  )

// ---------------------------------------------------------------------------
// Hostile leaves

/** Strings that have broken services like this one. */
export const hostileStrings: ReadonlyArray<string> = [
  "",
  " ",
  "\ud800",
  "x\ud800y",
  "\udfff",
  "\udc00\ud800",
  "a\u0000b",
  "\u0000",
  "\ufffe\uffff",
  "\u202eevil",
  "😀".repeat(3),
  "x".repeat(100_000),
  "é".repeat(5_000),
  "../../../../etc/passwd",
  "..\\..\\windows\\win.ini",
  "/etc/passwd",
  "%00",
  "%2e%2e%2f",
  "2026-02-30",
  "2026-02-30T10:00:00Z",
  "2025-02-29T00:00:00Z",
  "2026-13-01T00:00:00Z",
  "2026-01-01T24:00:00Z",
  "2026-01-01T00:00:00+25:00",
  "9999-12-31T23:59:59Z",
  "0000-01-01T00:00:00Z",
  "-1",
  "1e309",
  "NaN",
  "__proto__",
  "constructor",
  "'; DROP TABLE bans; --",
  "${jndi:ldap://x}",
  "<script>alert(1)</script>",
  "line\r\ninjected",
  "76561198000000000",
  "7656119800000000000000",
  "*",
  "%",
  "_"
]

const hostileNumbers: ReadonlyArray<number> = [-1, 0, -0, 1.5, 2 ** 31, 2 ** 53 + 2, -(2 ** 53), 1e308, -1e308, 5e-324]

export const hostileString = fc.constantFrom(...hostileStrings)
const hostileScalar = fc.oneof(hostileString, fc.constantFrom<unknown>(...hostileNumbers, true, false, null))
/** Any JSON value, small; used where a schema says nothing and as "wrong type" noise. */
const anyJson = fc.jsonValue({ maxDepth: 2 })

// ---------------------------------------------------------------------------
// From a JSON schema

const resolve = (document: OpenApiDocument, schema: JsonSchema): JsonSchema => {
  let current = schema
  for (let hops = 0; current.$ref !== undefined && hops < 20; hops++) {
    const name = current.$ref.replace("#/components/schemas/", "")
    const target = document.components?.schemas?.[name]
    if (target === undefined) return {}
    // Sibling keywords next to a $ref (Effect puts constraints there) refine the target.
    const { $ref: _ref, ...siblings } = current
    current = { ...target, ...siblings }
  }
  return current
}

const stringFor = (schema: JsonSchema): fc.Arbitrary<string> => {
  if (schema.pattern !== undefined) {
    try {
      return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= (schema.maxLength ?? Infinity))
    } catch {
      // A pattern JavaScript cannot compile: plain strings instead.
    }
  }
  const minLength = schema.minLength ?? 0
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 24, 24))
  return fc.string({ minLength, maxLength })
}

const numberFor = (schema: JsonSchema, integer: boolean): fc.Arbitrary<number> => {
  const min = schema.minimum ?? -1_000_000
  const max = schema.maximum ?? 1_000_000
  return integer
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true })
}

/**
 * Values for `schema`: mostly well-shaped (each leaf has a one-in-eight
 * chance of being hostile instead), so generated requests reach handlers.
 */
export const valueFor = (document: OpenApiDocument, schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> => {
  const resolved = resolve(document, schema)
  const wellShaped = shapedFor(document, resolved, depth)
  return fc.oneof({ weight: 7, arbitrary: wellShaped }, { weight: 1, arbitrary: hostileScalar })
}

const shapedFor = (document: OpenApiDocument, schema: JsonSchema, depth: number): fc.Arbitrary<unknown> => {
  if (schema.enum !== undefined && schema.enum.length > 0) return fc.constantFrom(...schema.enum)
  const alternatives = schema.anyOf ?? schema.oneOf
  if (alternatives !== undefined && alternatives.length > 0) {
    return fc.oneof(...alternatives.map((alternative) => valueFor(document, alternative, depth + 1)))
  }
  if (depth > 6) return anyJson
  switch (schema.type) {
    case "string":
      return stringFor(schema)
    case "integer":
      return numberFor(schema, true)
    case "number":
      return numberFor(schema, false)
    case "boolean":
      return fc.boolean()
    case "null":
      return fc.constant(null)
    case "array": {
      const items = schema.items === undefined ? anyJson : valueFor(document, schema.items, depth + 1)
      const minLength = schema.minItems ?? 0
      return fc.array(items, { minLength, maxLength: Math.max(minLength, Math.min(schema.maxItems ?? 4, 4)) })
    }
    case "object":
      return objectFor(document, schema, depth)
    default:
      return anyJson
  }
}

const objectFor = (document: OpenApiDocument, schema: JsonSchema, depth: number): fc.Arbitrary<unknown> => {
  const properties = schema.properties ?? {}
  const required = new Set(schema.required ?? [])
  const fields = Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, valueFor(document, value, depth + 1)]))
  const requiredKeys = Object.keys(properties).filter((key) => required.has(key))
  const record = fc.record(fields, { requiredKeys })
  // Now and then a required field goes missing or an unknown one appears.
  return fc.tuple(record, fc.nat(15), fc.constantFrom(...requiredKeys, "unexpected"), anyJson).map(([value, roll, key, extra]) => {
    const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) }
    if (roll === 0 && key !== "unexpected") delete copy[key]
    if (roll === 1) copy.unexpectedField = extra
    return copy
  })
}

// ---------------------------------------------------------------------------
// Bodies as bytes

const nested = (levels: number, open: string, close: string) => open.repeat(levels) + close.repeat(levels)

/** Whole bodies that no schema would produce. */
const hostileBodies: ReadonlyArray<{ readonly body: Buffer; readonly contentType?: string }> = [
  { body: Buffer.from(nested(3_000, "[", "]")) },
  { body: Buffer.from(nested(3_000, '{"a":', "}").replace(/}$/, "1}")) },
  { body: Buffer.from(`{"a":${nested(100_000, "[", "]")}}`) },
  { body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d]) }, // {"a":"<overlong />"}
  { body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]) }, // {"a":"<CESU surrogate>"}
  { body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]) },
  { body: Buffer.from([0x7b, 0x22, 0xe2, 0x82]) }, // truncated
  { body: Buffer.from('{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}') },
  { body: Buffer.from('{"a":"\\ud800"}') },
  { body: Buffer.from("{") },
  { body: Buffer.from("null") },
  { body: Buffer.from('"just a string"') },
  { body: Buffer.from("[]") },
  { body: Buffer.from("1e999") },
  { body: Buffer.from("\ufeff{}") },
  { body: Buffer.from("a=1&b=2"), contentType: "application/x-www-form-urlencoded" },
  { body: Buffer.from("{}"), contentType: "text/plain" },
  { body: Buffer.from(`{"password":"${"p".repeat(900_000)}","username":"u"}`) }
]

const RAW_MARKER = "@@RAW@@"

/** Swaps the marker in a JSON text for raw bytes (invalid UTF-8 inside an otherwise good body). */
const withRawBytes = (json: string, bytes: ReadonlyArray<number>): Buffer => {
  const at = json.indexOf(RAW_MARKER)
  return Buffer.concat([Buffer.from(json.slice(0, at)), Buffer.from(bytes), Buffer.from(json.slice(at + RAW_MARKER.length))])
}

const rawSequences: ReadonlyArray<ReadonlyArray<number>> = [[0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x80], [0xe2, 0x82]]

const bodyFor = (document: OpenApiDocument, schema: JsonSchema | undefined): fc.Arbitrary<{ body?: Buffer; contentType?: string }> => {
  const shaped = schema === undefined ? anyJson : valueFor(document, schema)
  return fc.oneof(
    { weight: 12, arbitrary: shaped.map((value) => ({ body: Buffer.from(JSON.stringify(value) ?? "null") })) },
    { weight: 2, arbitrary: fc.constantFrom(...hostileBodies) },
    {
      weight: 1,
      arbitrary: fc.tuple(shaped, fc.constantFrom(...rawSequences)).map(([value, bytes]) => {
        // Put a marker into the first string-valued field (or wrap the value) and swap it for raw bytes.
        const text = JSON.stringify(value) ?? "null"
        const marked = text.replace(/:"[^"\\]*"/, `:"${RAW_MARKER}"`)
        return { body: withRawBytes(marked === text ? `{"x":"${RAW_MARKER}","v":${text}}` : marked, bytes) }
      })
    },
    { weight: 1, arbitrary: fc.constant({}) }
  )
}

// ---------------------------------------------------------------------------
// Targets

/**
 * Percent-encodes a string as UTF-8, except that lone surrogates are
 * encoded as the three bytes of their code unit (WTF-8), which is not
 * valid UTF-8: `encodeURIComponent` would throw on them instead.
 */
export const encodeSegment = (value: string): string => {
  let out = ""
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i)
    const isHigh = unit >= 0xd800 && unit <= 0xdbff
    const next = value.charCodeAt(i + 1)
    if (isHigh && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(value.slice(i, i + 2))
      i++
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      out += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join("")
    } else {
      out += encodeURIComponent(value[i]!)
    }
  }
  return out
}

const queryValueFor = (document: OpenApiDocument, parameter: OpenApiParameter): fc.Arbitrary<string> => {
  const schema = resolve(document, parameter.schema ?? {})
  const shaped = shapedFor(document, schema, 0).map((value) => (typeof value === "string" ? value : JSON.stringify(value) ?? ""))
  return fc.oneof({ weight: 4, arbitrary: shaped }, { weight: 1, arbitrary: hostileString }, { weight: 1, arbitrary: fc.integer().map(String) })
}

/**
 * Requests for one operation. `knownIds` are ids of things that exist (so
 * handlers past the lookup run); path parameters pick from them or from
 * hostile strings.
 */
export const requestsFor = (
  document: OpenApiDocument,
  operation: OpenApiOperation,
  knownIds: ReadonlyArray<string>,
  /** Path parameters given one value (a server's id, say) instead of generated ones. */
  pinned: Readonly<Record<string, string>> = {}
): fc.Arbitrary<GeneratedRequest> => {
  const pathValue = fc.oneof(
    { weight: 3, arbitrary: knownIds.length > 0 ? fc.constantFrom(...knownIds) : fc.uuid() },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 2, arbitrary: hostileString.filter((s) => s.length > 0 && s.length < 4_000) },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 40 }) }
  )
  const pathParameters = operation.parameters.filter((p) => p.in === "path")
  const queryParameters = operation.parameters.filter((p) => p.in === "query")
  const path = fc.tuple(...pathParameters.map((parameter) => (parameter.name in pinned ? fc.constant(pinned[parameter.name]!) : pathValue))).map((values) =>
    pathParameters.reduce((target, parameter, i) => target.replace(`{${parameter.name}}`, encodeSegment(values[i] as string)), operation.path)
  )
  const query = fc
    .tuple(...queryParameters.map((parameter) => fc.option(queryValueFor(document, parameter), { freq: 2 })))
    .map((values) =>
      queryParameters.flatMap((parameter, i) => {
        const value = values[i]
        return value === null || value === undefined ? [] : [`${encodeSegment(parameter.name)}=${encodeSegment(value as string)}`]
      })
    )
  const hasBody = operation.body !== undefined || ["POST", "PUT", "PATCH"].includes(operation.method)
  const body = hasBody ? fc.option(bodyFor(document, operation.body), { freq: 8 }) : fc.constant(null)
  const auth = fc.constantFrom<GeneratedRequest["auth"]>("admin", "admin", "admin", "admin", "admin", "none", "forged")
  return fc.record({ path, query, body, auth }).map(({ path, query, body, auth }) => ({
    method: operation.method,
    target: query.length > 0 ? `${path}?${query.join("&")}` : path,
    auth,
    ...(body === null ? {} : { body: body.body ?? Buffer.alloc(0), contentType: body.contentType ?? "application/json" })
  }))
}
