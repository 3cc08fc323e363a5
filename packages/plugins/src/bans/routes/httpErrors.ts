/** The bans plugin's failures as HTTP errors. */
import { BadRequest, Conflict, invalidCursor, NotFound } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import type { BanExists, BanNotFound, InvalidBan } from "../errors.js"

export const invalid = (error: InvalidBan) =>
  Effect.fail(
    error.field === "cursor"
      ? invalidCursor()
      : new BadRequest({ message: error.message, details: [{ path: error.field, message: error.message }] })
  )

export const notFound = (error: BanNotFound) => Effect.fail(new NotFound({ message: `no ban with id "${error.id}"` }))

export const exists = (error: BanExists) =>
  Effect.fail(
    new Conflict({
      message: `player ${error.platformId} already has an active ban`,
      details: { existingId: error.existingId, platformId: error.platformId }
    })
  )
