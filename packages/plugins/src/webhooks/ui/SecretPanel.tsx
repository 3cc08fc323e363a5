/**
 * A signing secret, shown the one time the API answers it (after a create
 * or a rotation): a copyable field, the warning that it is not shown again,
 * and how a receiver checks `X-Garrison-Signature` with it.
 */
import { useRef } from "react"
import { useFeedback } from "@dashboard/ui/feedback.js"

export const SecretPanel = ({ name, secret, onDone }: { readonly name: string; readonly secret: string; readonly onDone: () => void }) => {
  const feedback = useFeedback()
  const field = useRef<HTMLInputElement>(null)
  const copy = async () => {
    field.current?.select()
    try {
      await navigator.clipboard.writeText(secret)
      feedback.ok("Secret copied")
    } catch {
      // No clipboard access (an insecure origin, a denied permission): the field is selected for Ctrl+C.
      feedback.ok("Selected: press Ctrl+C (⌘C) to copy")
    }
  }
  return (
    <section className="card stack" aria-labelledby="webhook-secret-title">
      <h2 id="webhook-secret-title">Signing secret of {name}</h2>
      <p className="notice warn" role="status">
        <strong>Copy it now: you will not see it again.</strong> Garrison keeps it sealed and never shows it back. Lost it? Rotate the secret to get a new one.
      </p>
      <div className="row">
        <label className="grow">
          Signing secret
          <input ref={field} readOnly value={secret} className="mono" onFocus={(e) => e.target.select()} spellCheck={false} />
        </label>
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      <p>
        <strong>How to verify a delivery:</strong> each request carries <code>X-Garrison-Signature: t=…,v1=…</code>. Compute{" "}
        <code>{'HMAC-SHA256(secret, "${t}.${body}")'}</code> over the raw request body, in hex, and compare it with <code>v1</code> in constant time;
        refuse a <code>t</code> (Unix seconds) more than 5 minutes old. <code>Idempotency-Key</code> is the same on every retry and replay, to drop what you
        already handled.
      </p>
      <div>
        <button type="button" onClick={onDone}>
          Done, I have copied it
        </button>
      </div>
    </section>
  )
}
