// Push slice: the shared push connection's status.
import type { CoreEvent } from '../../../worker/protocol/events.ts'
import type { Snapshot } from '../../../worker/protocol/commands.ts'

export type PushState = Snapshot['push']

export const initialPush: PushState = { status: 'closed', reconnectAttempts: 0 }

export const reducePush = (state: PushState, event: CoreEvent): PushState =>
  event._tag === 'PushStatusChanged' ? { status: event.status, reconnectAttempts: event.reconnectAttempts } : state
