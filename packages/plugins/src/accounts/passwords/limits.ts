/** Password length bounds, apart from the hashing so the HTTP contract (and the dashboard) can use them. */
export const MIN_PASSWORD_LENGTH = 8
export const MAX_PASSWORD_LENGTH = 128
