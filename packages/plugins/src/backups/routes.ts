/** The handlers behind `BackupsApi`; the host has already checked each endpoint's access. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { ADMIN, auditActorOf, BadRequest, Conflict, CurrentPrincipal, effectiveLimit, Forbidden, grants, NotFound, serverSentEvents, storeDefect } from "@garrison/runtime"
import { BACKUPS_PAGE, BackupsApi, BackupStatus, CONTENTS_PAGE } from "./contract/Api.js"
import type { BackupsError, BackupStoreError } from "./errors.js"
import { ServerBackups } from "./ServerBackups.js"

/** The plugin's errors as the API answers them: the one place their statuses are chosen (a store failure is a fault: 500 with a request id). */
const backupsHttpError = (error: BackupsError | BackupStoreError): Effect.Effect<never, NotFound | BadRequest | Conflict> => {
  switch (error._tag) {
    case "BackupNotFound":
      return Effect.fail(new NotFound({ message: error.message }))
    case "BackupInputRefused":
      return Effect.fail(new BadRequest({ message: error.message, details: [{ path: error.field, message: error.message }] }))
    case "BackupConflict":
      return Effect.fail(new Conflict({ message: error.message }))
    case "BackupStoreError":
      return storeDefect(error)
  }
}
const answered = { BackupNotFound: backupsHttpError, BackupInputRefused: backupsHttpError, BackupConflict: backupsHttpError }
/** For the calls that read or write the backup settings (the others cannot meet a store failure). */
const answeredWithStore = { ...answered, BackupStoreError: backupsHttpError }

const encodeStatus = Schema.encodeSync(BackupStatus)

export const BackupsRoutes = HttpApiBuilder.group(BackupsApi, "backups", (handlers) =>
  Effect.gen(function* () {
    const backups = yield* ServerBackups
    const caller = Effect.map(CurrentPrincipal, auditActorOf)
    return handlers
      .handle("list", ({ path, urlParams }) =>
        backups
          .list(path.id, { limit: effectiveLimit(urlParams.limit, BACKUPS_PAGE), ...(urlParams.type === undefined ? {} : { type: urlParams.type }), ...(urlParams.cursor === undefined ? {} : { cursor: urlParams.cursor }) })
          .pipe(Effect.catchTags(answeredWithStore))
      )
      .handle("create", ({ path }) => Effect.flatMap(caller, (by) => backups.create(path.id, by)).pipe(Effect.catchTags(answeredWithStore)))
      .handle("status", ({ path }) => backups.status(path.id))
      .handle("events", ({ path }) => Effect.map(backups.follow(path.id), (statuses) => serverSentEvents(statuses, "status", encodeStatus)))
      .handle("remove", ({ path, urlParams }) =>
        Effect.flatMap(caller, (by) => backups.remove(path.id, path.filename, urlParams.type, by)).pipe(Effect.catchTags(answered))
      )
      .handle("download", ({ path, urlParams }) =>
        Effect.gen(function* () {
          const headers = { "content-disposition": `attachment; filename="${path.filename}"`, "cache-control": "no-store" }
          if (urlParams.secrets !== "include") {
            const masked = yield* backups.downloadMasked(path.id, path.filename, urlParams.type)
            return HttpServerResponse.stream(masked, { contentType: "application/zip", headers })
          }
          const by = yield* CurrentPrincipal
          if (!grants(by.permissions, ADMIN)) {
            return yield* new Forbidden({ message: "secrets: only an admin may download a backup with its secrets (without ?secrets=include, they are masked)", details: { field: "secrets" } })
          }
          const { bytes, size } = yield* backups.download(path.id, path.filename, urlParams.type, auditActorOf(by))
          return HttpServerResponse.stream(bytes, { contentType: "application/zip", contentLength: size, headers })
        }).pipe(Effect.catchTags(answered))
      )
      .handle("contents", ({ path, urlParams }) =>
        backups
          .contents(path.id, path.filename, urlParams.type, { limit: effectiveLimit(urlParams.limit, CONTENTS_PAGE), ...(urlParams.cursor === undefined ? {} : { cursor: urlParams.cursor }) })
          .pipe(Effect.catchTags(answered))
      )
      .handle("restore", ({ path, urlParams }) =>
        Effect.flatMap(caller, (by) => backups.restore(path.id, path.filename, urlParams.type, by)).pipe(Effect.catchTags(answered))
      )
      .handle("config", ({ path }) => backups.config(path.id).pipe(Effect.catchTags({ BackupStoreError: backupsHttpError })))
      .handle("setConfig", ({ path, payload }) => Effect.flatMap(caller, (by) => backups.setConfig(path.id, payload, by)).pipe(Effect.catchTags(answeredWithStore)))
  })
)
