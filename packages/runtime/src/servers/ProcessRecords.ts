/**
 * Where actors remember which process runs each server, so a restarted
 * controller reattaches instead of starting a second one. The servers
 * plugin stores these in the database; tests use the in-memory one.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"

export interface ProcessRecord {
  readonly pid: number
  readonly startToken: string
  /** `Clock` milliseconds when the process started. */
  readonly startedAt: number
}

export interface ProcessRecordsShape {
  readonly get: (serverId: string) => Effect.Effect<Option.Option<ProcessRecord>>
  /** Every server with a record, i.e. those that were running: one read at start-up instead of one per entry. */
  readonly serverIds: Effect.Effect<ReadonlySet<string>>
  readonly set: (serverId: string, record: ProcessRecord) => Effect.Effect<void>
  readonly clear: (serverId: string) => Effect.Effect<void>
}

export class ProcessRecords extends Context.Tag("@garrison/runtime/ProcessRecords")<ProcessRecords, ProcessRecordsShape>() {
  static readonly memory: Layer.Layer<ProcessRecords> = Layer.sync(ProcessRecords, () => {
    const records = new Map<string, ProcessRecord>()
    return {
      get: (id) => Effect.sync(() => Option.fromNullable(records.get(id))),
      serverIds: Effect.sync(() => new Set(records.keys())),
      set: (id, record) => Effect.sync(() => void records.set(id, record)),
      clear: (id) => Effect.sync(() => void records.delete(id))
    }
  })
}
