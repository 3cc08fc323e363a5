/**
 * What the danger zone's sections share: the typed-name confirmation, the
 * run of a destructive call (a confirmation dialog first, then the API's
 * refusal kept beside the button as well as in a toast), and the server as
 * the tab knows it.
 */
import { useId, useState } from "react"
import { type ConfirmOptions, messageOf, useFeedback } from "@dashboard/ui/feedback.js"

/** This server as the sections need it: its name (what must be typed back) and its process state. */
export interface ServerFacts {
  readonly id: string
  readonly name: string
  readonly status: string
}

/** States in which the server's files are open (the API refuses a wipe or a replicate into it). */
export const isUp = (status: string): boolean => status === "starting" || status === "running" || status === "stopping" || status === "updating"

/**
 * An input where the server's name must be typed exactly; `matches` tells
 * the caller when its button may be enabled.
 */
export const TypedName = ({ name, value, onChange }: { readonly name: string; readonly value: string; readonly onChange: (value: string) => void }) => {
  const hint = useId()
  const typedWrong = value !== "" && value !== name
  return (
    <label>
      <span>
        Type the server's name, <strong className="break-anywhere">{name}</strong>, to confirm
      </span>
      <input value={value} onChange={(e) => onChange(e.target.value)} autoComplete="off" spellCheck={false} aria-describedby={hint} aria-invalid={typedWrong} />
      <span id={hint} className="muted">
        {typedWrong ? "Not the name yet: it must match exactly, capitals and spaces too." : "The button below stays off until the name matches."}
      </span>
    </label>
  )
}

/**
 * A destructive call: the confirmation dialog, then the work with its
 * progress; on success the work's own words as a toast, on failure the
 * API's message as a toast and kept in `refusal` (shown beside the button,
 * so the reason stays in view after the toast goes).
 */
export const useDangerAction = () => {
  const feedback = useFeedback()
  const [busy, setBusy] = useState(false)
  const [refusal, setRefusal] = useState<string | undefined>()
  const run = async (confirm: ConfirmOptions, work: () => Promise<string>) => {
    if (busy || !(await feedback.confirm(confirm))) return
    setBusy(true)
    setRefusal(undefined)
    try {
      feedback.ok(await work())
    } catch (error) {
      setRefusal(messageOf(error))
      feedback.error(error)
    } finally {
      setBusy(false)
    }
  }
  return { busy, refusal, run, clearRefusal: () => setRefusal(undefined) }
}

/** The API's reason for the last refusal of a section's action. */
export const RefusedNotice = ({ what, refusal }: { readonly what: string; readonly refusal: string | undefined }) =>
  refusal === undefined ? null : (
    <p className="notice error" role="alert">
      The {what} was refused: {refusal}
    </p>
  )
