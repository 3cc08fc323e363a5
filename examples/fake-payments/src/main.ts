/**
 * The payment stand-in as a process:
 *
 * ```
 * node examples/fake-payments/dist/main.js [--port 8091] [--host 127.0.0.1] [--api-key sk_test_...]
 *   [--webhook-url http://127.0.0.1:8080/api/store/webhook] [--webhook-secret whsec_...]
 * ```
 *
 * prints `fake payments: http://host:port` and serves until SIGTERM/SIGINT.
 * Without `--api-key` any key starting `sk_` is taken; without a webhook URL
 * and secret, paying works but no event is sent.
 */
import { startFakePayments } from "./server.js"

const usage =
  "usage: main.js [--port <n>] [--host <address>] [--api-key <sk_...>] [--webhook-url <url>] [--webhook-secret <whsec_...>]"

const parse = (args: ReadonlyArray<string>) => {
  const options: { port?: number; host?: string; apiKey?: string; webhookUrl?: string; webhookSecret?: string } = {}
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i]!.split(/=(.*)/s, 2) as [string, string | undefined]
    const value = inline ?? args[++i]
    if (value === undefined) throw new Error(`${flag} needs a value`)
    if (flag === "--port") {
      const port = Number(value)
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error("--port must be a port number (0 for any free one)")
      options.port = port
    } else if (flag === "--host") options.host = value
    else if (flag === "--api-key") options.apiKey = value
    else if (flag === "--webhook-url") options.webhookUrl = value
    else if (flag === "--webhook-secret") options.webhookSecret = value
    else throw new Error(`unknown option ${flag}`)
  }
  return options
}

try {
  const options = parse(process.argv.slice(2))
  const payments = await startFakePayments({ ...options, port: options.port ?? 8091 })
  process.stdout.write(`fake payments: ${payments.url}\n`)
  const stop = () => void payments.close().then(() => process.exit(0))
  process.once("SIGTERM", stop)
  process.once("SIGINT", stop)
} catch (error) {
  process.stderr.write(`fake payments: ${error instanceof Error ? error.message : String(error)}\n${usage}\n`)
  process.exit(2)
}
