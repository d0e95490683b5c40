// Bounds of request fields (issue 11 finding 2): every string of a request schema has a maximum length and every
// number is an integer in a range (or, for amounts and coordinates, a finite number in a range). These are caps
// against abuse, looser than the domain rules, so a near miss still gets the rule's own message from the handler.
import * as Schema from 'effect/Schema'

/** the largest id a database `integer` column holds. */
export const MAX_ID = 2_147_483_647

export const Text = (maxLength: number) => Schema.String.check(Schema.isMaxLength(maxLength))
export const IntIn = (minimum: number, maximum: number) => Schema.Int.check(Schema.isBetween({ minimum, maximum }))
export const FiniteIn = (minimum: number, maximum: number) => Schema.Finite.check(Schema.isBetween({ minimum, maximum }))
export const ListOf = <S extends Schema.Top>(item: S, maxLength: number) => Schema.Array(item).check(Schema.isMaxLength(maxLength))

/** a row id or userCardId. */
export const Id = IntIn(1, MAX_ID)
export const PageNum = IntIn(1, 100_000)
/** handlers clamp to their own page sizes; this only refuses absurd values. */
export const PageSize = IntIn(1, 1_000)
/** A page of a list (every paged endpoint): either number may be left out, the server then uses its default. */
export const PageRequest = Schema.Struct({ pageNum: Schema.optional(PageNum), pageSize: Schema.optional(PageSize) })
/** a phone number or a username typed as an account (format checked by the handler). */
export const AccountText = Text(32)
/** an SMS, activation or security code (format checked by the handler). */
export const CodeText = Text(32)
/** the tab's device uuid. */
export const UuidText = Text(128)
/** base64 RSA-2048 ciphertext (344 characters). */
export const CipherText = Text(1024)
/** short names and labels: nickname, real name, device names, phone types, models. */
export const NameText = Text(64)
/** an order number or a ticket. */
export const TokenText = Text(128)
/** free text fields: statistics point names, csv lists. */
export const LongText = Text(2_048)
