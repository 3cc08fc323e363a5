/**
 * The three fields of a password change (current, new, repeated), shared by
 * the account page and the shell's forced change, with the contract's
 * length bounds.
 */
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../passwords/limits.js"

export interface PasswordChange {
  readonly current: string
  readonly next: string
  readonly repeat: string
}

export const EMPTY_CHANGE: PasswordChange = { current: "", next: "", repeat: "" }

export const PasswordFields = ({ value, onChange }: { readonly value: PasswordChange; readonly onChange: (value: PasswordChange) => void }) => (
  <>
    <label>
      Current password
      <input type="password" value={value.current} onChange={(e) => onChange({ ...value, current: e.target.value })} autoComplete="current-password" required />
    </label>
    <label>
      New password ({MIN_PASSWORD_LENGTH} to {MAX_PASSWORD_LENGTH} characters)
      <input
        type="password"
        value={value.next}
        onChange={(e) => onChange({ ...value, next: e.target.value })}
        autoComplete="new-password"
        minLength={MIN_PASSWORD_LENGTH}
        maxLength={MAX_PASSWORD_LENGTH}
        required
      />
    </label>
    <label>
      Repeat the new password
      <input type="password" value={value.repeat} onChange={(e) => onChange({ ...value, repeat: e.target.value })} autoComplete="new-password" required />
    </label>
  </>
)
