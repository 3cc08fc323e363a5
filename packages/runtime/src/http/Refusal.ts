/**
 * A request refused before anything changed, for its own or a server's
 * state, with the status it answers: 400 (a field; named), 404, 409, or 503
 * (a passing state: Retry-After). For services whose refusals are worded
 * case by case (an update, a rollout, a config change), so every route
 * answers them alike through `refusalHttpError`.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { BadRequest, Conflict, NotFound, Unavailable } from "./ApiErrors.js"

export class Refusal extends Schema.TaggedError<Refusal>()("Refusal", {
  status: Schema.Literal(400, 404, 409, 503),
  message: Schema.String,
  /** The request field it is about (a 400 names it in `details`). */
  field: Schema.optional(Schema.String)
}) {
  static readonly of = (message: string, status: 400 | 404 | 409 | 503 = 409, field?: string) =>
    new Refusal(field === undefined ? { status, message } : { status, message, field })
}

export const refusalHttpError = (refusal: Refusal): Effect.Effect<never, BadRequest | NotFound | Conflict | Unavailable> => {
  switch (refusal.status) {
    case 400:
      return Effect.fail(new BadRequest({ message: refusal.message, details: [{ path: refusal.field ?? "", message: refusal.message }] }))
    case 404:
      return Effect.fail(new NotFound({ message: refusal.message }))
    case 409:
      return Effect.fail(new Conflict(refusal.field === undefined ? { message: refusal.message } : { message: refusal.message, details: { field: refusal.field } }))
    case 503:
      return Effect.fail(new Unavailable({ message: refusal.message }))
  }
}
