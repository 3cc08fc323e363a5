/**
 * Cutting text that goes back to a client (error messages, paths) to a
 * bounded length, without splitting a surrogate pair.
 */

/** The first `length` UTF-16 units of `text`, one fewer when the cut would split a pair. */
export const sliceWhole = (text: string, length: number): string => {
  if (text.length <= length) return text
  const last = text.charCodeAt(length - 1)
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? length - 1 : length)
}

/** `text`, or its start, an ellipsis and how long it was. */
export const truncateText = (text: string, max: number): string =>
  text.length <= max ? text : `${sliceWhole(text, max)}… (${text.length} characters)`
