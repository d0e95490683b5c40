// Announcement slice: the systemAnnouncementMsg flag (§4).
import type { CoreEvent } from '../events.ts'

export type AnnouncementSlice = boolean

export const initialAnnouncement: AnnouncementSlice = false

export const reduceAnnouncement = (state: AnnouncementSlice, event: CoreEvent): AnnouncementSlice =>
  event._tag === 'AnnouncementFlagChanged' ? event.active : state
