/**
 * What a successful move prints: enough for whoever ran it to see that
 * every table came across and was checked, without opening either database,
 * and what to do next (the data directory's keys are still needed).
 */
import * as NodePath from "node:path"
import type { Copied } from "./copy.js"

export interface Summary {
  readonly source: string
  readonly target: string
  readonly serverVersion: string
  readonly copied: ReadonlyArray<Copied>
  readonly migrations: number
  readonly auditRows: number | undefined
  readonly auditHash: string | undefined
}

export const describeSummary = (summary: Summary): string => {
  const width = Math.max(0, ...summary.copied.map((c) => c.table.length))
  const rows = summary.copied.reduce((sum, c) => sum + c.rows, 0)
  const seeded = summary.copied.filter((c) => c.seeded > 0)
  return [
    `moved ${summary.source} to ${summary.target} (PostgreSQL ${summary.serverVersion}), checked, committed:`,
    ...summary.copied.map((c) => `  ${c.table.padEnd(width)}  ${c.rows} ${c.rows === 1 ? "row" : "rows"}`),
    `tables: ${summary.copied.length}; rows: ${rows}; every table's row count equals the source's`,
    `migrations: ${summary.migrations}, the same as the source's`,
    ...(seeded.length > 0 ? [`seeded by the migrations, replaced by the source's rows: ${seeded.map((c) => `${c.table} (${c.seeded})`).join(", ")}`] : []),
    summary.auditRows === undefined
      ? "audit chain: no audit tables"
      : `audit rows checked: ${summary.auditRows}; the chain verifies on PostgreSQL and ends at the source's last hash${summary.auditHash === undefined ? "" : ` (${summary.auditHash.slice(0, 16)}...)`}`,
    `next: start the controller with this DATABASE_URL and the same DATA_DIR (its secrets/ keys open the sealed values); ${NodePath.basename(summary.source)} is left as it was`
  ].join("\n")
}
