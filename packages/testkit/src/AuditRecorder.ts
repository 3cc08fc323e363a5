/**
 * Audit rows kept in memory, in the order written, and the plugin that
 * fills the runtime's audit slot with them: for tests that assert what was
 * audited without the audit plugin's database.
 */
import { type AnyPlugin, type AuditEntry, AuditTrail, countedRecord, Plugin } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

export const auditRecorder = () => {
  const rows: Array<AuditEntry> = []
  const plugin = Plugin.make({
    id: "test-audit",
    provides: [AuditTrail],
    layer: Layer.succeed(AuditTrail, { record: countedRecord((entry) => Effect.sync(() => void rows.push(entry))) })
  })
  return { rows, plugin }
}

/**
 * `plugins`, with an in-memory audit trail when one of them records audit
 * rows and none provides the trail (the test asserts no rows; one that
 * does passes `auditRecorder().plugin` or the audit plugin itself).
 */
export const withAuditTrail = <const Plugins extends ReadonlyArray<AnyPlugin>>(plugins: Plugins): Plugins => {
  const provided = plugins.some((plugin) => plugin.provides.some((service) => service.key === AuditTrail.key))
  const required = plugins.some((plugin) => plugin.requires.some((service) => service.key === AuditTrail.key))
  // The recorder provides only the audit slot, which every kernel has: the list's type stays what it says.
  return required && !provided ? ([...plugins, auditRecorder().plugin] as unknown as Plugins) : plugins
}
