// Files (§7 "Files", §9 kit defaults): the download and image URL shapes in one place, the upload limits both sides
// check, and the upload ticket call. The upload itself goes from the tab straight to the ticket's URL (the core's
// JSON calls carry no file bytes or progress); the ticket, asked for through the core, is what authorises it.
import * as Schema from 'effect/Schema'
import { endpoint } from './endpoint.ts'

/** §8: an empty file id is an error with this text. */
export const FILE_ID_EMPTY = '文件ID为空'

/** `{file host}/document/newFile/download/{flag}/{upload key}/{fileId}` (§7). */
export const fileDownloadUrl = (fileHost: string, flag: string, uploadKey: string, fileId: string): string => {
  if (fileId.trim() === '') throw new Error(FILE_ID_EMPTY)
  return `${fileHost}/document/newFile/download/${encodeURIComponent(flag)}/${encodeURIComponent(uploadKey)}/${encodeURIComponent(fileId)}`
}

/** An image by its fileKey (§7: "image URL uses a fileKey query"). */
export const fileImageUrl = (fileHost: string, fileKey: string): string => {
  if (fileKey.trim() === '') throw new Error(FILE_ID_EMPTY)
  return `${fileHost}/document/newFile/image?fileKey=${encodeURIComponent(fileKey)}`
}

/** §9: upload timeout. */
export const UPLOAD_TIMEOUT_MS = 60_000
/** §9 interface defaults: files one upload control accepts, pictures one album pick returns. */
export const UPLOAD_MAX_COUNT = 52
export const ALBUM_MAX_COUNT = 9

/** Avatar limits (ours), checked by the tab before uploading and by the server on receipt. */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024
export const AVATAR_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const

export const UploadTicket = Schema.Struct({
  /** a path on the file host (the reference server: its own /api), or an absolute http(s) URL. */
  uploadUrl: Schema.String,
  maxBytes: Schema.Number,
  types: Schema.Array(Schema.String),
})
export type UploadTicket = typeof UploadTicket.Type

/** What the upload URL answers inside the usual envelope. */
export const UploadedFile = Schema.Struct({ fileId: Schema.String, fileKey: Schema.String, url: Schema.String })
export type UploadedFile = typeof UploadedFile.Type

export const fileEndpoints = {
  /** ours: one upload of `purpose`; the avatar upload also becomes the head portrait (getHeadPortrait). */
  getUploadTicket: endpoint({
    name: 'getUploadTicket', method: 'POST', path: '/api/document/newFile/uploadTicket',
    request: Schema.Struct({ purpose: Schema.Literal('avatar') }), response: UploadTicket,
  }),
} as const
