/** What the cloud tests share: the controller with a fake fleet, accounts (roles), the cloud plugin and a recorder of audit rows. */
import type * as SqlClient from "@effect/sql/SqlClient"
import { expect } from "@effect/vitest"
import { auditRecorder, call, fakeFleet, fakeInstall, testController } from "@garrison/testkit"
import { Effect, LogLevel } from "effect"
import { AccountsPlugin } from "../../src/accounts/index.js"
import { type CloudLink, CloudPlugin } from "../../src/cloud/index.js"

export const ADMIN = "root:admin"
export const TOKEN = "lnk_test_0123456789abcdef"

export const cloudController = (config: Record<string, string>, audit = auditRecorder()) =>
  testController<CloudLink | SqlClient.SqlClient>([fakeFleet().plugin, AccountsPlugin, CloudPlugin, audit.plugin], {
    dataPrefix: "garrison-cloud-",
    logLevel: LogLevel.Error,
    config: { RATE_LIMIT_API: "off", ADMIN_USERNAME: "admin", ADMIN_PASSWORD: "a passphrase for the test controller", ...config }
  })

/** A role for the link: `permissions` as roles take them. */
export const makeRole = (name: string, permissions: ReadonlyArray<unknown>) =>
  Effect.map(call("POST", "/api/roles", { as: ADMIN, json: { name, permissions } }), (reply) => {
    expect(reply.status, `role ${name}: ${JSON.stringify(reply.body)}`).toBe(201)
  })

/** A server entry on a fake install; its id. */
export const makeServer = (name: string, gamePort: number) =>
  Effect.map(call("POST", "/api/servers", { as: ADMIN, json: { name, installDir: fakeInstall(), gamePort } }), (reply) => {
    expect(reply.status, `server ${name}: ${JSON.stringify(reply.body)}`).toBe(201)
    return String((reply.body as { id: string }).id)
  })

export interface Status {
  readonly state: string
  readonly attempt: number
  readonly nextAttemptAt: string | null
  readonly lastError: string | null
  readonly enabled: boolean
  readonly role: string | null
  readonly servers: ReadonlyArray<{ readonly serverId: string; readonly name: string | null }>
}

export const status = Effect.map(call("GET", "/api/cloud/status", { as: ADMIN }), (reply) => reply.body as Status)
