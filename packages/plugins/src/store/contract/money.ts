/**
 * Money without floating point: amounts are integers in the currency's
 * minor unit (cents for EUR and USD, yen for JPY, fils for KWD), as the
 * payment provider takes them; prices are written and shown as decimal
 * strings (`"4.99"`). The currencies and their minor units are ISO 4217's
 * as the platform's `Intl` knows them (Node and browsers alike), so this
 * module runs on both sides.
 */

/** ISO 4217 codes the platform knows (upper case). */
const known: ReadonlySet<string> = new Set(Intl.supportedValuesOf("currency"))

/** Whether `code` is an ISO 4217 currency code (upper case: `EUR`, `USD`). */
export const isCurrency = (code: string): boolean => /^[A-Z]{3}$/.test(code) && known.has(code)

/** Digits after the decimal point in the currency's minor unit: 2 for EUR, 0 for JPY, 3 for KWD. */
export const currencyDigits = (code: string): number =>
  new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions().maximumFractionDigits ?? 2

/** The smallest price a product may have: 0.50 in the currency's major unit (1 in a currency without a minor unit). */
export const minimumAmount = (code: string): number => Math.ceil(0.5 * 10 ** currencyDigits(code))

/** The largest amount the provider takes in one payment: 99,999,999 minor units (999,999.99 EUR). */
export const MAXIMUM_AMOUNT = 99_999_999

/** A price as typed: digits, then optionally a point and more digits (`4.99`, `5`, `1000.5`). */
export const DECIMAL_PRICE = /^(\d{1,9})(?:\.(\d{1,3}))?$/

/**
 * `"4.99"` in EUR → 499; `"5"` → 500; `"1000"` in JPY → 1000. Fails (a
 * message to put after the field's name) for more decimals than the
 * currency has, or text that is not a decimal price.
 */
export const toMinorUnits = (price: string, code: string): { readonly amount: number } | { readonly problem: string } => {
  const match = DECIMAL_PRICE.exec(price)
  if (match === null) return { problem: 'must be a decimal amount such as "4.99"' }
  const digits = currencyDigits(code)
  const fraction = match[2] ?? ""
  if (fraction.length > digits) {
    return { problem: digits === 0 ? `${code} has no minor unit: write a whole amount` : `${code} has ${digits} decimal places at most` }
  }
  return { amount: Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, "0") || "0") }
}

/** 499 in EUR → `"4.99"`; 1000 in JPY → `"1000"`; 5 in KWD → `"0.005"`. */
export const toDecimal = (amount: number, code: string): string => {
  const digits = currencyDigits(code)
  if (digits === 0) return String(amount)
  const text = String(amount).padStart(digits + 1, "0")
  return `${text.slice(0, -digits)}.${text.slice(-digits)}`
}
