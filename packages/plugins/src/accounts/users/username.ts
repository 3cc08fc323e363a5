/** Usernames: letters, digits and `._@-`, 1 to 64, starting with a letter or digit; unique ignoring case. */
export const USERNAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/

export const USERNAME_RULE = "usernames are 1 to 64 letters, digits or ._@-, starting with a letter or digit"

export const isValidUsername = (username: string): boolean => USERNAME_PATTERN.test(username)

/**
 * The form usernames are compared and kept unique in, and the key a sign-in
 * attempt is counted under. A NUL becomes U+FFFD: no username can hold
 * either (see `USERNAME_PATTERN`), so a key with one finds no user, but a
 * sign-in as such a name is still counted (its pair and its address) like
 * any wrong name, and PostgreSQL text, which cannot hold NUL, can store it.
 */
export const usernameKey = (username: string): string => username.trim().toLowerCase().replaceAll("\u0000", "\ufffd")
