/**
 * One rule for unknown body fields, for every plugin, community ones
 * included: a request body field that the endpoint's schema does not name
 * is a 400 naming it, at any depth (nested objects, array items), instead
 * of being dropped without a word (a misspelt `expiresAt` would otherwise
 * make a permanent ban).
 *
 * The plan applies it to every plugin's API before any route is built
 * (`planPlugins`), by annotating each payload schema with
 * `parseOptions: { onExcessProperty: "error" }`. Effect 3 merges a schema's
 * `parseOptions` annotation into the options its parser passes to every
 * child (`ParseResult.goMemo`), so the root's annotation reaches each
 * nested struct, class and array item; a child with an annotation of its
 * own keeps it. A payload that must take fields it does not name (a third
 * party's webhook, say) says so on its own schema, with
 * `parseOptions: { onExcessProperty: "ignore" }` or `"preserve"`; the plan
 * leaves a schema that already chose alone.
 *
 * The plan also makes every payload say its failures in the words of its
 * fields (`plainDecodeMessages`, see `DecodeIssues`), never the schema
 * library's, unless the payload's root has a message of its own.
 */
import type * as HttpApi from "@effect/platform/HttpApi"
import type * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Option from "effect/Option"
import type * as Schema from "effect/Schema"
import * as SchemaAST from "effect/SchemaAST"
import { hasPlainDecodeMessages, plainDecodeMessages } from "./DecodeIssues.js"

/** GET and HEAD payloads are read from the query string, where an unknown parameter is ignored. */
const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"])

/** True when the schema itself says what happens to fields it does not name. */
const choosesExcessFields = (schema: Schema.Schema.Any): boolean =>
  Option.match(SchemaAST.getParseOptionsAnnotation(schema.ast), {
    onNone: () => false,
    onSome: (options) => options.onExcessProperty !== undefined
  })

/** `schema`, refusing fields it does not name at any depth (unless it already chose otherwise). */
export const knownFieldsOnly = <S extends Schema.Schema.Any>(schema: S): S => {
  if (choosesExcessFields(schema)) return schema
  const existing = Option.getOrUndefined(SchemaAST.getParseOptionsAnnotation(schema.ast))
  return schema.annotations({ parseOptions: { ...existing, onExcessProperty: "error" } }) as S
}

type MutableEndpoints = Record<string, HttpApiEndpoint.HttpApiEndpoint.AnyWithProps>

/** `schema` refusing unknown fields (`knownFieldsOnly`) and saying its failures in plain words (`plainDecodeMessages`). */
export const strictPayload = <S extends Schema.Schema.Any>(schema: S): S => plainPayload(knownFieldsOnly(schema))

/** `schema` saying its failures in plain words, unless its root has a message of its own. */
const plainPayload = <S extends Schema.Schema.Any>(schema: S): S => (hasPlainDecodeMessages(schema) ? schema : plainDecodeMessages(schema))

/**
 * Makes every body of `api` refuse unknown fields and say its failures in
 * plain words. The endpoints are
 * replaced in their groups in place: a group's handlers
 * (`HttpApiBuilder.group(api, ...)`) read the endpoints from the API when
 * their layer is built, after the plan, so the routes decode with the
 * strict schemas without the plugin doing anything. Idempotent.
 */
export const requireKnownFields = (api: HttpApi.HttpApi.Any): void => {
  const groups = (api as unknown as { readonly groups: Record<string, HttpApiGroup.HttpApiGroup.AnyWithProps> }).groups
  for (const group of Object.values(groups)) {
    const endpoints = group.endpoints as MutableEndpoints
    for (const [name, original] of Object.entries(endpoints)) {
      let endpoint = original
      // A query's payload stays as it is: the OpenAPI document reads its parameters from the schema's own shape.
      if (BODY_METHODS.has(endpoint.method) && Option.isSome(endpoint.payloadSchema)) {
        const payload = endpoint.payloadSchema.value
        const strict = strictPayload(payload)
        // The payload's type is unchanged (only its annotations are), so the endpoint's types still hold.
        if (strict !== payload) endpoint = endpoint.setPayload(strict as never) as unknown as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
      }
      if (endpoint !== original) endpoints[name] = endpoint
    }
  }
}
