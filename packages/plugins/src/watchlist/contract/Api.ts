/**
 * The watchlist's HTTP contract (the spec's "Watchlist", any signed-in
 * caller): players to keep an eye on, by any id form, with a note.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { Access, BadRequest, BodyExample, Conflict, NotFound, TrimmedStoredText } from "@garrison/runtime"

export class WatchlistEntry extends Schema.Class<WatchlistEntry>("WatchlistEntry")({
  id: Schema.String,
  /** The DayZ ID the admin logs name the player by. */
  playerId: Schema.String,
  /** Steam64, when it was given or RCON linked the player. */
  platformId: Schema.NullOr(Schema.String),
  /** The id as it was given. */
  identifier: Schema.String,
  /** The last name the logs showed, or null when never seen. */
  name: Schema.NullOr(Schema.String),
  note: Schema.String,
  createdBy: Schema.String,
  createdAt: Schema.String,
  /** The last join seen since the entry was made (on a server the caller may view). */
  lastJoinedAt: Schema.NullOr(Schema.String),
  lastJoinedServerId: Schema.NullOr(Schema.String)
}) {}

export class WatchlistList extends Schema.Class<WatchlistList>("WatchlistList")({ items: Schema.Array(WatchlistEntry) }) {}

export const WatchlistInput = Schema.Struct({
  /** DayZ ID, Steam64, Steam2 or Steam3. */
  player: TrimmedStoredText.pipe(
    Schema.minLength(1, { message: () => "must not be empty" }),
    Schema.maxLength(100, { message: () => "must be at most 100 characters" })
  ),
  note: Schema.optionalWith(TrimmedStoredText.pipe(Schema.maxLength(1000, { message: () => "must be at most 1000 characters" })), { default: () => "" })
})

export class WatchlistGroup extends HttpApiGroup.make("watchlist").annotate(OpenApi.Description, "Players being watched.")
  .add(HttpApiEndpoint.get("list", "/api/watchlist").addSuccess(WatchlistList).annotate(OpenApi.Summary, "Watched players"))
  .add(
    HttpApiEndpoint.post("add", "/api/watchlist")
      .setPayload(WatchlistInput)
      .addSuccess(WatchlistEntry, { status: 201 })
      .addError(BadRequest)
      .addError(Conflict)
      .annotate(OpenApi.Summary, "Watch a player")
      .annotate(
        OpenApi.Description,
        "When the player connects to any server, the users who may view that server get a notification and `watchlist.joined` is published (webhooks). Audit `watchlist.add`."
      )
      .annotate(BodyExample, { player: "76561198000000001", note: "suspected duper" })
  )
  .add(
    HttpApiEndpoint.del("remove", "/api/watchlist/:id")
      .setPath(Schema.Struct({ id: Schema.String }))
      .addSuccess(Schema.Void, { status: 204 })
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Stop watching a player")
      .annotate(OpenApi.Description, "Audit `watchlist.remove`.")
  )
  .annotate(Access, Access.anyAuth) {}

export class WatchlistApi extends HttpApi.make("watchlist").add(WatchlistGroup) {}
