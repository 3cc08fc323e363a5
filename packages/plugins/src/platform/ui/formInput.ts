/**
 * A form's fields decoded with the contract's own schema before they are
 * sent: a value the API would refuse fails here with the same words, as an
 * `ApiError` whose `fields` name each field at fault (as a 400 does), so
 * the page shows both the same way.
 */
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { ApiError } from "@dashboard/api/client.js"

export const decodeForm = <A, I>(
  schema: Schema.Schema<A, I>,
  fields: Readonly<Record<string, unknown>>,
  /** The fields' labels in the form, for the toast's words (the field's name otherwise). */
  labels: Readonly<Record<string, string>> = {}
): A => {
  const result = Schema.decodeUnknownEither(schema, { errors: "all" })(fields)
  if (Either.isRight(result)) return result.right
  const issues = ParseResult.ArrayFormatter.formatErrorSync(result.left)
  const byField: Record<string, string> = {}
  for (const issue of issues) {
    const field = issue.path.join(".")
    if (field !== "" && byField[field] === undefined) byField[field] = issue.message
  }
  const first = issues[0]
  const field = first?.path.join(".") ?? ""
  const message = first === undefined ? "the form is not filled in right" : field === "" ? first.message : `${labels[field] ?? field}: ${first.message}`
  throw new ApiError(400, "invalid-request", message, undefined, byField)
}
