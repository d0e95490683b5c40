// Announcement slice: the systemAnnouncementMsg flag (§4).
import type { CoreEvent } from '../../../worker/protocol/events.ts'

export type AnnouncementState = boolean

export const initialAnnouncement: AnnouncementState = false

export const reduceAnnouncement = (state: AnnouncementState, event: CoreEvent): AnnouncementState =>
  event._tag === 'AnnouncementFlagChanged' ? event.active : state
