/**
 * A signing secret, shown the one time the API answers it (after a create
 * or a rotation): a copyable field, the warning that it is not shown again,
 * and how a receiver checks `X-Garrison-Signature` with it.
 */
import { CopyField } from "@dashboard/ui/CopyField.js"

export const SecretPanel = ({ name, secret, onDone }: { readonly name: string; readonly secret: string; readonly onDone: () => void }) => {
  return (
    <section className="card stack" aria-labelledby="webhook-secret-title">
      <h2 id="webhook-secret-title">Signing secret of {name}</h2>
      <p className="notice warn" role="status">
        <strong>Copy it now: you will not see it again.</strong> Garrison keeps it sealed and never shows it back. Lost it? Rotate the secret to get a new one.
      </p>
      <CopyField label="Signing secret" value={secret} copiedMessage="Secret copied" />
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
