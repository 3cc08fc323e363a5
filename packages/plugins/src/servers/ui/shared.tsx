/** Bits the servers pages share. */
export const StatusBadge = ({ status }: { readonly status: string }) => <span className={`badge status-${status}`}>{status}</span>

export const percent = (value: number | null): string => (value === null ? "—" : `${value.toFixed(0)}%`)

/** Said of a field only an admin may change (the API refuses anyone else). */
export const ADMIN_ONLY = "only an admin may change this"
