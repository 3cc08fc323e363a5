/**
 * Error responses as the controller really sends them. `HttpApi` documents
 * each error class as its own schema (`{_tag, message}`, the decoder's
 * `{_tag: "HttpApiDecodeError", issues}`); the host rewrites every error
 * into one shape, `{error, message, details?}`, so the document says that
 * instead, with the codes each status can carry. Operations that need a
 * caller also list the 401 and 403 the front door answers before the
 * handler runs, and every operation the 429 of the rate limits, so a
 * generated client knows every error it can get.
 */
import { type ErrorCode, errorStatus } from "@garrison/runtime"

export const ERROR_SCHEMA_NAME = "ApiError"

const errorRef = { $ref: `#/components/schemas/${ERROR_SCHEMA_NAME}` }

export const errorSchema = {
  type: "object",
  required: ["error", "message"],
  properties: {
    error: {
      type: "string",
      // No enum: an authenticator a plugin brings may answer codes of its own.
      description: "A stable code for programs, e.g. `invalid-request`, `not-found`, `rate-limited` (the README lists them)."
    },
    message: { type: "string", description: "What went wrong, for a person; never echoes a secret." },
    details: {
      description: "More about the error when there is more: for `invalid-request`, the failing fields as a list of `{path, message}`."
    }
  },
  additionalProperties: false
} as const

/** The codes the table gives a status, or none for a status it does not list. */
const codesFor = (status: number): ReadonlyArray<ErrorCode> =>
  (Object.entries(errorStatus) as Array<[ErrorCode, number]>).filter(([, s]) => s === status).map(([code]) => code)

const describeStatus = (status: number, fallback: string): string => {
  const codes = codesFor(status)
  return codes.length === 0 ? fallback : `\`error\` is ${codes.map((code) => `\`${code}\``).join(" or ")}.`
}

interface Response {
  description?: string
  content?: Record<string, unknown>
  headers?: Record<string, unknown>
}

const errorResponse = (status: number, fallback: string, extra: Partial<Response> = {}): Response => ({
  description: describeStatus(status, fallback),
  content: { "application/json": { schema: errorRef } },
  ...extra
})

const retryAfter = {
  "Retry-After": { description: "Seconds to wait before trying again.", schema: { type: "integer", minimum: 0 } }
}

/**
 * Rewrites the error responses of one operation in place and adds the ones
 * the host answers itself.
 */
export const withErrorShape = (operation: Record<string, unknown>, needsCaller: boolean): void => {
  const responses = (operation.responses ?? {}) as Record<string, Response>
  for (const [status, response] of Object.entries(responses)) {
    const code = Number(status)
    if (!(code >= 400)) continue
    responses[status] = errorResponse(code, response.description ?? "Error", code === 503 ? { headers: retryAfter } : {})
  }
  if (needsCaller) {
    responses["401"] ??= errorResponse(401, "Not signed in")
    responses["403"] ??= errorResponse(403, "Not allowed")
  }
  responses["429"] ??= errorResponse(429, "Too many requests", { headers: retryAfter })
  operation.responses = responses
}

/**
 * The 402 the front door answers on a route of a licensed feature when the
 * license does not allow it (see the runtime's `LicenseGate`): the one shape
 * plus `feature` and `status` at the top, as license clients of this world
 * read them (and again in `details`).
 */
export const withLicenseRefusal = (operation: Record<string, unknown>, feature: string): void => {
  const responses = (operation.responses ?? {}) as Record<string, Response>
  responses["402"] = {
    description:
      `The license does not allow the feature \`${feature}\` now: \`error\` is \`SUBSCRIPTION_INACTIVE\` (no license in force, ` +
      "or a write while the license is read-only) or `FEATURE_NOT_ENTITLED` (the license does not include it).",
    content: {
      "application/json": {
        schema: {
          type: "object",
          required: ["error", "message", "feature", "status"],
          properties: {
            error: { type: "string", enum: ["SUBSCRIPTION_INACTIVE", "FEATURE_NOT_ENTITLED"] },
            message: { type: "string" },
            feature: { type: "string", description: "The licensed feature the operation belongs to." },
            status: { type: "string", description: "The license's state, as `GET /api/license` names it." },
            details: {
              type: "object",
              properties: { feature: { type: "string" }, status: { type: "string" } }
            }
          },
          additionalProperties: false
        }
      }
    }
  }
  operation.responses = responses
}

/** Component schemas no longer referenced from the paths (the error classes replaced above) are dropped. */
export const pruneUnusedSchemas = (spec: Record<string, unknown>): void => {
  const components = spec.components as { schemas?: Record<string, unknown> } | undefined
  const schemas = components?.schemas
  if (schemas === undefined) return
  const used = new Set<string>()
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item)
      return
    }
    if (typeof value !== "object" || value === null) return
    for (const [key, inner] of Object.entries(value)) {
      if (key === "$ref" && typeof inner === "string" && inner.startsWith("#/components/schemas/")) {
        const name = inner.slice("#/components/schemas/".length)
        if (!used.has(name)) {
          used.add(name)
          visit(schemas[name])
        }
      } else visit(inner)
    }
  }
  visit(spec.paths)
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name]
}
