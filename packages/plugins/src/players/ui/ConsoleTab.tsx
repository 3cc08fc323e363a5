/** The server's console: new lines as they arrive (polled), and an RCON command line with its answers. */
import { useEffect, useRef, useState } from "react"
import { api } from "@dashboard/api/client.js"
import { allowed, useSession } from "@dashboard/app/session.js"
import { useResource } from "@dashboard/ui/data.js"
import { messageOf, SubmitButton } from "@dashboard/ui/feedback.js"

interface Line {
  readonly key: string
  readonly at: string
  readonly text: string
  readonly kind: "console" | "command" | "answer" | "error"
}

const ConsoleTab = ({ serverId }: { readonly serverId: string }) => {
  const { me } = useSession()
  const canView = allowed(me, "server.view", serverId)
  const canRcon = allowed(me, "server.rcon", serverId)
  const console = useResource(
    () => (canView ? api((c) => c.logs.console({ path: { id: serverId }, urlParams: { limit: 500 } })) : Promise.resolve(undefined)),
    [serverId],
    { pollMs: 2000 }
  )
  const [own, setOwn] = useState<ReadonlyArray<Line>>([])
  const [command, setCommand] = useState("")
  const [busy, setBusy] = useState(false)
  const [history, setHistory] = useState<ReadonlyArray<string>>([])
  const [historyAt, setHistoryAt] = useState(-1)
  const box = useRef<HTMLDivElement>(null)
  const stick = useRef(true)

  const lines: ReadonlyArray<Line> = [
    ...(console.data?.items ?? []).map((entry, i) => ({ key: `c${i}-${entry.at}`, at: entry.at, text: entry.text, kind: "console" as const })),
    ...own
  ].sort((a, b) => a.at.localeCompare(b.at))

  useEffect(() => {
    const element = box.current
    if (element !== null && stick.current) element.scrollTop = element.scrollHeight
  }, [lines.length])

  const run = async () => {
    const text = command.trim()
    if (text === "" || busy) return
    const at = new Date().toISOString()
    setOwn((all) => [...all, { key: `q${at}`, at, text: `> ${text}`, kind: "command" }])
    setHistory((h) => [text, ...h.filter((x) => x !== text)].slice(0, 50))
    setHistoryAt(-1)
    setCommand("")
    setBusy(true)
    try {
      const reply = await api((c) => c.players.rcon({ path: { id: serverId }, payload: { command: text } }))
      const answeredAt = new Date().toISOString()
      setOwn((all) => [...all, { key: `a${answeredAt}`, at: answeredAt, text: reply.response === "" ? "(no answer)" : reply.response, kind: "answer" }])
    } catch (error) {
      const failedAt = new Date().toISOString()
      setOwn((all) => [...all, { key: `e${failedAt}`, at: failedAt, text: messageOf(error), kind: "error" }])
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="stack">
      {canView && (
        <div
          ref={box}
          className="console"
          role="log"
          aria-label="Server console"
          aria-live="polite"
          tabIndex={0}
          onScroll={(e) => {
            const el = e.currentTarget
            stick.current = el.scrollTop + el.clientHeight >= el.scrollHeight - 20
          }}
        >
          {lines.length === 0 ? (
            <span className="muted">{console.loading ? "Loading…" : "No console lines yet."}</span>
          ) : (
            lines.map((line) => (
              <div key={line.key} className={line.kind === "command" || line.kind === "answer" ? "out" : line.kind === "error" ? "err" : undefined}>
                <span className="muted">{new Date(line.at).toLocaleTimeString()} </span>
                {line.text}
              </div>
            ))
          )}
        </div>
      )}
      {console.error !== undefined && <p className="notice warn">{messageOf(console.error)}</p>}
      {canRcon && (
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault()
            void run()
          }}
        >
          <label className="grow">
            <span className="sr-only">RCON command</span>
            <input
              className="mono"
              value={command}
              onChange={(e) => setCommand(e.target.value)}
              placeholder="RCON command, e.g. players (↑ for history)"
              maxLength={1000}
              autoComplete="off"
              onKeyDown={(e) => {
                if (e.key === "ArrowUp" && history.length > 0) {
                  e.preventDefault()
                  const next = Math.min(historyAt + 1, history.length - 1)
                  setHistoryAt(next)
                  setCommand(history[next]!)
                } else if (e.key === "ArrowDown" && historyAt >= 0) {
                  e.preventDefault()
                  const next = historyAt - 1
                  setHistoryAt(next)
                  setCommand(next < 0 ? "" : history[next]!)
                }
              }}
            />
          </label>
          <SubmitButton busy={busy} busyLabel="Sending" disabled={command.trim() === ""}>Send</SubmitButton>
        </form>
      )}
    </div>
  )
}

export default ConsoleTab
