/** What the trust page's sections share: status and band colours, number formats, and reloading when another section changed something. */
import { useEffect, useRef } from "react"
import type { PoolStatus } from "../internal/rules.js"

export { POOL_STATUSES, REASON_CATEGORIES, type PoolStatus, type ReasonCategory } from "../internal/rules.js"
export { BANDS } from "../internal/score.js"

/** The servers' status classes: active green (the ban holds), pending amber, tombstones plain. */
export const POOL_STATUS_CLASSES: Record<PoolStatus, string> = {
  active: "status-running",
  pending: "status-starting",
  overturned: "",
  expired: ""
}

export const poolStatusClass = (status: string): string => POOL_STATUS_CLASSES[status as PoolStatus] ?? ""

/** Banned red, risky amber, neutral plain, trusted and veteran green. */
export const bandClass = (band: string): string =>
  band === "banned" ? "status-crashed" : band === "risky" ? "status-starting" : band === "trusted" || band === "veteran" ? "status-running" : ""

export const formatWeight = (weight: number): string => weight.toFixed(2)

/** `25 %`, or `—` before a community has submissions. */
export const formatRate = (rate: number | null): string => (rate === null ? "—" : `${Math.round(rate * 100)} %`)

/**
 * What a section does when another one changed the pool (a submission, an
 * overturn, a decision, a review, a pull): `version` goes up, and the
 * section reads its resources again, keeping what it shows meanwhile.
 */
export const useReloadOn = (version: number, ...resources: ReadonlyArray<{ readonly reload: () => Promise<void> }>): void => {
  const seen = useRef(version)
  useEffect(() => {
    if (seen.current === version) return
    seen.current = version
    for (const resource of resources) void resource.reload()
  }, [version])
}

/** How a section tells the page it changed something others show. */
export interface Changes {
  readonly version: number
  readonly changed: () => void
}
