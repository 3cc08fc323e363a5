/**
 * Times as the plugin stores and shows them: epoch milliseconds in memory,
 * ISO 8601 text in `license_state` and in the API.
 */

export const iso = (ms: number) => new Date(ms).toISOString()
export const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms))
export const msOrNull = (text: string | null) => (text === null ? null : Date.parse(text))
