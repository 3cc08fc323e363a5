/**
 * What a chat-platform (Discord-style) webhook receives: the summary as the
 * message text (what a phone's notification shows) and one embed, coloured
 * by severity, titled with the summary, with the event, the server's name
 * and the event's data as fields. Every text is cut to the platform's
 * limits (content 2,000 characters; title 256; at most 25 fields, names 256
 * and values 1,024; footer 2,048; the embed's texts 6,000 together), and
 * mentions are switched off, so a player called `@everyone` pings nobody.
 */
import type { EventSeverity } from "@garrison/runtime"
import { cut } from "./text.js"

export const CHAT_LIMITS = {
  content: 2000,
  title: 256,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  embedTotal: 6000
} as const

/** Embed colours (24-bit RGB), one per severity. */
export const SEVERITY_COLOURS: Readonly<Record<EventSeverity, number>> = {
  info: 0x3498db,
  success: 0x2ecc71,
  warning: 0xf39c12,
  error: 0xe74c3c
}

export interface ChatEmbedField {
  readonly name: string
  readonly value: string
  readonly inline: boolean
}

export interface ChatMessage {
  readonly content: string
  readonly embeds: ReadonlyArray<{
    readonly title: string
    readonly color: number
    readonly fields: ReadonlyArray<ChatEmbedField>
    readonly footer: { readonly text: string }
    readonly timestamp: string
  }>
  readonly allowed_mentions: { readonly parse: ReadonlyArray<string> }
}

export interface ChatInput {
  readonly event: string
  readonly timestamp: string
  readonly data: Readonly<Record<string, unknown>>
  readonly summary: string
  readonly severity: EventSeverity
  /** The name of the server the event is about, when it is about one. */
  readonly serverName: string | null
}

/** A data value as a field's text: text as it is, anything else as JSON; never empty (the platform refuses empty fields). */
const valueText = (value: unknown): string => {
  const text = typeof value === "string" ? value : value === undefined ? "" : JSON.stringify(value) ?? ""
  return text.trim() === "" ? "—" : text
}

/** `serverId` → `Server id`: a data key as a field name. */
const keyName = (key: string): string => {
  const words = key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ").toLowerCase().trim()
  return words === "" ? "—" : words.charAt(0).toUpperCase() + words.slice(1)
}

const embedLength = (title: string, fields: ReadonlyArray<ChatEmbedField>, footer: string) =>
  title.length + footer.length + fields.reduce((sum, field) => sum + field.name.length + field.value.length, 0)

export const chatMessage = (input: ChatInput): ChatMessage => {
  const title = cut(input.summary, CHAT_LIMITS.title)
  const footer = cut(input.serverName === null ? "Garrison" : `Garrison · ${input.serverName}`, CHAT_LIMITS.footer)
  const fields: Array<ChatEmbedField> = [{ name: "Event", value: cut(input.event, CHAT_LIMITS.fieldValue), inline: true }]
  if (input.serverName !== null) fields.push({ name: "Server", value: cut(valueText(input.serverName), CHAT_LIMITS.fieldValue), inline: true })
  for (const [key, value] of Object.entries(input.data)) {
    if (fields.length >= CHAT_LIMITS.fields) break
    const text = valueText(value)
    fields.push({
      name: cut(keyName(key), CHAT_LIMITS.fieldName),
      value: cut(text, CHAT_LIMITS.fieldValue),
      inline: text.length <= 40
    })
  }
  // The embed's texts together stay within the platform's total: the last fields go first, then the rest is cut.
  while (fields.length > 1 && embedLength(title, fields, footer) > CHAT_LIMITS.embedTotal) fields.pop()
  const room = CHAT_LIMITS.embedTotal - embedLength(title, [], footer) - fields[0]!.name.length
  if (embedLength(title, fields, footer) > CHAT_LIMITS.embedTotal) fields[0] = { ...fields[0]!, value: cut(fields[0]!.value, Math.max(1, room)) }
  return {
    content: cut(input.summary, CHAT_LIMITS.content),
    embeds: [{ title, color: SEVERITY_COLOURS[input.severity], fields, footer: { text: footer }, timestamp: input.timestamp }],
    allowed_mentions: { parse: [] }
  }
}
