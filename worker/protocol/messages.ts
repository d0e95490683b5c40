// Messages area: pop-up ads by ad place (§7 public) and the notices of the message centre (§7 Messages).
import * as Schema from 'effect/Schema'
import { endpoint, NoPayload } from './endpoint.ts'
import { Id, IntIn, PageNum, PageSize } from './limits.ts'

/** §3 Ad: clickUrl, androidVersion, phoneType; plus what a pop-up needs to draw it. */
export const Ad = Schema.Struct({
  id: Schema.Number,
  adName: Schema.String,
  imageUrl: Schema.String,
  /** an absolute http(s) URL, "1" for the purchase page, anything else is a failed jump (§2). */
  clickUrl: Schema.String,
  phoneType: Schema.NullOr(Schema.String),
  androidVersion: Schema.NullOr(Schema.String),
})
export type Ad = typeof Ad.Type

/** noticeType 1 is a system announcement (the one systemAnnouncementMsg signals), 2 an activity or account notice. */
export const Notice = Schema.Struct({
  id: Schema.Number,
  title: Schema.String,
  /** plain text; screens render it as text, never as HTML. */
  content: Schema.String,
  noticeType: Schema.Number,
  /** 0 unread, 1 read. */
  readStatus: Schema.Number,
  /** ISO time. */
  ctime: Schema.String,
})
export type Notice = typeof Notice.Type

export const NoticePage = Schema.Struct({ list: Schema.Array(Notice), total: Schema.Number })
export type NoticePage = typeof NoticePage.Type

/** §7 names the id in the path. The worker's request builder does not fill path templates yet, so the id also
 * travels in the body and the server takes it from the path when that is a number, else from the body. */
export const NOTICE_READ_PATH = '/api/message/v1/message/notice/read/{id}'

export const messageEndpoints = {
  getAdInfoByAdPlace: endpoint({
    name: 'getAdInfoByAdPlace', method: 'POST', repeatable: true, path: '/api/public/v5/advertising/getAdInfoByAdPlace',
    request: Schema.Struct({ adPlace: IntIn(0, 999) }), response: Schema.Array(Ad),
  }),
  noticeAll: endpoint({
    name: 'noticeAll', method: 'GET', repeatable: true, path: '/api/message/v1/message/notice/all',
    request: Schema.Struct({ pageNum: Schema.optional(PageNum), pageSize: Schema.optional(PageSize) }),
    response: NoticePage,
  }),
  noticeUnreadTotal: endpoint({
    name: 'noticeUnreadTotal', method: 'GET', repeatable: true, path: '/api/message/v1/message/notice/unread/total',
    request: NoPayload, response: Schema.Number,
  }),
  /** The newest unread system announcement to show on home; empty data (false in the tab) when there is none. */
  getNoticePopUpPush: endpoint({
    name: 'getNoticePopUpPush', method: 'GET', repeatable: true, path: '/api/message/v1/message/notice/getNoticePopUpPush',
    request: NoPayload, response: Schema.NullOr(Notice),
  }),
  readNotice: endpoint({
    name: 'readNotice', method: 'PUT', repeatable: true, path: NOTICE_READ_PATH,
    request: Schema.Struct({ id: Schema.optional(Id) }), response: Schema.Unknown,
  }),
} as const
