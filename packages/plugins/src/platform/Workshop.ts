/**
 * `Workshop`: DayZ's workshop through the Steam Web API (at the configured
 * base URL): details of items by id, text search and trending items. Good
 * answers are kept for `WORKSHOP_CACHE_TTL` (10 minutes by default), so a
 * mod list checking updates or a dashboard paging through search results
 * does not ask Steam again each time; failures are not kept.
 *
 * Steam's own shapes are read leniently (numbers sent as strings, missing
 * optional fields) and turned into `WorkshopItem`.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Cache from "effect/Cache"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { cursorCodec, SteamCmd } from "@garrison/runtime"
import { platformEnvironment } from "./config.js"
import { WORKSHOP_MAX_PAGE, WorkshopItem, WorkshopPage } from "./contract/Api.js"
import { WorkshopItemNotFound, WorkshopUnavailable } from "./errors.js"
import { PlatformSettings } from "./PlatformSettings.js"

/** How long one call to the Web API may take. */
export const WEB_API_TIMEOUT = Duration.seconds(10)
/** Steam's `query_type`s used here. */
const RANKED_BY_TREND = 3
const RANKED_BY_TEXT_SEARCH = 12

const Count = Schema.Union(Schema.Number, Schema.NumberFromString)
const SteamDetails = Schema.Struct({
  publishedfileid: Schema.String,
  result: Schema.optional(Schema.Number),
  title: Schema.optional(Schema.String),
  description: Schema.optional(Schema.String),
  file_size: Schema.optional(Count),
  time_created: Schema.optional(Count),
  time_updated: Schema.optional(Count),
  banned: Schema.optional(Schema.Union(Schema.Boolean, Schema.Number)),
  subscriptions: Schema.optional(Count),
  lifetime_subscriptions: Schema.optional(Count),
  preview_url: Schema.optional(Schema.String),
  tags: Schema.optional(Schema.Array(Schema.Struct({ tag: Schema.String })))
})
type SteamDetails = typeof SteamDetails.Type
const DetailsAnswer = Schema.Struct({
  response: Schema.Struct({ publishedfiledetails: Schema.optionalWith(Schema.Array(SteamDetails), { default: () => [] }) })
})
const QueryAnswer = Schema.Struct({
  response: Schema.Struct({
    total: Schema.optionalWith(Count, { default: () => 0 }),
    publishedfiledetails: Schema.optionalWith(Schema.Array(SteamDetails), { default: () => [] })
  })
})

const iso = (seconds: number | undefined) => (seconds === undefined || seconds <= 0 ? null : new Date(seconds * 1000).toISOString())

const toItem = (d: SteamDetails): WorkshopItem =>
  new WorkshopItem({
    workshopId: d.publishedfileid,
    title: d.title ?? "",
    description: (d.description ?? "").slice(0, 2000),
    sizeBytes: d.file_size ?? 0,
    timeCreated: iso(d.time_created),
    timeUpdated: iso(d.time_updated),
    banned: d.banned === true || d.banned === 1,
    subscriptions: d.subscriptions ?? d.lifetime_subscriptions ?? 0,
    tags: (d.tags ?? []).map((t) => t.tag),
    previewUrl: d.preview_url && d.preview_url !== "" ? d.preview_url : null
  })

export interface WorkshopShape {
  /** One item; `WorkshopItemNotFound` for an id Steam does not know (or removed). */
  readonly details: (workshopId: string) => Effect.Effect<WorkshopItem, WorkshopItemNotFound | WorkshopUnavailable>
  /**
   * Several items in one call; unknown ids are left out. `fresh` asks Steam
   * now (an update check must not read a ten-minute-old answer) and keeps
   * what it answers.
   */
  readonly detailsMany: (
    workshopIds: ReadonlyArray<string>,
    options?: { readonly fresh?: boolean }
  ) => Effect.Effect<ReadonlyMap<string, WorkshopItem>, WorkshopUnavailable>
  /** Page `page` (from 1) of `limit` items; `nextCursor` holds the next page's number (see `workshopCursor`). */
  readonly search: (text: string, page: number, limit: number) => Effect.Effect<WorkshopPage, WorkshopUnavailable>
  readonly popular: (page: number, limit: number) => Effect.Effect<WorkshopPage, WorkshopUnavailable>
  /** Answers kept now. */
  readonly cacheSize: Effect.Effect<number>
  /** Forgets every kept answer (the Web API's URL or key changed). */
  readonly forget: Effect.Effect<void>
  readonly ttl: Duration.Duration
}

type Lookup =
  | { readonly _tag: "Details"; readonly ids: string }
  | { readonly _tag: "Query"; readonly queryType: number; readonly text: string; readonly page: number; readonly limit: number }

const keyOf = (lookup: Lookup) => JSON.stringify(lookup)

/** Steam pages by number: a cursor holds the next page's. */
export const workshopCursor = cursorCodec("workshop", Schema.Int.pipe(Schema.between(2, WORKSHOP_MAX_PAGE)))

const pageOf = (found: { readonly items: ReadonlyArray<WorkshopItem>; readonly total: number }, page: number, limit: number) =>
  new WorkshopPage({
    items: found.items,
    total: found.total,
    nextCursor: page * limit < found.total && page < WORKSHOP_MAX_PAGE && found.items.length > 0 ? workshopCursor.encode(page + 1) : null
  })

export class Workshop extends Context.Tag("@garrison/plugins/Workshop")<Workshop, WorkshopShape>() {
  static readonly layer: Layer.Layer<Workshop, unknown, PlatformSettings> = Layer.effect(
    Workshop,
    Effect.gen(function* () {
      const settings = yield* PlatformSettings
      const http = yield* HttpClient.HttpClient
      const { workshopCacheTtl } = yield* platformEnvironment

      const failure = (url: string) => (error: unknown): WorkshopUnavailable => {
        const tag = (error as { readonly _tag?: string })._tag
        if (tag === "TimeoutException") {
          return new WorkshopUnavailable({ reason: "timeout", message: `the Steam Web API at ${url} did not answer within ${Duration.format(WEB_API_TIMEOUT)}` })
        }
        if (tag === "ParseError") return new WorkshopUnavailable({ reason: "bad-answer", message: `the Steam Web API at ${url} answered something that is not its JSON` })
        if (error instanceof WorkshopUnavailable) return error
        return new WorkshopUnavailable({ reason: "unreachable", message: `the Steam Web API at ${url} is not reachable` })
      }

      const send = <A, I>(request: HttpClientRequest.HttpClientRequest, schema: Schema.Schema<A, I>, url: string): Effect.Effect<A, WorkshopUnavailable> =>
        http.execute(request).pipe(
          Effect.flatMap((response): Effect.Effect<A, unknown> => {
            if (response.status === 401 || response.status === 403) {
              return Effect.fail(
                new WorkshopUnavailable({ reason: "refused", message: `the Steam Web API at ${url} refused the request (${response.status}): set a valid Web API key` })
              )
            }
            if (response.status >= 400) {
              return Effect.fail(new WorkshopUnavailable({ reason: "bad-answer", message: `the Steam Web API at ${url} answered ${response.status}` }))
            }
            return Effect.flatMap(response.json, Schema.decodeUnknown(schema))
          }),
          Effect.scoped,
          Effect.timeout(WEB_API_TIMEOUT),
          Effect.mapError(failure(url))
        )

      const fetchLookup = (lookup: Lookup) =>
        Effect.gen(function* () {
          const current = yield* settings.current
          const base = current.webApiUrl
          if (lookup._tag === "Details") {
            const ids = lookup.ids.split(",")
            const form: Record<string, string> = { itemcount: String(ids.length) }
            ids.forEach((id, i) => (form[`publishedfileids[${i}]`] = id))
            const answer = yield* send(
              HttpClientRequest.post(`${base}/ISteamRemoteStorage/GetPublishedFileDetails/v1/`).pipe(HttpClientRequest.bodyUrlParams(form)),
              DetailsAnswer,
              base
            )
            const found = answer.response.publishedfiledetails.filter((d) => (d.result ?? 1) === 1 && d.title !== undefined)
            return { items: found.map(toItem), total: found.length }
          }
          const params: Record<string, string> = {
            query_type: String(lookup.queryType),
            page: String(lookup.page),
            numperpage: String(lookup.limit),
            appid: SteamCmd.DAYZ_GAME_APP,
            creator_appid: SteamCmd.DAYZ_GAME_APP,
            return_details: "true",
            return_tags: "true",
            return_previews: "true",
            ...(lookup.text === "" ? {} : { search_text: lookup.text }),
            ...(lookup.queryType === RANKED_BY_TREND ? { days: "7" } : {}),
            ...Option.match(current.webApiKey, { onNone: () => ({}), onSome: (key) => ({ key: Redacted.value(key) }) })
          }
          const answer = yield* send(
            HttpClientRequest.get(`${base}/IPublishedFileService/QueryFiles/v1/`).pipe(HttpClientRequest.setUrlParams(params)),
            QueryAnswer,
            base
          )
          const found = answer.response.publishedfiledetails.filter((d) => (d.result ?? 1) === 1)
          return { items: found.map(toItem), total: answer.response.total }
        })

      const cache = yield* Cache.makeWith({
        capacity: 1000,
        lookup: (key: string) => fetchLookup(JSON.parse(key) as Lookup),
        // Only good answers are kept: a Steam hiccup must not stick for ten minutes.
        timeToLive: (exit) => (Exit.isSuccess(exit) ? workshopCacheTtl : Duration.zero)
      })
      const lookup = (l: Lookup) => cache.get(keyOf(l))

      const detailsMany: WorkshopShape["detailsMany"] = (ids, options = {}) => {
        if (ids.length === 0) return Effect.succeed(new Map())
        const request: Lookup = { _tag: "Details", ids: [...new Set(ids)].sort().join(",") }
        const answer = options.fresh === true ? Effect.tap(fetchLookup(request), (found) => cache.set(keyOf(request), found)) : lookup(request)
        return Effect.map(answer, (found) => new Map(found.items.map((item) => [item.workshopId, item])))
      }

      return Workshop.of({
        details: (id) =>
          Effect.flatMap(detailsMany([id]), (found) => {
            const item = found.get(id)
            return item === undefined ? Effect.fail(new WorkshopItemNotFound({ workshopId: id })) : Effect.succeed(item)
          }),
        detailsMany,
        search: (text, page, limit) =>
          Effect.map(lookup({ _tag: "Query", queryType: RANKED_BY_TEXT_SEARCH, text, page, limit }), (r) => pageOf(r, page, limit)),
        popular: (page, limit) =>
          Effect.map(lookup({ _tag: "Query", queryType: RANKED_BY_TREND, text: "", page, limit }), (r) => pageOf(r, page, limit)),
        cacheSize: cache.size,
        forget: cache.invalidateAll,
        ttl: workshopCacheTtl
      })
    })
  ).pipe(Layer.provide(FetchHttpClient.layer))
}
