/**
 * A server's rollout: its status read from `GET .../rollout/status` (again
 * every 15 s, so one the scheduler or another admin starts shows up), and
 * followed live over `/api/servers/:id/rollout/events` while it runs (the
 * stream ends with the rollout, so it is opened only then). `ended` is told
 * once when a rollout this page saw running has ended.
 */
import { useEffect, useRef } from "react"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { type Resource, useResource } from "@dashboard/ui/data.js"
import { useEventStream } from "../../gamelog/ui/useEventStream.js"
import { RolloutStatus } from "../contract/Api.js"
import { rolloutApi } from "./client.js"

const POLL_MS = 15_000
const decodeStatus = Schema.decodeUnknownEither(RolloutStatus)

export interface RolloutView {
  readonly status: Resource<RolloutStatus>
  readonly running: boolean
  /** The status the start answered with (running): shown at once, and followed. */
  readonly started: (status: RolloutStatus) => void
}

export const useRollout = (serverId: string, ended: (status: RolloutStatus) => void): RolloutView => {
  const status = useResource(() => rolloutApi((c) => c.rollout.status({ path: { id: serverId } })), [serverId], { pollMs: POLL_MS })
  const endedRef = useRef(ended)
  endedRef.current = ended
  /** The start time of the rollout seen running, until its end is reported. */
  const following = useRef<string | null | undefined>(undefined)
  useEffect(() => {
    following.current = undefined
  }, [serverId])

  const current = status.data
  useEffect(() => {
    if (current === undefined || current.serverId !== serverId) return
    if (current.state === "running") following.current = current.startedAt
    else if (following.current !== undefined && following.current === current.startedAt) {
      following.current = undefined
      endedRef.current(current)
    }
  }, [current, serverId])

  const running = current?.state === "running"
  useEventStream<unknown>(running ? `/api/servers/${encodeURIComponent(serverId)}/rollout/events` : undefined, "status", (data) => {
    const decoded = decodeStatus(data)
    if (Either.isRight(decoded) && decoded.right.serverId === serverId) status.set(() => decoded.right)
  })

  return { status, running, started: (next) => status.set(() => next) }
}
