/**
 * Reading a partner's export: one page, with its key, checked field by
 * field (a partner's answer is input like any other). A failure is a
 * sentence for the subscription's `lastError`.
 */
import * as Effect from "effect/Effect"
import { EXPORTED_STATUSES } from "./rules.js"

export interface RemoteRow {
  readonly id: string
  readonly platformId: string
  readonly reasonCategory: string
  readonly status: string
  readonly vouchCount: number
  readonly expiresAt: string | null
}

export interface RemotePage {
  readonly bans: ReadonlyArray<RemoteRow>
  readonly nextCursor: string | null
  readonly resumeSince: number
}

const PAGE_TIMEOUT_MS = 15_000

const rowOf = (value: unknown): RemoteRow | undefined => {
  if (typeof value !== "object" || value === null) return undefined
  const row = value as Record<string, unknown>
  const ok =
    typeof row["id"] === "string" &&
    row["id"].length <= 100 &&
    typeof row["platformId"] === "string" &&
    /^\d{17}$/.test(row["platformId"]) &&
    typeof row["reasonCategory"] === "string" &&
    row["reasonCategory"].length <= 40 &&
    typeof row["status"] === "string" &&
    (EXPORTED_STATUSES as ReadonlyArray<string>).includes(row["status"]) &&
    typeof row["vouchCount"] === "number" &&
    (row["expiresAt"] === null || (typeof row["expiresAt"] === "string" && Number.isFinite(Date.parse(row["expiresAt"]))))
  return ok
    ? {
        id: row["id"] as string,
        platformId: row["platformId"] as string,
        reasonCategory: row["reasonCategory"] as string,
        status: row["status"] as string,
        vouchCount: row["vouchCount"] as number,
        expiresAt: row["expiresAt"] as string | null
      }
    : undefined
}

export const fetchPage = (baseUrl: string, key: string, at: { readonly since: number } | { readonly cursor: string }): Effect.Effect<RemotePage, string> =>
  Effect.tryPromise({
    try: async () => {
      const url = new URL("/api/v1/trust/export", baseUrl)
      if ("cursor" in at) url.searchParams.set("cursor", at.cursor)
      else url.searchParams.set("since", String(at.since))
      const response = await fetch(url, { headers: { authorization: `Bearer ${key}`, accept: "application/json" }, signal: AbortSignal.timeout(PAGE_TIMEOUT_MS) })
      const text = await response.text()
      if (!response.ok) throw new Error(`the partner answered ${response.status}: ${text.slice(0, 200)}`)
      return JSON.parse(text) as unknown
    },
    catch: (cause) => `cannot read the partner's export: ${cause instanceof Error ? cause.message : String(cause)}`
  }).pipe(
    Effect.flatMap((body) => {
      const page = body as { bans?: unknown; nextCursor?: unknown; resumeSince?: unknown }
      if (!Array.isArray(page.bans) || !(page.nextCursor === null || typeof page.nextCursor === "string") || typeof page.resumeSince !== "number") {
        return Effect.fail("the partner's export answered something that is not an export page")
      }
      const rows = page.bans.map(rowOf)
      const bad = rows.findIndex((row) => row === undefined)
      if (bad >= 0) return Effect.fail(`the partner's export row ${bad} is malformed`)
      return Effect.succeed({ bans: rows as ReadonlyArray<RemoteRow>, nextCursor: page.nextCursor, resumeSince: page.resumeSince })
    })
  )
