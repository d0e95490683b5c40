// The core's Schema-free decoder of the stream server's text messages accepts exactly what the contract's Schema does.
import fc from 'fast-check'
import * as Schema from 'effect/Schema'
import { describe, expect, it } from 'vitest'
import { parseStreamServerMessage, STREAM_CLOSE_REASONS, STREAM_PRESETS } from '../../../worker/protocol/stream.ts'
import { StreamServerMessage } from '../../../worker/protocol/stream-schema.ts'

const bySchema = Schema.decodeUnknownOption(StreamServerMessage)
const anyValue = fc.oneof(fc.integer({ min: -2, max: 2 ** 32 + 1 }), fc.double(), fc.string({ maxLength: 3 }), fc.constant(null), fc.boolean())
const message = fc.record({
  op: fc.constantFrom('opened', 'closed', 'pong', 'open', 'x'),
  cardId: fc.oneof(fc.integer({ min: -1, max: 2 ** 32 }), anyValue),
  preset: fc.oneof(fc.constantFrom(...STREAM_PRESETS), anyValue),
  reason: fc.oneof(fc.constantFrom(...STREAM_CLOSE_REASONS), anyValue),
  t: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), anyValue),
}, { requiredKeys: ['op'] })

describe('the core decodes stream server messages', () => {
  it('accepts and rejects exactly what the StreamServerMessage schema does', () => {
    fc.assert(fc.property(message, (m) => {
      // what crosses the socket is the JSON text (-0 becomes 0, NaN null)
      const text = JSON.stringify(m)
      const schema = bySchema(JSON.parse(text))
      const ours = parseStreamServerMessage(text)
      expect(ours !== null).toBe(schema._tag === 'Some')
      if (ours !== null && schema._tag === 'Some') expect(ours).toEqual(schema.value)
    }), { numRuns: 2000 })
  })

  it('rejects text that is not JSON', () => {
    expect(parseStreamServerMessage('{')).toBeNull()
    expect(parseStreamServerMessage('null')).toBeNull()
  })
})
