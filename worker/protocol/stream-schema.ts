// The phone stream's channel-control messages as Effect Schemas (worker/protocol/stream.ts is the rest of the contract):
// the server decodes the core's messages with them; the core decodes the server's with parseStreamServerMessage,
// which accepts exactly the same, so the core's bundle carries no Schema code for it.
import * as Schema from 'effect/Schema'
import { MIRROR_MAX_TARGETS, STREAM_CLOSE_REASONS, STREAM_PRESETS } from './stream.ts'

export const StreamPresetSchema = Schema.Literals(STREAM_PRESETS)

const CardId = Schema.Int.check(Schema.isGreaterThan(0), Schema.isLessThanOrEqualTo(0xffff_ffff))

/** Core → server. `open` subscribes this socket to a phone's channels with the card token a connect returned. */
export const StreamClientMessage = Schema.Union([
  Schema.Struct({
    op: Schema.Literal('open'),
    cardId: CardId,
    cardToken: Schema.String.check(Schema.isMaxLength(200)),
    preset: StreamPresetSchema,
    audio: Schema.Boolean,
  }),
  Schema.Struct({ op: Schema.Literal('close'), cardId: CardId }),
  /** the wall: this socket wants the card's thumbnails (THUMBNAIL), authorised as `open` is; `unthumb` stops them. */
  Schema.Struct({ op: Schema.Literal('thumb'), cardId: CardId, cardToken: Schema.String.check(Schema.isMaxLength(200)) }),
  Schema.Struct({ op: Schema.Literal('unthumb'), cardId: CardId }),
  Schema.Struct({ op: Schema.Literal('preset'), cardId: CardId, preset: StreamPresetSchema }),
  Schema.Struct({ op: Schema.Literal('audio'), cardId: CardId, on: Schema.Boolean }),
  Schema.Struct({ op: Schema.Literal('ping'), t: Schema.Number }),
  /**
   * group control (同步操作): every control message of the open card `cardId` is applied, scaled to each one's screen
   * and orientation, to these phones too (each authorised for the socket's user); an empty list stops it.
   */
  Schema.Struct({ op: Schema.Literal('mirror'), cardId: CardId, targets: Schema.Array(CardId).check(Schema.isMaxLength(MIRROR_MAX_TARGETS)) }),
])
export type StreamClientMessage = typeof StreamClientMessage.Type

/** Server → core. `opened` precedes the channel's bytes; `closed` ends a phone's channels (its viewers are told why). */
export const StreamServerMessage = Schema.Union([
  Schema.Struct({ op: Schema.Literal('opened'), cardId: CardId, preset: StreamPresetSchema }),
  Schema.Struct({ op: Schema.Literal('closed'), cardId: CardId, reason: Schema.Literals(STREAM_CLOSE_REASONS) }),
  /** the card's thumbnails ended (refused, expired, restarting...): the wall shows the state, not the last picture. */
  Schema.Struct({ op: Schema.Literal('thumbClosed'), cardId: CardId, reason: Schema.Literals(STREAM_CLOSE_REASONS) }),
  Schema.Struct({ op: Schema.Literal('pong'), t: Schema.Number }),
  /** the phones the card's input reaches now (`mirror`'s answer, and again when one drops out), and those refused why. */
  Schema.Struct({
    op: Schema.Literal('mirrored'), cardId: CardId, targets: Schema.Array(CardId),
    refused: Schema.Array(Schema.Struct({ cardId: CardId, reason: Schema.Literals(STREAM_CLOSE_REASONS) })),
  }),
])
export type StreamServerMessage = typeof StreamServerMessage.Type

