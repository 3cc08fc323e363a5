/** How the store's pages show prices and durations. */

/** A price as the visitor's locale writes money (`€4.99`); the decimal string itself if the currency is unknown here. */
export const formatPrice = (price: string, currency: string): string => {
  try {
    return new Intl.NumberFormat(undefined, { style: "currency", currency }).format(Number(price))
  } catch {
    return `${price} ${currency}`
  }
}

/** `30 days`, `1 year`, `Permanent`. */
export const formatDuration = (days: number | null): string =>
  days === null ? "Permanent" : days === 365 ? "1 year" : days === 1 ? "1 day" : `${days} days`
