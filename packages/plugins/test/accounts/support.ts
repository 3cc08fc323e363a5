/**
 * An in-process controller for the accounts tests (the testkit's
 * `testController`, without its test authenticator: these tests sign in),
 * the accounts plugin configured through a `ConfigProvider`, and an audit trail that
 * keeps its rows in memory so tests can read them (or the real, hash-chained
 * audit plugin). Proxies are trusted (one hop), so each test picks its own
 * client IPs with `X-Forwarded-For` and stays clear of the gate's
 * 15-per-15-minutes limit on `/api/auth/*`.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import type { HttpMethod } from "@effect/platform/HttpMethod"
import type { AnyPlugin } from "@garrison/runtime"
import { auditRecorder, DefaultPermissionsPlugin, type LogLine, tempDir, testController } from "@garrison/testkit"
import { Effect, LogLevel } from "effect"
import { Secret, TOTP } from "otpauth"
import { AccountsPlugin, type Roles, type Sessions, type Users } from "../../src/accounts/index.js"
import type { Lockout } from "../../src/accounts/lockout/Lockout.js"
import { AuditPlugin } from "../../src/audit/index.js"
import { HealthPlugin } from "../../src/health/index.js"

export { auditRecorder }

export const ADMIN = { username: "root", password: "correct horse battery staple" } as const

export const tempDataDir = (): string => tempDir("garrison-accounts-")

export interface ControllerOptions {
  /** Environment seen by the accounts plugin; `ADMIN_USERNAME`/`ADMIN_PASSWORD` default to `ADMIN`. */
  readonly env?: Readonly<Record<string, string>>
  readonly dataDir?: string
  readonly audit?: ReturnType<typeof auditRecorder>
  /** The real audit plugin (hash-chained, in the database) instead of the in-memory recorder. */
  readonly auditChain?: boolean
  /** Receives every log line from Info up (for the first-admin password). */
  readonly log?: Array<LogLine>
  /** More plugins, e.g. one declaring its own permissions. */
  readonly plugins?: ReadonlyArray<AnyPlugin>
}

export const accountsController = (options: ControllerOptions = {}) => {
  const audit = options.audit ?? auditRecorder()
  const env = { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, ...options.env }
  const trail = options.auditChain === true ? AuditPlugin : audit.plugin
  // The default plugins' permissions, for roles that grant them (unless the test loads an owner itself).
  const extra = options.plugins ?? []
  const permissions = extra.some((plugin) => plugin.permissions.length > 0) ? [] : [DefaultPermissionsPlugin]
  return testController<Users | Roles | Sessions | Lockout>([HealthPlugin, AccountsPlugin, trail, ...permissions, ...extra], {
    auth: false,
    dataPrefix: "garrison-accounts-",
    settings: { trustProxyHops: 1, ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }) },
    config: env,
    ...(options.log === undefined ? { logLevel: LogLevel.Warning } : { logs: options.log, logLevel: LogLevel.Info })
  })
}

let ipCounter = 0
/** A client address no other test uses. */
export const freshIp = (): string => {
  ipCounter += 1
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`
}

export interface Reply {
  readonly status: number
  readonly body: unknown
  readonly text: string
  readonly headers: Readonly<Record<string, string | undefined>>
  /** `Set-Cookie` lines, one per cookie. */
  readonly setCookies: ReadonlyArray<string>
}

export interface CallOptions {
  readonly json?: unknown
  readonly headers?: Readonly<Record<string, string>>
}

export const call = (method: HttpMethod, path: string, options: CallOptions = {}) =>
  Effect.gen(function* () {
    let request = HttpClientRequest.make(method)(path).pipe(HttpClientRequest.setHeaders(options.headers ?? {}))
    if (options.json !== undefined) request = HttpClientRequest.bodyUnsafeJson(request, options.json)
    const response = yield* HttpClient.execute(request)
    const text = yield* response.text
    const raw = response.headers["set-cookie"]
    const setCookies = raw === undefined ? [] : Array.isArray(raw) ? raw : String(raw).split(/,(?=\s*[A-Za-z0-9_-]+=)/)
    return {
      status: response.status,
      body: text.length > 0 ? (JSON.parse(text) as unknown) : undefined,
      text,
      headers: response.headers,
      setCookies: setCookies.map((c) => c.trim())
    } satisfies Reply
  }).pipe(Effect.scoped, Effect.orDie)

/** A signed-in session and the headers for each way of using it. */
export interface Session {
  readonly token: string
  readonly csrf: string
  readonly ip: string
  readonly userId: string
  /** Cookie plus CSRF header: a browser. */
  readonly browser: Record<string, string>
  /** Cookie without the CSRF header. */
  readonly cookieOnly: Record<string, string>
  /** `Authorization: Bearer`: a script. */
  readonly bearer: Record<string, string>
}

export const cookieValue = (reply: Reply, name: string): string | undefined => {
  const line = reply.setCookies.find((c) => c.startsWith(`${name}=`))
  return line === undefined ? undefined : decodeURIComponent(line.slice(name.length + 1).split(";")[0] ?? "")
}

export const sessionFrom = (reply: Reply, ip: string): Session => {
  const body = reply.body as { token: string; user: { id: string } }
  const csrf = cookieValue(reply, "csrf-token") ?? ""
  const cookie = `auth-token=${body.token}; csrf-token=${csrf}`
  return {
    token: body.token,
    csrf,
    ip,
    userId: body.user.id,
    browser: { cookie, "x-csrf-token": csrf, "x-forwarded-for": ip },
    cookieOnly: { cookie, "x-forwarded-for": ip },
    bearer: { authorization: `Bearer ${body.token}`, "x-forwarded-for": ip }
  }
}

export const login = (username: string, password: string, options: { readonly ip?: string; readonly code?: string } = {}) =>
  call("POST", "/api/auth/login", {
    json: { username, password, ...(options.code === undefined ? {} : { code: options.code }) },
    headers: { "x-forwarded-for": options.ip ?? freshIp() }
  })

/** Signs in (from a fresh IP unless given) and fails the test unless it worked. */
export const signIn = (username: string, password: string, options: { readonly ip?: string; readonly code?: string } = {}) =>
  Effect.gen(function* () {
    const ip = options.ip ?? freshIp()
    const reply = yield* login(username, password, { ...options, ip })
    if (reply.status !== 200) return yield* Effect.dieMessage(`sign-in as ${username} answered ${reply.status}: ${reply.text}`)
    return sessionFrom(reply, ip)
  })

export const signInAdmin = signIn(ADMIN.username, ADMIN.password)

/** Creates a user through the API as `admin`; returns its id. */
export const createUser = (
  admin: Session,
  input: { readonly username: string; readonly password: string; readonly role: string; readonly mustChangePassword?: boolean }
) =>
  Effect.gen(function* () {
    const reply = yield* call("POST", "/api/users", { json: { mustChangePassword: false, ...input }, headers: admin.bearer })
    if (reply.status !== 201) return yield* Effect.dieMessage(`creating ${input.username} answered ${reply.status}: ${reply.text}`)
    return (reply.body as { id: string }).id
  })

/** The TOTP code of `secret` at `timestampMs`, as an authenticator app computes it. */
export const totp = (secret: string, timestampMs: number): string =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: timestampMs, digits: 6, period: 30, algorithm: "SHA1" })
