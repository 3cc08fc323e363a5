/**
 * A license server for tests: `node:http` on a loopback port, with an RS256
 * key pair made here (jose's `generateKeyPair`). It speaks the protocol of
 * the license plugin's README (`/v1/public-key`, `/v1/activate`,
 * `/v1/refresh`, `/v1/deactivate`, `/v1/tiers`) and can be switched to
 * fail, refuse, report a failed payment or hand out tokens that must be
 * refused (forged, HS256, `alg: none`, another machine's).
 */
import { Effect } from "effect"
import { exportJWK, exportSPKI, generateKeyPair, SignJWT } from "jose"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export type FakeLicenseMode =
  /** Answers as a healthy server. */
  | "ok"
  /** 503 to everything. */
  | "fail"
  /** Closes every connection without an answer. */
  | "down"
  /** 403 to activations and refreshes: the key is unknown, the license withdrawn. */
  | "refuse"
  /** 402 to refreshes: a payment failed. */
  | "payment-failed"
  /** Tokens say `status: "past_due"`. */
  | "past-due"
  /** Tokens signed with another RSA key. */
  | "forge"
  /** Tokens signed HS256 with the public key's PEM as the secret (algorithm confusion). */
  | "hs256"
  /** Unsigned tokens (`alg: none`). */
  | "none"
  /** Tokens bound to another machine id. */
  | "wrong-machine"

export interface FakeLicenseServer {
  readonly url: string
  /** The public key, as `LICENSE_PUBLIC_KEY` takes it. */
  readonly publicKeyPem: string
  mode: FakeLicenseMode
  /** Epoch ms written into tokens as `iat` and `exp` (the test's clock, not the machine's). */
  issuedAt: number
  expiresAt: number
  entitlements: ReadonlyArray<string>
  tier: string
  /** Every request, in order: path and JSON body. */
  readonly requests: Array<{ readonly path: string; readonly body: Record<string, unknown> | null }>
  /** The last token answered. */
  lastToken: string | undefined
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")

/** The server, listening until the scope closes. */
export const fakeLicenseServer = (options: { readonly expiresAt: number; readonly issuedAt: number; readonly entitlements?: ReadonlyArray<string> }) =>
  Effect.gen(function* () {
    const { privateKey, publicKey } = yield* Effect.promise(() => generateKeyPair("RS256", { extractable: true }))
    const other = yield* Effect.promise(() => generateKeyPair("RS256"))
    const publicKeyPem = yield* Effect.promise(() => exportSPKI(publicKey))
    const publicJwk = yield* Effect.promise(() => exportJWK(publicKey))

    const state: Omit<FakeLicenseServer, "url" | "publicKeyPem"> = {
      mode: "ok",
      issuedAt: options.issuedAt,
      expiresAt: options.expiresAt,
      entitlements: options.entitlements ?? ["reports"],
      tier: "pro",
      requests: [],
      lastToken: undefined
    }

    const token = async (machineId: string): Promise<string> => {
      const claims = {
        machineId: state.mode === "wrong-machine" ? "gm-00000000000000000000000000000000" : machineId,
        entitlements: [...state.entitlements],
        tier: state.tier,
        holder: "Test Community",
        ...(state.mode === "past-due" ? { status: "past_due" } : { status: "active" })
      }
      const iat = Math.floor(state.issuedAt / 1000)
      const exp = Math.floor(state.expiresAt / 1000)
      if (state.mode === "none") {
        return `${b64({ alg: "none", typ: "JWT" })}.${b64({ ...claims, sub: "lic-1", aud: "garrison", iat, exp })}.`
      }
      const jwt = new SignJWT(claims).setSubject("lic-1").setAudience("garrison").setIssuedAt(iat).setExpirationTime(exp)
      if (state.mode === "hs256") return jwt.setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode(publicKeyPem))
      return jwt.setProtectedHeader({ alg: "RS256" }).sign(state.mode === "forge" ? other.privateKey : privateKey)
    }

    const answer = (response: ServerResponse, status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json" })
      response.end(JSON.stringify(body))
    }

    const handle = async (request: IncomingMessage, response: ServerResponse) => {
      const chunks: Array<Buffer> = []
      for await (const chunk of request) chunks.push(chunk as Buffer)
      const text = Buffer.concat(chunks).toString("utf8")
      const body = text === "" ? null : (JSON.parse(text) as Record<string, unknown>)
      const path = request.url ?? "/"
      state.requests.push({ path, body })
      if (state.mode === "down") return void response.destroy()
      if (state.mode === "fail") return answer(response, 503, { message: "maintenance" })
      if (request.method === "GET" && path === "/v1/public-key") return answer(response, 200, publicJwk)
      if (request.method === "GET" && path === "/v1/tiers") {
        return answer(response, 200, {
          tiers: [
            { id: "standard", name: "Standard", description: "One community", entitlements: [] },
            { id: "pro", name: "Pro", description: "Reports", entitlements: ["reports"] }
          ]
        })
      }
      if (request.method !== "POST") return answer(response, 404, { message: "no such route" })
      if (path === "/v1/deactivate") return answer(response, 200, { ok: true })
      if (path !== "/v1/activate" && path !== "/v1/refresh") return answer(response, 404, { message: "no such route" })
      if (state.mode === "refuse") return answer(response, 403, { message: "unknown license key" })
      if (state.mode === "payment-failed" && path === "/v1/refresh") return answer(response, 402, { message: "card declined" })
      const issued = await token(String(body?.["machineId"] ?? ""))
      state.lastToken = issued
      return answer(response, 200, { token: issued })
    }

    const server = createServer((request, response) => {
      handle(request, response).catch(() => response.destroy())
    })
    yield* Effect.acquireRelease(
      Effect.async<void>((resume) => void server.listen(0, "127.0.0.1", () => resume(Effect.void))),
      () =>
        Effect.async<void>((resume) => {
          server.closeAllConnections()
          server.close(() => resume(Effect.void))
        })
    )
    const port = (server.address() as AddressInfo).port
    const fake = state as FakeLicenseServer
    Object.assign(fake, { url: `http://127.0.0.1:${port}`, publicKeyPem })
    return fake
  })
