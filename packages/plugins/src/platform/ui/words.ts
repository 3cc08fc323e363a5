/** How the platform pages write counts, sizes and days in plain words. */

export const formatCount = (n: number): string => n.toLocaleString()

/** A day in the reader's locale ("—" when unknown). */
export const formatDay = (iso: string | null | undefined): string =>
  iso === null || iso === undefined ? "—" : new Date(iso).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" })

/** Where a setting's value comes from, as the status's `source` says. */
export const SOURCE_WORDS = {
  setting: "set here",
  environment: "environment variable",
  default: "built-in default"
} as const

/** Steam's page for a workshop item. */
export const workshopItemUrl = (workshopId: string): string => `https://steamcommunity.com/sharedfiles/filedetails/?id=${encodeURIComponent(workshopId)}`
