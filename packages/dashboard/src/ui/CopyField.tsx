/**
 * A secret shown the one time the API answers it (a webhook's signing
 * secret, the chat bot's key): a read-only field that selects itself, and a
 * Copy button that falls back to "press Ctrl+C" where the clipboard is not
 * allowed (an insecure origin, a denied permission).
 */
import { useRef } from "react"
import { useFeedback } from "./feedback.js"

export const CopyField = ({ label, value, copiedMessage }: { readonly label: string; readonly value: string; readonly copiedMessage: string }) => {
  const feedback = useFeedback()
  const field = useRef<HTMLInputElement>(null)
  const copy = async () => {
    field.current?.select()
    try {
      await navigator.clipboard.writeText(value)
      feedback.ok(copiedMessage)
    } catch {
      feedback.ok("Selected: press Ctrl+C (⌘C) to copy")
    }
  }
  return (
    <div className="row">
      <label className="grow">
        {label}
        <input ref={field} readOnly value={value} className="mono" onFocus={(e) => e.target.select()} spellCheck={false} />
      </label>
      <button type="button" onClick={() => void copy()}>
        Copy
      </button>
    </div>
  )
}
