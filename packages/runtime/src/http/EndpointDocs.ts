/**
 * What every endpoint tells the OpenAPI document besides its schemas: a
 * summary (`OpenApi.Summary`, one short line), an optional description
 * (`OpenApi.Description`; the host appends the permission it needs, from
 * its `Access`), and for a body an example a person could send as is:
 *
 *   HttpApiEndpoint.post("add", "/api/bans")
 *     .setPayload(BanInput)
 *     .annotate(OpenApi.Summary, "Ban a player")
 *     .annotate(BodyExample, { platformId: "76561198000000001", playerName: "Survivor", reason: "Cheating" })
 *
 * `undocumentedEndpoints` lists the endpoints that lack a summary, so a
 * plugin's tests can keep its API documented (the repository's own plugins
 * and the community example do).
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Context from "effect/Context"

/** An example request body, as sent on the wire (JSON): shown by the docs page and generated clients. */
export class BodyExample extends Context.Tag("@garrison/runtime/BodyExample")<BodyExample, unknown>() {}

/** `METHOD /path` of every endpoint of `api` without an `OpenApi.Summary`. */
export const undocumentedEndpoints = (api: HttpApi.HttpApi.Any): ReadonlyArray<string> => {
  const missing: Array<string> = []
  HttpApi.reflect(api as HttpApi.HttpApi<string, never, never, never>, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      const summary = Context.getOption(endpoint.annotations, OpenApi.Summary)
      if (summary._tag === "None" || summary.value.trim() === "") missing.push(`${endpoint.method} ${endpoint.path}`)
    }
  })
  return missing
}
