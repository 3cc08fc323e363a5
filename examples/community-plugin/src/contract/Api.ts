/**
 * The plugin's HTTP contract: schemas and the `HttpApi`. Kept apart from the
 * handlers so a client (or another plugin) can import the contract without
 * pulling in the implementation.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { Access, BadRequest, BodyExample, NotFound, pageFields, pageParams, Unauthenticated } from "@garrison/runtime"

/** The permission this plugin adds to the catalog. */
export const MANAGE = "motd.manage"

export const MAX_TEXT_LENGTH = 280

export class MotdMessage extends Schema.Class<MotdMessage>("MotdMessage")({
  id: Schema.String,
  text: Schema.String,
  author: Schema.String,
  /** ISO-8601, UTC. */
  postedAt: Schema.String
}) {}

/** Body of `POST /api/motd`. Surrounding whitespace is trimmed before the length checks. */
export class NewMotd extends Schema.Class<NewMotd>("NewMotd")({
  text: Schema.Trim.pipe(
    Schema.minLength(1, { message: () => "text must not be empty" }),
    Schema.maxLength(MAX_TEXT_LENGTH, { message: () => `text must be at most ${MAX_TEXT_LENGTH} characters` })
  )
}) {}

export class AuthorCount extends Schema.Class<AuthorCount>("MotdAuthorCount")({
  author: Schema.String,
  posted: Schema.Number,
  lastPostedAt: Schema.String
}) {}

/** Kept by the `MotdPosted` event handler, so it counts every post, deleted or not. */
export class MotdStats extends Schema.Class<MotdStats>("MotdStats")({
  totalPosted: Schema.Number,
  authors: Schema.Array(AuthorCount)
}) {}

export const MotdId = Schema.Struct({ id: Schema.String })

/** `limit` and `cursor` of the list, the runtime's list conventions: `{items, nextCursor}`, keyset pages. */
export const MOTD_PAGE = { defaultLimit: 50, maxLimit: 200 } as const
export const MotdListParams = Schema.Struct(pageParams(MOTD_PAGE))

/** Newest first; `nextCursor` leads to older messages. */
export class MotdPage extends Schema.Class<MotdPage>("MotdPage")(pageFields(MotdMessage)) {}

export class MotdGroup extends HttpApiGroup.make("motd")
  .add(
    HttpApiEndpoint.get("list", "/api/motd")
      .setUrlParams(MotdListParams)
      .addSuccess(MotdPage)
      .addError(BadRequest)
      .annotate(Access, Access.anyAuth)
      .annotate(OpenApi.Summary, "List messages of the day")
  )
  .add(
    HttpApiEndpoint.get("stats", "/api/motd/stats")
      .addSuccess(MotdStats)
      .annotate(Access, Access.anyAuth)
      .annotate(OpenApi.Summary, "Who posted how many messages")
      .annotate(OpenApi.Description, "Counts every message ever posted, deleted ones too.")
  )
  .add(
    HttpApiEndpoint.post("post", "/api/motd")
      .setPayload(NewMotd)
      .addSuccess(MotdMessage, { status: 201 })
      .addError(Unauthenticated)
      .annotate(Access, Access.permission(MANAGE))
      .annotate(OpenApi.Summary, "Post a message of the day")
      .annotate(OpenApi.Description, `Surrounding whitespace is trimmed; 1 to ${MAX_TEXT_LENGTH} characters remain.`)
      .annotate(BodyExample, { text: "Welcome! The server restarts every day at 06:00 UTC." })
  )
  .add(
    HttpApiEndpoint.del("remove", "/api/motd/:id")
      .setPath(MotdId)
      .addError(NotFound)
      .annotate(Access, Access.permission(MANAGE))
      .annotate(OpenApi.Summary, "Delete a message of the day")
  ) {}

export class MotdApi extends HttpApi.make("motd").add(MotdGroup) {}
