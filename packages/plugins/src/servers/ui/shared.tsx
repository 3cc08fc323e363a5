/** Bits the servers pages share. */
export const StatusBadge = ({ status }: { readonly status: string }) => <span className={`badge status-${status}`}>{status}</span>

export const percent = (value: number | null): string => (value === null ? "—" : `${value.toFixed(0)}%`)
