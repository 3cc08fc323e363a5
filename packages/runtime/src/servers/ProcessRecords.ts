/**
 * Where actors remember which process runs each server, so a restarted
 * controller reattaches instead of starting a second one. The servers
 * plugin stores these in the database; tests use the in-memory one.
 */
import { Context, Effect, Layer, Option } from "effect"

export interface ProcessRecord {
  readonly pid: number
  readonly startToken: string
  /** `Clock` milliseconds when the process started. */
  readonly startedAt: number
}

export interface ProcessRecordsShape {
  readonly get: (serverId: string) => Effect.Effect<Option.Option<ProcessRecord>>
  readonly set: (serverId: string, record: ProcessRecord) => Effect.Effect<void>
  readonly clear: (serverId: string) => Effect.Effect<void>
}

export class ProcessRecords extends Context.Tag("@garrison/runtime/ProcessRecords")<ProcessRecords, ProcessRecordsShape>() {
  static readonly memory: Layer.Layer<ProcessRecords> = Layer.sync(ProcessRecords, () => {
    const records = new Map<string, ProcessRecord>()
    return {
      get: (id) => Effect.sync(() => Option.fromNullable(records.get(id))),
      set: (id, record) => Effect.sync(() => void records.set(id, record)),
      clear: (id) => Effect.sync(() => void records.delete(id))
    }
  })
}
