/** The shared endpoint error mappers and store errors: the shapes every plugin answers alike. */
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Schema } from "effect"
import { storeDefect, storeErrorFields, storeErrorMapper } from "../../src/database/StoreError.js"
import { BadRequest, Conflict, NotFound } from "../../src/http/ApiErrors.js"
import { conflictWith, cursorBadRequest, fieldBadRequest, notFoundWith } from "../../src/http/EndpointErrors.js"
import { InvalidCursor, invalidCursor } from "../../src/http/Page.js"

class ThingStoreError extends Schema.TaggedError<ThingStoreError>()("ThingStoreError", storeErrorFields) {}
const storeError = storeErrorMapper(ThingStoreError)

describe("endpoint error mappers", () => {
  it.effect("answer a field refusal, a missing thing, a conflict and a foreign cursor in the one shape", () =>
    Effect.gen(function*() {
      expect(yield* Effect.flip(fieldBadRequest({ field: "expiresAt", message: "expiresAt: must be in the future" }))).toEqual(
        new BadRequest({
          message: "expiresAt: must be in the future",
          details: [{ path: "expiresAt", message: "expiresAt: must be in the future" }]
        })
      )
      const missing = notFoundWith((e: { readonly id: string }) => `no thing with id "${e.id}"`)
      expect(yield* Effect.flip(missing({ id: "7" }))).toEqual(new NotFound({ message: "no thing with id \"7\"" }))
      const taken = conflictWith((e: { readonly id: string }) => `thing ${e.id} exists`, (e) => ({ id: e.id }))
      expect(yield* Effect.flip(taken({ id: "7" }))).toEqual(new Conflict({ message: "thing 7 exists", details: { id: "7" } }))
      const plain = yield* Effect.flip(conflictWith((e: { readonly id: string }) => `thing ${e.id} is busy`)({ id: "7" }))
      expect(plain).toEqual(new Conflict({ message: "thing 7 is busy" }))
      expect("details" in plain).toBe(false)
      expect(yield* Effect.flip(cursorBadRequest(new InvalidCursor({ cursor: "x" })))).toEqual(invalidCursor())
    }))

  it.effect("make a plugin's store error naming the operation and the driver's message, and answer it as a fault", () =>
    Effect.gen(function*() {
      const error = storeError("read things")({ message: "Failed to execute statement", cause: new Error("SQLITE_BUSY") })
      expect(error).toEqual(new ThingStoreError({ message: "read things: Failed to execute statement (SQLITE_BUSY)" }))
      expect(storeError("read things")({ message: "Expected string" }).message).toBe("read things: Expected string")
      const exit = yield* Effect.exit(Effect.catchTag(Effect.fail(error), "ThingStoreError", storeDefect))
      expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
    }))
})
