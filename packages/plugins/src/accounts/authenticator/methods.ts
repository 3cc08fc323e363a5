/**
 * The ways the accounts authenticator accepts, as the OpenAPI document
 * shows them: the session cookie (with the CSRF header on the writes that
 * need it) or the same token as a bearer token. (The host asks a method
 * only about operations that need a caller.)
 */
import type { AuthenticationMethod } from "@garrison/runtime"
import { AUTH_COOKIE } from "../http/request.js"
import { CSRF_COOKIE } from "../sessions/Csrf.js"

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"])

/** The header as documented (HTTP header names are case-insensitive; the code reads them lower-case). */
const CSRF_HEADER_NAME = "X-CSRF-Token"

export const sessionCookie: AuthenticationMethod = {
  schemes: {
    cookie: {
      type: "apiKey",
      in: "cookie",
      name: AUTH_COOKIE,
      description: `The session cookie set by POST /api/auth/login (HttpOnly). Writes also send ${CSRF_HEADER_NAME}.`
    },
    csrf: {
      type: "apiKey",
      in: "header",
      name: CSRF_HEADER_NAME,
      description: `The value of the \`${CSRF_COOKIE}\` cookie set at sign-in; required with the session cookie on POST, PUT, PATCH and DELETE (not on login and logout).`
    }
  },
  requires: ({ method, csrfExempt }) => (!csrfExempt && MUTATING.has(method) ? ["cookie", "csrf"] : ["cookie"])
}

export const bearerToken: AuthenticationMethod = {
  schemes: {
    bearer: {
      type: "http",
      scheme: "bearer",
      bearerFormat: "JWT",
      description: "`Authorization: Bearer <token>` with the `token` from POST /api/auth/login; no CSRF header needed."
    }
  },
  requires: () => ["bearer"]
}
