/**
 * What went wrong, as a line of text, for the agent's logs and answers:
 * a string as it is, an error's (or any object's) `message` followed by
 * its cause's when that says more (a socket error under a request error),
 * else its `String`. The agent stands alone (it does not import the
 * runtime), so this is its one copy of the runtime's `errorMessage`.
 */
export const errorText = (error: unknown): string => {
  if (typeof error === "string") return error
  if (typeof error !== "object" || error === null) return String(error)
  const message = (error as { readonly message?: unknown }).message
  const own = typeof message === "string" && message !== "" ? message : String(error)
  const cause = (error as { readonly cause?: unknown }).cause
  return cause instanceof Error && cause.message !== "" && !own.includes(cause.message) ? `${own}: ${cause.message}` : own
}
