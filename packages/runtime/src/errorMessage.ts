/**
 * What went wrong, as a line of text, from anything a failure may carry:
 * a string as it is, an error's (or any object's) `message`, else its
 * `String`. The one helper for logs and messages that quote a cause.
 */
export const errorMessage = (error: unknown): string =>
  typeof error === "string"
    ? error
    : typeof error === "object" && error !== null && typeof (error as { readonly message?: unknown }).message === "string"
      ? (error as { readonly message: string }).message
      : String(error)
