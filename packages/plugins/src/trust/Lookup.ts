/**
 * The public lookup: who the identifier names, what the pool and the
 * player's history say about them, the score (`internal/score.ts`) and,
 * when signing is on, a proof restating it. Nothing about who submitted a
 * ban or what they noted is read into the answer.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { InvalidTrustInput, TrustNotFound, type TrustStoreError, storeError } from "./errors.js"
import { readIdentifier } from "./internal/identifiers.js"
import { serviceIdOf } from "./internal/players.js"
import { makeReadCache, PoolGeneration } from "./internal/poolGeneration.js"
import { OVERTURN_WINDOW, overturnRate } from "./internal/rules.js"
import { scoreOf, type TrustFacts } from "./internal/score.js"
import { TrustSigning } from "./Signing.js"

/** What another plugin knows of a player's play (the game-data plugin's history); absent, playtime is unknown. */
export interface PlayerHistoryShape {
  readonly of: (steam64: string) => Effect.Effect<Option.Option<{ readonly playtimeHours: number; readonly serversSeen: number }>>
}

/** How long a community's accuracy and a player's answer are kept (dropped at once by a pool write here). */
export const ACCURACY_TTL_MS = 5_000
export const ANSWER_TTL_MS = 5_000

export class TrustPlayerHistory extends Context.Tag("@garrison/plugins/trust/TrustPlayerHistory")<TrustPlayerHistory, PlayerHistoryShape>() {}

export interface TrustScore {
  readonly serviceId: string
  readonly platformId: string
  readonly score: number
  readonly confidence: number
  readonly band: string
  readonly signals: {
    readonly bans_active: number
    readonly submissions_pending: number
    readonly accuracy: number | null
    readonly overturned: number
    readonly expired: number
    readonly communities: number
    readonly playtime_hours: number | null
    readonly servers_seen: number | null
  }
  readonly reasons: ReadonlyArray<string>
  readonly computedAt: string
  readonly proof?: string
}

export interface LookupShape {
  readonly lookup: (identifier: string) => Effect.Effect<TrustScore, InvalidTrustInput | TrustNotFound | TrustStoreError>
}

export class Lookup extends Context.Tag("@garrison/plugins/trust/Lookup")<Lookup, LookupShape>() {
  static readonly make = Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const signing = yield* TrustSigning
    const history = yield* Effect.serviceOption(TrustPlayerHistory)
    const generation = yield* PoolGeneration
    // A community's accuracy is the same for every player it vouched for until the pool changes.
    const accuracies = makeReadCache<string, number>(generation, ACCURACY_TTL_MS, 10_000)
    // A player looked up again within seconds gets the same answer and proof (`computedAt` says when).
    const answers = makeReadCache<string, TrustScore>(generation, ANSWER_TTL_MS, 50_000)

    const steam64Of = (identifier: string) =>
      Effect.gen(function* () {
        const read = readIdentifier(identifier)
        if (Either.isLeft(read)) return yield* Effect.fail(new InvalidTrustInput({ field: "identifier", message: read.left }))
        const id = read.right
        switch (id.kind) {
          case "steam64":
          case "steam2":
            return id.steam64
          case "service-id": {
            const rows = yield* sql<{ readonly platform_id: string }>`SELECT platform_id FROM trust_players WHERE service_id = ${id.serviceId}`
            if (rows[0] === undefined) return yield* Effect.fail(new TrustNotFound({ message: "no player with this service id is known here" }))
            return rows[0].platform_id
          }
          case "chat-user": {
            const rows = yield* sql<{ readonly platform_id: string }>`SELECT platform_id FROM trust_chat_links WHERE chat_user_id = ${id.chatUserId}`
            if (rows[0] === undefined) return yield* Effect.fail(new TrustNotFound({ message: "this chat user is not linked to a player here" }))
            return rows[0].platform_id
          }
        }
      })

    /** 1 − the overturn rate of a community's latest submissions (1 before it has any). */
    const accuracyOf = (communityId: string, now: number) => {
      const kept = accuracies.get(communityId, now)
      if (kept !== undefined) return Effect.succeed(kept)
      return Effect.map(
        sql<{ readonly status: string }>`SELECT b.status FROM trust_vouches v JOIN trust_bans b ON b.id = v.ban_id
                                         WHERE v.community_id = ${communityId} ORDER BY v.submitted_ms DESC LIMIT ${OVERTURN_WINDOW}`,
        (rows) => {
          const accuracy = 1 - (overturnRate(rows.map((row) => row.status)) ?? 0)
          accuracies.set(communityId, accuracy, now)
          return accuracy
        }
      )
    }

    const factsOf = (steam64: string, now: number) =>
      Effect.gen(function* () {
        // The player's bans and, for the active ones, their vouchers: one statement.
        const rows = yield* sql<{ readonly id: string; readonly status: string; readonly reason_category: string; readonly community_id: string | null }>`
          SELECT b.id, b.status, b.reason_category, v.community_id
          FROM trust_bans b LEFT JOIN trust_vouches v ON v.ban_id = b.id AND b.status = 'active'
          WHERE b.platform_id = ${steam64}`
        const bans = [...new Map(rows.map((row) => [row.id, row])).values()]
        const activeBans = yield* Effect.forEach(
          bans.filter((ban) => ban.status === "active"),
          (ban) =>
            Effect.gen(function* () {
              const vouchers = rows.flatMap((row) => (row.id === ban.id && row.community_id !== null ? [row.community_id] : []))
              const scores = yield* Effect.forEach(vouchers, (community) => accuracyOf(community, now))
              const accuracy = scores.length === 0 ? 1 : scores.reduce((a, b) => a + b, 0) / scores.length
              return { reasonCategory: ban.reason_category, communities: vouchers.length, accuracy }
            })
        )
        const count = (status: string) => bans.filter((ban) => ban.status === status).length
        const played = Option.isNone(history) ? Option.none() : yield* history.value.of(steam64)
        return {
          activeBans,
          pending: count("pending"),
          overturned: count("overturned"),
          expired: count("expired"),
          playtimeHours: Option.match(played, { onNone: () => null, onSome: (p) => p.playtimeHours }),
          serversSeen: Option.match(played, { onNone: () => null, onSome: (p) => p.serversSeen })
        } satisfies TrustFacts
      })

    const lookup: LookupShape["lookup"] = (identifier) =>
      Effect.gen(function* () {
        const steam64 = yield* steam64Of(identifier).pipe(Effect.catchTag("SqlError", (e) => Effect.fail(storeError("resolve a trust identifier")(e))))
        const nowMs = yield* Clock.currentTimeMillis
        const kept = answers.get(steam64, nowMs)
        if (kept !== undefined) return kept
        const facts = yield* factsOf(steam64, nowMs).pipe(Effect.mapError(storeError("read a player's pool record")))
        const scored = scoreOf(facts)
        const computedAt = new Date(nowMs).toISOString()
        const serviceId = serviceIdOf(steam64)
        const answer: TrustScore = {
          serviceId,
          platformId: steam64,
          score: scored.score,
          confidence: scored.confidence,
          band: scored.band,
          signals: {
            bans_active: facts.activeBans.length,
            submissions_pending: facts.pending,
            accuracy: scored.accuracy,
            overturned: facts.overturned,
            expired: facts.expired,
            communities: scored.communities,
            playtime_hours: facts.playtimeHours,
            servers_seen: facts.serversSeen
          },
          reasons: scored.reasons,
          computedAt
        }
        const proof = yield* signing.sign(
          { platformId: steam64, serviceId, score: scored.score, band: scored.band, confidence: scored.confidence, computedAt },
          steam64,
          Math.floor(nowMs / 1000)
        )
        const signed = Option.match(proof, { onNone: () => answer, onSome: (jwt) => ({ ...answer, proof: jwt }) })
        answers.set(steam64, signed, nowMs)
        return signed
      })

    return { lookup } satisfies LookupShape
  })

  static readonly layer = Layer.effect(Lookup, Lookup.make)
}
