/**
 * The one permission every dangerzone route needs (the contract's `Access`):
 * `admin`, which a role cannot scope to some servers. Kept apart from the
 * client so the shell's tab descriptor imports no contract.
 */
export const DANGERZONE_PERMISSION = "admin"
