/**
 * Released migrations never change: `garrison_migrations` records each
 * plugin's versions and names, and an existing database must not run one
 * again or find it renamed. The SQL each one runs is pinned too (a
 * fingerprint of the statements' text, as SQLite receives them), so a
 * re-indented or edited statement is caught here rather than in a database
 * whose `sqlite_master` holds the old text. Values bound into statements
 * (the built-in roles, the audit chain's genesis hash) are not part of the
 * fingerprint: they belong to the code that owns them.
 */
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import * as Statement from "@effect/sql/Statement"
import { describe, expect, it } from "@effect/vitest"
import { type Migration, SealedSecrets } from "@garrison/runtime"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import { migrations as accounts } from "../../src/accounts/migrations.js"
import { migrations as audit } from "../../src/audit/migrations.js"
import { migrations as bans } from "../../src/bans/migrations.js"
import { migrations as cloud } from "../../src/cloud/migrations.js"
import { migrations as config } from "../../src/config/migrations.js"
import { migrations as license } from "../../src/license/migrations.js"
import { migrations as logs } from "../../src/logs/migrations.js"
import { migrations as mods } from "../../src/mods/migrations.js"
import { migrations as notifications } from "../../src/notifications/migrations.js"
import { migrations as platform } from "../../src/platform/migrations.js"
import { migrations as priority } from "../../src/priority/migrations.js"
import { migrations as rollout } from "../../src/rollout/migrations.js"
import { migrations as backups } from "../../src/backups/migrations.js"
import { migrations as scheduler } from "../../src/scheduler/migrations.js"
import { migrations as servers } from "../../src/servers/migrations.js"
import { migrations as webhooks } from "../../src/webhooks/migrations.js"
import { migrations as store } from "../../src/store/migrations.js"
import { migrations as chat } from "../../src/chat/migrations.js"
import { migrations as trust } from "../../src/trust/migrations.js"
import { migrations as gamelog } from "../../src/gamelog/migrations.js"
import { migrations as watchlist } from "../../src/watchlist/migrations.js"
import { migrations as system } from "../../src/system/migrations.js"

/** Runs a plugin's migrations in order on an empty in-memory database: version, name and the SQL text's fingerprint of each. */
const fingerprints = (list: ReadonlyArray<Migration>) =>
  Effect.forEach(list, (migration) => {
    const texts: Array<string> = []
    const record: Statement.Statement.Transformer = (statement) =>
      Effect.sync(() => {
        texts.push(statement.compile()[0])
        return statement
      })
    return migration.up.pipe(
      Statement.withTransformer(record),
      // An empty database gives the sealing migration nothing to seal: it never opens a box.
      Effect.provideService(SealedSecrets, SealedSecrets.of({} as never)),
      Effect.map(() => [migration.version, migration.name, createHash("sha256").update(texts.join("\n;\n")).digest("hex").slice(0, 16)])
    )
  }).pipe(Effect.provide(SqliteClient.layer({ filename: ":memory:" })))

const released: Record<string, readonly [ReadonlyArray<Migration>, ReadonlyArray<readonly [number, string, string]>]> = {
  accounts: [accounts, [
    [1, "create roles and users", "fc40fb1bd36136f3"],
    [2, "create sessions", "e32e8c7a2a198c37"],
    [3, "create login lockout", "deaee5fff05541b8"],
    [4, "create recovery codes", "13e0d7fbc1f6a797"],
    [5, "count login attempts before they are checked", "766de2ffc3eff6d5"]
  ]],
  audit: [audit, [
    [1, "create audit_log and audit_head", "baddf2734fb14af5"],
    [2, "audit_head follows each appended row", "e07169aa318cf897"],
    [3, "audit rows name their actor", "25d46510cca58d7e"]
  ]],
  bans: [bans, [[1, "create bans", "2899b8c8d391e062"]]],
  cloud: [cloud, [[1, "create cloud_link and cloud_servers", "cd35329b32b7ca60"]]],
  config: [config, [
    [1, "create config_templates", "efddc49246b069c3"],
    [2, "config_templates keep the file's encoding", "1e7f944517dbcc11"]
  ]],
  license: [license, [[1, "create license_state", "5f85fff5260db266"]]],
  logs: [logs, [[1, "create server_metrics", "429ede243be65b41"]]],
  mods: [
    mods,
    [
      [1, "create server_mods and mod_cache", "aa214f0cbbf25b60"],
      [2, "create mod_jobs", "aac5d484809e4684"]
    ]
  ],
  notifications: [
    notifications,
    [
      [1, "create notifications, reads, user state and counter", "b7ceffa7a15fd5da"],
      [2, "notifications about a server", "35d97e0375bc13cc"]
    ]
  ],
  platform: [platform, [[1, "create platform_settings", "1d50a517b0daea09"]]],
  priority: [priority, [
    [1, "create priority_entries", "93ebb79d76992244"],
    [2, "priority entries say where they came from", "176a6ffc6edaded4"]
  ]],
  rollout: [rollout, [[1, "create rollout_policies", "26868e03163e85f4"]]],
  backups: [backups, [[1, "create backup_configs", "6f8df405e0e071f8"]]],
  scheduler: [scheduler, [[1, "create scheduled_jobs", "6158d01c323d89f8"], [2, "scheduled_jobs created_by", "f6659ab27cce8be4"]]],
  servers: [servers, [
    [1, "create servers and server_processes", "45beb0a353de4ec3"],
    [2, "seal RCON passwords stored in clear", "39aa865b368bab87"]
  ]],
  webhooks: [webhooks, [
    [1, "create webhooks and webhook_deliveries", "c5ff955d0132d3f3"],
    [2, "webhook delivery attempt start", "167ae4c8eefad500"],
    [3, "webhook outbox", "2a5197cd3e4f78fa"]
  ]],
  store: [store, [[1, "create store products, purchases and payment config", "282032bc6732108d"]]],
  chat: [chat, [[1, "create chat_user_roles, chat_bot_key, chat_signatures", "25e1cf596b3d0c19"]]],
  trust: [trust, [[1, "create the trust pool", "441d2c49c8bc5ca2"]]],
  gamelog: [gamelog, [[1, "create the game log tables", "869c8a3f83e7ebf2"]]],
  watchlist: [watchlist, [[1, "create watchlist_entries", "78b5a69a50123eb4"]]],
  system: [system, [[1, "create system_settings", "c50b3398ae5e49f0"]]]
}

describe("released migrations", () => {
  it.effect.each(Object.keys(released))("%s: versions, names and SQL as released", (plugin) =>
    Effect.gen(function* () {
      const [list, expected] = released[plugin]!
      expect(yield* fingerprints(list)).toEqual(expected)
    })
  )
})
