/** Numbers as the system page shows them, in the user's locale. */
import { formatUptime } from "@dashboard/ui/data.js"

const oneDecimal = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 })
const twoDecimals = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 })

/** `12.5 %`, or `—` when unknown. */
export const formatPercent = (value: number | null | undefined): string => (value === null || value === undefined ? "—" : `${oneDecimal.format(value)} %`)

/** `3.2 ms`. */
export const formatMs = (value: number | null | undefined): string => (value === null || value === undefined ? "—" : `${oneDecimal.format(value)} ms`)

/** A load average: `0.42`. */
export const formatLoad = (value: number): string => twoDecimals.format(value)

/** An uptime in whole seconds as days, hours, minutes. */
export const formatSeconds = (seconds: number): string => formatUptime(Math.floor(seconds))

/** A time of day in the user's locale (`14:05:10`). */
export const formatClock = (at: string | number): string => new Date(at).toLocaleTimeString()
