/**
 * The updates plugin's API for its pages: its contract is outside the
 * shell's `GarrisonApi`, so the client is built with the page chunk.
 */
import { apiFor } from "@dashboard/api/client.js"
import { UpdatesApi, type UpdateStatus } from "../contract/Api.js"

export const updatesApi = apiFor(UpdatesApi)

/** A status as the API answers it and as its event stream sends it (plain JSON: the same fields). */
export type UpdateStatusView = typeof UpdateStatus.Encoded

/** `GET /api/servers/:id/update/events`: `event: status` frames until the running update ends. */
export const updateEventsUrl = (serverId: string): string => `/api/servers/${encodeURIComponent(serverId)}/update/events`
