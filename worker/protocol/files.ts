// Files (§7 "Files", §9 kit defaults): the download and image URL shapes in one place, the upload limits both sides
// check, and the upload ticket call. The upload itself goes from the tab straight to the ticket's URL (the core's
// JSON calls carry no file bytes or progress); the ticket, asked for through the core, is what authorises it.
import * as Schema from 'effect/Schema'
import { endpoint } from './endpoint.ts'
import { Id, IntIn, Text } from './limits.ts'

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
/** §9: download timeout. */
export const DOWNLOAD_TIMEOUT_MS = 60_000
/** §9 interface defaults: files one upload control accepts, pictures one album pick returns. */
export const UPLOAD_MAX_COUNT = 52
export const ALBUM_MAX_COUNT = 9

/** Avatar limits (ours), checked by the tab before uploading and by the server on receipt. */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024
export const AVATAR_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const

/**
 * Files to and from a cloud phone (ours): one file at most PHONE_FILE_MAX_BYTES; a phone holds at most
 * PHONE_FILES_MAX_COUNT files (the few it comes with included) and PHONE_FILES_MAX_BYTES in all. The tab checks the
 * file, the ticket call checks the quota, the upload checks both again.
 */
export const PHONE_FILE_MAX_BYTES = 50 * 1024 * 1024
export const PHONE_FILES_MAX_COUNT = 200
export const PHONE_FILES_MAX_BYTES = 500 * 1024 * 1024
/** all the files on one account's phones together (whoever uploaded them): 60 phones × 500 MiB would be 30 GB. */
export const PHONE_FILES_ACCOUNT_MAX_BYTES = 2 * 1024 * 1024 * 1024
export const PHONE_FILE_NAME_MAX = 100
/** A phone file's name must read as it is stored (validators.ts readsAsStored, the device names' rule): the refusal. */
export const PHONE_FILE_NAME_RULE = '文件名不能包含控制字符或文字方向控制符'
/**
 * the `flag` of a phone file's download URL (§7 shape); its upload key is a signed key for one file and one user that
 * lasts PHONE_FILE_URL_MS (a list older than that is fetched again before a download).
 */
export const PHONE_FILE_FLAG = 'phoneFile'
export const PHONE_FILE_URL_MS = 5 * 60_000
/** files the tab sends to the phone at once. */
export const PHONE_UPLOAD_CONCURRENCY = 2
/** an uploaded file with this ending is an app: it installs on the phone. */
export const isApk = (name: string): boolean => /\.apk$/i.test(name)

export const AvatarTicketRequest = Schema.Struct({ purpose: Schema.Literal('avatar') })
export const PhoneFileTicketRequest = Schema.Struct({
  purpose: Schema.Literal('phoneFile'),
  userCardId: Id,
  /** the file's name (checked by the server against PHONE_FILE_NAME_MAX; bounded looser here). */
  name: Text(255),
  /** bytes the upload will carry, exactly. */
  size: IntIn(0, 2 * PHONE_FILE_MAX_BYTES),
})
export type PhoneFileTicketRequest = typeof PhoneFileTicketRequest.Type
export const UploadTicketRequest = Schema.Union([AvatarTicketRequest, PhoneFileTicketRequest])
export type UploadTicketRequest = typeof UploadTicketRequest.Type

export const UploadTicket = Schema.Struct({
  /** a path on the file host (the reference server: its own /api), or an absolute http(s) URL. */
  uploadUrl: Schema.String,
  maxBytes: Schema.Number,
  /** the content types the upload accepts; empty: any (a phone file). */
  types: Schema.Array(Schema.String),
})
export type UploadTicket = typeof UploadTicket.Type

/** What the upload URL answers inside the usual envelope. */
export const UploadedFile = Schema.Struct({ fileId: Schema.String, fileKey: Schema.String, url: Schema.String })
export type UploadedFile = typeof UploadedFile.Type

export const PhoneFile = Schema.Struct({
  fileId: Schema.String,
  /** the name on the phone, possibly with folders (下载/说明.txt). */
  name: Schema.String,
  size: Schema.Number,
  /** ISO time. */
  createdAt: Schema.String,
  flag: Schema.String,
  /** the caller's key to download it, for PHONE_FILE_URL_MS. */
  uploadKey: Schema.String,
})
export type PhoneFile = typeof PhoneFile.Type

export const PhoneFileList = Schema.Struct({
  /** where `fileDownloadUrl` points (the reference server: `{origin}/api`). */
  fileHost: Schema.String,
  /** newest first, at most PHONE_FILES_MAX_COUNT (all the phone holds). */
  list: Schema.Array(PhoneFile),
})
export type PhoneFileList = typeof PhoneFileList.Type

export const fileEndpoints = {
  /**
   * ours: one upload of `purpose`; the avatar upload also becomes the head portrait (getHeadPortrait), a phone file
   * lands on the cloud phone `userCardId` (an .apk installs there).
   */
  getUploadTicket: endpoint({
    name: 'getUploadTicket', method: 'POST', repeatable: true, path: '/api/document/newFile/uploadTicket',
    request: UploadTicketRequest, response: UploadTicket,
  }),
  /**
   * ours: the files on a cloud phone, each downloadable by the caller through `fileDownloadUrl(fileHost, flag, uploadKey,
   * fileId)` for PHONE_FILE_URL_MS.
   */
  getPhoneFiles: endpoint({
    name: 'getPhoneFiles', method: 'GET', repeatable: true, path: '/api/document/newFile/phoneFiles',
    request: Schema.Struct({ userCardId: Id }), response: PhoneFileList,
  }),
} as const
