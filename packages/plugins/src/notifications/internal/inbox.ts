/**
 * One caller's view: listing, marking read and clearing. A notification is
 * visible when its audience matches the caller and its position is past the
 * caller's cleared watermark; it is read when its position is at or before
 * the read watermark, or it has a row in `notification_reads`.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { effectiveLimit, type InvalidCursor, type PageOf } from "@garrison/runtime"
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, NotificationPage } from "../contract/Api.js"
import { type NotificationStoreError, storeError } from "../errors.js"
import { type Viewer, visibleTo } from "./audience.js"
import { notificationPaging } from "./cursor.js"
import { COLUMNS, jsonColumns, type NotificationJsonRow, type StoredNotification, toNotification } from "./rows.js"

export interface PageRequest {
  /** 1 to 200; 50 when absent. */
  readonly limit?: number | undefined
  /** `nextCursor` of the previous page. */
  readonly cursor?: string | undefined
}

/** A page of `listJson`: the rows' JSON, and the envelope's `unreadCount`. */
export interface NotificationJsonPage extends PageOf<NotificationJsonRow> {
  readonly unreadCount: number
}

interface UserState {
  readonly read: number
  readonly cleared: number
}

export const makeInbox = (sql: SqlClient.SqlClient) => {
  const state = (userId: string) =>
    Effect.map(
      sql<{ readonly read_seq: number | string; readonly cleared_seq: number | string }>`
        SELECT read_seq, cleared_seq FROM notification_user_state WHERE user_id = ${userId}`,
      ([row]): UserState => ({ read: Number(row?.read_seq ?? 0), cleared: Number(row?.cleared_seq ?? 0) })
    )

  /** Watermarks only move forward, even when two requests of one caller race (CASE: portable MAX). */
  const saveState = (userId: string, next: UserState) =>
    sql`INSERT INTO notification_user_state (user_id, read_seq, cleared_seq) VALUES (${userId}, ${next.read}, ${next.cleared})
      ON CONFLICT (user_id) DO UPDATE SET
        read_seq = CASE WHEN excluded.read_seq > notification_user_state.read_seq
          THEN excluded.read_seq ELSE notification_user_state.read_seq END,
        cleared_seq = CASE WHEN excluded.cleared_seq > notification_user_state.cleared_seq
          THEN excluded.cleared_seq ELSE notification_user_state.cleared_seq END`

  const lastSeq = Effect.map(
    sql<{ readonly last_seq: number | string }>`SELECT last_seq FROM notification_counter WHERE id = 1`,
    ([row]) => Number(row?.last_seq ?? 0)
  )

  /** Individual read marks at or below a watermark say nothing more: drop them. */
  const dropMarksThrough = (userId: string, seq: number) =>
    sql`DELETE FROM notification_reads WHERE user_id = ${userId} AND seq <= ${seq}`

  const notMarked = (userId: string) =>
    sql`NOT EXISTS (SELECT 1 FROM notification_reads r WHERE r.user_id = ${userId} AND r.seq = n.seq)`

  const countUnread = (viewer: Viewer, s: UserState) =>
    Effect.map(
      sql<{ readonly total: number | string }>`SELECT COUNT(*) AS total FROM notifications n
        WHERE ${visibleTo(sql, viewer)} AND n.seq > ${Math.max(s.read, s.cleared)} AND ${notMarked(viewer.id)}`,
      ([row]) => Number(row?.total ?? 0)
    )

  /**
   * The page's query, shared by `list` and `listJson`: what `viewer` sees
   * past their cleared watermark, after the cursor, `columns` of one row
   * more than the limit (it says whether another page exists), and the
   * unread count, in one transaction. `st` (the caller's watermarks) and `r`
   * (their read mark) are joined for the columns to read.
   */
  const readPage = <Row extends { readonly seq: number | string }>(viewer: Viewer, page: PageRequest, columns: string) =>
    Effect.gen(function* () {
      const limit = effectiveLimit(page.limit, { defaultLimit: DEFAULT_PAGE_SIZE, maxLimit: MAX_PAGE_SIZE })
      const after = yield* notificationPaging.decode(page.cursor)
      const result = yield* Effect.gen(function* () {
        const s = yield* state(viewer.id)
        const conditions = [visibleTo(sql, viewer), sql`n.seq > ${s.cleared}`]
        if (after !== undefined) conditions.push(notificationPaging.after(sql, after))
        const rows = yield* sql<Row>`
          SELECT ${sql.literal(columns)} FROM notifications n
          LEFT JOIN notification_reads r ON r.user_id = ${viewer.id} AND r.seq = n.seq
          LEFT JOIN notification_user_state st ON st.user_id = ${viewer.id}
          WHERE ${sql.and(conditions)} ORDER BY ${sql.literal(notificationPaging.orderBy)} LIMIT ${limit + 1}`
        const unreadCount = yield* countUnread(viewer, s)
        return { rows, unreadCount, read: s.read }
      }).pipe(sql.withTransaction, Effect.mapError(storeError("cannot read notifications")))
      return { page: notificationPaging.page(result.rows, limit), unreadCount: result.unreadCount, read: result.read }
    })

  const list = (
    viewer: Viewer,
    page: PageRequest
  ): Effect.Effect<NotificationPage, NotificationStoreError | InvalidCursor> =>
    Effect.map(
      readPage<StoredNotification & { readonly read_mark: number | string | null }>(viewer, page, `${COLUMNS}, r.seq AS read_mark`),
      (result) =>
        new NotificationPage({
          items: result.page.items.map((row) => toNotification(row, Number(row.seq) <= result.read || row.read_mark !== null)),
          unreadCount: result.unreadCount,
          nextCursor: result.page.nextCursor
        })
    )

  /** `list` as the route answers it: each notification's JSON written by the database (see the runtime's `JsonRows`). */
  const listJson = (
    viewer: Viewer,
    page: PageRequest
  ): Effect.Effect<NotificationJsonPage, NotificationStoreError | InvalidCursor> =>
    Effect.map(readPage<NotificationJsonRow>(viewer, page, jsonColumns(sql)), (result) => ({
      ...result.page,
      unreadCount: result.unreadCount
    }))

  const markAll = (viewer: Viewer) =>
    Effect.gen(function* () {
      const s = yield* state(viewer.id)
      const marked = yield* countUnread(viewer, s)
      const last = yield* lastSeq
      yield* saveState(viewer.id, { read: Math.max(s.read, last), cleared: s.cleared })
      yield* dropMarksThrough(viewer.id, last)
      return marked
    })

  const markSome = (viewer: Viewer, ids: ReadonlyArray<string>) =>
    Effect.gen(function* () {
      const unique = [...new Set(ids)]
      if (unique.length === 0) return 0
      const s = yield* state(viewer.id)
      // Only ids this caller can see and has not read count; others are ignored, not reported.
      const unread = yield* sql<{ readonly seq: number | string }>`SELECT n.seq FROM notifications n
        WHERE ${sql.in("n.id", unique)} AND ${visibleTo(sql, viewer)}
          AND n.seq > ${Math.max(s.read, s.cleared)} AND ${notMarked(viewer.id)}`
      if (unread.length === 0) return 0
      const readAt = new Date(yield* Clock.currentTimeMillis).toISOString()
      yield* sql`INSERT INTO notification_reads ${sql.insert(
        unread.map((row) => ({ user_id: viewer.id, seq: Number(row.seq), read_at: readAt }))
      )} ON CONFLICT DO NOTHING`
      return unread.length
    })

  const markRead = (viewer: Viewer, ids: ReadonlyArray<string> | undefined): Effect.Effect<number, NotificationStoreError> =>
    (ids === undefined ? markAll(viewer) : markSome(viewer, ids)).pipe(
      sql.withTransaction,
      Effect.mapError(storeError("cannot mark notifications read"))
    )

  const clear = (viewer: Viewer): Effect.Effect<number, NotificationStoreError> =>
    Effect.gen(function* () {
      const s = yield* state(viewer.id)
      const [visible] = yield* sql<{ readonly total: number | string }>`SELECT COUNT(*) AS total FROM notifications n
        WHERE ${visibleTo(sql, viewer)} AND n.seq > ${s.cleared}`
      const last = yield* lastSeq
      yield* saveState(viewer.id, { read: s.read, cleared: Math.max(s.cleared, last) })
      yield* dropMarksThrough(viewer.id, last)
      return Number(visible?.total ?? 0)
    }).pipe(sql.withTransaction, Effect.mapError(storeError("cannot clear notifications")))

  return { list, listJson, markRead, clear }
}
