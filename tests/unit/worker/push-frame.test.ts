// The worker's hand-written push-frame decoder (worker/push/push-frame.ts) against the frame's schema
// (worker/protocol/push.ts) on generated frames: the schema is the declaration, the hand decoder its fast copy.
import fc from 'fast-check'
import * as Option from 'effect/Option'
import * as Schema from 'effect/Schema'
import { describe, expect, it } from 'vitest'
import { KeepAlive, PushMessage } from '../../../worker/protocol/push.ts'
import { PUSH_TYPES } from '../../../worker/protocol/push-wire.ts'
import { decodePushFrame, type DecodedFrame } from '../../../worker/push/push-frame.ts'

const decodeMessage = Schema.decodeUnknownOption(PushMessage)
const isKeepAlive = Schema.is(KeepAlive)

/** What the schemas make of a frame's text, in the decoder's terms (absent data is null to the push rules). */
const bySchema = (raw: unknown): DecodedFrame => {
  if (typeof raw !== 'string') return { kind: 'malformed' }
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    return { kind: 'malformed' }
  }
  if (isKeepAlive(parsed)) return { kind: 'keepAlive' }
  const message = decodeMessage(parsed)
  if (Option.isNone(message)) return { kind: 'malformed' }
  return { kind: 'message', message: { type: message.value.type, data: message.value.data ?? null } }
}

/** Any JSON value a broken or hostile server might put in a field. */
const anyJson = fc.oneof(
  fc.string(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
)
/** A field that is mostly of its right type, sometimes absent, sometimes anything. */
const field = (right: fc.Arbitrary<unknown>) => fc.option(fc.oneof({ arbitrary: right, weight: 4 }, { arbitrary: anyJson, weight: 1 }), { nil: undefined })

const data = fc.oneof(
  { weight: 6, arbitrary: fc.record(
    {
      content: field(fc.string()),
      userCardId: field(fc.oneof(fc.integer(), fc.string())),
      diskName: field(fc.string()),
      extra: field(anyJson),
    },
    { requiredKeys: [] },
  ) },
  { weight: 2, arbitrary: anyJson },
  { weight: 1, arbitrary: fc.constant(undefined) },
)

const type = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...PUSH_TYPES) },
  { weight: 1, arbitrary: fc.constant('keepAlive') },
  { weight: 1, arbitrary: anyJson },
)

/** A frame's text: mostly {type, data} objects, some other JSON, some not JSON at all. */
const frame = fc.oneof(
  { weight: 8, arbitrary: fc.record({ type: field(type), data }, { requiredKeys: [] }).map((o) => JSON.stringify(o)) },
  { weight: 1, arbitrary: anyJson.map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.string() },
)

describe('push frame decoder', () => {
  it('accepts and rejects exactly the frames the PushMessage schema does, with the same message', () => {
    fc.assert(fc.property(frame, (raw) => {
      expect(decodePushFrame(raw)).toEqual(bySchema(raw))
    }), { numRuns: 3000 })
  })

  it('decodes every push type of the contract', () => {
    for (const t of PUSH_TYPES) {
      expect(decodePushFrame(JSON.stringify({ type: t, data: { userCardId: 7 } }))).toEqual({ kind: 'message', message: { type: t, data: { userCardId: 7 } } })
    }
  })

  it('drops a frame that is not text', () => {
    expect(decodePushFrame(new ArrayBuffer(4))).toEqual({ kind: 'malformed' })
  })
})
