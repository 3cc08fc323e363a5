/** Toasts (the API's `message` on errors), confirmation dialogs, and actions that show progress. */
import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from "react"
import { ApiError } from "../api/client.js"

interface Toast {
  readonly id: number
  readonly kind: "error" | "ok"
  readonly text: string
}

interface Feedback {
  readonly error: (error: unknown) => void
  readonly ok: (text: string) => void
  readonly confirm: (options: ConfirmOptions) => Promise<boolean>
}

export interface ConfirmOptions {
  readonly title: string
  readonly body?: ReactNode
  readonly confirmLabel: string
  /** Red confirm button: deletes, bans, stops. */
  readonly danger?: boolean
}

const FeedbackContext = createContext<Feedback | undefined>(undefined)

export const messageOf = (error: unknown): string =>
  error instanceof ApiError ? error.message : error instanceof Error ? error.message : String(error)

let nextId = 1

export const FeedbackProvider = ({ children }: { readonly children: ReactNode }) => {
  const [toasts, setToasts] = useState<ReadonlyArray<Toast>>([])
  const [pending, setPending] = useState<(ConfirmOptions & { readonly resolve: (ok: boolean) => void }) | undefined>()
  const dialog = useRef<HTMLDialogElement>(null)

  const push = useCallback((kind: Toast["kind"], text: string) => {
    const id = nextId++
    setToasts((all) => [...all.slice(-4), { id, kind, text }])
    window.setTimeout(() => setToasts((all) => all.filter((t) => t.id !== id)), kind === "error" ? 8000 : 4000)
  }, [])

  const feedback = useRef<Feedback>({
    error: (error) => push("error", messageOf(error)),
    ok: (text) => push("ok", text),
    confirm: (options) => new Promise<boolean>((resolve) => setPending({ ...options, resolve }))
  })
  feedback.current = {
    error: (error) => push("error", messageOf(error)),
    ok: (text) => push("ok", text),
    confirm: feedback.current.confirm
  }

  useEffect(() => {
    if (pending !== undefined && dialog.current !== null && !dialog.current.open) dialog.current.showModal()
  }, [pending])

  const close = (ok: boolean) => {
    dialog.current?.close()
    pending?.resolve(ok)
    setPending(undefined)
  }

  return (
    <FeedbackContext.Provider value={feedback.current}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {toasts.map((toast) => (
          <div key={toast.id} className={`toast toast-${toast.kind}`} role={toast.kind === "error" ? "alert" : undefined}>
            <span>{toast.text}</span>
            <button type="button" className="link" aria-label="Dismiss" onClick={() => setToasts((all) => all.filter((t) => t.id !== toast.id))}>
              ×
            </button>
          </div>
        ))}
      </div>
      <dialog ref={dialog} className="dialog" aria-labelledby="confirm-title" onCancel={() => close(false)}>
        {pending !== undefined && (
          <form
            method="dialog"
            onSubmit={(event) => {
              event.preventDefault()
              close(true)
            }}
          >
            <h2 id="confirm-title">{pending.title}</h2>
            {pending.body !== undefined && <div className="dialog-body">{pending.body}</div>}
            <div className="row end">
              <button type="button" onClick={() => close(false)} autoFocus>
                Cancel
              </button>
              <button type="submit" className={pending.danger === true ? "danger" : "primary"}>
                {pending.confirmLabel}
              </button>
            </div>
          </form>
        )}
      </dialog>
    </FeedbackContext.Provider>
  )
}

export const useFeedback = (): Feedback => {
  const feedback = useContext(FeedbackContext)
  if (feedback === undefined) throw new Error("useFeedback outside FeedbackProvider")
  return feedback
}

export const Spinner = ({ label = "Loading" }: { readonly label?: string }) => (
  <span className="spinner" role="progressbar" aria-label={label} />
)

/**
 * A button that runs async work: disabled with a spinner while it runs, the
 * API's message as a toast if it fails, an optional confirmation first.
 */
export const ActionButton = ({
  run,
  children,
  confirm,
  done,
  className,
  disabled,
  title,
  ariaLabel
}: {
  readonly run: () => Promise<unknown>
  readonly children: ReactNode
  readonly confirm?: ConfirmOptions
  /** A toast on success. */
  readonly done?: string
  readonly className?: string
  readonly disabled?: boolean
  readonly title?: string
  readonly ariaLabel?: string
}) => {
  const feedback = useFeedback()
  const [busy, setBusy] = useState(false)
  const mounted = useRef(true)
  useEffect(() => () => void (mounted.current = false), [])
  return (
    <button
      type="button"
      className={className}
      disabled={disabled === true || busy}
      aria-busy={busy}
      title={title}
      aria-label={ariaLabel}
      onClick={async () => {
        if (confirm !== undefined && !(await feedback.confirm(confirm))) return
        setBusy(true)
        try {
          await run()
          if (done !== undefined) feedback.ok(done)
        } catch (error) {
          feedback.error(error)
        } finally {
          if (mounted.current) setBusy(false)
        }
      }}
    >
      {busy && <Spinner label="Working" />}
      {children}
    </button>
  )
}

/** A form's submit button: disabled while the form's work runs (with a spinner naming it) or when `disabled`. */
export const SubmitButton = ({
  busy,
  busyLabel = "Working",
  disabled = false,
  className = "primary",
  children
}: {
  readonly busy: boolean
  readonly busyLabel?: string
  readonly disabled?: boolean
  readonly className?: string
  readonly children: ReactNode
}) => (
  <button type="submit" className={className} disabled={busy || disabled}>
    {busy && <Spinner label={busyLabel} />}
    {children}
  </button>
)

/** A form whose submit runs async work with the same progress and errors. */
export const useSubmit = (run: () => Promise<unknown>, done?: string) => {
  const feedback = useFeedback()
  const [busy, setBusy] = useState(false)
  const submit = async (event?: { preventDefault: () => void }) => {
    event?.preventDefault()
    if (busy) return
    setBusy(true)
    try {
      await run()
      if (done !== undefined) feedback.ok(done)
    } catch (error) {
      feedback.error(error)
    } finally {
      setBusy(false)
    }
  }
  return { busy, submit }
}
