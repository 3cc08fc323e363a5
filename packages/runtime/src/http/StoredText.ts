/**
 * Text a request gives to be stored. PostgreSQL text cannot hold NUL
 * (U+0000) and SQLite can, so a NUL is refused at the door on both engines,
 * as a 400 naming the field (`description must not contain a NUL character
 * (U+0000)`), never a store error. Every persisted free-text field is built
 * on these (or piped through `withoutNul`); imports that check their
 * entries by hand use `hasNul` and `NUL_RULE` to refuse the entry.
 *
 *   description: StoredText.pipe(Schema.maxLength(500))
 *   name: TrimmedStoredText.pipe(Schema.minLength(1), Schema.maxLength(100))
 */
import * as Schema from "effect/Schema"

/** The rule in words, after the field's name. */
export const NUL_RULE = "must not contain a NUL character (U+0000)"

export const hasNul = (text: string): boolean => text.includes("\u0000")

/** `self`, refusing a string with a NUL in it. */
export const withoutNul = <A extends string, I, R>(self: Schema.Schema<A, I, R>): Schema.filter<Schema.Schema<A, I, R>> =>
  self.pipe(Schema.filter((text: A) => !hasNul(text) || NUL_RULE))

/** A string to be stored as it is: no NUL. */
export const StoredText = withoutNul(Schema.String)

/** A string to be stored trimmed: no NUL. */
export const TrimmedStoredText = withoutNul(Schema.Trim)
