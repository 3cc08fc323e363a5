/**
 * Audit rows kept in memory, in the order written, and the plugin that
 * fills the runtime's audit slot with them: for tests that assert what was
 * audited without the audit plugin's database.
 */
import { type AuditEntry, AuditTrail, Plugin } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

export const auditRecorder = () => {
  const rows: Array<AuditEntry> = []
  const plugin = Plugin.make({
    id: "test-audit",
    layer: Layer.succeed(AuditTrail, { record: (entry) => Effect.sync(() => void rows.push(entry)) })
  })
  return { rows, plugin }
}
