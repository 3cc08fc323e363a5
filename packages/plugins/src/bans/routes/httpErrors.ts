/** The bans plugin's failures as HTTP errors (the runtime's shared mappers; `InvalidBan` names its field: `fieldBadRequest`). */
import { conflictWith, notFoundWith } from "@garrison/runtime"
import type { BanExists, BanNotFound } from "../errors.js"

export const notFound = notFoundWith((error: BanNotFound) => `no ban with id "${error.id}"`)

export const exists = conflictWith(
  (error: BanExists) => `player ${error.platformId} already has an active ban`,
  (error) => ({ existingId: error.existingId, platformId: error.platformId })
)
