// Session slice: who is logged in (SessionChanged).
import type { CoreEvent } from '../../../worker/protocol/events.ts'
import type { Snapshot } from '../../../worker/protocol/commands.ts'

export type SessionState = Snapshot['session']

export const initialSession: SessionState = { loggedIn: false, user: null, phone: null }

export const reduceSession = (state: SessionState, event: CoreEvent): SessionState =>
  event._tag === 'SessionChanged' ? { loggedIn: event.loggedIn, user: event.user, phone: event.phone } : state
