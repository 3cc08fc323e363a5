/**
 * The controller's API for `--url`/`--token` commands: JSON requests with the admin's bearer token (a session
 * token from `POST /api/auth/login`). A refusal becomes one line with the status and the API's `error` and
 * `message`; the token is never printed.
 */
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { CliFailure, describeFailure } from "./CliFailure.js"

export interface ApiTarget {
  readonly url: string
  readonly token: Redacted.Redacted<string>
}

export const apiRequest = (target: ApiTarget, method: string, path: string, body?: unknown): Effect.Effect<unknown, CliFailure> =>
  Effect.tryPromise({
    try: async () => {
      const response = await fetch(target.url.replace(/\/+$/, "") + path, {
        method,
        headers: {
          authorization: `Bearer ${Redacted.value(target.token)}`,
          ...(body === undefined ? {} : { "content-type": "application/json" })
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(15_000)
      })
      const text = await response.text()
      let parsed: unknown = undefined
      try {
        parsed = text === "" ? undefined : JSON.parse(text)
      } catch {
        parsed = text.slice(0, 200)
      }
      return { status: response.status, body: parsed }
    },
    catch: (cause) => new CliFailure({ message: `cannot reach ${target.url}: ${describeFailure(cause)}` })
  }).pipe(
    Effect.flatMap(({ status, body }) => {
      if (status >= 200 && status < 300) return Effect.succeed(body)
      const shape = typeof body === "object" && body !== null ? (body as { readonly error?: unknown; readonly message?: unknown }) : {}
      const what = typeof shape.message === "string" ? `${String(shape.error ?? status)}: ${shape.message}` : String(body ?? "")
      const hint = status === 401 ? " (the token is not a valid admin session token; sign in again)" : status === 403 ? " (the token's user is not an admin)" : ""
      return Effect.fail(new CliFailure({ message: `${method} ${path} answered ${status} ${what}${hint}` }))
    })
  )

interface UserRow {
  readonly id: string
  readonly username: string
  readonly role: string
}

/** The user named `username` (ignoring case), through `GET /api/users`. */
export const findUser = (target: ApiTarget, username: string): Effect.Effect<UserRow, CliFailure> =>
  Effect.gen(function* () {
    let cursor: string | null = null
    for (;;) {
      const page = (yield* apiRequest(target, "GET", `/api/users?limit=1000${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`)) as {
        readonly items: ReadonlyArray<UserRow>
        readonly nextCursor: string | null
      }
      const found = page.items.find((user) => user.username.toLowerCase() === username.toLowerCase())
      if (found !== undefined) return found
      if (page.nextCursor === null || page.nextCursor === undefined) break
      cursor = page.nextCursor
    }
    return yield* new CliFailure({ message: `no user "${username}" at ${target.url}` })
  })
